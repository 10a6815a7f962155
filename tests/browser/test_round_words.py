"""The round page's script speaks the page's language (issue 35 with issue 33): round.js
reads its sentences from the server's table (web/script_words_round.py), so a German
phone reads the flipped card's problem and the number pad's keys in German."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser


def _vegas_game(page: Page, live_server: str) -> int:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    return keeper.new_game(night, "Vegas Rummy", ["Ann", "Bob", "Cy"])


def test_a_german_phone_reads_the_round_scripts_words_in_german(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    english = new_context()
    game = _vegas_game(english.new_page(), live_server)
    german = new_context(locale="de-DE", storage_state=english.storage_state())
    page = german.new_page()
    page.goto(f"{live_server}/games/{game}/rounds/new")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    flipped = page.get_by_label("Aufgedeckter Joker (optional)")
    flipped.fill("7")
    flipped.blur()
    expect(page.locator("#wild-error")).to_have_text(
        "Gib zu 7 die Farbe an: 7C, 7D, 7H oder 7S (oder JK für einen Joker)."
    )
    # The number pad's last key: Next (Weiter) on every hand but the last (Fertig).
    keys = page.locator("[data-pad-done]")
    expect(keys).to_have_count(3)
    expect(keys.nth(0)).to_have_text("Weiter")
    expect(keys.nth(2)).to_have_text("Fertig")
    expect(page.locator(".cards-pad button[data-card='7']").first).to_have_attribute(
        "aria-label", "7 (7 Punkte)"
    )
