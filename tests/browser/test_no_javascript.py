"""With JavaScript off every main page still works: the app is server-rendered HTML and
its one script only makes the table quicker (card counter, live sums)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.keeper import PASSWORD, Keeper

pytestmark = pytest.mark.browser


def test_a_rummy_game_with_javascript_off(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    page = new_context(java_script_enabled=False).new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    game = keeper.new_game(night, "Rummy", ["Ann", "Bob"])
    assert keeper.players() == ["Ann", "Bob"]

    # Round 1: Ann goes out; Bob's cards are typed, no counter needed: K 10 + 7 = 17.
    keeper.tap(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {"Bob": "K 7"})
    # The script did not run: no live sum beside the field, and no card counter (its
    # buttons would do nothing). Who went out is marked all the same, their field gone.
    expect(keeper.hand_box("Ann")).to_have_css("border-top-width", "2px")
    expect(keeper.hand_box("Ann").locator("input.hand-input")).to_be_hidden()
    expect(keeper.hand_box("Ann").locator(".out-note")).to_have_text("★ went out")
    expect(keeper.hand_box("Bob").locator("output.sum")).to_have_text("")
    expect(keeper.hand_box("Bob").locator("button.count-cards")).to_be_hidden()
    expect(keeper.hand_box("Bob").locator(".cards-pad")).to_be_hidden()
    expect(page.get_by_role("button", name="Remove last card")).to_have_count(0)
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 17, "Bob": 0}
    expect(page.locator("form.undo")).to_contain_text("Deal 1 saved.")

    # Round 2: Bob goes out; Ann has 10+5. The went-out player's field is hidden without
    # the script too (what it held is not read: the player went out).
    keeper.enter_round("Bob", {"Ann": "10+5"})
    assert keeper.totals() == {"Ann": 17, "Bob": 15}
    assert keeper.banner().startswith("Deal 3")

    # Correct round 1 from the sheet: Bob also held a 5.
    keeper.tap(keeper.link("Edit deal 1"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct deal 1")
    expect(keeper.hand_input("Bob")).to_have_value("K 7")
    keeper.hand_input("Bob").fill("K 7 5")
    keeper.save()
    keeper.wait_for_sheet()
    expect(page.locator("p.flash")).to_have_text(
        "Deal 1 corrected; everything after it is recomputed."
    )
    assert keeper.totals() == {"Ann": 22, "Bob": 15}

    # Remove the last round: no confirm() dialog without the script, the form just posts.
    keeper.tap(keeper.button("Remove last deal"))
    expect(page.locator("p.flash")).to_have_text("Deal 2 removed (it stays in the history).")
    assert keeper.totals() == {"Ann": 22, "Bob": 0}
    assert keeper.banner().startswith("Deal 2")
    engine = keeper.api_game(game)["standings"]
    assert engine["rounds_played"] == 1
    assert {p["name"]: p["total"] for p in engine["players"]} == keeper.totals()

    keeper.tap(keeper.link("History"))
    history = keeper.text("ol.history")
    assert "Removed deal 2: Bob went out; Ann 15" in history
    assert "Deal 1 corrected: Bob: K 7 → K 7 5" in history
    assert "Deal 1: Ann went out; Bob K 7" in history

    # The other main pages: home, night, new game, payout, export; log out and in again.
    keeper.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your card nights")
    keeper.tap(page.locator("a.card-link").filter(has_text="Friday cards"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday cards")
    expect(page.locator("ul.cards")).to_contain_text("Deal 1 played · Ann leading")
    keeper.tap(keeper.link("New game"))
    expect(page.get_by_role("heading", level=1)).to_have_text("New game")
    page.go_back()
    keeper.tap(keeper.link("Settle up"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Settle up")
    # "Copy as text" needs the script: without it the button is not there to tap.
    expect(page.get_by_role("button", name="Copy as text")).to_have_count(0)
    expect(page.locator("button[data-copy]")).to_be_hidden()
    expect(page.locator("main")).to_contain_text("not settled")
    keeper.goto(f"/games/{game}")
    with page.expect_download() as info:
        keeper.tap(keeper.link("Export"))
    assert info.value.suggested_filename.endswith(".json")

    keeper.tap(keeper.button("Log out"))
    expect(page.locator("p.flash")).to_have_text("Logged out.")
    keeper.tap(keeper.link("Log in"))
    page.get_by_label("Email").fill("keeper@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    keeper.tap(keeper.button("Log in"))
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Your card nights")


def test_what_needs_the_script_shows_only_with_it(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """The card counter's button and "Copy as text" are in the page hidden; the script
    shows them (the clipboard needs a secure context: 127.0.0.1 is one)."""
    page = new_context().new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob"])
    keeper.follow(keeper.link("Enter deal 1"))
    expect(keeper.hand_box("Bob").locator("button.count-cards")).to_be_visible()
    keeper.fill_round("Ann", {"Bob": "7"})
    keeper.save()
    keeper.wait_for_sheet()
    keeper.goto(f"/nights/{night}/payout")
    expect(page.get_by_role("button", name="Copy as text")).to_be_visible()
