"""A Pool Rummy game on a 390 px phone, tapped through a real Chromium: the pool's numbers
following the pool chosen, the deal's wild rank counting 0 on the card counter, one-tap
markers, "Rejoin or out?", and the split with its shares shown before it is saved. Every
number is worked by hand from RULES.md and checked against the engine (the API)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keeper import Keeper
from tests.browser.layout import layout_problems

pytestmark = pytest.mark.browser

PEOPLE = ["Ann", "Bob", "Cy", "Dee"]


def marker(keeper: Keeper, name: str, label: str) -> None:
    """Tap a hand marker of a player's row ("Drop 20", "Full 80")."""
    keeper.tap(keeper.hand_box(name).locator("label.marker").filter(has_text=label))


def test_a_pool_game_on_a_phone(page: Page, live_server: str) -> None:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(PEOPLE)

    # The pool chosen shows its numbers: 61's first drop is 15, 101's 20.
    keeper.goto(f"/nights/{night}/games/new?variant=pool")
    keeper.tap(page.locator("details.rules summary"))
    page.get_by_label("Pool", exact=True).select_option("61")
    expect(page.get_by_label("First drop", exact=True)).to_have_attribute("placeholder", "15")
    page.get_by_label("Pool", exact=True).select_option("101")
    expect(page.get_by_label("Rejoin limit", exact=True)).to_have_attribute("placeholder", "79")
    game = keeper.new_game(night, "Pool Rummy", PEOPLE, settings={"Buy-in": "5.00"})
    assert keeper.api_game(game)["record"]["settings"]["first_drop"] == 20

    # Deal 1, sevens cut: a seven counts 0 on the counter. Ann shows; Bob K 7 = 10 + 0;
    # Cy 79 typed; Dee taps Full (80).
    keeper.follow(keeper.link("Enter deal 1"))
    page.get_by_label("Wild rank cut this deal").select_option("7")
    keeper.tap(keeper.went_out_choice("Ann"))
    keeper.tap_cards("Bob", [("K", 10), ("7", 0)])
    expect(keeper.hand_sum("Bob")).to_have_text("= 10")
    keeper.hand_input("Cy").fill("79")
    marker(keeper, "Dee", "Full 80")
    assert layout_problems(page) == []
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 10, "Cy": 79, "Dee": 80}
    assert "FC" in keeper.cell(1, "Dee")

    # Deal 2: Ann shows; Bob taps Drop (20): 30; Cy 0: 79; Dee 21: 101, out. Nobody in
    # is above 79: rejoin at 79 + 1 = 80 for $5.00 again.
    keeper.follow(keeper.link("Enter deal 2"))
    keeper.tap(keeper.went_out_choice("Ann"))
    marker(keeper, "Bob", "Drop 20")
    keeper.hand_input("Cy").fill("0")
    keeper.hand_input("Dee").fill("21")
    keeper.save()
    question = page.locator("fieldset.rejoin-question")
    expect(question).to_contain_text("Dee reached 101. Rejoin for $5.00 (back at 80) or out?")
    keeper.tap(question.get_by_text("Rejoin $5.00, back at 80"))
    assert layout_problems(page) == []
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 30, "Cy": 79, "Dee": 80}
    assert re.search(r"101\s*→\s*80", keeper.cell(2, "Dee")) and "RJ" in keeper.cell(2, "Dee")
    # Drops left: floor((100 - total) / 20): Ann 5, Bob 3, Cy 1, Dee 1.
    drops = page.locator("table.grid tr.figures td").all_inner_texts()
    assert [d.strip() for d in drops] == ["5", "3", "1", "1"]

    # The split, by drops left 5 : 3 : 1 : 1 of the $25.00 pot: $12.50, $7.50, $2.50,
    # $2.50 (no cent left over).
    keeper.follow(keeper.link("Split the pot"))
    ways = page.locator("fieldset.split-way")
    by_drops = ways.filter(has_text="By drops left")
    expect(by_drops).to_contain_text("$12.50")
    expect(by_drops).to_contain_text("$7.50")
    assert layout_problems(page) == []
    keeper.tap(by_drops.locator("label.choice"))
    keeper.tap(keeper.button("Confirm the split"))
    keeper.wait_for_sheet()
    expect(page.locator("section.banner.finished")).to_contain_text(
        "Ann & Bob & Cy & Dee split the pot (by drops left) after 2 deals"
    )
    balances = keeper.api_game(game)["standings"]["pot"]["balances"]
    assert balances == {"Ann": 750, "Bob": 250, "Cy": -250, "Dee": 250 - 1000}
    # What is folded (the table rules, the chart) is checked open too.
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    problems = layout_problems(page)
    page.screenshot(path="/tmp/pool-sheet.png", full_page=True)
    assert problems == [], "\n".join(problems)
