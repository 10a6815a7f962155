"""Issue 36, point 4, on a phone (390x844) in Chromium: a pay button reads "Pay Ann with
PayPal.me", with its space, on the players' page and on the keeper's; the optional
flipped wild card, typed as a rank alone ("5"), is answered at its field before anything
is sent (the offline queue included), and the round saves once the suit is added."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.keeper import Keeper
from tests.browser.test_live_view import show_players
from tests.browser.test_money_first import finished_vegas

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_pay_button_reads_with_its_space(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    keeper = Keeper(new_context(**PHONE).new_page(), live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    keeper.import_game(night, finished_vegas(["Ann", "Bob", "Cy"]))
    keeper.goto("/regulars")
    keeper.follow(keeper.link("Ann"))
    keeper.page.get_by_label("How").first.select_option("paypal")
    keeper.page.get_by_label("Handle, IBAN or text").first.fill("annpays")
    keeper.tap(keeper.button("Save ways to pay"))
    expect(keeper.page.locator("p.flash")).to_contain_text("Ways to pay saved")
    keeper.goto(f"/nights/{night}")
    link = show_players(keeper, "Live view for players")

    player = new_context(**PHONE).new_page()
    player.goto(link)
    pay = player.get_by_role("link", name="Pay Ann with PayPal.me").first
    expect(pay).to_be_visible()
    assert pay.inner_text() == "Pay Ann with PayPal.me"  # as the eye reads it, one line
    keeper.goto(f"/nights/{night}/payout")
    pay = keeper.page.locator("#settle li.pay a.button").first
    expect(pay).to_have_accessible_name("Pay Ann with PayPal.me")


def test_a_flipped_rank_alone_is_answered_before_save(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    keeper = Keeper(new_context(**PHONE).new_page(), live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    game = keeper.new_game(night, "Vegas Rummy", ["Ann", "Bob", "Cy"])
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Ann", {"Bob": "12", "Cy": "7"}, wild="5")
    wild = keeper.page.get_by_label("Flipped wild card (optional)")
    keeper.save()
    said = "Add the suit to 5: 5C, 5D, 5H or 5S (or JK for a joker)."
    expect(keeper.page.locator("#wild-error")).to_have_text(said)
    expect(wild).to_be_focused()
    expect(keeper.page).to_have_url(f"{live_server}/games/{game}/rounds/new")
    assert keeper.api_game(game)["standings"]["rounds_played"] == 0  # nothing sent
    expect(keeper.hand_input("Bob")).to_have_value("12")  # what was typed stays
    wild.fill("5h")
    expect(keeper.page.locator("#wild-error")).to_have_count(0)
    keeper.save()
    keeper.wait_for_sheet()
    data = keeper.api_game(game)
    assert data["record"]["rounds"][0]["wild"] == "5H"
    # Any other word is answered the same way, before Save.
    keeper.follow(keeper.link("Enter round 2"))
    keeper.fill_round("Bob", {"Ann": "3", "Cy": "4"}, wild="fives")
    wild.blur()
    expect(keeper.page.locator("#wild-error")).to_have_text(
        "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."
    )
