"""axe-core on every main page, in the light and the dark colour scheme: no violation of
impact "serious" or "critical". axe.min.js comes from the PyPI package axe-playwright-python
(only its script is used); the app's Content-Security-Policy forbids injected script, so
these contexts are made with bypass_csp=True."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.browser.harness import open_context, start_server
from tests.browser.keeper import Keeper, texas_record
from tests.browser.test_offline import enter_waiting_round, wait_kept

pytestmark = pytest.mark.browser

SERIOUS = {"serious", "critical"}


def axe_script() -> Path:
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or spec.origin is None:
        pytest.fail(
            "axe-core for the accessibility tests comes from the PyPI package "
            "axe-playwright-python: pip install -e '.[test]'",
            pytrace=False,
        )
    path = Path(spec.origin).parent / "axe.min.js"
    assert path.is_file(), path
    return path


@dataclass
class Site:
    url: str
    night: int
    finished: int
    long: int
    state: dict[str, Any]


@pytest.fixture(scope="module")
def site(
    browser: Browser, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """One keeper's night, made once for all the pages: a finished Texas game (for the
    payout) and a long one in play with a correction in its history."""
    server = start_server(sqlite_template, tmp_path_factory.mktemp("axe"))
    context = open_context(browser)
    try:
        keeper = Keeper(context.new_page(), server.url)
        keeper.sign_up()
        night = keeper.start_night(["Ann", "Bob", "Cy", "Dee"])
        finished = keeper.import_game(night, texas_record(["Ann", "Bob", "Cy"], 11))
        long = keeper.import_game(night, texas_record(["Ann", "Bob", "Cy", "Dee"], 10))
        keeper.goto(f"/games/{long}/rounds/2")
        keeper.hand_input("Ann").fill("4")
        keeper.save()
        keeper.wait_for_sheet()
        state = context.storage_state()
    finally:
        context.close()
    yield Site(server.url, night, finished, long, dict(state))
    server.stop()


def round_half_entered(keeper: Keeper) -> None:
    """Who went out chosen (their row marked), a hand typed, a card counter open."""
    keeper.tap(keeper.went_out_choice("Cy"))
    keeper.hand_input("Dee").fill("12")
    keeper.counter("Ann")


def round_with_errors(keeper: Keeper) -> None:
    keeper.fill_round("Ann", {"Bob": "twelve", "Cy": "-5", "Dee": ""})
    keeper.save()
    expect(keeper.page.locator("p.error").first).to_be_visible()


def rounds_waiting(keeper: Keeper) -> None:
    """Offline: the kept sheet, its banner, and a round waiting as a pending row."""
    sheet = keeper.path()
    wait_kept(keeper.page, sheet, sheet + "/rounds/new")
    keeper.page.context.set_offline(True)
    enter_waiting_round(keeper, "Cy", {"Ann": "5", "Bob": "3", "Dee": "4"})


def round_refused(keeper: Keeper) -> None:
    """A waiting round the server refused, back in its form with the reason and Discard."""
    sheet = keeper.path()
    wait_kept(keeper.page, sheet, sheet + "/rounds/new")
    keeper.page.context.set_offline(True)
    enter_waiting_round(keeper, "Cy", {"Ann": "ZZ", "Bob": "3", "Dee": "4"})
    keeper.page.context.set_offline(False)
    keeper.follow(keeper.link(re.compile(r"^Fix or discard round \d+$")))
    expect(keeper.button(re.compile(r"^Discard round \d+$"))).to_be_visible()


# name -> (path, logged in, what the keeper does there before axe looks)
PAGES: dict[str, tuple[str, bool, Callable[[Keeper], None] | None]] = {
    "sign-in": ("/login", False, None),
    "sign-up": ("/signup", False, None),
    "home": ("/", True, None),
    "night": ("/nights/{night}", True, None),
    "choose-game": ("/nights/{night}/games/new", True, None),
    "new-game": ("/nights/{night}/games/new?variant=vegas", True, None),
    "sheet-long-game": ("/games/{long}", True, None),
    "sheet-finished": ("/games/{finished}", True, None),
    "round-entry": ("/games/{long}/rounds/new", True, None),
    "round-half-entered": ("/games/{long}/rounds/new", True, round_half_entered),
    "round-with-errors": ("/games/{long}/rounds/new", True, round_with_errors),
    "payout": ("/nights/{night}/payout", True, None),
    "history": ("/games/{long}/history", True, None),
    "sheet-rounds-waiting": ("/games/{long}", True, rounds_waiting),
    "round-refused": ("/games/{long}", True, round_refused),
}


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v.get('helpUrl', '')})")
        for node in v["nodes"]:
            lines.append(f"    target {node['target']}: {node.get('failureSummary', '')!r}")
            lines.append(f"      html: {node.get('html', '')[:200]}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", list(PAGES))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations(
    scheme: str, name: str, site: Site, new_context: Callable[..., BrowserContext]
) -> None:
    script = axe_script()
    path, logged_in, action = PAGES[name]
    context = new_context(
        bypass_csp=True,
        color_scheme=scheme,
        storage_state=site.state if logged_in else None,
    )
    page = context.new_page()
    keeper = Keeper(page, site.url)
    keeper.goto(path.format(night=site.night, long=site.long, finished=site.finished))
    if action:
        action(keeper)
    page.add_script_tag(path=str(script))
    assert page.evaluate("() => typeof axe") == "object"
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [v for v in results["violations"] if v["impact"] in SERIOUS]
    if serious:
        print(f"axe {results['testEngine']['version']} on {page.url} ({scheme}):")
        print(describe(serious))
    assert not serious, f"{name} ({scheme}, {page.url}):\n" + describe(serious)
