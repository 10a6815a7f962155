"""Push in a real Chromium against the deployed stack (``deploy/stack up``: nginx with
nchan from deploy/nginx.conf, gunicorn from deploy/gunicorn.conf.py, Redis, a PostgreSQL
database of its own). Two phones: the keeper's, through the front, and a player's on the
game's live view. The keeper saves a round and the player's page shows the new totals
within a second, without a reload and without asking the app (the stream's message holds
the page); the front is stopped (the stream
is cut) and the page still updates, by its poll; the front comes back and the page is on
its stream again.

The player's page is asked of the app itself (the stack's second path, as a phone whose
proxy does not pass the stream would): its stream is the front's (an absolute address,
allowed by the page's own content security policy), so stopping the front cuts the
stream while the poll still reaches the app. Needs PostgreSQL
(SCOREKEEPER_TEST_DATABASE_URL: CI sets it) and nginx with nchan (scripts/test installs
them); skipped without the first, like the load tests."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from playwright.sync_api import BrowserContext, Request, expect
from sqlalchemy import make_url

from tests.browser.keeper import PASSWORD, Keeper

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "").strip()
WITHIN_MS = 1000  # a saved round on every phone within a second
POLL_MS = 10_000  # the fallback: a 4 s poll, with room for a busy machine


def stack(*args: str, run: Path) -> str:
    done = subprocess.run(
        [str(ROOT / "deploy" / "stack"), *args, "--dir", str(run)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "SCOREKEEPER_STACK_PG": _admin_url()},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _admin_url() -> str:
    url = make_url(PG_URL).set(drivername="postgresql", database="postgres")
    return url.render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    if not PG_URL:
        pytest.skip("the deployed stack needs PostgreSQL: set SCOREKEEPER_TEST_DATABASE_URL")
    run = tmp_path_factory.mktemp("stack") / "run"
    try:
        out = stack("up", "--workers", "2", "--access-log", run=run)
        state = json.loads((run / "stack.json").read_text())
        assert out.strip().splitlines()[-1] == state["base_url"]  # the base URL, last
        yield state
    finally:
        stack("down", run=run)
    assert not run.exists()


def totals(page: Any) -> Any:
    return page.locator("table.grid tr.totals td")


def shows(numbers: str) -> list[re.Pattern[str]]:
    """The totals row's cells reading these totals (the one who went out scores the
    others' hands, hand-checked)."""
    return [re.compile(rf"^\s*{n}(?!\d)") for n in numbers.split()]


def test_a_saved_round_reaches_the_players_phone_within_a_second_by_its_stream(
    new_context: Callable[..., BrowserContext], deployed: dict[str, Any]
) -> None:
    run = Path(deployed["dir"])
    keeper = Keeper(new_context().new_page(), deployed["base_url"])
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    sheet = keeper.path().split("?")[0]
    keeper.tap(keeper.button("Show players"))
    link = keeper.page.get_by_label("Link to share").input_value()
    path = re.sub(r"^https?://[^/]+", "", link)
    keeper.goto(sheet)

    player = new_context().new_page()
    asked: list[str] = []  # what the player's page asked of its own page's address
    player.on("request", lambda r: _note(r, path, asked))
    opened = player.expect_response(lambda r: "/streams/live/" in r.url and r.status == 200)
    with opened:
        assert player.goto(deployed["app_url"] + path).ok
    expect(player.locator("section.banner")).to_contain_text("Deal 1")
    asked.clear()

    # 1. On the stream: the new totals within a second of the keeper's tap on Save, with
    # no reload and no request for the page: the stream's message held it.
    log = run / "gunicorn-access.log"
    before = len(_logged(log, f"GET {path}"))
    for n, (out, hands, total) in enumerate(
        [("Ann", {"Bob": "12", "Cy": "7"}, "19 0 0"), ("Bob", {"Ann": "5", "Cy": "10"}, "19 15 0")],
        1,
    ):
        keeper.follow(keeper.link(f"Enter deal {n}"))
        keeper.fill_round(out, hands)
        keeper.save()
        expect(totals(player)).to_have_text(shows(total), timeout=WITHIN_MS)
        keeper.wait_for_sheet()
    assert player.url == deployed["app_url"] + path
    assert asked == [], asked  # no poll while streaming, and nothing asked after a save
    time.sleep(0.5)  # a request's line comes after its answer: room for a late one
    assert len(_logged(log, f"GET {path}")) == before  # the app saw no page request

    # 2. The front stopped: no stream; the page polls the app and still follows. The
    # keeper, whose front is gone too, saves through the app.
    stack("front", "stop", run=run)
    asked.clear()
    direct = Keeper(keeper.page, deployed["app_url"])  # the same phone, logged in
    direct.goto(sheet)
    direct.follow(direct.link("Enter deal 3"))
    direct.fill_round("Cy", {"Ann": "20", "Bob": "1"})
    direct.save()
    direct.wait_for_sheet()
    expect(totals(player)).to_have_text(shows("19 15 21"), timeout=POLL_MS)
    assert any("v=" not in url for url in asked), asked  # by the poll

    # 3. The front back: the page is on its stream again (it connects by itself), and
    # the next round arrives within a second.
    with player.expect_response(
        lambda r: "/streams/live/" in r.url and r.status == 200, timeout=30_000
    ):
        stack("front", "start", run=run)
    asked.clear()
    keeper.goto(sheet)
    keeper.follow(keeper.link("Enter deal 4"))
    keeper.fill_round("Ann", {"Bob": "30", "Cy": "2"})
    keeper.save()
    expect(totals(player)).to_have_text(shows("51 15 21"), timeout=WITHIN_MS)
    keeper.wait_for_sheet()
    assert not any("v=" in url for url in asked), asked  # the page came in the message


