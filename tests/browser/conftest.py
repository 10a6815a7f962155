"""Real-browser fixtures: the app served on a loopback port from a fresh SQLite copy of the
migrated template, one headless Chromium per test session, phone-sized contexts, and a
screenshot of every open page when a test fails (test-artifacts/screenshots/)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, open_context, start_server

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture
def live_server(sqlite_template: Path, tmp_path: Path) -> Iterator[str]:
    """The base URL of a fresh app with an empty (migrated) database."""
    server = start_server(sqlite_template, tmp_path)
    yield server.url
    server.stop()


# ---------------------------------------------------------------------- browser ---
@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}", pytrace=False)
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test item so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def _save_screenshots(name: str, contexts: list[BrowserContext]) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^\w.-]+", "_", name).strip("_")
    n = 0
    for context in contexts:
        for page in context.pages:
            n += 1
            target = SCREENSHOTS / f"{stem}-{n}.png"
            try:
                page.screenshot(path=str(target), full_page=True, timeout=5_000)
            except Exception as exc:  # a closed or crashed page: say so, keep going
                print(f"could not screenshot {page.url}: {exc}")
            else:
                print(f"screenshot of {page.url}: {target}")


@pytest.fixture
def new_context(
    browser: Browser, request: pytest.FixtureRequest
) -> Iterator[Callable[..., BrowserContext]]:
    """Make browser contexts (phone by default; keyword arguments override); on failure
    every page still open in them is saved as a screenshot."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = open_context(browser, **options)
        contexts.append(context)
        return context

    yield make
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        _save_screenshots(request.node.name, contexts)
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context: Callable[..., BrowserContext]) -> Page:
    """A fresh phone-sized page with JavaScript on."""
    return new_context().new_page()
