"""Settling up on a phone, tapped through a real Chromium (issue 19): a way to pay saved
for a regular becomes a pay link; two transfers marked paid and the rest carried into the
next night; then the night's running game finishes, and the payout page shows exactly what
a careful person works out by hand, with what was paid and carried kept as it was; a
typed partial payment and an over-payment; and the night it was carried to collects the
carried part once."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.keeper import Keeper
from tests.browser.test_live_view import show_players

pytestmark = pytest.mark.browser


def start_night(keeper: Keeper, name: str, day: str, picked: list[str], typed: list[str]) -> int:
    keeper.goto("/nights/new")
    keeper.page.get_by_label("Name").fill(name)
    keeper.page.get_by_label("Date").fill(day)
    for person in picked:
        keeper.tap(keeper.page.get_by_label(person, exact=True))
    keeper.page.get_by_label("Who is playing").fill("\n".join(typed))
    keeper.tap(keeper.button("Start the night"))
    expect(keeper.page.get_by_role("heading", name=name)).to_be_visible()
    return keeper.id_from_url(r"/nights/(\d+)$")


def transfer(page: Page, sentence: str):
    return page.locator("ul.pay-list li.pay").filter(has_text=sentence)


def still_to_pay(page: Page) -> list[str]:
    return sorted(
        re.sub(r"\s+", " ", t).strip()
        for t in page.locator("ul.pay-list li.pay .pay-sentence").all_inner_texts()
    )


def record_payment(keeper: Keeper, payer: str, payee: str, amount: str) -> None:
    """Record a payment typed on the payout page (folded under "Record a payment")."""
    keeper.tap(keeper.page.get_by_text("Record a payment"))
    keeper.page.get_by_label("Who paid").select_option(label=payer)
    keeper.page.get_by_label("Paid to").select_option(label=payee)
    keeper.page.get_by_label("Amount").fill(amount)
    keeper.tap(keeper.button("Record payment"))


def test_paid_and_carried_survive_the_last_game_finishing(page: Page, live_server: str) -> None:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    friday = keeper.start_night(["Ann", "Bob", "Cy", "Dee"], name="Friday")
    first = keeper.new_game(
        friday,
        "Rummy",
        ["Ann", "Bob", "Cy", "Dee"],
        settings={"Buy-in": "2.00", "Or a fixed number of deals": "1"},
    )
    keeper.enter_round("Ann", {"Bob": "5", "Cy": "5", "Dee": "5"})
    running = keeper.new_game(
        friday,
        "Rummy",
        ["Bob", "Cy", "Dee"],
        settings={"Buy-in": "1.50", "Or a fixed number of deals": "2"},
    )
    keeper.enter_round("Bob", {"Cy": "5", "Dee": "5"})
    saturday = start_night(keeper, "Saturday", "2026-11-21", ["Ann", "Dee"], [])

    # Ann takes a PayPal.me handle: Bob's transfer to her opens PayPal with the amount.
    keeper.goto("/regulars")
    keeper.follow(keeper.link("Ann"))
    keeper.page.get_by_label("How").first.select_option("paypal")
    keeper.page.get_by_label("Handle, IBAN or text").first.fill("annpays")
    keeper.tap(keeper.button("Save ways to pay"))
    expect(keeper.page.locator("p.flash")).to_contain_text("Ways to pay saved")

    keeper.goto(f"/nights/{friday}")
    keeper.follow(keeper.link("Settle up"))
    assert still_to_pay(page) == [
        "Bob pays Ann $2.00",
        "Cy pays Ann $2.00",
        "Dee pays Ann $2.00",
    ]
    link = transfer(page, "Bob pays Ann").get_by_role("link", name=re.compile("PayPal"))
    expect(link).to_have_attribute("href", "https://paypal.me/annpays/2.00USD")
    for payer in ("Bob", "Cy"):
        keeper.tap(transfer(page, f"{payer} pays Ann").get_by_role("button", name="Mark paid"))
        expect(page.locator("ul.ledger")).to_contain_text(f"{payer} paid Ann $2.00")
    page.get_by_label("Carry it into").select_option(label="Saturday · Nov 21, 2026")
    keeper.tap(keeper.button("Carry forward"))
    expect(page.locator("ul.ledger")).to_contain_text(
        "Dee owed Ann $2.00: carried to Saturday (2026-11-21)"
    )
    expect(page.locator("#settle")).to_contain_text("Everyone is even")

    # The running game's last deal: Bob wins it. By hand: Cy and Dee each owe Bob $1.50.
    keeper.goto(f"/games/{running}")
    keeper.enter_round("Bob", {"Cy": "4", "Dee": "9"})
    keeper.goto(f"/nights/{friday}/payout")
    assert still_to_pay(page) == ["Cy pays Bob $1.50", "Dee pays Bob $1.50"]
    ledger = page.locator("ul.ledger")
    for sentence in ("Bob paid Ann $2.00", "Cy paid Ann $2.00", "carried to Saturday"):
        expect(ledger).to_contain_text(sentence)
    expect(page.locator("#settle .notice")).to_contain_text("Bob +$3.00, Cy -$1.50, Dee -$1.50")
    page.reload()
    assert still_to_pay(page) == ["Cy pays Bob $1.50", "Dee pays Bob $1.50"]

    # Cy pays $1.00 in cash (part of his $1.50), then Dee $2.00 for her $1.50.
    record_payment(keeper, "Cy", "Bob", "1")
    expect(page.locator("p.flash")).to_contain_text("Recorded: Cy paid Bob $1.00.")
    # The part counts against his transfer: what is left of it shows (issue 34).
    assert still_to_pay(page) == ["Cy pays Bob $0.50 ($0.50 of $1.50 left)", "Dee pays Bob $1.50"]
    record_payment(keeper, "Dee", "Bob", "2")
    expect(page.locator("p.flash")).to_contain_text("Recorded: Dee paid Bob $2.00.")
    # Bob is square (+3.00 - 1.00 - 2.00); Dee paid 50c too much and Cy still owes 50c:
    # the fewest transfers settle both with one.
    assert still_to_pay(page) == ["Cy pays Dee $0.50"]

    # Saturday collects the carried part, once.
    keeper.goto(f"/nights/{saturday}/payout")
    assert still_to_pay(page) == ["Dee pays Ann $2.00"]
    expect(page.locator("ul.ledger")).to_contain_text("Dee owed Ann $2.00 from Friday (2026-11-20)")
    assert first and saturday


def test_a_player_taps_i_paid_and_the_keeper_confirms(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """Issue 34 point 4, tapped: on the night's players' page (no account) Bob taps "I
    paid" on his transfer; everyone sees it claimed, it counts once the keeper taps
    Confirm paid on the payout page, and then it is paid on the players' page too."""
    keeper = Keeper(new_context().new_page(), live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"], name="Friday")
    keeper.new_game(
        night,
        "Rummy",
        ["Ann", "Bob", "Cy"],
        settings={"Buy-in": "1.00", "Or a fixed number of deals": "1"},
    )
    keeper.enter_round("Ann", {"Bob": "5", "Cy": "5"})
    keeper.goto(f"/nights/{night}")
    link = show_players(keeper, "Live view for players")

    player = new_context().new_page()  # Bob's phone: no login, no cookie
    player.goto(link)
    bob = transfer(player, "Bob pays Ann $1.00")
    Keeper(player, live_server).tap(bob.get_by_role("button", name="Bob: I paid"))
    claimed = "Bob says they paid Ann $1.00: not counted until confirmed"
    expect(transfer(player, "Bob pays Ann $1.00")).to_contain_text(claimed)
    expect(player.get_by_role("button", name="Bob: I paid")).to_have_count(0)
    assert player.context.cookies() == []

    keeper.goto(f"/nights/{night}/payout")
    line = transfer(keeper.page, "Bob pays Ann $1.00")
    expect(line).to_contain_text(claimed)
    assert still_to_pay(keeper.page) == ["Bob pays Ann $1.00", "Cy pays Ann $1.00"]
    keeper.tap(line.get_by_role("button", name="Confirm paid"))
    expect(keeper.page.locator("p.flash")).to_contain_text("Bob pays Ann $1.00: marked paid.")
    expect(keeper.page.locator("ul.ledger")).to_contain_text(
        "Bob paid Ann $1.00 (as they said on the players' page)"
    )
    assert still_to_pay(keeper.page) == ["Cy pays Ann $1.00"]

    player.reload()
    expect(player.locator("ul.pay-list")).not_to_contain_text("Bob pays Ann")
    expect(player.locator("ul.ledger")).to_contain_text("Bob paid Ann $1.00")
