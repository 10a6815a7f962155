"""The card counter in a real Chromium on a phone, for every variant: tapped cards add up
(7 then 8 is "7 8", never 8), the sum beside the field uses this round's values and
multiplier, and what is saved is exactly that hand: checked in the stored record (GET
/api/v1/games/<id>) and on the sheet, not only on the form. Also: "Remove last card" and
Clear, typed points over tapped cards (typed wins), a tap over typed points (the card's
value adds to them: typed 12, tapped 3 is "12+3", 15 points), and a correction saved
unchanged keeping a card hand as cards. Issue 22, point 3: the pad's keys in one order in
every game (A first) with this round's values on them; its Next (Done on the last hand)
moves on to the next hand; the taps of a round with one hand counted."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.rules import VARIANTS
from tests.browser.keeper import Keeper, texas_record
from tests.browser.test_round_entry import EVENT_COUNTER, FIVE, PHONE, Thumb

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
    assert set(VARIANTS) == {
        "vegas",
        "texas",
        "rummy",
        "multiplayer",
        "dummy",
        "contract",
        "gin",
        "pool",
    }, (  # fmt: skip
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
    # typed then cards tapped (each card's value this round adds to the points).
    keeper.follow(keeper.link("Enter round 10"))
    keeper.fill_round("Bob", {})
    keeper.tap_cards("Ann", [("K", 10), ("Q", 20)])
    shows(keeper, "Ann", "K Q", "30 → 60")
    keeper.hand_input("Ann").fill("12")
    shows(keeper, "Ann", "12", "12 → 24")
    keeper.hand_input("Cy").fill("15")
    shows(keeper, "Cy", "15", "15 → 30")
    keeper.tap_cards("Cy", [("A", 20)])
    shows(keeper, "Cy", "15+20", "35 → 70")
    keeper.tap_cards("Cy", [("8", 8), ("Q", 20)])
    shows(keeper, "Cy", "15+20+8+20", "63 → 126")
    keeper.tap(keeper.counter("Cy").get_by_role("button", name="Remove last card", exact=True))
    shows(keeper, "Cy", "15+20+8", "43 → 86")
    stored = saved_round(keeper, game, 10)
    assert stored["hands"] == {"Ann": 12, "Cy": 43}
    after10 = {"Ann": after9["Ann"] + 24, "Bob": after9["Bob"], "Cy": after9["Cy"] + 86}
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
    keeper.follow(keeper.link("Enter deal 1"))
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


def test_gin_counter_counts_both_deadwoods(page: Page, live_server: str) -> None:
    keeper, night = start(page, live_server, ["Ann", "Bob"])
    game = keeper.new_game(night, "Gin Rummy", ["Ann", "Bob"])
    keeper.follow(keeper.link("Enter hand 1"))
    keeper.fill_round("Ann", {})
    # A 1, 2-10 face value, J Q K 10, no joker; the knocker's deadwood is counted too.
    assert keeper.counter("Ann").locator("[data-card=JK]").count() == 0
    keeper.tap_cards("Ann", [("A", 1), ("2", 2)])
    shows(keeper, "Ann", "A 2", "= 3")
    keeper.tap_cards("Bob", [("K", 10), ("Q", 10), ("7", 7)])
    shows(keeper, "Bob", "K Q 7", "= 27")
    stored = saved_round(keeper, game, 1)
    assert stored == {
        "went_out": "Ann",
        "how": "knock",
        "hands": {"Ann": ["A", "2"], "Bob": ["K", "Q", "7"]},
    }
    # A knock, 3 against 27: Ann scores 27 - 3 = 24.
    assert keeper.totals() == {"Ann": 24, "Bob": 0}
    assert engine_totals(keeper, game) == keeper.totals()


def test_pool_counter_the_cut_rank_and_jokers_count_0_and_the_cap(
    page: Page, live_server: str
) -> None:
    keeper, night = start(page, live_server, ["Ann", "Bob", "Cy"])
    game = keeper.new_game(night, "Pool Rummy", ["Ann", "Bob", "Cy"])
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {})
    # A K Q J 10 count 10, 2-9 face value, jokers 0: A 9 JK = 10 + 9 + 0.
    keeper.tap_cards("Bob", [("A", 10), ("9", 9), ("JK", 0)])
    shows(keeper, "Bob", "A 9 JK", "= 19")
    # Nines cut: every nine counts 0 from now on, on the pad and in the sum.
    page.get_by_label("Wild rank cut this deal").select_option("9")
    shows(keeper, "Bob", "A 9 JK", "= 10")
    keeper.tap_cards("Bob", [("9", 0)])
    shows(keeper, "Bob", "A 9 JK 9", "= 10")
    # Nine kings: 90 counted, 80 scored (the full count of a 101 pool).
    keeper.hand_input("Cy").fill("K K K K K K K K K")
    expect(keeper.hand_sum("Cy")).to_have_text("= 90 → 80")
    stored = saved_round(keeper, game, 1)
    assert stored["wild"] == "9" and stored["hands"]["Bob"] == ["A", "9", "JK", "9"]
    assert keeper.totals() == {"Ann": 0, "Bob": 10, "Cy": 80}
    assert engine_totals(keeper, game) == keeper.totals()


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
    keeper.follow(keeper.link(re.compile(r"^Enter (?:round|deal) 1$")))
    keeper.fill_round("Ann", {})
    counter = keeper.counter("Bob")
    expect(counter.get_by_role("button", name=re.compile(r"^JK "))).to_have_count(0)
    # Face values: 7 then 8 is 15 (not 8), A 1, K 10.
    keeper.tap_cards("Bob", [("7", 7), ("8", 8)])
    shows(keeper, "Bob", "7 8", "= 15")
    # Points typed, then cards tapped: each adds its value to the points (12+3 is 15).
    keeper.hand_input("Cy").fill("12")
    shows(keeper, "Cy", "12", "= 12")
    keeper.tap_cards("Cy", [("3", 3)])
    shows(keeper, "Cy", "12+3", "= 15")
    keeper.tap_cards("Cy", [("A", 1), ("K", 10)])
    shows(keeper, "Cy", "12+3+1+10", "= 26")
    stored = saved_round(keeper, game, 1)
    assert stored["hands"] == {"Bob": ["7", "8"], "Cy": 26}
    assert keeper.totals() == {"Ann": 15 + 26, "Bob": 0, "Cy": 0}
    assert engine_totals(keeper, game) == keeper.totals()
    assert keeper.cell(1, "Ann") == "41 +41 ★"  # the goer-out scores the hands


# ------------------------------------------------- the pad's order and its Next key ---
ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def pad_keys(keeper: Keeper, name: str) -> list[tuple[str, str]]:
    """The pad's card keys in page order: (card, points shown on the key)."""
    keys = keeper.counter(name).locator("[data-card]")
    return [
        (k.get_attribute("data-card") or "", k.locator("small").inner_text()) for k in keys.all()
    ]


