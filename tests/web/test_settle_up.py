"""Settling up across nights, as a keeper does it: payments and carries are entries in a
ledger, and what is still to pay is worked out from them and the games every time.

Hand-checked scenarios: transfers marked paid and the rest carried, then the night's last
game finishes (issue 19); payments that survive a rounding change; partial and over
payments; write-offs; backward carries refused; double taps that record once; deletes of
either night of a carry; the regulars' stats against the engine's own settlements.

The same Texas game is played on several nights with the seats shuffled; on its own it
pays the first seat +30c and costs the second -10c and the third -20c (``play_texas``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest

from scorekeeper.rules import load_game, settle
from scorekeeper.rules.record import GameRecord
from tests.web.checks import snapshot
from tests.web.keeper import Form, Keeper, forms_of, handle_rows, inputs, text_of
from tests.web.test_games import play_texas


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def regular_ids(client) -> dict[str, int]:
    html = client.get("/regulars").get_data(as_text=True)
    return {
        unescape(name): int(rid)
        for rid, name in re.findall(r'<a href="/regulars/(\d+)">([^<]+)</a>', html)
    }


def new_night(
    keeper: Keeper,
    name: str,
    day: str,
    picked: list[int],
    typed: list[str],
    currency: str = "USD",
    locale: str = "en",
) -> int:
    """A night whose people are picked from the regulars (checkboxes) and typed."""
    r = keeper.post_form(
        "/nights/new",
        {
            "name": name,
            "played_on": day,
            "currency": currency,
            "locale": locale,
            "paper": "Letter",
            "regulars": [str(i) for i in picked],
            "people": "\n".join(typed),
        },
    )
    assert r.status_code == 302, text_of(r)
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def import_texas(keeper: Keeper, night: int, seats: dict[str, str], record: dict) -> None:
    """The Texas game again, its players renamed (first seat, second, third)."""
    game = GameRecord.from_json(record)
    temp = {old: f"tmp{i}" for i, old in enumerate(seats)}
    for old, tmp in temp.items():
        game = game.renamed(old, tmp)
    for old, new in seats.items():
        game = game.renamed(temp[old], new)
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(game.to_json())})
    assert r.status_code == 302, text_of(r)


def payout(client, night: int) -> str:
    response = client.get(f"/nights/{night}/payout")
    assert response.status_code == 200
    return text_of(response)


def recorded(page: str) -> str:
    """The keeper's list of what was paid, carried and written off (the text between its
    heading and the payment form)."""
    if "Paid and carried" not in page:
        return ""
    return page.split("Paid and carried", 1)[1].split("Record a payment", 1)[0]


def payout_form(keeper: Keeper, night: int, path: str, **match: str) -> Form:
    """The form of the payout page that posts to ``path`` (and whose hidden values match)."""
    html = keeper.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    for form in forms_of(html):
        values = form.values()
        if form.action == f"/nights/{night}/{path}" and all(
            str(values.get(k)) == str(v) for k, v in match.items()
        ):
            return form
    raise AssertionError(f"no form for {path} {match} on the payout page")


def send(keeper: Keeper, night: int, form: Form, changes: dict | None = None, **kw) -> str:
    r = keeper.client.post(form.action, data={**form.values(), **(changes or {})}, **kw)
    assert r.status_code in (302, 422), text_of(r)
    return payout(keeper.client, night)


def mark(keeper: Keeper, night: int, payer: int, payee: int, action: str = "payment") -> str:
    """Tap Mark paid (or Write off) on the transfer from ``payer`` to ``payee``."""
    form = payout_form(keeper, night, "transfers/mark", payer=payer, payee=payee, action=action)
    return send(keeper, night, form)


def carry(keeper: Keeper, night: int, target: int) -> str:
    form = payout_form(keeper, night, "carry")
    return send(keeper, night, form, {"carry-target": str(target)})


def pay(keeper: Keeper, night: int, payer: int, payee: int, amount: str) -> str:
    form = payout_form(keeper, night, "payments")
    changes = {"pay-payer": str(payer), "pay-payee": str(payee), "pay-amount": amount}
    return send(keeper, night, form, changes)


def rummy(keeper: Keeper, night: int, players: list[str], buy_in: str, deals: int) -> int:
    return keeper.game(night, "rummy", players, buy_in=buy_in, deals=str(deals))


def engine_nets(client, night: int, unit: int = 1) -> dict[str, int]:
    """The games part of the night's settlement, computed here from the exported records."""
    html = client.get(f"/nights/{night}").get_data(as_text=True)
    finished = []
    for game in sorted(set(re.findall(r'href="/games/(\d+)"', html))):
        record = client.get(f"/games/{game}/export.json").get_json()
        standings = load_game(record)
        if standings.finished:
            finished.append(standings)
    s = settle(finished, "USD", unit=unit)
    return {n: v + s.rounding.get(n, 0) for n, v in s.games.items()}


