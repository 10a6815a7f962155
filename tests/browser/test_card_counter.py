"""The card counter in a real Chromium on a phone, for every variant: tapped cards add up
(7 then 8 is "7 8", never 8), the sum beside the field uses this round's values and
multiplier, and what is saved is exactly that hand: checked in the stored record (GET
/api/v1/games/<id>) and on the sheet, not only on the form. Also: "Remove last card" and
Clear, typed points over tapped cards (typed wins), a tap over typed points (cards win),
and a correction saved unchanged keeping a card hand as cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import VARIANTS
from tests.browser.keeper import Keeper, texas_record

pytestmark = pytest.mark.browser


def shows(keeper: Keeper, name: str, field: str, total: str) -> None:
    """The hand field and the sum beside it, as the keeper reads them."""
    expect(keeper.hand_input(name)).to_have_value(field)
    expect(keeper.hand_sum(name)).to_have_text(total)


def saved_round(keeper: Keeper, game: int, number: int) -> dict[str, Any]:
    """Save the round on screen; back on the sheet; the round as stored."""
    keeper.save()
    keeper.wait_for_sheet()
    expect(keeper.page.locator(f"tr#r{number}")).to_be_visible()
    data = keeper.api_game(game)
    assert data["standings"]["rounds_played"] >= number, data["standings"]
    return data["record"]["rounds"][number - 1]


def engine_totals(keeper: Keeper, game: int) -> dict[str, int]:
    players = keeper.api_game(game)["standings"]["players"]
    return {p["name"]: p["total"] for p in players}


def start(page: Page, live_server: str, people: list[str]) -> tuple[Keeper, int]:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    return keeper, keeper.start_night(people)


def test_every_variant_is_covered_here() -> None:
    assert set(VARIANTS) == {"vegas", "texas", "rummy", "multiplayer", "dummy", "contract"}, (
        "a new variant needs its card-counter test below"
    )


def test_vegas_counter_flipped_wild_joker_high_ace(page: Page, live_server: str) -> None:
    keeper, night = start(page, live_server, ["Ann", "Bob", "Cy"])
    game = keeper.new_game(
        night, "Vegas Rummy", ["Ann", "Bob", "Cy"], settings={"Aces count": "13"}
    )
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Ann", {}, wild="7C")

    # Two number cards in a row add up; then W (the flipped wild, 25), JK 25, A 13.
    keeper.tap_cards("Bob", [("7", 7)])
    shows(keeper, "Bob", "7", "= 7")
    keeper.tap_cards("Bob", [("8", 8)])
    shows(keeper, "Bob", "7 8", "= 15")
    keeper.tap_cards("Bob", [("W", 25), ("JK", 25), ("A", 13)])
    shows(keeper, "Bob", "7 8 W JK A", "= 78")

    # Remove last card, tap again, Clear, tap again: the field and sum follow each step.
    keeper.tap_cards("Cy", [("9", 9), ("9", 9), ("Q", 10)])
    shows(keeper, "Cy", "9 9 Q", "= 28")
    box = keeper.counter("Cy")
    keeper.tap(box.get_by_role("button", name="Remove last card", exact=True))
    shows(keeper, "Cy", "9 9", "= 18")
    keeper.tap_cards("Cy", [("5", 5)])
    shows(keeper, "Cy", "9 9 5", "= 23")
    keeper.tap(box.get_by_role("button", name="Clear", exact=True))
    shows(keeper, "Cy", "", "")
    keeper.tap_cards("Cy", [("3", 3), ("2", 2)])
    shows(keeper, "Cy", "3 2", "= 5")

    stored = saved_round(keeper, game, 1)
    assert stored["hands"] == {"Bob": ["7", "8", "W", "JK", "A"], "Cy": ["3", "2"]}
    assert stored["wild"] == "7C"
    assert keeper.totals() == {"Ann": 0, "Bob": 78, "Cy": 5}
    assert engine_totals(keeper, game) == keeper.totals()
    assert keeper.cell(1, "Bob") == "78 +78"


def test_texas_counter_wild_rank_twos_jokers_and_multipliers(page: Page, live_server: str) -> None:
    players = ["Ann", "Bob", "Cy"]
    keeper, night = start(page, live_server, players)
    game = keeper.import_game(night, texas_record(players, 8))
    before = keeper.totals()
    assert engine_totals(keeper, game) == before

    # Round 9, jacks wild, x2: J 20 (the round's wild rank), 2 20, JK 50, then 7 and 8.
    keeper.follow(keeper.link("Enter round 9"))
    expect(page.locator("main > p.banner-main")).to_contain_text("Jacks wild")
    keeper.fill_round("Ann", {})
    keeper.tap_cards("Bob", [("J", 20), ("2", 20), ("JK", 50), ("7", 7)])
    shows(keeper, "Bob", "J 2 JK 7", "97 → 194")
    keeper.tap_cards("Bob", [("8", 8)])
    shows(keeper, "Bob", "J 2 JK 7 8", "105 → 210")
    keeper.tap_cards("Cy", [("2", 20)])  # a lone 2 is the card, 20: never 2 points
    shows(keeper, "Cy", "2", "20 → 40")
    stored = saved_round(keeper, game, 9)
    assert stored["hands"] == {"Bob": ["J", "2", "JK", "7", "8"], "Cy": ["2"]}
    assert keeper.cell(9, "Bob") == f"{before['Bob'] + 210} +210"
    assert keeper.cell(9, "Cy") == f"{before['Cy'] + 40} +40"

    # The correction form shows the stored cards as cards; saved unchanged, they stay.
    keeper.tap(keeper.link("Edit round 9"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct round 9")
    shows(keeper, "Cy", "2", "20 → 40")
    shows(keeper, "Bob", "J 2 JK 7 8", "105 → 210")
    assert saved_round(keeper, game, 9)["hands"] == stored["hands"]
    after9 = {"Ann": before["Ann"], "Bob": before["Bob"] + 210, "Cy": before["Cy"] + 40}
    assert keeper.totals() == after9

    # Round 10, queens wild, x2: cards tapped then points typed (typed wins), and points
    # typed then cards tapped (the cards replace them).
    keeper.follow(keeper.link("Enter round 10"))
    keeper.fill_round("Bob", {})
    keeper.tap_cards("Ann", [("K", 10), ("Q", 20)])
    shows(keeper, "Ann", "K Q", "30 → 60")
    keeper.hand_input("Ann").fill("12")
    shows(keeper, "Ann", "12", "12 → 24")
    keeper.hand_input("Cy").fill("15")
    shows(keeper, "Cy", "15", "15 → 30")
    keeper.tap_cards("Cy", [("A", 20)])
    shows(keeper, "Cy", "A", "20 → 40")
    keeper.tap_cards("Cy", [("8", 8)])
    shows(keeper, "Cy", "A 8", "28 → 56")
    stored = saved_round(keeper, game, 10)
    assert stored["hands"] == {"Ann": 12, "Cy": ["A", "8"]}
    after10 = {"Ann": after9["Ann"] + 24, "Bob": after9["Bob"], "Cy": after9["Cy"] + 56}
    assert keeper.totals() == after10

    # Round 11, kings wild, x3: K 20, a 3 is 3 now; remove a card and tap another.
    keeper.follow(keeper.link("Enter round 11"))
    keeper.fill_round("Cy", {})
    keeper.tap_cards("Ann", [("K", 20), ("3", 3)])
    shows(keeper, "Ann", "K 3", "23 → 69")
    keeper.tap_cards("Bob", [("4", 4), ("4", 4)])
    shows(keeper, "Bob", "4 4", "8 → 24")
    keeper.tap(keeper.counter("Bob").get_by_role("button", name="Remove last card", exact=True))
    shows(keeper, "Bob", "4", "4 → 12")
    keeper.tap_cards("Bob", [("5", 5)])
    shows(keeper, "Bob", "4 5", "9 → 27")
    stored = saved_round(keeper, game, 11)
    assert stored["hands"] == {"Ann": ["K", "3"], "Bob": ["4", "5"]}
    final = {"Ann": after10["Ann"] + 69, "Bob": after10["Bob"] + 27, "Cy": after10["Cy"]}
    assert keeper.totals() == final
    assert engine_totals(keeper, game) == final
    assert keeper.cell(11, "Ann") == f"{final['Ann']} +69"


def test_dummy_counter_values(page: Page, live_server: str) -> None:
    keeper, night = start(page, live_server, ["Ann", "Bob", "Cy"])
    game = keeper.new_game(night, "Dummy Rummy", ["Ann", "Bob", "Cy"])
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Ann", {})
    # 3-9 count 5 each, A 15, 2 50 (wild), JK 50, K 10.
    keeper.tap_cards("Bob", [("7", 5), ("8", 5)])
    shows(keeper, "Bob", "7 8", "= 10")
    keeper.tap_cards("Bob", [("A", 15), ("2", 50), ("JK", 50), ("K", 10)])
    shows(keeper, "Bob", "7 8 A 2 JK K", "= 135")
    keeper.tap_cards("Cy", [("2", 50)])
    shows(keeper, "Cy", "2", "= 50")
    stored = saved_round(keeper, game, 1)
    assert stored["hands"] == {"Bob": ["7", "8", "A", "2", "JK", "K"], "Cy": ["2"]}
    assert stored["contracts"] == ["Ann"]
    assert keeper.totals() == {"Ann": 0, "Bob": 135, "Cy": 50}
    assert engine_totals(keeper, game) == keeper.totals()


def test_contract_counter_values_from_the_table_rules(page: Page, live_server: str) -> None:
    keeper, night = start(page, live_server, ["Ann", "Bob", "Cy"])
    game = keeper.new_game(
        night,
        "Contract Rummy",
        ["Ann", "Bob", "Cy"],
        settings={"Aces count": "20", "Jokers count": "30"},
    )
    expect(page.locator(".banner-main")).to_have_text("Deal 1 of 7 · two sets · 10 cards")
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Ann", {})
    # 2-9 face value, 10 J Q K 10, aces and jokers as the table set them: 20 and 30.
    keeper.tap_cards("Bob", [("7", 7), ("8", 8)])
    shows(keeper, "Bob", "7 8", "= 15")
    keeper.tap_cards("Bob", [("A", 20), ("JK", 30), ("Q", 10)])
    shows(keeper, "Bob", "7 8 A JK Q", "= 75")
    keeper.tap_cards("Cy", [("2", 2)])
    shows(keeper, "Cy", "2", "= 2")
    stored = saved_round(keeper, game, 1)
    assert stored["hands"] == {"Bob": ["7", "8", "A", "JK", "Q"], "Cy": ["2"]}
    assert keeper.totals() == {"Ann": 0, "Bob": 75, "Cy": 2}
    assert engine_totals(keeper, game) == keeper.totals()
    expect(page.locator(".banner-main")).to_have_text(
        "Deal 2 of 7 · one set and one run · 10 cards"
    )


@pytest.mark.parametrize(
    ("title", "variant"), [("Rummy", "rummy"), ("Multiplayer Rummy", "multiplayer")]
)
def test_rummy_counter_the_goer_out_scores_the_hands(
    page: Page, live_server: str, title: str, variant: str
) -> None:
    players = ["Ann", "Bob", "Cy"]
    keeper, night = start(page, live_server, players)
    game = keeper.new_game(night, title, players)
    assert keeper.api_game(game)["record"]["variant"] == variant
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Ann", {})
    counter = keeper.counter("Bob")
    expect(counter.get_by_role("button", name=re.compile(r"^JK "))).to_have_count(0)
    # Face values: 7 then 8 is 15 (not 8), A 1, K 10.
    keeper.tap_cards("Bob", [("7", 7), ("8", 8)])
    shows(keeper, "Bob", "7 8", "= 15")
    # Points typed, then a card tapped: the card replaces the points, and is the card.
    keeper.hand_input("Cy").fill("30")
    shows(keeper, "Cy", "30", "= 30")
    keeper.tap_cards("Cy", [("3", 3)])
    shows(keeper, "Cy", "3", "= 3")
    keeper.tap_cards("Cy", [("A", 1), ("K", 10)])
    shows(keeper, "Cy", "3 A K", "= 14")
    stored = saved_round(keeper, game, 1)
    assert stored["hands"] == {"Bob": ["7", "8"], "Cy": ["3", "A", "K"]}
    assert keeper.totals() == {"Ann": 15 + 14, "Bob": 0, "Cy": 0}
    assert engine_totals(keeper, game) == keeper.totals()
    assert keeper.cell(1, "Ann") == "29 +29 ★"  # the goer-out scores the hands
