"""The live view in a real Chromium: a keeper shows players a game; a second browser with
no login opens the link the keeper's page shows and sees a round within 10 s of its being
saved; a link turned off answers 404 (and a page polling it says so). The players' pages
at 390x844 and 360x740, light and dark: no element of the grid covers another, even with
the grid scrolled, and axe finds nothing serious. Screenshots of each for the reviewers
in test-artifacts/screenshots/ (live-*.png)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.harness import open_context, start_server
from tests.browser.keeper import Keeper, texas_record
from tests.browser.test_accessibility import SERIOUS, axe_script, describe

pytestmark = pytest.mark.browser

SIZES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}
TV = {"viewport": {"width": 1280, "height": 720}, "is_mobile": False, "has_touch": False,
      "device_scale_factor": 1}  # fmt: skip
SEEN_WITHIN_S = 10


def show_players(keeper: Keeper, button: str) -> str:
    """Tap the keeper's control and read the link the page shows (what the QR code says)."""
    keeper.tap(keeper.button(button))
    expect(keeper.page).to_have_url(re.compile(r"/live$"))
    expect(keeper.page.get_by_role("img", name="QR code of the live view link")).to_be_visible()
    link = keeper.page.get_by_label("Link to share").input_value()
    assert re.fullmatch(re.escape(keeper.base) + r"/live/(night/)?[A-Za-z0-9_-]{22}", link), link
    return link


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"live-{name}.png"), full_page=True)


