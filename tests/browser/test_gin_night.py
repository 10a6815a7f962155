"""A Gin Rummy game tapped through a real Chromium at 390 px: the Gin tile, two players
(three refused with a sentence), each hand by who knocked, how and both deadwoods (one
counted on the card counter with Gin's values, the knocker's field kept), an undercut, a
wash, the end with a shutout: the sheet's bonus lines, final scores, margin and money,
checked against a hand computation from RULES.md and against the engine."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.keeper import Keeper
from tests.browser.layout import layout_problems

pytestmark = pytest.mark.browser


def tap_how(keeper: Keeper, label: str) -> None:
    choice = keeper.page.locator("fieldset.how label").filter(
        has_text=re.compile(rf"^\s*{label}\s*$")
    )
    keeper.tap(choice)
    expect(choice.get_by_role("radio")).to_be_checked()


def test_a_gin_game_on_a_phone(page: Page, live_server: str) -> None:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])

    # Three seated: refused with a sentence, nothing started.
    keeper.goto(f"/nights/{night}/games/new?variant=gin")
    keeper.tap(keeper.button("Start the game"))
    expect(page.locator("main")).to_contain_text(
        "Gin Rummy is played by exactly two players (got 3): give seats to two players only."
    )
    game = keeper.new_game(night, "Gin Rummy", ["Ann", "Bob"], settings={"Stake per point": "0.10"})

    # Hand 1: Ann knocks with 8; Bob's 5 is counted on the counter (A 1 + 4): an undercut,
    # Bob scores (8 - 5) + 25 = 28.
    keeper.follow(keeper.link("Enter hand 1"))
    expect(page.locator("fieldset.entry legend")).to_have_text("Who knocked? Then both deadwoods")
    assert layout_problems(page) == []
    keeper.tap(keeper.went_out_choice("Ann"))
    # The knocker's row is marked and keeps its deadwood field.
    expect(keeper.hand_box("Ann")).to_have_class(re.compile(r"\bis-out\b"))
    expect(keeper.hand_input("Ann")).to_be_visible()
    expect(keeper.hand_input("Ann")).to_be_enabled()
    keeper.hand_input("Ann").fill("8")
    keeper.tap_cards("Bob", [("A", 1), ("4", 4)])
    expect(keeper.hand_sum("Bob")).to_have_text("= 5")
    box = keeper.counter("Bob")
    assert box.locator("[data-card=JK]").count() == 0  # Gin has no jokers
    expect(box.get_by_role("button", name="K (10 points)", exact=True)).to_be_visible()
    tap_how(keeper, "Knock")
    assert layout_problems(page) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "gin-knocker-390.png"), full_page=True)
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 28}
    expect(page.locator("tr#r1")).to_contain_text("U")

    # A knock with 0 deadwood is refused with the engine's sentence, nothing saved.
    keeper.follow(keeper.link("Enter hand 2"))
    keeper.fill_round("Bob", {"Ann": "40", "Bob": "0"})
    tap_how(keeper, "Knock")
    keeper.save()
    expect(page.locator("main")).to_contain_text(
        "round 2: Bob knocked with 0 deadwood: that is gin, not a knock"
    )
    # Hand 2, as it was: Bob goes gin against 40: 25 + 40 = 65, Bob 93.
    tap_how(keeper, "Gin")
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 93}

    # Hand 3: a wash, nothing typed.
    keeper.follow(keeper.link("Enter hand 3"))
    keeper.tap(keeper.went_out_choice("Nobody: a wash"))
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 93}

    # Hand 4: Bob knocks 2 v 30: 28, Bob 121 reaches 100. Ann won no hand: a shutout,
    # 121 x 2 = 242 + game 100 + 3 boxes x 25 = 417; margin 417 at $0.10 = $41.70.
    keeper.follow(keeper.link("Enter hand 4"))
    keeper.fill_round("Bob", {"Ann": "30", "Bob": "2"})
    tap_how(keeper, "Knock")
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 417}
    tally = {
        squeeze_row(row): None for row in page.locator("table.grid tfoot tr").all_inner_texts()
    }
    for line in ("Boxes 0 3", "Shutout ×2 0 242", "Game bonus 0 100", "Box bonus 0 75",
                 "Final 0 417", "Margin 417", "Stake -$41.70 +$41.70"):  # fmt: skip
        assert line in tally, (line, tally)
    expect(page.locator("section.pot h2")).to_have_text("Bob wins $41.70")
    data = keeper.api_game(game)
    assert data["standings"]["winners"] == ["Bob"]
    assert {p["name"]: p["total"] for p in data["standings"]["players"]} == {"Ann": 0, "Bob": 417}
    assert data["standings"]["pot"]["balances"] == {"Ann": -4170, "Bob": 4170}
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert layout_problems(page) == []


def squeeze_row(text: str) -> str:
    return " ".join(text.split())
