"""Regulars through the test client: added, matched forgivingly on a new night, renamed
without touching what was recorded, merged (refused when both played one night), ways to
pay checked with a sentence that names the bad one, another keeper's regulars not found."""

from __future__ import annotations

import re
from html import unescape
from itertools import pairwise

import pytest

from tests.web.checks import snapshot
from tests.web.keeper import Keeper, handle_rows, inputs, text_of
from tests.web.test_settle_up import carry, mark, new_night, regular_ids


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def post(keeper: Keeper, url: str, data: dict) -> str:
    token = inputs(keeper.client.get("/regulars").get_data(as_text=True))["csrf_token"]
    r = keeper.client.post(url, data={"csrf_token": token, **data}, follow_redirects=True)
    assert r.status_code == 200, r.status_code
    return text_of(r)


def test_add_match_forgivingly_and_refuse_a_second_entry(keeper, client):
    page = post(keeper, "/regulars", {"name": "Zoë"})
    assert "Zoë added to your regulars" in page
    assert "Zoë is already one of your regulars" in post(keeper, "/regulars", {"name": " zoë "})
    night = keeper.night(["ZOE", "Ann"])
    people = keeper.person_ids(night)
    assert set(people) == {"Zoë", "Ann"}  # the regular's spelling
    assert set(regular_ids(client)) == {"Zoë", "Ann"}
    assert "name is blank: give a name" in post(keeper, "/regulars", {"name": "   "})
    assert set(regular_ids(client)) == {"Zoë", "Ann"}


def test_rename_keeps_what_was_recorded(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    ids = regular_ids(client)
    page = post(keeper, f"/regulars/{ids['Bob']}/rename", {"name": "Robert"})
    assert "Renamed" in page and "Robert" in page
    record = client.get(f"/games/{game}/export.json").get_json()
    assert record["players"] == ["Ann", "Bob"]
    assert "Ann is already one of your regulars: merge them instead" in post(
        keeper, f"/regulars/{ids['Bob']}/rename", {"name": "ann"}
    )


def test_merge_two_entries_and_refuse_two_people_of_one_night(keeper, client):
    first = keeper.night(["Ann", "Bob"], name="First")
    keeper.game(first, "rummy", ["Ann", "Bob"])
    second = keeper.night(["Annie", "Bob"], name="Second")
    keeper.game(second, "rummy", ["Annie", "Bob"])
    ids = regular_ids(client)
    refused = post(keeper, "/regulars/merge", {"keep": ids["Ann"], "gone": ids["Bob"]})
    assert "Ann and Bob both played on First: they are two people" in refused
    page = post(keeper, "/regulars/merge", {"keep": ids["Ann"], "gone": ids["Annie"]})
    assert "Annie merged into Ann" in page
    assert set(regular_ids(client)) == {"Ann", "Bob"}
    ann = text_of(client.get(f"/regulars/{ids['Ann']}"))
    assert "2 nights" in ann and "as Annie" in ann
    assert client.get(f"/regulars/{ids['Annie']}").status_code == 404


def test_ways_to_pay_are_checked_and_named(keeper, client):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    url = f"/regulars/{ids['Ann']}/handles"
    page = post(keeper, url, handle_rows([("paypal", "ann.pays!"), ("venmo", "")]))
    assert "payment handle 1: a PayPal.me name is letters and digits" in page
    iban = "DE89 3704 0044 0532 0130 00"
    page = post(keeper, url, handle_rows([("paypal", "annpays"), ("iban", iban)]))
    assert "Ways to pay saved" in page
    html = client.get(f"/regulars/{ids['Ann']}").get_data(as_text=True)
    assert re.search(r'value="annpays"', html)


def test_another_keepers_regulars_are_not_found(app, keeper, client):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    assert other.client.get(f"/regulars/{ids['Ann']}").status_code == 404
    assert other.client.get(f"/regulars/{ids['Ann']}/history.csv").status_code == 404
    assert regular_ids(other.client) == {}


@pytest.mark.parametrize("look_alike", ["Ánn", "ANN.", "ánn", "Ann!"])
def test_a_rename_to_a_look_alike_of_another_regular_is_refused(app, keeper, client, look_alike):
    """Renaming Bob to "Ánn" beside Ann would leave two regulars that a name typed later
    matches both, so it would make a third: the rename is refused and changes nothing,
    and a name typed later is still Ann."""
    keeper.night(["Ann", "Bob"], name="First")
    ids = regular_ids(client)
    before = snapshot(app)
    page = post(keeper, f"/regulars/{ids['Bob']}/rename", {"name": look_alike})
    assert f"{look_alike} looks like Ann, one of your regulars" in page, page
    assert snapshot(app) == before
    second = keeper.night(["ann.", "Bob"], name="Second")
    assert set(keeper.person_ids(second)) == {"Ann", "Bob"}
    assert set(regular_ids(client)) == {"Ann", "Bob"}
    # A rename of a regular to a spelling of their own name is no look-alike of another.
    assert "Renamed" in post(keeper, f"/regulars/{ids['Ann']}/rename", {"name": "Ánn"})
    assert "Ánn is already one of your regulars" in post(keeper, "/regulars", {"name": "ann"})


def test_adding_a_look_alike_of_a_regular_is_refused(keeper, client):
    keeper.night(["Ann", "Bob"])
    assert "Ann is already one of your regulars" in post(keeper, "/regulars", {"name": "ÁNN!"})
    assert set(regular_ids(client)) == {"Ann", "Bob"}


@pytest.mark.parametrize(
    ("kind", "handle", "message"),
    [
        ("text", "pay \u202eem", "text-direction control characters"),
        ("text", "cash\u200b", "invisible characters"),
        ("revolut", "...", "a Revolut username is 3 to 30 letters and digits"),
        ("iban", "DE51 3704 0044 0532 0130 0", "an IBAN of DE has 22 characters, this one has 21"),
    ],
)
def test_a_hostile_or_malformed_handle_is_refused_and_nothing_saved(
    app, keeper, client, kind, handle, message
):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    before = snapshot(app)
    page = post(keeper, f"/regulars/{ids['Ann']}/handles", handle_rows([(kind, handle)]))
    assert "payment handle 1: " in page and message in page, page
    assert snapshot(app) == before


# ------------------------------------------------------------- the money chart ---
def three_nights_of_ann(keeper: Keeper) -> None:
    """Ann loses $3.10, wins $15.50, loses $2.00 (two-player Rummy of one deal, the buy-in
    the stake): after each night her net is -$3.10, $12.40, $10.40."""
    for day, stake, out in [("2026-09-04", "3.10", "Bob"), ("2026-10-02", "15.50", "Ann"),
                            ("2026-11-06", "2.00", "Bob")]:  # fmt: skip
        night = new_night(keeper, f"Night of {day}", day, [], ["Ann", "Bob"])
        game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in=stake, deals="1")
        loser = "Ann" if out == "Bob" else "Bob"
        assert keeper.enter(game, out, {loser: 5}).status_code == 302


