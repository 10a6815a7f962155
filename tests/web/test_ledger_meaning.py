"""An entry of the ledger never changes meaning when something else changes later
(issue 30, class 2).

A write-off is a debt forgiven, never money moved: it forgives at most what is still
owed between the two on that night when the book is worked out, so when the game behind
it is deleted or corrected, or the carry that brought the debt is undone, it counts less
(down to nothing), and the forgiver never ends up owing. Restoring a deleted night puts
its carries back only when nothing was recorded on their other night meanwhile: a debt
settled there in the meantime is not charged a second time.

The Texas game of ``play_texas`` pays Ann +30c and costs Bob -10c and Cy -20c.
"""

from __future__ import annotations

import re

import pytest

from tests.web.keeper import Keeper, forms_of, text_of
from tests.web.test_games import play_texas
from tests.web.test_settle_up import carry, mark, new_night, payout, recorded, regular_ids


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def still(page: str) -> list[tuple[str, str, str]]:
    """The transfers still to pay on a payout page (as text): (payer, payee, amount)."""
    if "Still to pay" not in page:
        return []
    part = page.split("Still to pay", 1)[1]
    part = part.split("Paid and carried", 1)[0].split("Record a payment", 1)[0]
    return re.findall(r"(\w+) pays (\w+) (\$[\d.]+)", part)


def undo(keeper: Keeper, night: int, sentence: str) -> None:
    """Tap Undo on the recorded line that says ``sentence``."""
    html = keeper.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    found = re.search(
        r"<li><span>" + re.escape(sentence) + r".*?action=\"(/nights/\d+/entries/\d+/undo)\"",
        html,
        re.S,
    )
    assert found, sentence
    r = keeper.post_form(f"/nights/{night}/payout", {}, action=found.group(1))
    assert r.status_code == 302, text_of(r)


def delete_game(keeper: Keeper, game: int) -> None:
    r = keeper.post_form(f"/games/{game}/delete", {})
    assert r.status_code == 302, text_of(r)


def test_a_write_off_never_becomes_money_the_forgiver_owes_when_its_game_goes(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    ids = regular_ids(client)
    mark(keeper, night, ids["Bob"], ids["Ann"], action="write_off")
    assert still(payout(client, night)) == [("Cy", "Ann", "$0.20")]

    delete_game(keeper, game)  # the game behind the debt is gone
    page = payout(client, night)
    assert still(page) == []  # not "Ann pays Bob $0.10"
    assert "pays" not in page.split("Paid and carried", 1)[0]
    assert "Ann wrote off the $0.10 Bob owed (counts $0.00 now" in recorded(page)

    # The game restored: the write-off forgives the debt again, in full.
    html = client.get(f"/nights/{night}").get_data(as_text=True)
    form = next(f for f in forms_of(html) if f.action == f"/games/{game}/restore")
    assert client.post(form.action, data=form.values()).status_code == 302
    page = payout(client, night)
    assert still(page) == [("Cy", "Ann", "$0.20")]
    assert "counts $" not in recorded(page)


def test_a_write_off_counts_less_when_the_game_is_corrected_to_owe_less(keeper, client):
    night = keeper.night(["Ann", "Bob"], name="First")
    game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1.00", deals="2")
    assert keeper.enter(game, "Ann", {"Bob": 3}).status_code == 302
    assert keeper.enter(game, "Ann", {"Bob": 3}).status_code == 302
    ids = regular_ids(client)
    assert still(payout(client, night)) == [("Bob", "Ann", "$1.00")]
    mark(keeper, night, ids["Bob"], ids["Ann"], action="write_off")
    assert still(payout(client, night)) == []
    # Another game that Bob wins by $1: over the night Bob owes nothing any more, so the
    # write-off forgives nothing, and Ann (who forgave) owes Bob nothing for it.
    other = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1.00", deals="1")
    assert keeper.enter(other, "Bob", {"Ann": 3}).status_code == 302
    page = payout(client, night)
    assert still(page) == []  # not "Ann pays Bob $1.00"
    assert "Ann wrote off the $1.00 Bob owed (counts $0.00 now" in recorded(page)
    delete_game(keeper, game)  # the game whose debt was forgiven goes
    page = payout(client, night)
    assert still(page) == [("Ann", "Bob", "$1.00")]  # Bob's own win only, not $2.00
    assert "(counts $0.00 now" in recorded(page)


def test_a_write_off_of_a_carried_debt_when_the_carry_is_undone(keeper, client):
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    carry(keeper, first, second)
    mark(keeper, second, ids["Bob"], ids["Ann"], action="write_off")
    assert still(payout(client, second)) == [("Cy", "Ann", "$0.20")]

    undo(keeper, first, "Bob owed Ann $0.10: carried to Second")
    page = payout(client, second)
    assert ("Ann", "Bob", "$0.10") not in still(page)  # the forgiver owes nothing
    assert still(page) == [("Cy", "Ann", "$0.20")]
    assert still(payout(client, first)) == [("Bob", "Ann", "$0.10")]


def test_restoring_a_night_does_not_charge_again_what_was_settled_meanwhile(keeper, client):
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    carry(keeper, first, second)
    keeper.post_form(f"/nights/{second}/delete", {})
    # While Second is deleted the debts are back on First, and Bob pays his there.
    mark(keeper, first, ids["Bob"], ids["Ann"])
    assert still(payout(client, first)) == [("Cy", "Ann", "$0.20")]

    r = keeper.post_form(
        "/nights/new", {}, action=f"/nights/{second}/restore", follow_redirects=True
    )
    assert "2 debts carried from First were not put back" in text_of(r)
    page = payout(client, first)
    assert still(page) == [("Cy", "Ann", "$0.20")]  # nobody owed back
    assert "Bob pays Ann" not in payout(client, second)  # not charged twice
    assert still(payout(client, second)) == []


def test_restoring_a_night_puts_its_carries_back_when_nothing_moved_meanwhile(keeper, client):
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    carry(keeper, first, second)
    keeper.post_form(f"/nights/{second}/delete", {})
    keeper.post_form("/nights/new", {}, action=f"/nights/{second}/restore")
    assert still(payout(client, first)) == []
    assert sorted(still(payout(client, second))) == [
        ("Bob", "Ann", "$0.10"),
        ("Cy", "Ann", "$0.20"),
    ]


def test_the_csv_says_what_a_write_off_forgives_now(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    ids = regular_ids(client)
    mark(keeper, night, ids["Bob"], ids["Ann"], action="write_off")
    delete_game(keeper, game)
    text = client.get(f"/nights/{night}/export.csv").get_data(as_text=True)
    row = next(line for line in text.splitlines() if line.startswith("write_off"))
    assert row.endswith(",0.00"), row  # counts 0.00 now, not "yes"
