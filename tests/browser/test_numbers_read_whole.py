"""Issue 22's visual defects in the numbers players read, at phone size (360x740) and on a
laptop (1280x800), light and dark: a regular's money chart says its values and dates
without a label over another; "Each person's net" lines the amounts up on the decimal
point (the payout page and the night's live view); "2 re-buys" never breaks at its hyphen
in a pot's player column (the sheet and the live view)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.browser.harness import open_context, start_server
from tests.browser.keeper import Keeper
from tests.browser.test_live_view import show_players
from tests.browser.test_small_screens import axe_script

pytestmark = pytest.mark.browser

SIZES = {
    "360x740": {"viewport": {"width": 360, "height": 740}},
    "1280x800": {
        "viewport": {"width": 1280, "height": 800},
        "is_mobile": False,
        "has_touch": False,
        "device_scale_factor": 1,
    },
}
TONIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Margaret", "Christopher", "Henrietta"]
VEGAS = ["Margaret", "Bob", "Christopher", "Dee", "Eve", "Ann", "Cy", "Henrietta"]


def rummy(winner: str, loser: str, stake: int) -> dict[str, Any]:
    """Two players, one deal: the winner takes the loser's stake (cents)."""
    return {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"buy_in": stake, "deals": 1, "currency": "USD"},
        "players": [winner, loser],
        "first_dealer": winner,
        "rounds": [{"went_out": winner, "hands": {loser: 5}}],
    }


def vegas_with_two_rebuys() -> dict[str, Any]:
    """Eight players, a game in play: Christopher expires twice (re-buys both times)."""
    table = VEGAS

    def deal(number: int, big: int) -> dict[str, Any]:
        out = table[number % 2]
        hands = {n: (number + i) % 7 for i, n in enumerate(table) if n != out}
        return {"went_out": out, "hands": {**hands, "Christopher": big}}

    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"max_score": 100, "buy_in": 200, "currency": "USD"},
        "players": table,
        "first_dealer": table[0],
        "rounds": [deal(1, 95), deal(2, 30), deal(3, 100), deal(4, 3)],
    }


def start_night(keeper: Keeper, people: list[str], name: str, day: str) -> int:
    keeper.goto("/nights/new")
    keeper.page.get_by_label("Name").fill(name)
    keeper.page.get_by_label("Date").fill(day)
    keeper.page.get_by_label("Who is playing").fill("\n".join(people))
    keeper.tap(keeper.button("Start the night"))
    expect(keeper.page.get_by_role("heading", name=name)).to_be_visible()
    return keeper.id_from_url(r"/nights/(\d+)$")


@dataclass
class Site:
    url: str
    state: dict[str, Any]
    night: int
    vegas: int
    ann: int  # Ann's page (regulars)
    game_link: str  # the players' live links
    night_link: str