# ------------------------------------------------------------ the round arrives ---
def test_a_player_sees_the_saved_round_within_10_s_and_a_turned_off_link_is_gone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    keeper = Keeper(new_context().new_page(), live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    keeper.enter_round("Ann", {"Bob": "12", "Cy": "7"})
    sheet = keeper.path()
    link = show_players(keeper, "Show players")
    screenshot(keeper.page, "keeper-qr-390-light")

    player = new_context().new_page()  # another phone: no login, no cookie
    response = player.goto(link)
    assert response is not None and response.status == 200
    assert player.context.cookies() == []
    totals = player.locator("table.grid tr.totals")
    expect(totals).to_contain_text("19")
    expect(player.locator("section.banner")).to_contain_text("Deal 2")

    keeper.goto(sheet.split("?")[0])
    keeper.enter_round("Bob", {"Ann": "5", "Cy": "10"})
    saved = time.monotonic()
    expect(player.locator("section.banner")).to_contain_text("Deal 3", timeout=SEEN_WITHIN_S * 1000)
    seen = time.monotonic() - saved
    assert seen < SEEN_WITHIN_S, seen
    assert player.url == link  # updated in place, not reloaded
    expect(player.locator("tr[data-round='2']")).to_have_class(re.compile(r"\bjust-saved\b"))
    expect(player.locator("tr[data-round='2'] td").nth(1)).to_contain_text("15")
    expect(player.locator("#live-status")).to_contain_text("Updated")
    print(f"round 2 seen on the player's phone {seen:.1f} s after it was saved")

    # The keeper turns the link off: the polling page shows "not found", and so does a
    # fresh visit.
    keeper.goto(sheet.split("?")[0].rstrip("/") + "/live")
    keeper.page.once("dialog", lambda dialog: dialog.accept())
    keeper.tap(keeper.button("Turn off"))
    expect(keeper.page.get_by_text("The live view is off: nobody")).to_be_visible()
    expect(player.get_by_role("heading", name="Not found")).to_be_visible(
        timeout=SEEN_WITHIN_S * 1000
    )
    other = new_context().new_page()
    response = other.goto(link)
    assert response is not None and response.status == 404
    expect(other.get_by_text("There is nothing here, or it is not yours to see.")).to_be_visible()


def test_with_javascript_off_the_page_reloads_itself(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    keeper = Keeper(new_context().new_page(), live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob"])
    link = show_players(keeper, "Show players")
    player = new_context(java_script_enabled=False).new_page()
    player.goto(link)
    expect(player.get_by_text("No deals yet.")).to_be_visible()
    keeper.goto(keeper.path().removesuffix("/live"))
    keeper.enter_round("Ann", {"Bob": "9"})
    expect(player.locator("table.grid tr.totals")).to_contain_text("9", timeout=15_000)


# --------------------------------------------------------------- layout, axe ---
@dataclass
class Site:
    url: str
    keeper_state: dict[str, Any]
    game: str  # the live links
    night: str
    keeper_page: str  # the keeper's page of the game's link


@pytest.fixture(scope="module")
def site(
    browser: Browser, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """A night with a finished Texas game (for the settlement, the payee with a PayPal.me
    handle) and a six-player Texas game in play, its links shown to players."""
    server = start_server(sqlite_template, tmp_path_factory.mktemp("live"))
    context = open_context(browser)
    try:
        keeper = Keeper(context.new_page(), server.url)
        keeper.sign_up()
        players = ["Margaret", "Bob", "Christopher", "Dee", "Evelyn", "Finn"]
        night = keeper.start_night(players)
        keeper.import_game(night, texas_record(players[:3], 11))
        game = keeper.import_game(night, texas_record(players, 7))
        link = show_players(keeper, "Show players")
        keeper_page = keeper.path()
        keeper.goto("/regulars")
        keeper.follow(keeper.link("Margaret"))
        keeper.page.get_by_label("How").first.select_option("paypal")
        keeper.page.get_by_label("Handle, IBAN or text").first.fill("margaretpays")
        keeper.tap(keeper.button("Save ways to pay"))
        expect(keeper.page.get_by_text("Ways to pay saved.")).to_be_visible()
        keeper.goto(f"/nights/{night}")
        night_link = show_players(keeper, "Live view for players")
        assert game
        state = context.storage_state()
    finally:
        context.close()
    yield Site(server.url, dict(state), link, night_link, keeper_page)
    server.stop()


PAGES = {"game": "game", "night": "night"}


def overlaps(page: Page, scope: str) -> list[str]:
    """Pairs of the grid's cells (and of the parts of each cell) whose boxes overlap, and
    the sticky cells (names, totals, round labels) something else is drawn over."""
    return list(
        page.evaluate(
            """(scope) => {
        const out = [];
        const box = e => e.getBoundingClientRect();
        const name = e => (e.tagName + '.' + e.className + ' ' + e.textContent.trim()).slice(0, 60);
        const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                              a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        for (const wrap of document.querySelectorAll(scope + ' .grid-wrap')) {
          wrap.scrollTop = 0; wrap.scrollLeft = 0;
          const cells = [...wrap.querySelectorAll('th, td')].filter(c => c.offsetParent);
          // at rest: a table's cells never overlap, nor do the parts of a cell
          for (let i = 0; i < cells.length; i++) {
            for (let j = i + 1; j < cells.length; j++) {
              if (hit(box(cells[i]), box(cells[j]))) {
                out.push('cells ' + name(cells[i]) + ' / ' + name(cells[j]));
              }
            }
            const parts = [...cells[i].children].filter(p => p.offsetParent);
            for (let a = 0; a < parts.length; a++) for (let b = a + 1; b < parts.length; b++) {
              if (hit(box(parts[a]), box(parts[b]))) {
                out.push('in ' + name(cells[i]) + ': ' + name(parts[a]) + ' / ' + name(parts[b]));
              }
            }
            if (cells[i].scrollWidth > cells[i].clientWidth + 1) {
              out.push('cut off: ' + name(cells[i]));
            }
          }
          // scrolled: the sticky cells (names, totals, round labels) stay on top of what
          // slides under them; only a label gone under the header, or a header cell gone
          // under the corner, is rightly out of sight
          wrap.scrollTop = 60; wrap.scrollLeft = 80;
          const wrapBox = box(wrap);
          const head = [...wrap.querySelectorAll('thead th, thead td')];
          const headBottom = Math.max(...head.map(c => box(c).bottom));
          const corner = [...wrap.querySelectorAll('thead .rl')];
          const cornerRight = Math.max(...corner.map(c => box(c).right));
          for (const cell of [...head, ...wrap.querySelectorAll('tbody th.rl')]) {
            const r = box(cell);
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (r.width < 1 || x < wrapBox.left || x > wrapBox.right) continue;
            if (y > wrapBox.bottom) continue;
            if (!cell.classList.contains('rl') && x < cornerRight) continue;
            if (cell.closest('tbody') && y < headBottom) continue;
            const top = document.elementFromPoint(x, y);
            if (top && !cell.contains(top)) out.push('covered: ' + name(cell) + ' by ' + name(top));
          }
          // and the sticky rows of the head never slide over one another
          const shown = head.filter(c => c.classList.contains('rl') || box(c).left >= cornerRight);
          for (let i = 0; i < shown.length; i++) {
            for (let j = i + 1; j < shown.length; j++) {
              if (hit(box(shown[i]), box(shown[j]))) {
                out.push('scrolled ' + name(shown[i]) + ' / ' + name(shown[j]));
              }
            }
          }
          wrap.scrollTop = wrap.scrollHeight; wrap.scrollLeft = 0;
        }
        return out;
      }""",
            scope,
        )
    )


def page_width(page: Page) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


@pytest.mark.parametrize("which", list(PAGES))
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_live_pages_on_phones_have_nothing_overlapping_and_pass_axe(
    which: str,
    size: str,
    scheme: str,
    site: Site,
    new_context: Callable[..., BrowserContext],
) -> None:
    context = new_context(viewport=SIZES[size], color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    url = site.game if which == "game" else site.night
    response = page.goto(url)
    assert response is not None and response.status == 200
    expect(page.locator("table.grid").first).to_be_visible()
    assert page_width(page) <= SIZES[size]["width"], "the live page scrolls sideways"
    # Open what is folded (a finished game, the charts, the table rules): all is checked.
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert overlaps(page, "main") == []
    assert page_width(page) <= SIZES[size]["width"]
    screenshot(page, f"{which}-{size}-{scheme}")
    page.add_script_tag(path=str(axe_script()))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [v for v in results["violations"] if v["impact"] in SERIOUS]
    assert not serious, f"{which} {size} {scheme}:\n" + describe(serious)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_keeper_page_passes_axe(
    scheme: str, site: Site, new_context: Callable[..., BrowserContext]
) -> None:
    context = new_context(color_scheme=scheme, bypass_csp=True, storage_state=site.keeper_state)
    page = context.new_page()
    Keeper(page, site.url).goto(site.keeper_page)
    expect(page.get_by_role("img", name="QR code of the live view link")).to_be_visible()
    screenshot(page, f"keeper-qr-390-{scheme}")
    page.add_script_tag(path=str(axe_script()))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [v for v in results["violations"] if v["impact"] in SERIOUS]
    assert not serious, describe(serious)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_large_type_layout_on_a_tv(
    scheme: str, site: Site, new_context: Callable[..., BrowserContext]
) -> None:
    page = new_context(**TV, color_scheme=scheme, bypass_csp=True).new_page()
    page.goto(site.game + "?tv=1")
    expect(page.locator("body.tv")).to_be_visible()
    # Read from two metres: the totals at least 30 px, the banner's headline 36 px; the
    # pot beside the grid in landscape, the chart open under them.
    size = page.locator("tr.totals td").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    headline = page.locator(".banner-main").evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 30 and headline >= 36, (size, headline)
    grid, pot = (
        page.locator(".grid-wrap").bounding_box(),
        page.locator("section.pot").bounding_box(),
    )
    assert grid and pot and pot["x"] >= grid["x"] + grid["width"], (grid, pot)
    expect(page.locator("details.chart-fold")).to_have_attribute("open", "")
    assert overlaps(page, "main") == []
    assert page_width(page) <= 1280
    screenshot(page, f"tv-1280-{scheme}")
    page.goto(site.night + "?tv=1")
    screenshot(page, f"tv-night-1280-{scheme}")
    page.add_script_tag(path=str(axe_script()))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [v for v in results["violations"] if v["impact"] in SERIOUS]
    assert not serious, describe(serious)


@pytest.mark.parametrize("width,height", [(1280, 720), (1024, 768), (1920, 1080)])
def test_the_tv_shows_the_latest_round_and_the_totals_above_the_fold(
    width: int, height: int, site: Site, new_context: Callable[..., BrowserContext]
) -> None:
    """Issue 22 point 9: on a TV the latest round and the game's totals are on screen
    without scrolling, and the dealer's mark sits beside the name, never over it or
    wrapping it."""
    page = new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(site.game + "?tv=1")
    expect(page.locator("body.tv")).to_be_visible()
    last, totals = page.locator("table.grid tbody tr").last, page.locator("tr.totals")
    for what, row in (("latest round", last), ("totals", totals)):
        box = row.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (what, box)
        inside = row.evaluate(
            """r => { const w = r.closest('.grid-wrap').getBoundingClientRect();
                      const b = r.getBoundingClientRect();
                      return b.top >= w.top - 1 && b.bottom <= w.bottom + 1; }"""
        )
        assert inside, f"the {what} row is scrolled out of the grid's box"
    heads = page.locator("table.grid thead th.pn")
    heights = heads.evaluate_all("hs => hs.map(h => Math.round(h.getBoundingClientRect().height))")
    assert max(heights) - min(heights) <= 2, heights  # a dealer's mark wraps no name
    assert overlaps(page, "main") == []
    screenshot(page, f"tv-{width}x{height}")
