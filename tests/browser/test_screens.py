"""Issue 22: the screens a table reads (the sheet, round entry with and without the card
counter, the payout page, the game's and the night's live views, the TV layout; the night's
with a game running, which it shows first) at 360x740
and 390x844 phones and a 1280x720 screen, light and dark. Each is photographed into
test-artifacts/screenshots/ (screen-*.png) for the reviewers, and its whole layout is
checked as a reader sees it (tests/browser/layout.py): nothing wider than the screen, no
text cut off, nothing drawn over anything else, nothing left under the bottom bar. The
wordiest of them, and the help page, are checked again in German and in Hindi (issue 33)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.harness import open_context, start_server
from tests.browser.keeper import Keeper
from tests.browser.layout import layout_problems
from tests.browser.test_live_view import show_players
from tests.browser.test_money_first import finished_vegas
from tests.browser.test_small_screens import EIGHT, SIX, dummy_with_contracts, vegas_with_marks

pytestmark = pytest.mark.browser

PHONES = {"360x740": (360, 740), "390x844": (390, 844)}
SCREEN = {"1280x720": (1280, 720)}
SIZES = {**PHONES, **SCREEN}


@dataclass
class Site:
    url: str
    state: dict[str, Any]
    paths: dict[str, str]


def gin_game(players: list[str], *, finished: bool) -> dict[str, Any]:
    """Gin Rummy of two long names: an undercut, a gin, a wash, a big gin; finished, a
    shutout-free end with every bonus line (and the stake) under the grid."""
    a, b = players
    rounds: list[dict[str, Any]] = [
        {"went_out": a, "how": "knock", "hands": {a: 9, b: 4}},
        {"went_out": b, "how": "gin", "hands": {a: 31, b: 0}},
        {"went_out": None, "hands": {}},
        {"went_out": a, "how": "big_gin", "hands": {a: 0, b: 12}},
    ]
    if finished:
        rounds.append({"went_out": a, "how": "gin", "hands": {a: 0, b: 70}})
    return {
        "format": "scorekeeper-game/1",
        "variant": "gin",
        "settings": {"stake": 5 if finished else 0},
        "players": players,
        "rounds": rounds,
    }


@pytest.fixture(scope="module")
def site(
    browser: Browser, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """Tonight: a finished Vegas game of six (so the payout page has transfers, one of
    them paid), a Dummy game of six with three-digit totals, and an eight-player Vegas
    game in play with every mark a cell can get, shown to players on both live links."""
    server = start_server(sqlite_template, tmp_path_factory.mktemp("screens"))
    context = open_context(browser)
    try:
        keeper = Keeper(context.new_page(), server.url)
        keeper.sign_up()
        night = keeper.start_night(EIGHT)
        finished = keeper.import_game(night, finished_vegas(SIX))
        dummy = keeper.import_game(night, dummy_with_contracts(SIX, 12))
        gin_done = keeper.import_game(night, gin_game(EIGHT[:2], finished=True))
        gin_playing = keeper.import_game(night, gin_game(EIGHT[2:4], finished=False))
        vegas = keeper.import_game(night, vegas_with_marks(EIGHT, 14))
        keeper.goto(f"/nights/{night}/payout")
        paid = keeper.page.locator("#settle li.pay").first
        keeper.tap(paid.get_by_role("button", name="Mark paid"))
        expect(keeper.page.locator("p.flash")).to_be_visible()
        keeper.goto(f"/games/{vegas}")
        game_link = show_players(keeper, "Show players")
        keeper.goto(f"/nights/{night}")
        night_link = show_players(keeper, "Live view for players")
        keeper.goto("/nights/new")
        pool_night = keeper.start_night(SIX, name="Pool night")
        pool = keeper.import_game(pool_night, pool_with_marks(SIX))
        state = dict(context.storage_state())
    finally:
        context.close()
    paths = {
        "sheet": f"/games/{vegas}",
        "sheet-six": f"/games/{dummy}",
        "sheet-six-vegas": f"/games/{finished}",
        "sheet-gin": f"/games/{gin_done}",
        "round-entry-gin": f"/games/{gin_playing}/rounds/new",
        "qr": f"/games/{vegas}/live",
        "qr-night": f"/nights/{night}/live",
        "round-entry": f"/games/{vegas}/rounds/new",
        "card-counter": f"/games/{vegas}/rounds/new",
        "payout": f"/nights/{night}/payout",
        "live": game_link.removeprefix(server.url),
        "live-night": night_link.removeprefix(server.url),
        "tv": game_link.removeprefix(server.url) + "?tv=1",
        "tv-night": night_link.removeprefix(server.url) + "?tv=1",
        "sheet-pool": f"/games/{pool}",
        "round-entry-pool": f"/games/{pool}/rounds/new",
        "split-pool": f"/games/{pool}/split",
        "help": "/help",
    }
    yield Site(server.url, state, paths)
    server.stop()


def pool_with_marks(players: list[str]) -> dict[str, Any]:
    """A Pool game of six in play with every mark a cell gets: the four hand markers, a
    player out (no rejoin: someone is over the limit), then one out who rejoins."""
    a, b, c, d, e, f = players
    return {
        "format": "scorekeeper-game/1",
        "variant": "pool",
        "settings": {"buy_in": 500},
        "players": players,
        "rounds": [
            {
                "went_out": a,
                "wild": "7",
                "hands": {
                    b: "drop", c: "middle_drop", d: "full_count", e: "wrong_show",
                    f: ["K", "Q", "7"],
                },
            },
            {"went_out": b, "hands": {a: 30, c: "drop", d: 25, e: 10, f: "middle_drop"}},
            {"went_out": c, "hands": {a: "drop", b: 10, e: 15, f: 5}, "rejoins": [e]},
        ],
    }  # fmt: skip


def open_screen(
    new_context: Callable[..., BrowserContext],
    site: Site,
    size: str,
    scheme: str,
    locale: str | None = None,
) -> Page:
    """A page of ``size`` and colour ``scheme``, signed in as the keeper; ``locale`` is
    the browser's language (its Accept-Language: the keeper chose none on the account)."""
    width, height = SIZES[size]
    phone = size in PHONES
    context = new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=2 if phone else 1,
        color_scheme=scheme,
        storage_state=site.state,
        **({"locale": locale} if locale else {}),
    )
    return context.new_page()


