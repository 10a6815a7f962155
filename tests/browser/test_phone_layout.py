"""The sheet and the round form on a small phone (360 px): no sideways page scroll, a wide
grid scrolls in its own box, thumb-sized tap targets, number pads for points, dark mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.keeper import Keeper, texas_record

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}
PEOPLE = ["Margaret", "Bob", "Christopher", "Dee", "Evelyn", "Finn", "Gus", "Henrietta",
          "Ivy", "Jo"]  # fmt: skip
MIN_TAP = 44


def page_width(page: Page) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def small_targets(locator: Locator) -> list[str]:
    """Visible elements of the locator less than 44 px high, described."""
    small = []
    for element in locator.all():
        if not element.is_visible():
            continue
        box = element.bounding_box()
        assert box is not None
        if box["height"] < MIN_TAP:
            text = " ".join(element.inner_text().split())[:30]
            small.append(f"{text!r}: {box['height']:.1f} px")
    return small


def play_one_round(keeper: Keeper, players: list[str]) -> None:
    hands = {name: str(10 + i) for i, name in enumerate(players[1:])}
    keeper.enter_round(players[0], hands)


def test_eight_and_ten_players_on_a_360_px_phone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    page = new_context(**SMALL_PHONE).new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(PEOPLE)

    eight = keeper.new_game(night, "Texas Rummy", PEOPLE[:8])
    assert page_width(page) <= 360, "the empty sheet of 8 scrolls sideways"
    keeper.follow(keeper.link("Enter round 1"))
    assert page_width(page) <= 360, "the round form of 8 scrolls sideways"

    # Every points field brings up the phone's number pad with + (inputmode=tel).
    hands = page.locator("input[name^=hand-]")
    expect(hands).to_have_count(8)
    for field in hands.all():
        expect(field).to_have_attribute("inputmode", "tel")

    # Tap targets: the went-out choices, every button and button-like link, the counter.
    keeper.counter("Bob")
    targets = page.locator("label.out-choice, button, a.button, input.hand-input")
    expect(page.locator("label.out-choice")).to_have_count(9)  # 8 players and Nobody
    assert small_targets(targets) == []
    assert page_width(page) <= 360, "the open card counter scrolls sideways"
    keeper.page.go_back()

    play_one_round(keeper, PEOPLE[:8])
    assert keeper.players() == PEOPLE[:8]
    assert page_width(page) <= 360, "the sheet of 8 scrolls sideways"
    assert small_targets(page.locator("main button, main a.button")) == []
    grid = page.locator(".grid-wrap")

    # Ten players: the grid scrolls inside its own box; the page itself still does not.
    ten = keeper.new_game(night, "Texas Rummy", PEOPLE)
    assert ten != eight
    play_one_round(keeper, PEOPLE)
    assert keeper.players() == PEOPLE
    assert page_width(page) <= 360, "the sheet of 10 scrolls sideways"
    sizes: dict[str, Any] = grid.evaluate("e => ({scroll: e.scrollWidth, client: e.clientWidth})")
    assert sizes["scroll"] > sizes["client"], sizes
    # The round labels stay in view while the grid scrolls sideways (sticky first column).
    grid.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    label = page.locator("tr#r1 th.rl")
    label_box, grid_box = label.bounding_box(), grid.bounding_box()
    assert label_box and grid_box and label_box["x"] >= grid_box["x"] - 1, (label_box, grid_box)
    assert page_width(page) <= 360
    keeper.follow(keeper.link("Enter round 2"))
    assert page_width(page) <= 360, "the round form of 10 scrolls sideways"
    assert small_targets(page.locator("label.out-choice, button, a.button")) == []


def test_texas_row_labels_are_whole_on_a_phone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """RULES.md: the sheet labels Texas rows Threes ... Kings; each label is read whole."""
    page = new_context(**SMALL_PHONE).new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy", "Dee"])
    keeper.import_game(night, texas_record(["Ann", "Bob", "Cy", "Dee"], 11))
    labels = page.locator("table.grid tbody th.rl a")
    expect(labels).to_have_count(11)
    clipped = [
        f"{text!r} needs {need} px, shows {shown} px"
        for text, need, shown in labels.evaluate_all(
            "links => links.map(a => [a.textContent, a.scrollWidth, a.clientWidth])"
        )
        if need > shown
    ]
    assert clipped == [], "row labels cut off at 360 px: " + "; ".join(clipped)


def background(page: Page) -> str:
    return str(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))


def luminance(rgb: str) -> float:
    parts = [int(float(v)) for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]


def test_dark_mode_follows_the_phone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        page = new_context(color_scheme=scheme).new_page()
        Keeper(page, live_server).goto("/login")
        colours[scheme] = background(page)
    assert colours["light"] != colours["dark"], colours
    assert luminance(colours["dark"]) < luminance(colours["light"]), colours