@pytest.mark.parametrize(
    ("title", "settings", "extra", "values"),
    [
        ("Vegas Rummy", {"Aces count": "13"}, ["JK", "W"], {"A": "13", "2": "2", "K": "10"}),
        ("Dummy Rummy", {}, ["JK"], {"A": "15", "2": "50", "7": "5", "K": "10"}),
        ("Rummy", {}, [], {"A": "1", "2": "2", "7": "7", "K": "10"}),
    ],
)
def test_the_pad_keeps_one_order_with_the_rounds_values(
    page: Page,
    live_server: str,
    title: str,
    settings: dict[str, str],
    extra: list[str],
    values: dict[str, str],
) -> None:
    """A first, then 2 to 10, J Q K, the joker and the flipped wild, whatever each counts
    in this game (Dummy's A 15 and 2 50 used to sort after the 3 to 9 at 5)."""
    keeper, night = start(page, live_server, ["Ann", "Bob", "Cy"])
    keeper.new_game(night, title, ["Ann", "Bob", "Cy"], settings=settings)
    keeper.follow(keeper.link(re.compile(r"^Enter (?:round|deal) 1$")))
    keeper.fill_round("Ann", {})
    keys = pad_keys(keeper, "Bob")
    assert [code for code, _ in keys] == ORDER + extra
    shown = dict(keys)
    assert {code: shown[code] for code in values} == values


