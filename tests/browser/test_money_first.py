"""Issue 22, point 8, on a phone (412 px wide): the payout page opens with what is still to
pay, each transfer on one line (the sentence, its pay link and Mark paid side by side;
Write off wraps first where the line is short), listed once; Mark paid on that line records
the payment (re-read from the page after)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Locator, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 412, "height": 915}}  # a common Android phone


def finished_vegas(names: list[str]) -> dict[str, object]:
    """The first goes out, the others hold 60 and expire (max 50): the first wins $3.00."""
    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"max_score": 50, "buy_in": 100, "pot_split": [100], "currency": "USD"},
        "players": names,
        "first_dealer": names[0],
        "rounds": [{"went_out": names[0], "hands": dict.fromkeys(names[1:], 60)}],
    }


def middle(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None, locator
    return box["y"] + box["height"] / 2


def test_each_transfer_is_one_line_with_its_pay_link_and_mark_paid(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    page = new_context(**PHONE).new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Dee", "Ann", "Bob", "Cy"])
    game = keeper.import_game(night, finished_vegas(["Dee", "Ann", "Bob", "Cy"]))
    expect(page.locator("#pot-h")).to_have_text("Dee wins $3.00")
    keeper.goto("/regulars")
    keeper.follow(keeper.link("Dee"))
    page.get_by_label("How").first.select_option("paypal")
    page.get_by_label("Handle, IBAN or text").first.fill("deepays")
    keeper.tap(keeper.button("Save ways to pay"))
    expect(page.locator("p.flash")).to_contain_text("Ways to pay saved")

    keeper.goto(f"/nights/{night}/payout")
    lines = page.locator("#settle ul.pay-list li.pay")
    expect(lines).to_have_count(3)
    for i in range(3):
        line = lines.nth(i)
        sentence = line.locator(".pay-sentence")
        pay = line.get_by_role("link", name="Pay Dee with PayPal.me")
        mark = line.get_by_role("button", name="Mark paid")
        expect(pay).to_have_attribute("href", "https://paypal.me/deepays/1.00USD")
        # Side by side: one line, not three stacked.
        assert abs(middle(sentence) - middle(pay)) < 12, (sentence.bounding_box(), pay)
        assert abs(middle(pay) - middle(mark)) < 12, (pay.bounding_box(), mark.bounding_box())
    # Listed once: the page's summary below does not list them again.
    expect(page.locator(".summary .transfers")).to_have_count(0)
    expect(page.get_by_text("Cy pays Dee $1.00", exact=True)).to_have_count(1)

    keeper.tap(lines.filter(has_text="Cy pays Dee").get_by_role("button", name="Mark paid"))
    expect(page.locator("p.flash")).to_be_visible()
    expect(page.locator("#settle ul.pay-list li.pay")).to_have_count(2)
    expect(page.locator("ul.ledger")).to_contain_text("Cy paid Dee $1.00")
    assert keeper.api_game(game)["standings"]["finished"]