SCREENS = [
    "sheet",
    "sheet-six",
    "sheet-gin",
    "round-entry",
    "round-entry-gin",
    "card-counter",
    "payout",
    "live",
    "live-night",
    "qr",
    "qr-night",
    "sheet-pool",
    "round-entry-pool",
    "split-pool",
]
CASES = [(name, size) for name in SCREENS for size in SIZES]
CASES += [("tv", "1280x720"), ("tv-night", "1280x720")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("name", "size"), CASES)
def test_each_screen_has_nothing_cut_off_or_overlapping(
    new_context: Callable[..., BrowserContext], site: Site, name: str, size: str, scheme: str
) -> None:
    page = open_screen(new_context, site, size, scheme)
    check_screen(page, site, name, size, f"{size}-{scheme}")


#: Issue 33, point 4: the screens that carry the most words, in German (the longest
#: words) and in Hindi (Devanagari, drawn with its own font), at the narrowest phone and
#: the big screen, one colour scheme each: 24 pages, about 25 s on top of the 88 above.
WORDY = ["sheet", "round-entry", "round-entry-pool", "payout", "live-night", "split-pool", "help"]
LANGUAGE_CASES = [
    (name, size, locale, scheme)
    for locale, scheme in (("de-DE", "light"), ("hi-IN", "dark"))
    for name in WORDY
    for size in ("360x740", "1280x720")
]


@pytest.mark.parametrize(("name", "size", "locale", "scheme"), LANGUAGE_CASES)
def test_each_wordy_screen_fits_in_german_and_hindi(
    new_context: Callable[..., BrowserContext],
    site: Site,
    name: str,
    size: str,
    locale: str,
    scheme: str,
) -> None:
    page = open_screen(new_context, site, size, scheme, locale)
    check_screen(page, site, name, size, f"{size}-{scheme}-{locale}")
    if name != "live-night":  # the players' pages speak the keeper's words later (issue 33)
        assert page.evaluate("() => document.documentElement.lang") == locale.split("-")[0]


def check_screen(page: Page, site: Site, name: str, size: str, called: str) -> None:
    """Open screen ``name``, photograph it as ``screen-<name>-<called>.png`` and check its
    whole layout (tests/browser/layout.py)."""
    keeper = Keeper(page, site.url, touch=size in PHONES)
    keeper.goto(site.paths[name])
    if name == "card-counter":
        row = keeper.counter("Bob")
        for card in ("K", "7", "7"):
            keeper.tap(row.get_by_role("button", name=re.compile(rf"^{card} \(")))
    # What is folded (a finished game, the charts, the table rules) is checked open too.
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    problems = layout_problems(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"screen-{name}-{called}.png"), full_page=True)
    assert problems == [], f"{name} at {called}:\n" + "\n".join(problems)


