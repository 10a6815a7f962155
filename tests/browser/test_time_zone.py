"""Issue 22 point 5: times read in the keeper's time zone. The page asks the phone's zone
in a worker (static/js/zone.js: Intl's first date call is a long task on a cheap phone,
the sheet's whole blocking time in Lighthouse) and keeps it in a cookie with the clock's
offset; the server shows times in it from the next page on."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser


def test_the_phones_zone_is_kept_and_times_read_in_it(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    context = new_context(timezone_id="Asia/Kolkata")  # UTC+05:30, no summer time
    page = context.new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob"])
    game = keeper.new_game(night, "Rummy", ["Ann", "Bob"])
    keeper.enter_round("Ann", {"Bob": "20"})

    def cookies() -> dict[str, str]:
        return {c["name"]: c["value"] for c in context.cookies()}

    page.wait_for_function("() => document.cookie.includes('tzo=')")
    assert cookies()["tz"] in {"Asia/Kolkata", "Asia/Calcutta"}  # ICU keeps the old name
    assert cookies()["tzo"] == "-330"  # what getTimezoneOffset() says there
    keeper.goto(f"/games/{game}/history")
    stamp = page.locator("time").first
    expect(stamp).to_contain_text("IST")
    utc = re.search(r"T(\d\d):(\d\d)", stamp.get_attribute("datetime") or "")
    shown = re.search(r"(\d\d):(\d\d):\d\d IST", stamp.inner_text())
    assert utc and shown
    minutes = (int(utc[1]) * 60 + int(utc[2]) + 330) % (24 * 60)
    assert (int(shown[1]), int(shown[2])) == divmod(minutes, 60)
    # Known and unchanged: the next pages start no worker.
    page.add_init_script("window.Worker = function () { throw new Error('no worker wanted'); };")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    keeper.goto(f"/games/{game}")
    keeper.goto(f"/nights/{night}")
    assert errors == []


def test_a_phone_that_cannot_start_the_worker_still_gets_the_rest_of_the_script(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """The zone is a nicety: a browser that refuses the worker (a policy, an old engine)
    still registers the service worker for offline rounds, set up after it."""
    context = new_context()
    context.add_init_script("window.Worker = function () { throw new Error('refused'); };")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    keeper.start_night(["Ann", "Bob"])
    registered = page.evaluate(
        """() => Promise.race([
          navigator.serviceWorker.ready.then(r => Boolean(r.active || r.installing)),
          new Promise(done => setTimeout(() => done(false), 8000))])"""
    )
    assert registered is True
    assert errors == []
    assert "tz" not in {c["name"] for c in context.cookies()}
