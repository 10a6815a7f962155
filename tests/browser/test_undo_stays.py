"""Issue 22, point 6, in Chromium: after a round is saved, Undo stays on the sheet (it hid
after 8 s) and is still there when the sheet is opened again from the night page; tapped,
it removes that round (the stored game re-read); once the next round is saved, the Undo
is that round's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser


def test_undo_stays_until_the_next_round(page: Page, live_server: str) -> None:
    page.clock.install()  # the page's timers run only when the test says
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    game = keeper.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    keeper.enter_round("Ann", {"Bob": "5", "Cy": "7"})
    undo = page.locator("form.undo")
    expect(undo).to_contain_text("Deal 1 saved.")
    page.clock.run_for(60_000)  # a minute at the table
    expect(undo.get_by_role("button", name="Undo")).to_be_visible()

    keeper.goto(f"/nights/{night}")
    keeper.goto(f"/games/{game}")
    expect(undo).to_contain_text("Deal 1 saved.")
    keeper.enter_round("Bob", {"Ann": "3", "Cy": "4"})
    expect(undo).to_contain_text("Deal 2 saved.")
    page.clock.run_for(60_000)
    keeper.tap(undo.get_by_role("button", name="Undo"))
    expect(page.locator("p.flash")).to_contain_text("Deal 2 removed")
    expect(page.locator("form.undo")).to_have_count(0)
    assert keeper.api_game(game)["standings"]["rounds_played"] == 1
    assert keeper.totals() == {"Ann": 12, "Bob": 0, "Cy": 0}  # round 1 as it was