# ------------------------------------------------------------ the scenario ---
def test_paid_and_carried_stay_when_the_last_game_finishes(keeper, client, app):
    """Two transfers marked paid, the rest carried into the next night, then the night's
    last game finishes: what is still to pay is what a careful person works out by hand,
    on the payout page, the players' page, the text, the PDF and the CSV."""
    friday = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy", "Dee"])
    first = rummy(keeper, friday, ["Ann", "Bob", "Cy", "Dee"], "2.00", 1)
    second = rummy(keeper, friday, ["Bob", "Cy", "Dee"], "1.50", 2)
    assert keeper.enter(first, "Ann", {"Bob": 5, "Cy": 5, "Dee": 5}).status_code == 302
    assert keeper.enter(second, "Bob", {"Cy": 5, "Dee": 5}).status_code == 302  # running
    ids = regular_ids(client)
    saturday = new_night(keeper, "Saturday", "2026-11-21", [ids["Ann"], ids["Dee"]], [])
    # Game 1 (Ann wins $8.00 of four $2.00 buy-ins): Ann +6.00, the others -2.00 each.
    page = payout(client, friday)
    for who in ("Bob", "Cy", "Dee"):
        assert f"{who} pays Ann $2.00" in page
    mark(keeper, friday, ids["Bob"], ids["Ann"])
    page = mark(keeper, friday, ids["Cy"], ids["Ann"])
    assert "Bob paid Ann $2.00" in page and "Cy paid Ann $2.00" in page
    page = carry(keeper, friday, saturday)
    assert "Dee owed Ann $2.00: carried to Saturday (2026-11-21)" in page
    assert "Everyone is even" in page

    # The running game finishes: Bob wins $4.50 of three $1.50 buy-ins: Bob +3.00, Cy
    # -1.50, Dee -1.50. By hand: Ann +6.00 - 2.00 - 2.00 - 2.00 (paid, paid, carried) = 0;
    # Bob -2.00 + 3.00 + 2.00 (paid) = +3.00; Cy -2.00 - 1.50 + 2.00 = -1.50; Dee -2.00
    # - 1.50 + 2.00 (carried away) = -1.50. So Cy and Dee each pay Bob $1.50, nothing more.
    assert keeper.enter(second, "Bob", {"Cy": 5, "Dee": 5}).status_code == 302
    page = payout(client, friday)
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert sorted(re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", still)) == [
        ("Cy", "Bob", "$1.50"),
        ("Dee", "Bob", "$1.50"),
    ]
    assert "Bob paid Ann $2.00" in page and "Cy paid Ann $2.00" in page
    assert "Dee owed Ann $2.00: carried to Saturday (2026-11-21)" in page
    assert "The plan changed because deal 2 of Rummy 2 was entered by" in page
    assert ": Bob +$3.00, Cy -$1.50, Dee -$1.50." in page
    # The carried part is where it went, once.
    assert "Dee pays Ann $2.00" in payout(client, saturday)
    assert "Dee owed Ann $2.00 from Friday (2026-11-20)" in payout(client, saturday)

    # The players' page, the text, the PDF and the CSV say the same.
    link = _live_link(keeper, friday)
    players = text_of(app.test_client().get(link))
    assert sorted(
        re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", players.split("Who pays whom")[1])[:2]
    ) == [
        ("Cy", "Bob", "$1.50"),
        ("Dee", "Bob", "$1.50"),
    ]
    assert "Dee owed Ann $2.00: carried to the night of 2026-11-21" in players
    assert "Saturday" not in players  # the players' page names no other night of the keeper
    text = client.get(f"/nights/{friday}/payout.txt").get_data(as_text=True)
    assert "- Dee pays Bob $1.50\n- Cy pays Bob $1.50\n" in text
    assert "Bob paid Ann $2.00" in text and "carried to Saturday" in text
    from tests.web.stateful_model import pdf_text

    pdf = " ".join(pdf_text(client.get(f"/nights/{friday}/payout.pdf").data).split())
    assert "Cy pays Bob $1.50" in pdf and "Dee pays Bob $1.50" in pdf
    assert "Bob paid Ann $2.00" in pdf
    rows = list(csv.reader(io.StringIO(client.get(f"/nights/{friday}/export.csv").text)))
    assert ["Cy", "Bob", "1.50"] in rows and ["Dee", "Bob", "1.50"] in rows
    assert any(r[:1] == ["payment"] and r[2:5] == ["Bob", "Ann", "2.00"] for r in rows)
    assert any(r[:1] == ["carry out"] and r[2:6] == ["Dee", "Ann", "2.00", "Saturday 2026-11-21"]
               for r in rows)  # fmt: skip
    balances = {r[0]: r[4] for r in rows if len(r) == 5 and r[0] in {"Ann", "Bob", "Cy", "Dee"}}
    assert balances == {"Ann": "0.00", "Bob": "3.00", "Cy": "-1.50", "Dee": "-1.50"}