def svg_texts(svg: str, css_class: str) -> list[str]:
    return [unescape(t) for t in re.findall(rf'<text class="{css_class}"[^>]*>([^<]*)</text>', svg)]


def test_the_money_chart_has_values_marks_and_dates(keeper, client):
    """Issue 22: the chart had no axis values and no marks. Three nights of Ann's, the
    numbers hand-checked: the y axis says the highest ($12.40), 0 and the lowest (-$3.10)
    from the top down; a dot a night, each with its date and her net then in its title;
    the first and last dates under the x axis."""
    three_nights_of_ann(keeper)
    ids = regular_ids(client)
    html = client.get(f"/regulars/{ids['Ann']}").get_data(as_text=True)
    svg = re.search(r'<figure class="money-chart">.*?</svg>', html, re.S)
    assert svg, "the chart is drawn"
    chart = svg.group(0)
    assert svg_texts(chart, "y-label") == ["$12.40", "$0.00", "-$3.10"]
    ys = [float(y) for y in re.findall(r'<text class="y-label"[^>]*\by="([\d.]+)"', chart)]
    assert ys == sorted(ys) and min(b - a for a, b in pairwise(ys)) >= 11, ys
    titles = re.findall(r'<circle class="night"[^>]*><title>([^<]*)</title></circle>', chart)
    assert [unescape(t) for t in titles] == [
        "2026-09-04: -$3.10",
        "2026-10-02: $12.40",
        "2026-11-06: $10.40",
    ]
    assert svg_texts(chart, "x-label") == ["2026-09-04", "2026-11-06"]
    # The dots sit on the line: the second (the highest) above the others, the first lowest.
    cy = [float(v) for v in re.findall(r'<circle class="night"[^>]*\bcy="([\d.]+)"', chart)]
    assert cy[1] < cy[2] < cy[0], cy
    assert "Money: $10.40" in text_of(client.get(f"/regulars/{ids['Ann']}"))