@pytest.mark.parametrize(("name", "size"), [("live-night", "390x844"), ("tv-night", "1280x720")])
def test_the_running_game_comes_first_on_the_night_live_view(
    new_context: Callable[..., BrowserContext], site: Site, name: str, size: str
) -> None:
    """Issue 36, point 2: while the eight-player Vegas game runs, the night's live view
    opens on it: its banner and its totals on the first screen, who pays whom below its
    grid (the layout of the same page is checked above, light and dark)."""
    page = open_screen(new_context, site, size, "light")
    Keeper(page, site.url, touch=size in PHONES).goto(site.paths[name])
    playing = page.locator("section.live-night-game").first  # the newest game in play
    expect(playing.get_by_role("heading", level=2)).to_contain_text("Vegas Rummy")
    expect(playing.locator(".banner")).to_contain_text("deals")
    totals = playing.locator("table.grid thead tr.totals")
    banner = playing.locator(".banner")
    money = page.get_by_role("heading", name="Who pays whom")
    grid = playing.locator(".grid-wrap")
    height = SIZES[size][1]
    for seen in (banner, totals):
        box = seen.bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, (size, box)
    grid_box, money_box = grid.bounding_box(), money.bounding_box()
    assert grid_box is not None and money_box is not None
    assert money_box["y"] >= grid_box["y"] + grid_box["height"], (grid_box, money_box)


@pytest.mark.parametrize("size", list(PHONES))
def test_names_on_the_round_form_are_whole(
    new_context: Callable[..., BrowserContext], site: Site, size: str
) -> None:
    """Issue 22: at 360 px the round form cut "Margaret" and "Henrietta" to "Marga…" and
    "Henri…" beside hand fields with room to spare (two such names would be two people).
    Names of up to nine letters show whole on one line; a longer one breaks, never cut."""
    page = open_screen(new_context, site, size, "light")
    Keeper(page, site.url).goto(site.paths["round-entry"])
    names = page.locator(".player-row .out-choice .name")
    expect(names).to_have_count(7)
    for name in names.all():
        text = name.inner_text()
        whole = name.evaluate("e => e.scrollWidth <= e.clientWidth")
        lines = name.evaluate(
            "e => e.getClientRects().length && Math.round("
            "e.getBoundingClientRect().height / parseFloat("
            "getComputedStyle(e).lineHeight))"
        )
        assert whole, text
        assert lines == 1, (text, lines)


TOTALS_GAPS = """
() => {
  const boxes = [...document.querySelectorAll("table.grid thead tr.totals td")].map((td) => {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    let t = walker.nextNode();
    while (t && !t.textContent.trim()) t = walker.nextNode();
    const range = document.createRange();
    range.selectNodeContents(t);
    return range.getBoundingClientRect();
  }).sort((a, b) => a.left - b.left);
  return boxes.slice(1).map((box, i) => Math.round(box.left - boxes[i].right));
}
"""
MIN_GAP = 12  # px between one column's total and the next's: two numbers, never one


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(PHONES))
def test_three_digit_totals_of_six_players_stay_apart(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str
) -> None:
    """Issue 22: at 360 px, six players' three-digit totals almost touched ("300320304"
    read as one number at arm's length)."""
    page = open_screen(new_context, site, size, scheme)
    Keeper(page, site.url).goto(site.paths["sheet-six"])
    totals = page.locator("table.grid thead tr.totals td")
    expect(totals).to_have_count(6)
    assert all(len(t.split()[0]) == 3 for t in totals.all_inner_texts()), totals.all_inner_texts()
    gaps = page.evaluate(TOTALS_GAPS)
    assert min(gaps) >= MIN_GAP, gaps


LAST_COLUMN = """() => {
  const cells = [...document.querySelectorAll('table.grid thead tr:first-child th')];
  const last = cells[cells.length - 1].getBoundingClientRect();
  return {left: last.left, right: last.right, width: document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("sheet", ["sheet-six", "sheet-six-vegas"])
@pytest.mark.parametrize("size", list(PHONES))
def test_a_six_player_sheet_shows_its_last_column_whole(
    new_context: Callable[..., BrowserContext], site: Site, size: str, sheet: str
) -> None:
    """Issue 34: six players' sheet at 360 px must show the last player's column whole,
    on the screen as it opens, without scrolling the grid sideways."""
    page = open_screen(new_context, site, size, "light")
    Keeper(page, site.url).goto(site.paths[sheet])
    box = page.evaluate(LAST_COLUMN)
    assert 0 <= box["left"] < box["right"] <= box["width"], box


@pytest.mark.parametrize("name", ["qr", "qr-night"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_qr_code_fits_the_phone(
    new_context: Callable[..., BrowserContext], site: Site, size: str, name: str
) -> None:
    """Issue 34: the QR page's code must fit a 360 px phone whole, on the screen it opens
    on (the keeper turns the phone round to the table; a code cut at the edge or below the
    fold does not scan): on this computer's address the notice about reaching it pushed
    the code's bottom under the fold at 360x740."""
    page = open_screen(new_context, site, size, "light")
    Keeper(page, site.url).goto(site.paths[name])
    code = page.get_by_role("img", name="QR code of the live view link")
    box = code.bounding_box()
    assert box is not None
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)
    height = page.evaluate("() => window.innerHeight")
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)
    assert box["width"] >= 160, box  # big enough to scan from across the table
