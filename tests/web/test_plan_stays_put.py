"""The plan of who pays whom stays put (issue 34, point 2), through the test client:
a part payment reduces its transfer and leaves the others exactly as shown, stored and
read again; a form from before refuses with a sentence; a game corrected afterwards
draws the plan again over what is left, and the page names the correction.

Issue 34's table: Ann +2.25, Bob +4.50, Cy -4.25, Dee -2.50, from three two-player
Rummy games (one deal, the buy-in is the stake): Bob beats Cy for 4.25, Ann beats Dee for
2.25, Bob beats Dee for 0.25. Fewest transfers: Cy pays Bob 4.25, Dee pays Ann 2.25, Dee
pays Bob 0.25.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import LedgerEntry
from tests.web.keeper import Keeper, forms_of, text_of
from tests.web.test_settle_up import new_night, payout, regular_ids, rummy


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def still_to_pay(client, night: int) -> list[tuple[str, str, str]]:
    """The transfers still to pay, as the payout page's lines say them."""
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    lines = re.findall(r'<span class="pay-sentence"><strong>([^<]+)</strong>', html)
    return sorted(re.fullmatch(r"(\w+) pays (\w+) (\$[\d.]+)", line).groups() for line in lines)


def the_night(keeper: Keeper) -> tuple[int, list[int]]:
    night = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy", "Dee"])
    games = []
    for winner, loser, stake in (("Bob", "Cy", "4.25"), ("Ann", "Dee", "2.25"),
                                 ("Bob", "Dee", "0.25")):  # fmt: skip
        game = rummy(keeper, night, [winner, loser], stake, 1)
        assert keeper.enter(game, winner, {loser: 10}).status_code == 302
        games.append(game)
    return night, games


def transfer_form(keeper: Keeper, night: int, payer: int, payee: int, part: bool):
    html = keeper.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    for form in forms_of(html):
        values = form.values()
        if (
            form.action.endswith("/transfers/mark")
            and values.get("payer") == str(payer)
            and values.get("payee") == str(payee)
            and values.get("action") == "payment"
            and ("paid" in values) == part
        ):
            return form
    raise AssertionError(f"no form for {payer} -> {payee}")


def test_a_part_payment_keeps_the_plan_and_a_correction_is_named(keeper, client, app):
    night, games = the_night(keeper)
    ids = regular_ids(client)
    before = still_to_pay(client, night)
    assert before == [("Cy", "Bob", "$4.25"), ("Dee", "Ann", "$2.25"), ("Dee", "Bob", "$0.25")]
    whole = transfer_form(keeper, night, ids["Cy"], ids["Bob"], part=False)

    # Cy paid Bob $2.00 of the $4.25: the amount field is prefilled with what is left.
    part = transfer_form(keeper, night, ids["Cy"], ids["Bob"], part=True)
    assert part.values()["paid"] == "$4.25"
    r = client.post(part.action, data={**part.values(), "paid": "2.00"})
    assert r.status_code == 302
    page = payout(client, night)
    assert "Cy paid Bob $2.00: $2.25 of $4.25 left." in page
    assert still_to_pay(client, night) == [
        ("Cy", "Bob", "$2.25"),  # Cy's payee stays Bob
        ("Dee", "Ann", "$2.25"),  # Dee's two transfers stay two
        ("Dee", "Bob", "$0.25"),
    ]
    assert "$2.25 of $4.25 left" in page
    with app.app_context():
        entry = db.session.scalars(select(LedgerEntry)).one()
        assert (entry.kind, entry.payer_id, entry.payee_id, entry.amount) == (
            "payment", ids["Cy"], ids["Bob"], 200,
        )  # fmt: skip
        assert entry.plan == whole.values()["plan"]  # made against the plan shown

    # The Mark paid form from before the part payment showed $4.25 left: refused, with a
    # sentence, and nothing recorded.
    r = client.post(whole.action, data=whole.values(), follow_redirects=True)
    said = text_of(r)
    assert "That transfer changed since the page was drawn (now: Cy pays Bob $2.25)" in said
    with app.app_context():
        assert len(db.session.scalars(select(LedgerEntry)).all()) == 1
    # A part of more than is left is refused too.
    part = transfer_form(keeper, night, ids["Dee"], ids["Bob"], part=True)
    r = client.post(part.action, data={**part.values(), "paid": "1.00"}, follow_redirects=True)
    assert "Dee pays Bob at most $0.25 on this transfer" in text_of(r)

    # The third game is corrected: Dee went out, not Bob (Dee +0.25, Bob -0.25). What is
    # left: Ann +2.25, Bob +4.00 - 2.00 = +2.00, Cy -4.25 + 2.00 = -2.25, Dee -2.00.
    assert keeper.enter(games[2], "Dee", {"Bob": 10}, number=1).status_code == 302
    page = payout(client, night)
    assert (
        "The plan changed because deal 1 of Rummy 3 was corrected by keeper@example.com: "
        "Bob -$0.50, Dee +$0.50." in page
    )
    assert still_to_pay(client, night) == [("Cy", "Ann", "$2.25"), ("Dee", "Bob", "$2.00")]
    assert "Cy paid Bob $2.00" in page  # what was paid stays paid
