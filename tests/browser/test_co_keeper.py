"""A co-keeper in a real Chromium at phone size (390x844): the owner makes the night's
keeper link (QR code and link on the night page); a second phone, logged out, opens the
link, signs up and logs in on the way back to it, confirms "Keep <night> with <owner>?",
and enters a round; the owner's sheet shows it, and the history says who entered it. The
owner removes the co-keeper, whose next tap finds nothing, and whose old link does not
let them back in until the owner does; removed again with the link turned off too."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.keeper import PASSWORD, Keeper

pytestmark = pytest.mark.browser

OWNER, CO = "keeper@example.com", "carol@example.com"


def test_a_co_keeper_joins_by_the_link_and_enters_a_round_the_owner_sees(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    owner = Keeper(new_context().new_page(), live_server)
    owner.sign_up(OWNER)
    night = owner.start_night(["Ann", "Bob", "Cy"])
    game = owner.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    sheet = owner.path().split("?")[0]

    owner.goto(f"/nights/{night}")
    owner.tap(owner.button("Keeper link"))
    expect(owner.page.get_by_role("img", name="QR code of the keeper link")).to_be_visible()
    link = owner.page.get_by_label("Keeper link").input_value()
    assert re.fullmatch(re.escape(live_server) + r"/keep/[A-Za-z0-9_-]{22}", link), link
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    owner.page.screenshot(path=str(SCREENSHOTS / "co-keeper-link-390.png"), full_page=True)

    # Another phone, logged out, opens the link: who invites to which night, then log in,
    # or sign up on the way.
    co = Keeper(new_context().new_page(), live_server)
    co.page.goto(link)
    expect(co.page.get_by_role("heading", level=1)).to_contain_text("invites you to keep")
    co.tap(co.link("Create an account"))
    co.page.get_by_label("Email").fill(CO)
    co.page.get_by_label("Password", exact=True).fill(PASSWORD)
    co.page.get_by_label("Password again").fill(PASSWORD)
    co.tap(co.button("Sign up"))
    expect(co.page.locator("p.flash")).to_contain_text("Sign-up received: now log in")
    co.page.get_by_label("Email").fill(CO)
    co.page.get_by_label("Password", exact=True).fill(PASSWORD)
    co.tap(co.button("Log in"))
    expect(co.page).to_have_url(link)
    heading = co.page.get_by_role("heading", level=1)
    expect(heading).to_have_text(f"Keep Friday cards with {OWNER}?")
    co.tap(co.button("Keep this night"))
    expect(co.page).to_have_url(re.compile(rf"/nights/{night}$"))
    expect(co.page.locator("p.flash")).to_contain_text(f"You keep Friday cards with {OWNER} now.")
    expect(co.button("Delete this night")).to_have_count(0)

    # The co-keeper enters round 1 on the owner's game.
    co.follow(co.page.locator(f'a[href="/games/{game}"]').first)
    co.wait_for_sheet()
    expect(co.link("Delete game")).to_have_count(0)
    assert co.enter_round("Ann", {"Bob": "12", "Cy": "7"}) == 1
    expect(co.page.locator("table.grid tr.totals")).to_contain_text("19")

    # The owner sees it, and who entered it.
    owner.goto(sheet)
    owner.wait_for_sheet()
    assert owner.totals() == {"Ann": 19, "Bob": 0, "Cy": 0}  # Rummy: the others pay Ann
    owner.goto(f"{sheet}/history")
    expect(owner.page.locator("ol.history li").first).to_contain_text(f"{CO}")
    expect(owner.page.locator("ol.history li").first).to_contain_text("Deal 1: Ann went out")

    # The owner removes the co-keeper: the next tap on their phone finds nothing.
    owner.goto(f"/nights/{night}")
    expect(owner.page.locator("#keepers")).to_contain_text(CO)
    asked: list[str] = []

    def accept(dialog) -> None:  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        dialog.accept()

    owner.page.once("dialog", accept)
    owner.tap(owner.button(f"Remove {CO}"))
    expect(owner.page.locator("p.flash")).to_contain_text(f"{CO} no longer keeps Friday cards.")
    assert "the keeper link will not let them back in until you tap Let back in" in asked[0]
    assert "goes off too" not in asked[0]
    response = co.page.goto(f"{live_server}{sheet}")
    assert response is not None and response.status == 404

    # The link they already have does not make them a co-keeper again.
    response = co.page.goto(link)
    assert response is not None and response.status == 403
    heading = co.page.get_by_role("heading", level=1)
    expect(heading).to_have_text(f"{OWNER} removed you from Friday cards")
    expect(co.button("Keep this night")).to_have_count(0)

    # The owner lets them back in; the link works for them again.
    owner.page.once("dialog", accept)
    owner.tap(owner.button(f"Let {CO} back in"))
    expect(owner.page.locator("p.flash")).to_contain_text(f"{CO} may keep Friday cards again")
    co.page.goto(link)
    co.tap(co.button("Keep this night"))
    expect(co.page).to_have_url(re.compile(rf"/nights/{night}$"))

    # Removed again with the link off too: the question says so, and the link is off.
    owner.goto(f"/nights/{night}")
    owner.page.get_by_label("Turn the keeper link off too").check()
    owner.page.once("dialog", accept)
    owner.tap(owner.button(f"Remove {CO}"))
    expect(owner.page.locator("p.flash")).to_contain_text("The keeper link is off too")
    assert "The keeper link goes off too" in asked[-1]
    response = co.page.goto(link)
    assert response is not None and response.status == 404