@pytest.fixture(scope="module")
def site(
    browser: Browser, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """Ann's three nights (-$3.10, then $12.40, then $24.80); tonight's finished games
    leave nets of every sign and width: Ann +$12.40, Bob -$3.10, Cy $0.00, Dee +$90.70,
    Eve -$100.00; tonight's Vegas game of eight is in play, Christopher re-bought twice."""
    server = start_server(sqlite_template, tmp_path_factory.mktemp("numbers"))
    context = open_context(browser)
    try:
        keeper = Keeper(context.new_page(), server.url)
        keeper.sign_up()
        first = start_night(keeper, ["Ann", "Bob"], "September", "2026-09-04")
        keeper.import_game(first, rummy("Bob", "Ann", 310))
        second = start_night(keeper, ["Ann", "Bob"], "October", "2026-10-02")
        keeper.import_game(second, rummy("Ann", "Bob", 1550))
        night = start_night(keeper, TONIGHT, "Friday cards", "2026-11-20")
        for winner, loser, stake in [("Ann", "Bob", 1240), ("Bob", "Cy", 930),
                                     ("Cy", "Dee", 930), ("Dee", "Eve", 10000)]:  # fmt: skip
            keeper.import_game(night, rummy(winner, loser, stake))
        vegas = keeper.import_game(night, vegas_with_two_rebuys())
        keeper.goto(f"/games/{vegas}/live")
        game_link = show_players(keeper, "Show players")
        keeper.goto(f"/nights/{night}")
        night_link = show_players(keeper, "Live view for players")
        keeper.goto("/regulars")
        keeper.follow(keeper.link("Ann"))
        ann = keeper.id_from_url(r"/regulars/(\d+)$")
        state = context.storage_state()
    finally:
        context.close()
    yield Site(server.url, dict(state), night, vegas, ann, game_link, night_link)
    server.stop()


def open_page(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, keeper: bool
) -> tuple[Keeper, Page]:
    state = {"storage_state": site.state} if keeper else {}
    context = new_context(**SIZES[size], color_scheme=scheme, **state)
    page = context.new_page()
    return Keeper(page, site.url), page


sizes = pytest.mark.parametrize("size", list(SIZES))
schemes = pytest.mark.parametrize("scheme", ["light", "dark"])


# ------------------------------------------------------------- the money chart ---
OVERLAPS = """
svg => {
  const boxes = [...svg.querySelectorAll("text")].map(t => ({text: t.textContent,
    r: t.getBoundingClientRect()}));
  const frame = svg.getBoundingClientRect();
  const out = [];
  for (const [i, a] of boxes.entries()) {
    if (a.r.left < frame.left - 0.5 || a.r.right > frame.right + 0.5 ||
        a.r.top < frame.top - 0.5 || a.r.bottom > frame.bottom + 0.5)
      out.push(`${a.text} outside the chart`);
    for (const b of boxes.slice(i + 1))
      if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom &&
          b.r.top < a.r.bottom)
        out.push(`${a.text} over ${b.text}`);
  }
  return {out, texts: boxes.map(b => b.text), heights: boxes.map(b => b.r.height)};
}
"""


@schemes
def test_the_money_chart_labels_never_overlap_on_a_phone(
    new_context: Callable[..., BrowserContext], site: Site, scheme: str
) -> None:
    keeper, page = open_page(new_context, site, "360x740", scheme, keeper=True)
    keeper.goto(f"/regulars/{site.ann}")
    svg = page.locator("figure.money-chart svg")
    expect(svg).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    found = svg.evaluate(OVERLAPS)
    # Highest, 0, lowest; the first and last dates.
    assert found["texts"] == ["$24.80", "$0.00", "-$3.10", "2026-09-04", "2026-11-20"], found
    assert found["out"] == [], found["out"]
    assert min(found["heights"]) >= 9, found  # readable: about 11 px text on the phone
    marks = svg.locator("circle.night")
    expect(marks).to_have_count(3)
    titles = [squeezed(m) for m in marks.locator("title").all()]
    assert titles[0] == "2026-09-04: -$3.10" and titles[1] == "2026-10-02: $12.40", titles
    # The labels are drawn in the page's text colours (readable in the dark too).
    colour = svg.locator("text").first.evaluate("t => getComputedStyle(t).fill")
    muted = page.evaluate(
        "() => { const p = document.createElement('p'); p.className = 'muted';"
        " document.body.append(p); const c = getComputedStyle(p).color; p.remove(); return c; }"
    )
    assert colour == muted, (colour, muted)


@schemes
def test_the_money_chart_passes_axe(
    new_context: Callable[..., BrowserContext], site: Site, scheme: str
) -> None:
    """The chart is a group named by its title, each dot an image named by its date: axe
    finds nothing on the regular's page (any impact)."""
    context = new_context(**SIZES["360x740"], color_scheme=scheme, storage_state=site.state,
                          bypass_csp=True)  # fmt: skip
    page = context.new_page()
    Keeper(page, site.url).goto(f"/regulars/{site.ann}")
    page.add_script_tag(path=str(axe_script()))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    found = [f"{v['id']}: {n['target']}" for v in results["violations"] for n in v["nodes"]]
    assert found == [], found
    names = page.get_by_role("img", name="2026-10-02: $12.40")
    expect(names).to_have_count(1)


def squeezed(locator: Locator) -> str:
    return re.sub(r"\s+", " ", locator.text_content() or "").strip()


# ------------------------------------------------------------ nets on the point ---
POINTS = """
cells => cells.map(cell => {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.lastIndexOf(".");
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    const r = range.getBoundingClientRect();
    return {text: cell.textContent.trim(), x: r.left, right: cell.getBoundingClientRect().right};
  }
  return {text: cell.textContent.trim(), x: null};
})
"""


def decimal_points(cells: Locator) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = cells.evaluate_all(POINTS)
    return found


@sizes
@schemes
@pytest.mark.parametrize("where", ["payout", "night-live"])
def test_each_persons_net_is_aligned_on_the_decimal_point(
    new_context: Callable[..., BrowserContext], site: Site, size: str, scheme: str, where: str
) -> None:
    keeper, page = open_page(new_context, site, size, scheme, keeper=where == "payout")
    if where == "payout":
        keeper.goto(f"/nights/{site.night}/payout")
    else:
        page.goto(site.night_link)
    heading = page.get_by_role("heading", name=re.compile(r"^Each person's net"))
    expect(heading).to_be_visible()
    nets = heading.locator("xpath=following-sibling::table[1]").locator("td.num")
    points = decimal_points(nets)
    shown = {p["text"] for p in points}
    assert {"+$12.40", "-$3.10", "$0.00", "+$90.70", "-$100.00"} <= shown, points
    xs = [p["x"] for p in points]
    assert None not in xs, points
    assert max(xs) - min(xs) <= 1, points
    if where == "payout":  # the games' pots below: their Net column too
        for table in page.locator(".summary table.pot").all():
            column = decimal_points(table.locator("td.net"))
            xs = [p["x"] for p in column]
            assert None not in xs and max(xs) - min(xs) <= 1, column


# ------------------------------------------------------------------- re-buys ---
@schemes
@pytest.mark.parametrize("where", ["sheet", "live"])
def test_two_rebuys_never_break_at_the_hyphen(
    new_context: Callable[..., BrowserContext], site: Site, scheme: str, where: str
) -> None:
    keeper, page = open_page(new_context, site, "360x740", scheme, keeper=where == "sheet")
    if where == "sheet":
        keeper.goto(f"/games/{site.vegas}")
    else:
        page.goto(site.game_link)
    note = page.locator("section.pot th").filter(has_text="Christopher").locator("span.muted")
    expect(note).to_have_text("· 2 re-buys")
    lines: dict[str, float] = note.evaluate(
        """span => ({rects: span.getClientRects().length,
                    height: span.getBoundingClientRect().height,
                    line: parseFloat(getComputedStyle(span).lineHeight)})"""
    )
    assert lines["rects"] == 1 and lines["height"] < 1.5 * lines["line"], lines
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
