"""Entering a round on a phone, in one screen: one row per player in the order the table
counts (from the round's starter), the player who went out marked and their hand gone, Save
in thumb reach, the screen kept awake; how many taps an ordinary round takes, counted by the
page itself; and the sheet right after saving (banner, Undo and the new row together).

Screenshots of these screens (390 px, light and dark) are saved into
test-artifacts/screenshots/ for a reviewer."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}}
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
EIGHT = ["Margaret", "Bob", "Christopher", "Dee", "Evelyn", "Finn", "Gus", "Henrietta"]

# Counts what the keeper's fingers do on every page of the context: taps (pointerdown),
# focus changes (focusin) and keys, in sessionStorage so a page load does not reset them.
EVENT_COUNTER = """
(() => {
  const key = "scorekeeper-test-events";
  const bump = (name) => {
    const counts = JSON.parse(sessionStorage.getItem(key) || '{"taps":0,"focus":0,"keys":0}');
    counts[name] += 1;
    sessionStorage.setItem(key, JSON.stringify(counts));
  };
  addEventListener("pointerdown", () => bump("taps"), true);
  addEventListener("focusin", () => bump("focus"), true);
  addEventListener("keydown", () => bump("keys"), true);
})();
"""

# A stand-in for the Screen Wake Lock API (headless Chromium refuses the real one): what
# the page asks for and releases is written to sessionStorage, page by page.
FAKE_WAKE_LOCK = """
(() => {
  const log = (what) => {
    const seen = JSON.parse(sessionStorage.getItem("wake-log") || "[]");
    seen.push(what + " " + location.pathname);
    sessionStorage.setItem("wake-log", JSON.stringify(seen));
  };
  const wakeLock = {
    request: (type) => {
      log("request " + type);
      const listeners = [];
      const sentinel = {
        released: false,
        addEventListener: (name, f) => listeners.push(f),
        release: () => {
          sentinel.released = true;
          log("release");
          listeners.forEach((f) => f());
          return Promise.resolve();
        },
      };
      return Promise.resolve(sentinel);
    },
  };
  Object.defineProperty(navigator, "wakeLock", { value: wakeLock, configurable: true });
})();
"""


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def box_of(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return box


def bottom_bar_top(page: Page) -> float:
    return box_of(page.locator(".bottom-bar")).get("y", 0)


@dataclass
class Thumb:
    """A keeper's thumb that counts what it does: taps, and swipes (a target that is not
    on screen, or hidden behind the bottom bar, has to be scrolled to first)."""

    page: Page
    taps: list[str] = field(default_factory=list)
    swipes: list[str] = field(default_factory=list)

    def in_reach(self, target: Locator) -> bool:
        box = box_of(target)
        viewport = self.page.viewport_size
        assert viewport is not None
        bottom = float(viewport["height"])
        bar = self.page.locator(".bottom-bar")
        if bar.count() and not target.evaluate("e => !!e.closest('.bottom-bar')"):
            bottom = min(bottom, box_of(bar.first)["y"])
        return box["y"] >= 0 and box["y"] + box["height"] <= bottom

    def tap(self, target: Locator, what: str) -> None:
        if not self.in_reach(target):
            self.swipes.append(what)
        self.taps.append(what)
        target.tap()

    def page_counts(self) -> dict[str, int]:
        raw = self.page.evaluate("() => sessionStorage.getItem('scorekeeper-test-events')")
        return json.loads(raw)  # type: ignore[no-any-return]


def start(page: Page, base: str, people: list[str]) -> tuple[Keeper, int]:
    keeper = Keeper(page, base)
    keeper.sign_up()
    return keeper, keeper.start_night(people)


def row_names(page: Page) -> list[str]:
    return [n.strip() for n in page.locator("[data-hand] .out-choice .name").all_inner_texts()]


# ------------------------------------------------------------------------- taps ---
def test_taps_for_an_ordinary_five_player_vegas_round(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """Round 1 of a 5-player Vegas game from the sheet: Ann went out, the others hold 12,
    7, 30 and 4. The fewest taps the screen allows; digits and the number pad's Next
    (Enter) are keys, not taps. Before the one-screen form: 7 taps from the sheet (6 on
    the round screen: who went out, each of the four fields, Save) and a swipe."""
    context = new_context(**PHONE)
    context.add_init_script(EVENT_COUNTER)
    page = context.new_page()
    keeper, night = start(page, live_server, FIVE)
    game = keeper.new_game(night, "Vegas Rummy", FIVE)
    page.evaluate("() => sessionStorage.clear()")
    thumb = Thumb(page)

    thumb.tap(keeper.link("Enter round 1"), "Enter round 1")
    page.wait_for_url(f"**/games/{game}/rounds/new")
    # Ann deals first, Bob starts: the rows follow the table from Bob.
    assert row_names(page) == ["Bob", "Cy", "Dee", "Eve", "Ann"]
    thumb.tap(keeper.went_out_choice("Ann"), "Ann went out")
    # The tap goes straight on to the first hand, in table order: no tap on a field.
    for name, digits in {"Bob": "12", "Cy": "7", "Dee": "30", "Eve": "4"}.items():
        expect(keeper.hand_input(name)).to_be_focused()
        page.keyboard.type(digits)
        page.keyboard.press("Enter")  # the number pad's Next; Done on the last hand
    expect(page.locator("input.hand-input:focus")).to_have_count(0)  # keyboard closed
    expect(page).to_have_url(f"{live_server}/games/{game}/rounds/new")  # Enter sent nothing
    thumb.tap(keeper.button("Save round 1"), "Save")
    keeper.wait_for_sheet()
    expect(page.locator("form.undo")).to_contain_text("Round 1 saved.")
    assert keeper.totals() == {"Ann": 0, "Bob": 12, "Cy": 7, "Dee": 30, "Eve": 4}

    counts: dict[str, Any] = thumb.page_counts()
    report = {
        "taps": len(thumb.taps),
        "taps on the round screen": len(thumb.taps) - 1,
        "swipes": len(thumb.swipes),
        "page: pointer taps": counts["taps"],
        "page: focus changes": counts["focus"],
        "page: keys (digits and Next)": counts["keys"],
    }
    print("taps for a 5-player Vegas round:", report, thumb.taps, thumb.swipes)
    assert counts["taps"] == len(thumb.taps), (counts, thumb.taps)
    assert counts["keys"] == len("127304") + 4, counts
    assert report["taps on the round screen"] == 2, report
    assert report["swipes"] == 0, report


# ------------------------------------------------------------- one screen of 8 ---
@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_eight_hands_on_one_screen_and_save_in_reach(
    new_context: Callable[..., BrowserContext],
    live_server: str,
    size: dict[str, Any],
    scheme: str,
) -> None:
    context = new_context(**size, color_scheme=scheme)
    page = context.new_page()
    keeper, night = start(page, live_server, EIGHT)
    game = keeper.new_game(night, "Vegas Rummy", EIGHT, first_dealer="Dee")
    keeper.follow(keeper.link("Enter round 1"))
    height = size["viewport"]["height"]

    # Dee deals, Evelyn starts: the rows go round the table from her.
    assert row_names(page) == EIGHT[4:] + EIGHT[:4]
    bar = box_of(page.locator(".bottom-bar"))
    save = box_of(keeper.button("Save round 1"))
    assert bar["y"] + bar["height"] <= height + 0.5 and save["y"] >= height * 0.8, (bar, save)
    fields = page.locator("input.hand-input")
    expect(fields).to_have_count(8)
    for i in range(8):
        box = box_of(fields.nth(i))
        assert box["height"] >= 44, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (i, box, bar)
        choice = box_of(page.locator("label.out-choice").nth(i))
        assert choice["height"] >= 44 and choice["y"] + choice["height"] <= bar["y"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size["viewport"]["width"]
    # A typed sum shows whole in its field (issue 22: "10+10+7" was cut off), its total beside.
    keeper.hand_input("Bob").fill("10+10+7")
    widths = keeper.hand_input("Bob").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1], f"the hand field cuts off 10+10+7: {widths}"
    expect(keeper.hand_box("Bob").locator(".sum")).to_contain_text("27")
    keeper.hand_input("Bob").fill("")

    # Who went out is unmistakable: their row marked, their field gone.
    keeper.tap(keeper.went_out_choice("Gus"))
    gus = keeper.hand_box("Gus")
    expect(gus).to_have_class("player-row is-out")
    expect(gus.locator(".out-note")).to_have_text("★ went out")
    expect(gus.locator("input.hand-input")).to_be_hidden()
    expect(gus.locator("input.hand-input")).to_be_disabled()
    colours = gus.evaluate(
        "e => [getComputedStyle(e).backgroundColor,"
        " getComputedStyle(e.nextElementSibling).backgroundColor]"
    )
    assert colours[0] != colours[1], colours
    expect(keeper.hand_input("Evelyn")).to_be_focused()  # the first hand, in table order
    if size is PHONE:
        screenshot(page, f"round-entry-8-players-{scheme}")

    # The flipped card below the rows scrolls clear of the bottom bar.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    wild = box_of(page.get_by_label("Flipped wild card (optional)"))
    assert wild["y"] + wild["height"] <= bottom_bar_top(page), wild
    assert game


def test_the_goer_out_sends_no_hand_and_the_order_is_the_tables(
    page: Page, live_server: str
) -> None:
    keeper, night = start(page, live_server, FIVE)
    game = keeper.new_game(night, "Rummy", FIVE, first_dealer="Cy")
    keeper.follow(keeper.link("Enter deal 1"))
    assert row_names(page) == ["Dee", "Eve", "Ann", "Bob", "Cy"]
    expect(page.locator("label.out-choice.nobody")).to_be_visible()  # Rummy allows it
    keeper.hand_input("Bob").fill("99")  # typed before anyone went out, then Bob did
    keeper.fill_round("Bob", {"Ann": "1", "Cy": "2", "Dee": "3", "Eve": "4"})
    seats = {n: keeper.hand_box(n).locator("input.hand-input").get_attribute("name") for n in FIVE}
    with page.expect_request(lambda r: r.method == "POST") as sent:
        keeper.save()
    posted = sent.value.post_data or ""
    assert f"{seats['Bob']}=" not in posted, posted
    assert f"{seats['Ann']}=1" in posted, posted
    keeper.wait_for_sheet()
    assert keeper.totals() == {"Ann": 0, "Bob": 10, "Cy": 0, "Dee": 0, "Eve": 0}
    assert keeper.cell(1, "Bob") == "10 +10 ★"  # Rummy: the goer-out's points, not "out"
    stored = keeper.api_game(game)["record"]["rounds"][0]
    assert list(stored["hands"]) == ["Ann", "Cy", "Dee", "Eve"]  # stored in seat order

    # A correction starts from the round's own starter (Dee, after the dealer Cy).
    keeper.follow(keeper.link("Edit deal 1"))
    assert row_names(page) == ["Dee", "Eve", "Ann", "Bob", "Cy"]
    expect(keeper.hand_box("Bob")).to_have_class("player-row is-out")


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_the_variants_extras_follow_the_rows_and_work(
    new_context: Callable[..., BrowserContext], live_server: str, javascript: bool
) -> None:
    """Dummy's contracts and Multiplayer's going rummy sit below the rows, reachable and
    saved, with the script and without it."""
    page = new_context(java_script_enabled=javascript).new_page()
    keeper, night = start(page, live_server, ["Ann", "Bob", "Cy"])
    dummy = keeper.new_game(night, "Dummy Rummy", ["Ann", "Bob", "Cy"])
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Bob", {"Ann": "20", "Cy": "5"})
    contract = page.get_by_role("checkbox", name="Cy · Laid down contract 1: two 3-of-a-kind")
    contract.scroll_into_view_if_needed()
    assert box_of(contract)["y"] + 22 <= bottom_bar_top(page)
    keeper.tap(contract)
    if javascript:  # the goer-out's contract is ticked for them
        expect(
            page.get_by_role("checkbox", name="Bob · Laid down contract 1: two 3-of-a-kind")
        ).to_be_checked()
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.api_game(dummy)["record"]["rounds"][0]["contracts"] == ["Bob", "Cy"]

    multi = keeper.new_game(night, "Multiplayer Rummy", ["Ann", "Bob", "Cy"])
    keeper.follow(keeper.link("Enter round 1"))
    keeper.fill_round("Ann", {"Bob": "6", "Cy": "4"})
    rummy = page.get_by_role("checkbox", name="Went rummy (out in one turn: scores double)")
    keeper.tap(rummy)
    keeper.save()
    keeper.wait_for_sheet()
    assert keeper.api_game(multi)["record"]["rounds"][0].get("going_rummy") is True
    assert keeper.totals()["Ann"] == 20


def test_the_screen_stays_awake_while_entering_a_round(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    context = new_context()
    context.add_init_script(FAKE_WAKE_LOCK)
    page = context.new_page()
    keeper, night = start(page, live_server, ["Ann", "Bob"])
    game = keeper.new_game(night, "Rummy", ["Ann", "Bob"])
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {"Bob": "5"})
    keeper.save()
    keeper.wait_for_sheet()
    log = json.loads(page.evaluate("() => sessionStorage.getItem('wake-log')"))
    sheet, form = f"/games/{game}", f"/games/{game}/rounds/new"
    assert (
        log[-5:]
        == [
            f"release {sheet}",  # leaving the sheet for the form...
            f"request screen {form}",  # ...the form asks again
            f"release {form}",  # leaving the form lets the screen sleep...
            f"request screen {sheet}",  # ...until the sheet asks again
        ][-5:]
        or log[-4:]
        == [
            f"release {sheet}",
            f"request screen {form}",
            f"release {form}",
            f"request screen {sheet}",
        ]
    ), log


# ---------------------------------------------------------------- after saving ---
def long_vegas(players: list[str], rounds: int) -> dict[str, Any]:
    out = []
    for number in range(1, rounds + 1):
        went_out = players[(number - 1) % len(players)]
        hands = {n: (number + i) % 7 for i, n in enumerate(players) if n != went_out}
        out.append({"went_out": went_out, "hands": hands})
    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "players": players,
        "first_dealer": players[0],
        "rounds": out,
    }


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_after_saving_the_banner_undo_and_new_row_share_the_screen(
    new_context: Callable[..., BrowserContext],
    live_server: str,
    size: dict[str, Any],
    scheme: str,
) -> None:
    page = new_context(**size, color_scheme=scheme).new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    keeper, night = start(page, live_server, FIVE)
    keeper.import_game(night, long_vegas(FIVE, 14))  # the grid is taller than its box
    number = keeper.enter_round("Cy", {"Ann": "3", "Bob": "4", "Dee": "5", "Eve": "6"})
    assert number == 15
    height = size["viewport"]["height"]
    bar_top = bottom_bar_top(page)
    banner = box_of(page.locator("section.banner"))
    undo = box_of(page.locator("form.undo").get_by_role("button", name="Undo"))
    row = box_of(page.locator("tr#r15"))
    grid = box_of(page.locator(".grid-wrap"))
    totals = box_of(page.locator("tr.totals"))
    assert banner["y"] >= 0, banner
    assert keeper.banner().startswith("Round 16"), keeper.banner()
    assert undo["y"] >= 0 and undo["y"] + undo["height"] <= bar_top, undo
    # The new row whole, inside the grid's box, above the bottom bar and below the totals.
    assert row["y"] >= totals["y"] + totals["height"] - 0.5, (row, totals)
    assert row["y"] + row["height"] <= min(grid["y"] + grid["height"], bar_top) + 0.5, (
        row,
        grid,
        bar_top,
    )
    assert bar_top <= height
    expect(page.locator("tr#r15")).to_have_class("just-saved")
    assert not [m for m in console if "Content Security Policy" in m], console
    if size is PHONE:
        screenshot(page, f"sheet-after-saving-{scheme}")