def test_phones_in_two_languages_each_get_their_page_in_the_message(
    new_context: Callable[..., BrowserContext], deployed: dict[str, Any]
) -> None:
    """A German phone and an English one on the same link, through the front: each holds
    its own language's stream, and a saved round reaches both within a second with no
    request for the page from either (each message held its page, in its language)."""
    keeper = Keeper(new_context().new_page(), deployed["base_url"])
    keeper.sign_up("fifth@example.com")
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    sheet = keeper.path().split("?")[0]
    keeper.tap(keeper.button("Show players"))
    link = keeper.page.get_by_label("Link to share").input_value()
    path = re.sub(r"^https?://[^/]+", "", link)
    keeper.goto(sheet)
    phones, asked = [], []
    for locale, language in (("de-DE", "de"), ("en-GB", "en")):
        phone = new_context(locale=locale).new_page()
        phone.on("request", lambda r: _note(r, path, asked))
        stream = f"/streams/live/{path.rsplit('/', 1)[1]}/{language}"
        with phone.expect_response(lambda r, s=stream: r.url.endswith(s) and r.status == 200):
            assert phone.goto(link).ok
        phones.append(phone)
    asked.clear()
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {"Bob": "12", "Cy": "7"})
    keeper.save()
    for phone in phones:
        expect(totals(phone)).to_have_text(shows("19 0 0"), timeout=WITHIN_MS)
    assert asked == [], asked


def _note(request: Request, path: str, asked: list[str]) -> None:
    if request.resource_type == "fetch" and path in request.url:
        asked.append(request.url)


def test_a_co_keepers_round_shows_on_the_other_keepers_open_sheet(
    new_context: Callable[..., BrowserContext], deployed: dict[str, Any]
) -> None:
    """The keeper's sheet holds the game's stream (authorized by the app): a round saved
    from another phone of the keeper's account draws the open sheet again, no tap."""
    first = Keeper(new_context().new_page(), deployed["base_url"])
    streams: list[int] = []
    first.page.on("response", lambda r: "/streams/game/" in r.url and streams.append(r.status))
    first.sign_up("second@example.com")
    night = first.start_night(["Ann", "Bob", "Cy"])
    first.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    sheet = first.path().split("?")[0]
    for _ in range(100):  # the sheet's stream open (what it does is asserted below)
        if 200 in streams:
            break
        first.page.wait_for_timeout(100)

    other = Keeper(new_context().new_page(), deployed["base_url"])
    other.goto("/login")
    other.page.get_by_label("Email").fill("second@example.com")
    other.page.get_by_label("Password", exact=True).fill(PASSWORD)
    other.tap(other.button("Log in"))
    expect(other.page).not_to_have_url(re.compile(r"/login"))
    other.goto(sheet)
    other.follow(other.link("Enter deal 1"))
    other.fill_round("Ann", {"Bob": "12", "Cy": "7"})
    other.save()
    expect(totals(first.page)).to_have_text(shows("19 0 0"), timeout=WITHIN_MS)

    # A stranger's browser is not let in on the game's stream.
    stranger = new_context().new_page()
    stranger.goto(deployed["base_url"] + "/login")
    answer = stranger.request.get(
        deployed["base_url"] + sheet.replace("/games/", "/streams/game/"),
        headers={"Accept": "text/event-stream"},
    )
    assert answer.status == 403


