"""A new night keeps the order people sit in (issue 22 point 7): ticked regulars and typed
names in one list the keeper orders with up and down buttons, at phone size; the order is
the next game's default seating."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser


def test_the_keeper_orders_regulars_and_new_names_and_games_seat_them_so(
    page: Page, live_server: str
) -> None:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    keeper.start_night(["Ann", "Bob", "Cy"], name="First night")  # makes them regulars
    keeper.goto("/nights/new")
    order = page.locator(".seat-order")
    expect(order).to_be_hidden()  # nobody chosen yet
    page.get_by_label("Name").fill("Second night")
    for name in ("Ann", "Cy"):
        keeper.tap(page.locator("label.check", has_text=name).locator("input"))
    page.get_by_label("Who is playing").fill("Dee")
    expect(order.locator("li")).to_have_text(["Ann↑↓", "Cy↑↓", "Dee↑↓"])
    keeper.tap(keeper.button("Move Dee up"))
    keeper.tap(keeper.button("Move Dee up"))
    keeper.tap(keeper.button("Move Ann down"))
    expect(order.locator("li")).to_have_text(["Dee↑↓", "Cy↑↓", "Ann↑↓"])
    # Unticking Cy takes Cy out; the rest keep their order.
    keeper.tap(page.locator("label.check", has_text="Cy").locator("input"))
    expect(order.locator("li")).to_have_text(["Dee↑↓", "Ann↑↓"])
    keeper.tap(page.locator("label.check", has_text="Cy").locator("input"))
    expect(order.locator("li")).to_have_text(["Dee↑↓", "Ann↑↓", "Cy↑↓"])
    keeper.tap(keeper.button("Start the night"))
    expect(page.get_by_role("heading", name="Second night")).to_be_visible()
    night = keeper.id_from_url(r"/nights/(\d+)$")
    keeper.goto(f"/nights/{night}/games/new?variant=rummy")
    seats = {
        row.locator("th").inner_text().strip(): row.locator("input[name^=seat-]").input_value()
        for row in page.locator("table.seats tbody tr").all()
    }
    assert seats == {"Dee": "1", "Ann": "2", "Cy": "3"}


def test_the_deck_advice_counts_the_seats_as_they_are_typed(page: Page, live_server: str) -> None:
    """Issue 34: the cards advised stayed those of the seats the page opened with. Texas
    (RULES.md: 2 players one deck, 3-6 two, 7-10 three, two jokers a deck): seven seated,
    then two taken out, then one."""
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    night = keeper.start_night(names, name="Big table")
    keeper.goto(f"/nights/{night}/games/new?variant=texas")
    advice = page.locator("#deck-advice")
    expect(advice).to_have_text("Cards for 7 players: 3 decks with 6 jokers.")
    for name in ("Fay", "Gus"):
        page.get_by_label(name, exact=True).fill("")
    expect(advice).to_have_text("Cards for 5 players: 2 decks with 4 jokers.")
    for name in ("Cy", "Dee", "Eve"):
        page.get_by_label(name, exact=True).fill("")
    expect(advice).to_have_text("Cards for 2 players: 1 deck with 2 jokers.")