def _live_link(keeper: Keeper, night: int) -> str:
    keeper.post_form(f"/nights/{night}/live", {})
    html = keeper.client.get(f"/nights/{night}/live").get_data(as_text=True)
    found = re.search(r'id="live-url" type="text" readonly value="[^"]*(/live/night/[^"/]+)"', html)
    assert found, html
    return found.group(1)


# ------------------------------------------------------------------ payments ---
def test_a_payment_stays_paid_when_the_rounding_changes(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(night, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    page = mark(keeper, night, ids["Cy"], ids["Ann"])  # Cy pays Ann $0.20
    assert "Cy paid Ann $0.20" in page and "Bob pays Ann $0.10" in page
    # In 25c steps the games give Ann +25, Bob 0, Cy -25 (largest remainder): Cy paid
    # 20 of 25, so Cy still owes Ann $0.05; the payment is not hidden, and Bob owes nothing.
    form = payout_form(keeper, night, "unit")
    page = send(keeper, night, form, {"step-unit": "25"})
    assert "Cy paid Ann $0.20" in page
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", still) == [("Cy", "Ann", "$0.05")]
    assert "Payments and carried debts are never rounded" in page
    # Back to exact: Bob owes his 10c again, Cy's payment still counts.
    page = send(keeper, night, payout_form(keeper, night, "unit"), {"step-unit": "1"})
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", still) == [("Bob", "Ann", "$0.10")]


def test_partial_and_over_payments_and_undo(keeper, client):
    night = keeper.night(["Ann", "Bob"], name="First")
    game = rummy(keeper, night, ["Ann", "Bob"], "5.00", 1)
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    ids = regular_ids(client)
    page = pay(keeper, night, ids["Bob"], ids["Ann"], "3.50")  # partial, in cash
    assert "Bob paid Ann $3.50" in page and "Bob pays Ann $1.50" in page
    page = pay(keeper, night, ids["Bob"], ids["Ann"], "2")  # 50c too much
    assert "Ann pays Bob $0.50 back" in page
    assert "pays Bob $-" not in page and "-$0.50" not in page.split("Still to pay")[1][:80]
    # Undo the second payment (entries are listed oldest first): kept, no longer counted.
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    undo = [f for f in forms_of(html) if f.action.endswith("/undo")]
    assert len(undo) == 2
    page = send(keeper, night, undo[-1])
    assert "Bob pays Ann $1.50" in page and "Bob paid Ann $2.00" not in recorded(page)
    page = send(keeper, night, undo[-1])  # a second tap: already undone, nothing changes
    assert "Bob pays Ann $1.50" in page and "Bob paid Ann $3.50" in recorded(page)


def test_bad_payments_are_refused_with_a_sentence_and_change_nothing(keeper, client, app):
    from tests.web.checks import snapshot

    night = keeper.night(["Ann", "Bob"], name="First")
    game = rummy(keeper, night, ["Ann", "Bob"], "5.00", 1)
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    ids = regular_ids(client)
    before = snapshot(app)
    form = payout_form(keeper, night, "payments")
    for payer, payee, amount, said in [
        (ids["Bob"], ids["Bob"], "1", "cannot pay themselves"),
        (ids["Bob"], ids["Ann"], "1.005", "at most 2 decimals"),
        (ids["Bob"], ids["Ann"], "-1", "0 or more"),
        (ids["Bob"], ids["Ann"], "=1+1", "not an amount"),
        (ids["Bob"], ids["Ann"], "", "Give the amount paid"),
        (ids["Bob"], 2**40, "1", "Not a valid choice"),
    ]:
        changes = {"pay-payer": str(payer), "pay-payee": str(payee), "pay-amount": amount}
        r = client.post(form.action, data={**form.values(), **changes})
        assert r.status_code == 422, (amount, r.status_code)
        assert said in text_of(r), (said, text_of(r)[:400])
    assert snapshot(app) == before


def test_a_double_tapped_mark_records_once_and_a_stale_one_is_refused(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(night, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    form = payout_form(keeper, night, "transfers/mark", payer=ids["Cy"], payee=ids["Ann"])
    first = send(keeper, night, form)
    again = keeper.client.post(form.action, data=form.values(), follow_redirects=True)
    assert "Already recorded (sent twice): it counts once." in text_of(again)
    assert recorded(first).count("Cy paid Ann $0.20") == 1
    # The same transfer marked from a second phone (its own one-time id) after the first:
    # no longer what is to pay, so refused, never a second payment.
    stale = {**form.values(), "submission": "another-phone"}
    r = keeper.client.post(form.action, data=stale, follow_redirects=True)
    assert "That transfer changed since the page was drawn" in text_of(r)
    assert recorded(payout(client, night)).count("Cy paid Ann") == 1


def test_a_write_off_is_an_entry_and_can_be_undone(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(night, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    page = mark(keeper, night, ids["Bob"], ids["Ann"], action="write_off")
    assert "Ann wrote off the $0.10 Bob owed" in page
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert "Bob pays" not in still and "Cy pays Ann $0.20" in still


# ------------------------------------------------------------------- carries ---
def test_a_carry_goes_only_forward_and_is_recorded_once(keeper, client, app):
    from tests.web.checks import snapshot

    ids_first = keeper.night(["Ann", "Bob", "Cy"], name="Earlier")  # 2026-11-20
    later = keeper.night(["Ann", "Bob", "Cy"], name="Later")  # the same day, made after
    play_texas(keeper, keeper.game(later, "texas", ["Ann", "Bob", "Cy"]))
    # Only later nights are offered; a backward carry sent anyway is refused in words.
    form = (
        payout_form(keeper, later, "carry")
        if "carry-target" in str(client.get(f"/nights/{later}/payout").get_data(as_text=True))
        else None
    )
    assert form is None  # no later night than "Later": nothing to offer
    before = snapshot(app)
    token = inputs(client.get(f"/nights/{later}/payout").get_data(as_text=True))
    r = client.post(f"/nights/{later}/carry", data={"csrf_token": token["csrf_token"],
                    "carry-submission": "x1", "carry-target": str(ids_first)},
                    follow_redirects=True)  # fmt: skip
    assert "carried only into a later night" in text_of(r)
    assert snapshot(app) == before
    # Straight to the service, bypassing the form's choices: refused with the dates.
    from scorekeeper.extensions import db
    from scorekeeper.models import Night, User
    from scorekeeper.services import Refused
    from scorekeeper.services import settle as settling

    with app.app_context():
        source, target = db.session.get(Night, later), db.session.get(Night, ids_first)
        user = db.session.get(User, source.owner_id)
        with pytest.raises(Refused, match="carried only forward"):
            settling.carry_open(source, target, user=user, submission=None)
    assert snapshot(app) == before

    # Forward, double tapped: recorded once.
    ids = regular_ids(client)
    next_week = new_night(keeper, "Next week", "2026-11-27", [ids["Ann"]], [])
    form = payout_form(keeper, later, "carry")
    page = send(keeper, later, form, {"carry-target": str(next_week)})
    again = keeper.client.post(form.action, data={**form.values(), "carry-target":
                               str(next_week)}, follow_redirects=True)  # fmt: skip
    assert "Already recorded" in text_of(again)
    assert recorded(page).count("carried to Next week") == 2  # Bob's 10c and Cy's 20c once
    there = payout(client, next_week)
    assert "Cy pays Ann $0.20" in there and "Bob pays Ann $0.10" in there
    # The debt that came from "Later" cannot go back there: "Later" is not offered.
    html = client.get(f"/nights/{next_week}/payout").get_data(as_text=True)
    assert not any(
        str(later) in f.choices("carry-target")
        for f in forms_of(html)
        if f.action.endswith("/carry")
    )


def test_a_carried_debt_stays_carried_when_its_night_changes(keeper, client):
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    carry(keeper, first, second)
    # A $1 game added on the first night afterwards: only its own dollar is to pay there.
    extra = rummy(keeper, first, ["Ann", "Bob"], "1.00", 1)
    assert keeper.enter(extra, "Ann", {"Bob": 3}).status_code == 302
    page = payout(client, first)
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", still) == [("Bob", "Ann", "$1.00")]
    there = payout(client, second)
    assert "Bob pays Ann $0.10" in there and "Cy pays Ann $0.20" in there


def test_deleting_either_night_of_a_carry(keeper, client):
    """The target deleted: the debt is back on the night it came from. The source deleted:
    its games left every settlement, so nobody is charged its debt on the target."""
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    carry(keeper, first, second)
    assert "Everyone is even" in payout(client, first)

    keeper.post_form(f"/nights/{second}/delete", {})
    page = payout(client, first)
    assert "Cy pays Ann $0.20" in page and "Bob pays Ann $0.10" in page
    assert "(that night is deleted: not counted)" in page
    keeper.post_form("/nights/new", {}, action=f"/nights/{second}/restore")
    assert "Everyone is even" in payout(client, first)
    assert "Cy pays Ann $0.20" in payout(client, second)

    keeper.post_form(f"/nights/{first}/delete", {})
    there = payout(client, second)
    assert "pays Ann" not in there.split("Paid and carried")[0]
    assert "from First (2026-11-20) (that night is deleted: not counted)" in there


# --------------------------------------------------------------- other currencies ---
def test_a_yen_night_reads_in_whole_yen(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="Tokyo", currency="JPY")
    page = client.get(f"/nights/{night}/games/new?variant=texas").get_data(as_text=True)
    assert 'name="ante" type="text" value="50"' in page  # 50 yen, not "0.50"
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="1,000", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    page = payout(client, night)
    assert "Bob pays Ann ¥1,000" in page and "Cy pays Ann ¥1,000" in page
    assert ".00" not in page
    assert "exactly (no rounding)" in page and "in steps of ¥50" in page
    rows = list(csv.reader(io.StringIO(client.get(f"/nights/{night}/export.csv").text)))
    assert ["Bob", "Ann", "1000"] in rows
    ids = regular_ids(client)
    form = payout_form(keeper, night, "payments")
    changes = {"pay-payer": str(ids["Bob"]), "pay-payee": str(ids["Ann"]), "pay-amount": "0.50"}
    r = client.post(form.action, data={**form.values(), **changes})
    assert r.status_code == 422 and "an amount in JPY has no decimals" in text_of(r)
    r = keeper.post_form(f"/nights/{night}/games/new?variant=rummy", {"buy_in": "2.5"})
    assert "no decimals" in text_of(r)


def test_a_three_decimal_currency_reads_in_thousandths(keeper, client):
    night = keeper.night(["Ann", "Bob"], name="Kuwait", currency="KWD")
    game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1.250", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    record = client.get(f"/games/{game}/export.json").get_json()
    assert record["settings"]["buy_in"] == 1250
    page = payout(client, night)
    assert "Bob pays Ann KWD 1.250" in page  # the locale's (no-break) space
    rows = list(csv.reader(io.StringIO(client.get(f"/nights/{night}/export.csv").text)))
    assert ["Bob", "Ann", "1.250"] in rows


def test_a_night_writes_money_in_its_locale(keeper, client):
    ids_night = new_night(keeper, "Freitag", "2026-11-20", [], ["Anna", "Bernd"], "EUR", "de")
    game = keeper.game(ids_night, "rummy", ["Anna", "Bernd"], buy_in="1.234,50", deals="1")
    assert keeper.enter(game, "Anna", {"Bernd": 5}).status_code == 302
    page = payout(client, ids_night)
    assert "Bernd pays Anna 1.234,50 €" in page
    sheet = text_of(client.get(f"/games/{game}"))
    assert "1.234,50 €" in sheet
    # Changed to English: the sheet is drawn again, in the new way.
    form = payout_form(keeper, ids_night, "locale")
    page = send(keeper, ids_night, form, {"locale-locale": "en"})
    assert "Bernd pays Anna €1,234.50" in page
    assert "€1,234.50" in text_of(client.get(f"/games/{game}"))


def test_a_new_night_takes_the_browsers_language(keeper, client):
    page = client.get("/nights/new", headers={"Accept-Language": "fr-CH, fr;q=0.9"})
    assert re.search(r'<option selected value="fr">|<option value="fr" selected', page.text)


def test_a_handle_whose_service_cannot_take_the_currency_is_shown_to_copy(keeper, client):
    night = keeper.night(["Ann", "Bob"], name="Paris", currency="EUR")
    game = rummy(keeper, night, ["Ann", "Bob"], "2.00", 1)
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    ids = regular_ids(client)
    form = next(
        f
        for f in forms_of(client.get(f"/regulars/{ids['Ann']}").get_data(as_text=True))
        if f.action.endswith("/handles")
    )
    rows = handle_rows([("venmo", "ann-venmo")])
    r = client.post(form.action, data={**form.values(), **rows})
    assert r.status_code == 302
    page = payout(client, night)
    assert "No way to pay" not in page
    assert "Venmo of Ann: ann-venmo · €2.00" in page


# ----------------------------------------------------------------------- CSV ---
def test_the_night_csv_has_status_ledger_and_no_formulas(keeper, client):
    night = keeper.night(["=1+1", "+Bob", "@Cy", "-Dee"], name='=HYPERLINK("x")')
    game = rummy(keeper, night, ["=1+1", "+Bob", "@Cy", "-Dee"], "1.00", 1)
    running = rummy(keeper, night, ["=1+1", "+Bob"], "1.00", 3)
    assert keeper.enter(game, "=1+1", {"+Bob": 1, "@Cy": 1, "-Dee": 1}).status_code == 302
    assert keeper.enter(running, "+Bob", {"=1+1": 1}).status_code == 302
    rows = list(csv.reader(io.StringIO(client.get(f"/nights/{night}/export.csv").text)))
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (cell, row)
            assert not cell.startswith("-") or re.fullmatch(r"-\d+\.\d\d", cell), (cell, row)
    games = [r for r in rows if len(r) == 8 and r[1] in {"finished", "running", "deleted"}]
    finished = [r for r in games if r[1] == "finished"]
    assert len(finished) == 4 and sum(float(r[7]) * 100 for r in finished) == 0
    assert all(r[5:] == ["", "", ""] for r in games if r[1] == "running")
    assert {r[2] for r in finished} == {"'=1+1", "'+Bob", "'@Cy", "'-Dee"}


def test_a_regulars_history_csv_is_formula_free(keeper, client):
    night = keeper.night(["=cmd", "Bob"], name="@night")
    game = rummy(keeper, night, ["=cmd", "Bob"], "1.00", 1)
    assert keeper.enter(game, "=cmd", {"Bob": 1}).status_code == 302
    rid = regular_ids(client)["=cmd"]
    rows = list(csv.reader(io.StringIO(client.get(f"/regulars/{rid}/history.csv").text)))
    assert rows[1][1:3] == ["'@night", "'=cmd"] and rows[1][5] == "1.00"


# --------------------------------------------------------------------- stats ---
def test_three_nights_and_the_stats_match_the_settlements(keeper, client):
    # Night 1: Ann, Bob, Cy. Ann +30, Bob -10, Cy -20.
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(first, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    record = client.get(f"/games/{game}/export.json").get_json()
    ids = regular_ids(client)
    mark(keeper, first, ids["Cy"], ids["Ann"])
    # Night 2: Bob +30, Ann -10, Dee -20; Bob's unpaid 10c to Ann from night 1 carried in.
    second = new_night(keeper, "Second", "2026-11-27", [ids["Bob"], ids["Ann"]], ["Dee"])
    import_texas(keeper, second, {"Ann": "Bob", "Bob": "Ann", "Cy": "Dee"}, record)
    carry(keeper, first, second)
    page = payout(client, second)
    # Ann's -10 in the game and +10 carried in cancel out; Bob's +30 less the 10 he owed.
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", still) == [("Dee", "Bob", "$0.20")]
    # Night 3, in 25c steps: Cy +30 -> 25, Dee -10 -> 0, Ann -20 -> -25.
    ids = regular_ids(client)
    third = new_night(keeper, "Third", "2026-12-04", [ids["Cy"], ids["Dee"]], ["ann"])
    import_texas(keeper, third, {"Ann": "Cy", "Bob": "Dee", "Cy": "Ann"}, record)
    send(keeper, third, payout_form(keeper, third, "unit"), {"step-unit": "25"})

    # Stats: each regular's net is the sum of the games part (after each night's rounding)
    # of their nights' settlements, computed here by the engine from the exported records;
    # payments and carries move no stat.
    expected = {"Ann": 30 - 10 - 25, "Bob": -10 + 30, "Cy": -20 + 25, "Dee": -20 + 0}
    by_engine: dict[str, int] = {}
    for night, unit in ((first, 1), (second, 1), (third, 25)):
        for name, cents in engine_nets(client, night, unit).items():
            by_engine[name] = by_engine.get(name, 0) + cents
    assert by_engine == expected
    table = text_of(client.get("/regulars?sort=net"))
    assert re.search(r"Bob 2 2 1 \$0\.20", table) and re.search(r"Dee 2 2 0 -\$0\.20", table)
    assert re.search(r"Cy 2 2 1 \$0\.05", table) and re.search(r"Ann 3 3 1 -\$0\.05", table)
    ann = text_of(client.get(f"/regulars/{ids['Ann']}"))
    assert "Best night: First (2026-11-20), $0.30" in ann
    assert "Worst night: Third (2026-12-04), -$0.25" in ann
    history = list(csv.reader(io.StringIO(client.get(f"/regulars/{ids['Ann']}/history.csv").text)))
    assert [row[5] for row in history[1:]] == ["0.30", "-0.10", "-0.25"]


def test_another_keeper_cannot_mark_or_carry(app, keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    ids = regular_ids(client)
    form = payout_form(keeper, night, "transfers/mark", payer=ids["Cy"], payee=ids["Ann"])
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    token = inputs(other.client.get("/nights/new").get_data(as_text=True))["csrf_token"]
    r = other.client.post(form.action, data={**form.values(), "csrf_token": token})
    assert r.status_code == 404
    assert "Cy paid" not in payout(client, night)


def test_a_night_without_two_people_offers_no_payment_form(keeper: Keeper) -> None:
    """A payment is between two of the night's people: a night of nobody (the stateful
    test started one) offers no "Record a payment" with empty lists to choose from."""
    r = keeper.post_form(
        "/nights/new",
        {"name": "Empty", "played_on": "2026-11-27", "currency": "USD", "paper": "A4"},
    )
    assert r.status_code == 302, text_of(r)
    night = int(r.headers["Location"].rstrip("/").split("/")[-1])
    page = keeper.client.get(f"/nights/{night}/payout")
    assert page.status_code == 200
    assert "Record a payment" not in text_of(page)


def test_the_money_warning_shows_only_where_a_change_moves_money(keeper, client):
    """Issue 34: "Money was already recorded on this night ..." (two lines) showed on every
    round form of the night once anything was paid, a running game's new rounds too. A
    running game moves nothing in what is still to pay until it ends; a finished one
    does. The line shows where saving changes what people acted on, and nowhere else."""
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    texas = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, texas)
    running = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1.00", deals="3")
    assert keeper.enter(running, "Ann", {"Bob": 5}).status_code == 302
    line = "Money was paid or carried on this night already: this changes what is still to pay."
    assert line not in text_of(client.get(f"/games/{texas}/rounds/3"))  # nothing recorded yet
    ids = regular_ids(client)
    mark(keeper, night, ids["Cy"], ids["Ann"])
    assert line in text_of(client.get(f"/games/{texas}/rounds/3"))
    assert line in text_of(client.get(f"/games/{texas}/delete"))
    for url in (f"/games/{running}/rounds/new", f"/games/{running}/rounds/1",
                f"/games/{running}/delete"):  # fmt: skip
        assert line not in text_of(client.get(url)), url


def test_one_debt_is_carried_alone_and_the_others_stay_tonight(app, keeper, client):
    """Issue 34 point 3: Ann wins a Rummy of three ($1.00 each): Bob and Cy each owe her
    $1.00. Carrying Bob's alone into Saturday leaves Cy's to pay tonight; Saturday owes
    Bob's. Sent twice it counts once; chosen again once gone, it is refused in a sentence
    and nothing moves; "everything still to pay" carries Cy's too."""
    friday = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy"])
    game = keeper.game(friday, "rummy", ["Ann", "Bob", "Cy"], buy_in="1.00", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    ids = regular_ids(client)
    saturday = new_night(keeper, "Saturday", "2026-11-21", [ids["Ann"], ids["Bob"]], [])
    form = payout_form(keeper, friday, "carry")
    html = client.get(f"/nights/{friday}/payout").get_data(as_text=True)
    assert "everything still to pay" in html and "Bob pays Ann $1.00" in html
    bob_to_ann = {"carry-debt": f"{ids['Bob']}-{ids['Ann']}-100", "carry-target": str(saturday)}
    for _ in range(2):  # a double tap: one carry
        page = send(keeper, friday, form, bob_to_ann)
    still = page.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", still) == [("Cy", "Ann", "$1.00")]
    assert "Bob owed Ann $1.00: carried to Saturday (2026-11-21)" in page
    later = payout(client, saturday)
    assert "Bob owed Ann $1.00 from Friday (2026-11-20)" in later
    owed = later.split("Still to pay", 1)[1].split("Paid and carried", 1)[0]
    assert re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", owed) == [("Bob", "Ann", "$1.00")]
    before = snapshot(app)
    again = payout_form(keeper, friday, "carry")  # a new one-time id, the same debt chosen
    r = client.post(again.action, data={**again.values(), **bob_to_ann})
    assert r.status_code == 302
    page = payout(client, friday)
    assert "That debt is no longer to pay on this night" in page
    assert snapshot(app) == before
    everything = payout_form(keeper, friday, "carry")
    page = send(keeper, friday, everything, {"carry-target": str(saturday)})
    assert "Cy owed Ann $1.00: carried to Saturday (2026-11-21)" in page
    assert "Still to pay Everyone is even: nobody pays anybody" in page


def test_the_chat_text_and_pdf_carry_the_ways_to_pay_and_no_false_even(keeper, client):
    """Issue 34 point 4. Friday: Ann wins $1.00 of Bob, and the debt is carried to
    Saturday, where Bob plays no game (his games' net there is $0.00) and Ann wins $0.50
    of Cy. Saturday's text and PDF put Ann's PayPal.me link and IBAN beside each transfer
    to her, and Bob's line says he still pays $1.00, never a bare "$0.00"."""
    friday = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob"])
    game = keeper.game(friday, "rummy", ["Ann", "Bob"], buy_in="1.00", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    ids = regular_ids(client)
    token = inputs(client.get("/regulars").get_data(as_text=True))["csrf_token"]
    iban = "DE89370400440532013000"
    handles = handle_rows([("paypal", "annpays"), ("iban", iban)])
    r = client.post(f"/regulars/{ids['Ann']}/handles", data={"csrf_token": token, **handles})
    assert r.status_code == 302
    saturday = new_night(keeper, "Saturday", "2026-11-21", [ids["Ann"], ids["Bob"]], ["Cy"])
    carry(keeper, friday, saturday)  # Bob owes Ann $1.00 on Saturday, whose games net 0
    game = keeper.game(saturday, "rummy", ["Ann", "Cy"], buy_in="0.50", deals="1")
    assert keeper.enter(game, "Ann", {"Cy": 5}).status_code == 302
    text = client.get(f"/nights/{saturday}/payout.txt").get_data(as_text=True)
    assert "https://paypal.me/annpays/1.00USD" in text and "IBAN DE89" in text
    to_ann = [line for line in text.splitlines() if "pays Ann" in line]
    assert to_ann and all("PayPal.me https://paypal.me/annpays/" in line for line in to_ann)
    assert "- Bob $0.00 (pays $1.00 now)" in text
    from tests.web.stateful_model import pdf_text

    pdf = " ".join(pdf_text(client.get(f"/nights/{saturday}/payout.pdf").data).split())
    assert "paypal.me/annpays" in pdf.replace(" ", "") and "pays $1.00" in pdf
