"""The defects a 360/390 px phone showed, each checked at 360x740 and 390x844 in the light
and the dark colour scheme: round labels sliding over the sticky header and totals when the
grid scrolls, marks and numbers cut off with 6+ players, tap targets under 44x44 px, a lit-up
lime header and buttons in the dark, "Table rules" without a disclosure marker."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.harness import open_context, start_server
from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser

SIZES = {
    "360x740": {"viewport": {"width": 360, "height": 740}},
    "390x844": {"viewport": {"width": 390, "height": 844}},
}
EIGHT = ["Margaret", "Bob", "Christopher", "Dee", "Evelyn", "Finn", "Gus", "Henrietta"]
SIX = EIGHT[:6]
MIN_TAP = 44


def vegas_with_marks(players: list[str], rounds: int) -> dict[str, Any]:
    """A Vegas game with every mark a cell can get: went out, a re-buy (R→), a drop (✗),
    a late joiner (J@), then ordinary rounds until the grid is taller than its box."""
    first, second, third, *rest = players[:-1]
    late = players[-1]
    sitting = players[:-1]

    def hands(out: str, table: list[str], big: dict[str, int] | None = None) -> dict[str, Any]:
        values = {n: (len(n) + i) % 9 for i, n in enumerate(table) if n != out}
        return {"went_out": out, "hands": {**values, **(big or {})}}

    played = [
        {**hands(first, sitting, {second: 95, third: 90}), "wild": "7C"},
        {**hands(rest[0], sitting, {second: 20, third: 30}), "drops": [third]},
    ]
    table = [n for n in sitting if n != third] + [late]
    played.append({**hands(second, table), "joins": [late]})
    for number in range(4, rounds + 1):
        played.append(hands(table[number % len(table)], table))
    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"buy_in": 200},
        "players": sitting,
        "first_dealer": first,
        "rounds": played,
    }


def texas_with_dimes(players: list[str], rounds: int) -> dict[str, Any]:
    played = []
    for number in range(1, rounds + 1):
        out = players[number % len(players)]
        hands = {n: (number * 7 + i) % 40 for i, n in enumerate(players) if n != out}
        played.append({"went_out": out, "hands": hands})
    return {
        "format": "scorekeeper-game/1",
        "variant": "texas",
        "settings": {"ante": 100, "per_round": 10},
        "players": players,
        "first_dealer": players[0],
        "rounds": played,
    }


def dummy_with_contracts(players: list[str], rounds: int) -> dict[str, Any]:
    played = []
    for number in range(1, rounds + 1):
        out = players[number % len(players)]
        played.append(
            {
                "went_out": out,
                "hands": {n: (number * 13 + i) % 60 for i, n in enumerate(players) if n != out},
                "contracts": [out, players[(number + 1) % len(players)]],
            }
        )
    return {
        "format": "scorekeeper-game/1",
        "variant": "dummy",
        "players": players,
        "first_dealer": players[0],
        "rounds": played,
    }


@dataclass
class Site:
    url: str
    night: int
    games: dict[str, int]
    state: dict[str, Any]


@pytest.fixture(scope="module")
def site(
    browser: Browser, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """One keeper with an earlier night and tonight's: Vegas, Texas and Dummy games of 6
    and 8 players with every kind of mark, long enough for the grid to scroll."""
    server = start_server(sqlite_template, tmp_path_factory.mktemp("small"))
    context = open_context(browser)
    try:
        keeper = Keeper(context.new_page(), server.url)
        keeper.sign_up()
        earlier = keeper.start_night(EIGHT[:3], name="Last week")
        keeper.import_game(earlier, texas_with_dimes(EIGHT[:3], 3))
        keeper.goto("/nights/new")
        night = keeper.start_night(EIGHT)
        games = {
            "vegas-8": keeper.import_game(night, vegas_with_marks(EIGHT, 16)),
            "vegas-6": keeper.import_game(night, vegas_with_marks(SIX, 12)),
            "texas-8": keeper.import_game(night, texas_with_dimes(EIGHT, 11)),
            "texas-6": keeper.import_game(night, texas_with_dimes(SIX, 9)),
            "dummy-8": keeper.import_game(night, dummy_with_contracts(EIGHT, 10)),
        }
        state = context.storage_state()
    finally:
        context.close()
    yield Site(server.url, night, games, dict(state))
    server.stop()


def open_page(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, **extra: Any
) -> tuple[Keeper, Page]:
    context = new_context(**SIZES[size], color_scheme=scheme, storage_state=site.state, **extra)
    page = context.new_page()
    return Keeper(page, site.url), page


sizes = pytest.mark.parametrize("size", list(SIZES))
schemes = pytest.mark.parametrize("scheme", ["light", "dark"])


# ------------------------------------------------------------- the scrolled grid ---
# Every point of a sticky header or totals cell (inside the grid's box) shows that cell,
# and every point of a round label below the header shows that label: nothing slides over.
PAINT_ORDER = """
wrap => {
  const box = wrap.getBoundingClientRect();
  const bar = document.querySelector(".bottom-bar");
  const screenBottom = bar ? bar.getBoundingClientRect().top : innerHeight;
  const round = parseFloat(getComputedStyle(wrap).borderTopLeftRadius) || 0;
  const inside = (r) => ({  // the part of r on screen, inside the grid's box (its corners
    left: Math.max(r.left, box.left + wrap.clientLeft, 0),  // are rounded: kept clear)
    right: Math.min(r.right, box.left + wrap.clientLeft + wrap.clientWidth, innerWidth),
    top: Math.max(r.top, box.top + wrap.clientTop + round, 0),
    bottom: Math.min(r.bottom, box.top + wrap.clientTop + wrap.clientHeight - round,
                     screenBottom),
  });
  const points = (r) => {  // nine points, clear of the edges shared with the next cell
    const out = [];
    const [left, right, top, bottom] = [r.left + 1.5, r.right - 1.5, r.top + 1.5, r.bottom - 1.5];
    if (right - left < 1 || bottom - top < 1) return out;
    for (const fx of [0, 0.5, 1]) for (const fy of [0, 0.5, 1])
      out.push([left + fx * (right - left), top + fy * (bottom - top)]);
    return out;
  };
  const cellAt = ([x, y]) => {
    const e = document.elementFromPoint(x, y);
    return (e && e.closest("th, td")) || e;
  };
  const name = (c) => !c ? "nothing" : !c.closest("tr") ? `<${c.tagName} ${c.className}>` :
    (c.closest("tr").id || c.closest("tr").className || "head") + ":" +
    c.textContent.trim().slice(0, 12) + ` (${Math.round(c.getBoundingClientRect().top)}-` +
    `${Math.round(c.getBoundingClientRect().bottom)})`;
  const wrong = [];
  const head = [...wrap.querySelectorAll("thead th, thead td")];
  // The header's own first column (the corner) stays put over the names scrolled under it.
  const corner = (c) => c && c.matches("thead .rl");
  for (const cell of head)
    for (const p of points(inside(cell.getBoundingClientRect())))
      if (cellAt(p) !== cell && !(corner(cellAt(p)) && !corner(cell)))
        wrong.push(`${name(cellAt(p))} over ${name(cell)}`);
  const headBottom = Math.max(...head.map((c) => c.getBoundingClientRect().bottom));
  for (const label of wrap.querySelectorAll("tbody th.rl")) {
    const r = inside(label.getBoundingClientRect());
    r.top = Math.max(r.top, headBottom);
    for (const p of points(r))
      if (cellAt(p) !== label)
        wrong.push(`${name(cellAt(p))} over ${name(label)} at ${p.map(Math.round)}`);
  }
  return wrong;
}
"""


def rows_of_header(page: Page) -> list[dict[str, float]]:
    return [
        page.locator("table.grid thead tr").nth(i).bounding_box() or {}
        for i in range(page.locator("table.grid thead tr").count())
    ]


@sizes
@schemes
@pytest.mark.parametrize("game", ["vegas-8", "texas-8"])
def test_round_labels_never_slide_over_the_header_or_totals(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, game: str
) -> None:
    keeper, page = open_page(new_context, site, size, scheme)
    keeper.goto(f"/games/{site.games[game]}")
    wrap = page.locator(".grid-wrap")
    sizes_: dict[str, int] = wrap.evaluate(
        "e => ({h: e.scrollHeight - e.clientHeight, w: e.scrollWidth - e.clientWidth})"
    )
    assert sizes_["h"] > 40, "the grid should scroll for this test"
    wrap.scroll_into_view_if_needed()
    for top, left in [(0, 0), (37, 0), (sizes_["h"] // 2, sizes_["w"] // 2), (sizes_["h"], 999)]:
        wrap.evaluate(f"e => {{ e.scrollTop = {top}; e.scrollLeft = {left}; }}")
        page.evaluate("() => new Promise(requestAnimationFrame)")
        # The two sticky header rows sit one on the other: no overlap, no gap.
        names, totals = rows_of_header(page)
        assert abs(names["y"] + names["height"] - totals["y"]) <= 1, (names, totals)
        # Bounding boxes: no round label's visible part reaches into the header.
        head_bottom = totals["y"] + totals["height"]
        for label in page.locator("table.grid tbody th.rl").all():
            box = label.bounding_box()
            assert box is not None
            if box["y"] + box["height"] <= head_bottom or box["y"] >= head_bottom:
                continue
            # A label half under the header: the header cell at that spot is on top.
            x, y = box["x"] + box["width"] / 2, box["y"] + 2
            on_top = page.evaluate(
                f"() => document.elementFromPoint({x}, {y}).closest('th, td').closest('thead')"
                " !== null"
            )
            assert on_top, (top, left, box, head_bottom)
        wrong = wrap.evaluate(PAINT_ORDER)
        assert wrong == [], f"scrolled to {top},{left}: " + "; ".join(wrong[:8])


# ----------------------------------------------------------------- nothing cut off ---
@sizes
@schemes
@pytest.mark.parametrize("game", ["vegas-8", "vegas-6", "texas-8", "texas-6", "dummy-8"])
def test_no_number_or_mark_is_cut_off(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, game: str
) -> None:
    keeper, page = open_page(new_context, site, size, scheme)
    keeper.goto(f"/games/{site.games[game]}")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= int(size[:3])
    clipped = page.locator("table.grid th, table.grid td, table.grid .mark").evaluate_all(
        "cells => cells.filter(c => c.scrollWidth > c.clientWidth)"
        ".map(c => `${c.textContent.trim()}: ${c.scrollWidth} > ${c.clientWidth}`)"
    )
    assert clipped == [], clipped
    # Six players or more on a phone: marks as paper prints them (the legend explains
    # them), their detail (R→30, J@30) kept for screen readers.
    marks: list[dict[str, Any]] = page.locator("table.grid .mark").evaluate_all(
        """marks => marks.map(m => {
          const short = m.querySelector(".short"), long = m.querySelector(".long");
          const showsShort = short && getComputedStyle(short).display !== "none";
          return {shown: showsShort ? short.textContent : long.textContent,
                  read: long.textContent, longWidth: long.getBoundingClientRect().width};
        })"""
    )
    assert marks, "the game should show marks"
    for mark in marks:
        if mark["shown"] != mark["read"]:
            assert mark["longWidth"] <= 1, mark
    shown = {m["shown"] for m in marks}
    read = {m["read"][:2] for m in marks}
    if game.startswith("vegas"):
        assert shown >= {"★", "R", "✗", "J"}, shown
        assert {"R", "J@"} <= read, read  # a re-buy: the cell shows 105→30
    if game.startswith("texas"):
        assert shown <= {"★", ""} and "+$" in read, (shown, read)  # the dime: in the legend
        assert "takes $0.10 from the pot" in keeper.text("p.legend")
    # Names give way with an ellipsis (whole in the cell's title), never to nothing.
    widths = page.locator("table.grid th.pn .nm").evaluate_all(
        "names => names.map(n => n.clientWidth)"
    )
    assert min(widths) >= 24, widths


# ------------------------------------------------------------------- tap targets ---
def small_targets(page: Page) -> list[str]:
    """Every visible a, button, input, select, textarea and summary under 44x44 px (a radio
    or check box is tapped through its label: the label is measured)."""
    found: list[str] = page.evaluate(
        """() => {
      const small = [];
      for (const e of document.querySelectorAll("a, button, input, select, textarea, summary")) {
        if (e.type === "hidden") continue;
        const style = getComputedStyle(e);
        if (style.visibility === "hidden" || !e.getClientRects().length) continue;
        if (e.closest(".visually-hidden")) continue;
        let target = e;
        if (e.type === "radio" || e.type === "checkbox") target = e.closest("label") || e;
        const r = target.getBoundingClientRect();
        if (r.width < 44 - 0.5 || r.height < 44 - 0.5) {
          const what = (e.textContent || e.value || e.name || e.type).trim().slice(0, 30);
          const size = `${r.width.toFixed(1)}x${r.height.toFixed(1)}`;
          small.push(`<${e.tagName.toLowerCase()}> ${what}: ${size}`);
        }
      }
      return small;
    }"""
    )
    return found


PAGES = {
    "home": "/",
    "night": "/nights/{night}",
    "sheet": "/games/{vegas-8}",
    "sheet-texas": "/games/{texas-8}",
    "round-entry": "/games/{vegas-8}/rounds/new",
    "round-entry-dummy": "/games/{dummy-8}/rounds/new",
}


@sizes
@schemes
@pytest.mark.parametrize("name", list(PAGES))
def test_every_tap_target_is_at_least_44_px(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, name: str
) -> None:
    keeper, page = open_page(new_context, site, size, scheme)
    path = PAGES[name].replace("{night}", str(site.night))
    for game, number in site.games.items():
        path = path.replace("{" + game + "}", str(number))
    keeper.goto(path)
    if name.startswith("round-entry"):  # the card counter's pad too
        keeper.counter("Bob")
    if name.startswith("sheet"):
        keeper.tap(page.locator("details.table-rules > summary"))
    small = small_targets(page)
    assert small == [], "\n".join(small)


# ------------------------------------------------------------------ calm in the dark ---
def rgb(colour: str) -> tuple[float, float, float, float]:
    inner = colour[colour.index("(") + 1 : colour.index(")")]
    parts = [float(v) for v in inner.replace("/", ",").split(",")]
    alpha = parts[3] if len(parts) > 3 else 1.0
    return parts[0] / 255, parts[1] / 255, parts[2] / 255, alpha


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of an rgb()/rgba() colour."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b, _ = rgb(colour)
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def chroma(colour: str) -> float:
    """How vivid a colour is: max - min of its sRGB channels (0 grey ... 1 pure hue)."""
    r, g, b, _ = rgb(colour)
    return max(r, g, b) - min(r, g, b)


LARGE_AREAS = """
() => {
  const out = [];
  const seen = new Set();
  for (const e of document.querySelectorAll("body, body *")) {
    const style = getComputedStyle(e);
    const bg = style.backgroundColor;
    if (!bg || bg === "transparent" || /rgba\\(.*,\\s*0\\)$/.test(bg)) continue;
    const r = e.getBoundingClientRect();
    const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    if (w <= 0 || h <= 0 || style.visibility === "hidden") continue;
    if (w * h < 3000) continue;
    const key = e.tagName + "." + e.className + " " + bg;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({what: key, background: bg, area: Math.round(w * h)});
  }
  return out;
}
"""

# Dark: no large area glares (relative luminance at most 0.12: the deep green of the main
# buttons is 0.07, the old lime 0.56) or is vivid (chroma at most 0.3: lime was 0.58).
MAX_DARK_LUMINANCE = 0.12
MAX_DARK_CHROMA = 0.3


@sizes
@pytest.mark.parametrize("name", ["home", "sheet", "round-entry"])
def test_dark_mode_is_calm(
    new_context: Callable[..., BrowserContext], site: Site, size: str, name: str
) -> None:
    keeper, page = open_page(new_context, site, size, "dark")
    path = PAGES[name].replace("{vegas-8}", str(site.games["vegas-8"]))
    keeper.goto(path)
    header = page.locator("header.top").evaluate("e => getComputedStyle(e).backgroundColor")
    primary = page.locator(".button.primary, button.primary").first
    button = primary.evaluate("e => getComputedStyle(e).backgroundColor")
    for what, colour in [("header", header), ("main button", button)]:
        assert relative_luminance(colour) <= MAX_DARK_LUMINANCE, (what, colour)
        assert chroma(colour) <= MAX_DARK_CHROMA, (what, colour)
    areas: list[dict[str, Any]] = page.evaluate(LARGE_AREAS)
    assert areas
    brightest = max(areas, key=lambda a: relative_luminance(a["background"]))
    assert relative_luminance(brightest["background"]) <= MAX_DARK_LUMINANCE, brightest
    assert chroma(brightest["background"]) <= MAX_DARK_CHROMA, brightest
    vivid = [a for a in areas if chroma(a["background"]) > MAX_DARK_CHROMA]
    assert vivid == [], vivid


def axe_script() -> Path:
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec is not None and spec.origin is not None, "pip install -e '.[test]'"
    return Path(spec.origin).parent / "axe.min.js"


@sizes
@schemes
@pytest.mark.parametrize("name", ["home", "night", "sheet", "round-entry"])
def test_text_contrast_meets_wcag_aa(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, name: str
) -> None:
    """axe-core's color-contrast rule (WCAG 2 AA: 4.5:1, 3:1 for large text) on each page,
    every violation counted whatever its impact."""
    keeper, page = open_page(new_context, site, size, scheme, bypass_csp=True)
    path = PAGES[name].replace("{night}", str(site.night))
    keeper.goto(path.replace("{vegas-8}", str(site.games["vegas-8"])))
    if name == "round-entry":
        keeper.tap(keeper.went_out_choice("Gus"))  # the marked row too
    page.add_script_tag(path=str(axe_script()))
    results = page.evaluate(
        "async () => await axe.run(document, {runOnly: ['color-contrast'],"
        " resultTypes: ['violations']})"
    )
    problems = [
        f"{node['target']}: {node.get('failureSummary', '')}"
        for v in results["violations"]
        for node in v["nodes"]
    ]
    assert problems == [], "\n".join(problems)


# -------------------------------------------------------------------- Table rules ---
@sizes
@schemes
def test_table_rules_has_a_disclosure_marker(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str
) -> None:
    keeper, page = open_page(new_context, site, size, scheme)
    keeper.goto(f"/games/{site.games['vegas-8']}")
    summary = page.locator("details.table-rules > summary")
    marker = summary.evaluate("e => getComputedStyle(e, '::before').content")
    assert marker.strip('"') == "▸", marker
    keeper.tap(summary)
    assert summary.evaluate("e => e.parentElement.open")
    opened = summary.evaluate("e => getComputedStyle(e, '::before').content")
    assert opened.strip('"') == "▾", opened
    # The same marker on the new-game form's folded table rules.
    keeper.goto(f"/nights/{site.night}/games/new?variant=vegas")
    folded = page.locator("details.rules > summary")
    assert folded.evaluate("e => getComputedStyle(e, '::before').content").strip('"') == "▸"


@sizes
@schemes
def test_the_header_is_one_line_and_dates_do_not_break(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str
) -> None:
    """Issue 22: "How it scores" wrapped onto two lines in the header at 390 and 360 px
    (a phone's header says "Rules"); a date broke at its hyphens ("2026-/11-20")."""
    keeper, page = open_page(new_context, site, size, scheme)
    keeper.goto(f"/games/{site.games['vegas-8']}")
    for item in ("a.brand", "a.help-link", "a.account-link", "header.top button.link"):
        box = page.locator(item).bounding_box()
        assert box is not None and box["height"] <= MIN_TAP + 1, (item, box)
    assert page.locator("a.help-link").inner_text() == "Rules"
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= MIN_TAP + 18, header
    keeper.goto(f"/games/{site.games['vegas-8']}/history")
    for stamp in page.locator("time").all()[:5]:
        box = stamp.bounding_box()
        assert box is not None and box["height"] < 30, (stamp.inner_text(), box)
