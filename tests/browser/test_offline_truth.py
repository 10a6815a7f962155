"""Issue 36, point 3: offline, the page tells the truth. With rounds waiting on the phone
the banner (sheet and round form) shows the round being entered, not the last one the
server saw: who deals and starts, the cards, what is wild, worked out without the
server (the same words it says once the rounds are stored); the "Offline" notice goes
when the network comes back; a waiting round the server refuses because someone expired
comes back with the re-buy / drop question on its form; and a game without stakes never
says "re-buy for $0.00"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keeper import squeeze
from tests.browser.test_offline import (
    all_stored,
    enter_waiting_round,
    offline_game,
    pending,
    settled,
)

pytestmark = pytest.mark.browser


def sheet_banner(page: Page) -> str:
    banner = page.locator("section.banner")
    lines = [banner.locator(".banner-main"), banner.locator("p:has(.badge)")]
    return " / ".join(squeeze(line.inner_text()) for line in lines)


def test_the_banner_shows_the_round_being_entered_and_offline_goes_when_back(
    page: Page, live_server: str
) -> None:
    keeper, game = offline_game(page, live_server, "Texas Rummy", first_dealer="Ann")
    before = sheet_banner(page)
    assert before.startswith("Round 1 ") and "Ann deals, Bob starts" in before, before
    enter_waiting_round(keeper, "Ann", {"Bob": "5", "Cy": "7"})
    enter_waiting_round(keeper, "Bob", {"Ann": "4", "Cy": "6"})
    # The sheet: round 3 is next, dealt by Cy, 5 cards, fives wild; the note says so.
    offline_sheet = sheet_banner(page)
    assert offline_sheet.startswith("Round 3 ") and "Cy deals, Ann starts" in offline_sheet
    expect(page.locator(".pending-note")).to_contain_text(
        "the banner shows round 3, the next to enter"
    )
    expect(page.locator("th.pn .nm.dealer")).to_have_text(re.compile(r"^Cy"))
    # The round form typed behind them: round 3's banner, not round 1's.
    keeper.follow(keeper.link("Enter round 3"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 3")
    # The kept form said "Save round 1": its button names the round it saves now (found by
    # the form's round number, so in any language).
    expect(page.locator("form.round-form button[type=submit]")).to_have_text("Save round 3")
    offline_form = squeeze(page.locator("p.banner-main").inner_text())
    assert "Cy deals, Ann starts" in offline_form, offline_form
    keeper.hand_input("Ann").fill("9")

    # The network is back: the form stops saying "Offline" and keeps what was typed.
    expect(page.locator(".flash-offline")).to_have_count(1)
    page.context.set_offline(False)
    expect(page.locator(".flash-offline")).to_have_count(0)
    expect(keeper.hand_input("Ann")).to_have_value("9")
    keeper.goto(f"/games/{game}")
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Ann", "hands": {"Bob": 5, "Cy": 7}},
            {"went_out": "Bob", "hands": {"Ann": 4, "Cy": 6}},
        ],
    )
    # What the phone worked out is what the server says now.
    assert settled(lambda: sheet_banner(page)) == offline_sheet
    keeper.follow(keeper.link("Enter round 3"))
    assert squeeze(page.locator("p.banner-main").inner_text()) == offline_form


def test_a_kept_sheet_is_loaded_again_when_the_network_is_back(
    page: Page, live_server: str
) -> None:
    keeper, game = offline_game(page, live_server)
    keeper.goto(f"/games/{game}")
    expect(page.locator(".flash-offline")).to_contain_text("Offline: showing the sheet as of")
    page.context.set_offline(False)
    expect(page.locator(".flash-offline")).to_have_count(0)
    expect(keeper.link("Enter deal 1")).to_be_visible()


def test_a_refused_expiry_comes_back_with_its_question_and_no_zero_price(
    page: Page, live_server: str
) -> None:
    keeper, game = offline_game(
        page, live_server, "Vegas Rummy", first_dealer="Ann", settings={"Buy-in": "0"}
    )
    enter_waiting_round(keeper, "Ann", {"Bob": "60", "Cy": "30"})
    enter_waiting_round(keeper, "Cy", {"Ann": "20", "Bob": "45"})  # Bob reaches 105

    page.context.set_offline(False)
    note = page.locator(".pending-note")
    expect(note).to_contain_text(
        "Round 2 was not saved: Bob reached 105. Re-buy (back to 30) or drop out?"
    )
    assert [row[0] for row in pending(page)] == ["2 not saved"]
    keeper.follow(keeper.link("Fix or discard round 2"))
    question = page.locator("fieldset.money-moment")
    expect(question).to_contain_text("Bob reached 105. Re-buy (back to 30) or drop out?")
    expect(page.get_by_role("radio", name="Re-buy, back to 30")).to_be_checked()
    assert "$0.00" not in page.locator("main").inner_text()
    page.get_by_role("radio", name="Drop out").check()
    keeper.save()  # one Save: the answer goes with the round
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Ann", "hands": {"Bob": 60, "Cy": 30}},
            {"went_out": "Cy", "hands": {"Ann": 20, "Bob": 45}, "drops": ["Bob"]},
        ],
    )