def test_the_app_sees_each_phone_as_itself_through_the_front(
    new_context: Callable[..., BrowserContext], deployed: dict[str, Any]
) -> None:
    """Two phones on the players' page, each from its own address: through the front's
    cached and fresh paths the app is told each phone's address (X-Forwarded-For), as
    its per-client limit on the live views needs; not the front's own for all."""
    keeper = Keeper(new_context().new_page(), deployed["base_url"])
    keeper.sign_up("third@example.com")
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    keeper.tap(keeper.button("Show players"))
    link = keeper.page.get_by_label("Link to share").input_value()
    path = re.sub(r"^https?://[^/]+", "", link)
    front = urlsplit(deployed["base_url"])
    asked = {"127.7.0.1": f"{path}?tv=1", "127.7.0.2": f"{path}?v=xff-check"}
    for source, target in asked.items():
        phone = http.client.HTTPConnection(
            front.hostname, front.port, timeout=30, source_address=(source, 0)
        )
        phone.request("GET", target)
        assert phone.getresponse().status == 200
        phone.close()
    for source, target in asked.items():
        lines = _logged(Path(deployed["dir"]) / "gunicorn-access.log", f"GET {target} ")
        assert lines and all(line.startswith(f"{source} ") for line in lines), lines


def _logged(log: Path, request: str) -> list[str]:
    """The access log's lines of ``request``: a worker writes its line after the response
    has gone, so on a busy machine it may come a moment after the answer (waited for)."""
    for _ in range(100):
        lines = [line for line in log.read_text().splitlines() if request in line]
        if lines:
            return lines
        time.sleep(0.1)
    return []


def test_a_page_the_server_was_too_busy_to_give_is_asked_again(
    new_context: Callable[..., BrowserContext], deployed: dict[str, Any]
) -> None:
    """A message said the game changed (the version only: the app does not know the
    page's language, its note of it lost), and the page it asked for came back busy (a
    429 or a 503): the stream says nothing more until the next round, so the page asks
    again at its next tick instead of showing the old totals for a whole round."""
    keeper = Keeper(new_context().new_page(), deployed["base_url"])
    keeper.sign_up("fourth@example.com")
    night = keeper.start_night(["Ann", "Bob", "Cy"])
    keeper.new_game(night, "Rummy", ["Ann", "Bob", "Cy"])
    sheet = keeper.path().split("?")[0]
    keeper.tap(keeper.button("Show players"))
    link = keeper.page.get_by_label("Link to share").input_value()
    keeper.goto(sheet)

    player = new_context().new_page()
    refused: list[str] = []

    def busy_once(route: Any) -> None:
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=429, body="Too many requests from here")
        else:
            route.continue_()

    player.route(re.compile(r"/live/[^/?]+\?v="), busy_once)
    with player.expect_response(lambda r: "/streams/live/" in r.url and r.status == 200):
        assert player.goto(link).ok
    token = link.rstrip("/").rsplit("/", 1)[1]
    redis.Redis(port=deployed["redis_port"]).delete(f"scorekeeper:live-variants:{token}")
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {"Bob": "12", "Cy": "7"})
    keeper.save()
    expect(totals(player)).to_have_text(shows("19 0 0"), timeout=POLL_MS)
    assert refused, "the page's first ask was not the one refused"