def test_texas_pad_order_stays_while_the_wild_rank_moves(page: Page, live_server: str) -> None:
    """Texas round 9 (jacks wild, 20) and 10 (queens wild): the same order, new values."""
    players = ["Ann", "Bob", "Cy"]
    keeper, night = start(page, live_server, players)
    game = keeper.import_game(night, texas_record(players, 8))
    keeper.follow(keeper.link("Enter round 9"))
    keeper.fill_round("Ann", {})
    nine = dict(pad_keys(keeper, "Bob"))
    assert list(nine) == [*ORDER, "JK"]
    assert (nine["J"], nine["Q"], nine["2"]) == ("20", "10", "20")
    keeper.hand_input("Bob").fill("5")
    keeper.hand_input("Cy").fill("6")
    saved_round(keeper, game, 9)
    keeper.follow(keeper.link("Enter round 10"))
    keeper.fill_round("Bob", {})
    ten = dict(pad_keys(keeper, "Ann"))
    assert list(ten) == [*ORDER, "JK"]
    assert (ten["J"], ten["Q"]) == ("10", "20")


def test_next_on_the_pad_moves_on_to_the_next_hand(page: Page, live_server: str) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    keeper, night = start(page, live_server, players)
    game = keeper.new_game(night, "Rummy", players)
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.tap(keeper.went_out_choice("Bob"))  # Ann deals, Bob starts: Cy, Dee, Ann
    expect(keeper.hand_input("Cy")).to_be_focused()
    keeper.tap_cards("Cy", [("K", 10), ("7", 7)])
    box = keeper.hand_box("Cy")
    keeper.tap(box.get_by_role("button", name="Next", exact=True))
    expect(box.locator(".cards-pad")).to_be_hidden()
    expect(keeper.hand_input("Dee")).to_be_focused()
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    expect(keeper.hand_input("Ann")).to_be_focused()
    # The last hand's pad says Done: it folds, and there is no hand after it.
    keeper.tap_cards("Ann", [("Q", 10)])
    last = keeper.hand_box("Ann")
    expect(last.get_by_role("button", name="Next", exact=True)).to_have_count(0)
    keeper.tap(last.get_by_role("button", name="Done", exact=True))
    expect(last.locator(".cards-pad")).to_be_hidden()
    expect(page.locator("input.hand-input:focus")).to_have_count(0)
    stored = saved_round(keeper, game, 1)
    assert stored["hands"] == {"Cy": ["K", "7"], "Dee": 9, "Ann": ["Q"]}
    assert keeper.totals() == {"Ann": 0, "Bob": 36, "Cy": 0, "Dee": 0}


def test_taps_for_a_round_with_one_counted_hand(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """Round 1 of a 5-player Vegas game from the sheet: Ann went out; Bob 12, Cy's cards
    counted on the pad (K 7), Dee 30, Eve 4. Before issue 22: 8 taps (7 on the round
    screen): the pad's Done left the keeper on its Cards button, so Dee's field took a
    tap. Now the pad's Next moves on to Dee's field: 7 (6 on the round screen)."""
    context = new_context(**PHONE)
    context.add_init_script(EVENT_COUNTER)
    page = context.new_page()
    keeper, night = start(page, live_server, FIVE)
    game = keeper.new_game(night, "Vegas Rummy", FIVE)
    page.evaluate("() => sessionStorage.clear()")
    thumb = Thumb(page)
    thumb.tap(keeper.link("Enter round 1"), "Enter round 1")
    page.wait_for_url(f"**/games/{game}/rounds/new")
    thumb.tap(keeper.went_out_choice("Ann"), "Ann went out")
    expect(keeper.hand_input("Bob")).to_be_focused()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    cy = keeper.hand_box("Cy")
    thumb.tap(cy.locator("button.count-cards"), "Cy: Cards")
    thumb.tap(cy.get_by_role("button", name="K (10 points)", exact=True), "K")
    thumb.tap(cy.get_by_role("button", name="7 (7 points)", exact=True), "7")
    thumb.tap(cy.locator("[data-pad-done]"), "pad: Next")
    if not keeper.hand_input("Dee").evaluate("e => e === document.activeElement"):
        thumb.tap(keeper.hand_input("Dee"), "Dee's field")  # as before issue 22
    for digits in ("30", "4"):
        page.keyboard.type(digits)
        page.keyboard.press("Enter")
    thumb.tap(keeper.button("Save round 1"), "Save")
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 12, "Cy": 17, "Dee": 30, "Eve": 4}
    assert keeper.api_game(game)["record"]["rounds"][0]["hands"]["Cy"] == ["K", "7"]
    counts = thumb.page_counts()
    print("taps for a round with one counted hand:", len(thumb.taps), thumb.taps, counts)
    assert counts["taps"] == len(thumb.taps), (counts, thumb.taps)
    assert len(thumb.taps) == 7 and len(thumb.taps) - 1 == 6, thumb.taps
    assert not thumb.swipes, thumb.swipes