def test_one_night_on_the_chart_has_one_date_and_no_label_twice(keeper, client):
    """One night won: the highest is the net, the lowest is 0 (said once), one date."""
    night = new_night(keeper, "Only night", "2026-11-20", [], ["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="4", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    html = client.get(f"/regulars/{regular_ids(client)['Ann']}").get_data(as_text=True)
    assert svg_texts(html, "y-label") == ["$4.00", "$0.00"]
    assert svg_texts(html, "x-label") == ["2026-11-20"]
    assert len(re.findall(r'<circle class="night"', html)) == 1


def test_a_night_with_only_a_running_game_is_no_worst_night(keeper, client):
    """Issue 34: Ann won on both nights she finished a game ($3.10, then $15.50); a third
    night with only a game still running showed as her worst night, at $0.00. A night
    decides nothing until a game of it is finished."""
    for day, stake in [("2026-09-04", "3.10"), ("2026-10-02", "15.50")]:
        night = new_night(keeper, f"Night of {day}", day, [], ["Ann", "Bob"])
        game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in=stake, deals="1")
        assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    running = new_night(keeper, "Still playing", "2026-11-06", [], ["Ann", "Bob"])
    game = keeper.game(running, "rummy", ["Ann", "Bob"], buy_in="2.00", deals="3")
    assert keeper.enter(game, "Bob", {"Ann": 5}).status_code == 302
    page = text_of(client.get(f"/regulars/{regular_ids(client)['Ann']}"))
    assert "Best night: Night of 2026-10-02 (2026-10-02), $15.50." in page
    assert "Worst night: Night of 2026-09-04 (2026-09-04), $3.10." in page
    assert "Still playing (2026-11-06)" not in page.split("Best night", 1)[1][:200]


def club_lines(client) -> tuple[list[str], list[str]]:
    page = client.get("/regulars/balance")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    transfers = re.findall(r"<li>([^<]+ pays [^<]+) <strong>([^<]+)</strong></li>", html)
    people = re.findall(r'<ul class="ledger club-people">(.*?)</ul>', html, re.S)
    lines = re.findall(r"<li>(.*?)</li>", people[0], re.S) if people else []
    clean = [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", li))).strip() for li in lines]
    return [f"{who} {amount}" for who, amount in transfers], clean


def test_the_club_balance_adds_up_every_open_night_and_settles_it_once(keeper, client):
    """Issue 34 point 5, hand-checked. Friday: Ann wins $3.10 of Bob (Rummy of two, the
    buy-in the stake). Saturday: Bob wins $2.00 of Cy. Sunday: Cy wins $1.00 of Ann.
    Across the nights Ann is owed $2.10, Bob owes $1.10, Cy owes $1.00: Bob pays Ann
    $1.10 and Cy pays Ann $1.00. Bob then pays Friday's $3.10, and Saturday's debt is
    carried to Sunday: the carried debt counts once, on Sunday."""
    nights = {}
    for name, day, winner, loser, stake in [
        ("Friday", "2026-11-20", "Ann", "Bob", "3.10"),
        ("Saturday", "2026-11-21", "Bob", "Cy", "2.00"),
        ("Sunday", "2026-11-22", "Cy", "Ann", "1.00"),
    ]:
        night = new_night(keeper, name, day, [], [winner, loser])
        game = keeper.game(night, "rummy", [winner, loser], buy_in=stake, deals="1")
        assert keeper.enter(game, winner, {loser: 5}).status_code == 302
        nights[name] = night
    transfers, people = club_lines(client)
    assert transfers == ["Bob pays Ann $1.10", "Cy pays Ann $1.00"]
    assert people == [
        "Ann is owed $2.10: +$3.10 from Friday (2026-11-20); -$1.00 from Sunday (2026-11-22)",
        "Cy owes $1.00: -$2.00 from Saturday (2026-11-21); +$1.00 from Sunday (2026-11-22)",
        "Bob owes $1.10: -$3.10 from Friday (2026-11-20); +$2.00 from Saturday (2026-11-21)",
    ]
    ids = regular_ids(client)
    mark(keeper, nights["Friday"], ids["Bob"], ids["Ann"])
    carry(keeper, nights["Saturday"], nights["Sunday"])
    transfers, people = club_lines(client)
    assert transfers == ["Ann pays Bob $1.00", "Cy pays Bob $1.00"]
    assert people[0] == "Bob is owed $2.00: +$2.00 from Sunday (2026-11-22)"
    assert "Friday" not in " ".join(people) and "Saturday" not in " ".join(people)
    assert "Who owes whom across nights" in text_of(client.get("/regulars"))


def test_the_club_balance_says_when_everyone_is_settled(keeper, client):
    night = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob"])
    keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1.00", deals="2")  # still running
    page = text_of(client.get("/regulars/balance"))
    assert "Nothing is still to pay on your nights: everyone is settled." in page
