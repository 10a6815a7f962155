"""Rendered documents shared between workers through Flask-Caching and a real Redis
(issues 12 and 24): with ``CACHE_TYPE=RedisCache``, a PDF or a sheet rendered by one app
(one worker, one host) is served by another from Redis without rendering, and a saved
round makes a new key, so the shared cache never answers with an old sheet. A Redis that
goes away mid-run costs no request anything but speed: each worker logs it and uses its
own caches until Redis answers again.

The Redis is the one ``SCOREKEEPER_TEST_REDIS_URL`` names (``scripts/test`` starts one on a
free port when none is configured); without the variable these tests are skipped, and with
it set but the server unreachable they fail. Each test writes under a key prefix of its
own, so the two test workers share the server without meeting. The outage test starts a
``redis-server`` of its own, since it stops it."""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from scorekeeper.cache import SharedCache
from scorekeeper.reports import files
from scorekeeper.web import printouts
from scorekeeper.web.games import sheet as sheet_view
from tests.conftest import make_app
from tests.web.keeper import Keeper

REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "").strip()


def _reachable(url: str) -> redis.Redis:
    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.fail(
            f"SCOREKEEPER_TEST_REDIS_URL is set but Redis is unreachable: {exc}", pytrace=False
        )
    return client


@pytest.fixture
def redis_url() -> str:
    if not REDIS_URL:
        pytest.skip(
            "shared-cache tests need Redis: set SCOREKEEPER_TEST_REDIS_URL (scripts/test "
            "starts a redis-server and sets it), e.g. redis://127.0.0.1:6379/0"
        )
    _reachable(REDIS_URL)
    return REDIS_URL


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    mine = f"scorekeeper-test-{uuid.uuid4().hex[:12]}:"
    yield mine
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{mine}*"))
    if keys:
        client.delete(*keys)


def shared_app(db_uri: str, url: str, prefix: str) -> Flask:
    return make_app(db_uri, CACHE_TYPE="RedisCache", CACHE_REDIS_URL=url, CACHE_KEY_PREFIX=prefix)


def keys(url: str, pattern: str) -> list[bytes]:
    return list(redis.Redis.from_url(url).scan_iter(pattern))


@pytest.fixture
def apps(app: Flask, db_uri: str, redis_url: str, prefix: str) -> tuple[Flask, Flask]:
    """Two apps on one database and one Redis: two workers, or two hosts."""
    files.PDF_CACHE.clear()
    sheet_view.SHEET_CACHE.clear()
    return shared_app(db_uri, redis_url, prefix), shared_app(db_uri, redis_url, prefix)


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Count the calls of ``module.name`` from now on."""
    calls: list[str] = []
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_pdf_rendered_by_one_worker_is_served_by_another(apps, redis_url, prefix, monkeypatch):
    first, second = apps
    one, two = first.test_client(), second.test_client()
    keeper = Keeper(one)
    keeper.signup()
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    pdf = one.get(f"/games/{game}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert len(files.PDF_CACHE) == 0  # nothing kept in this worker's memory: it is in Redis
    assert keys(redis_url, f"{prefix}pdf:*")

    Keeper(two).login("keeper@example.com")
    rendered = counting(monkeypatch, printouts, "game_sheet_pdf")
    again = two.get(f"/games/{game}/sheet.pdf")
    assert again.data == pdf.data and rendered == []

    # A saved round is a new version: a new key, a new PDF, never the old one.
    assert keeper.enter(game, "Bob", {"Ann": 9, "Cy": 1}).status_code == 302
    newer = two.get(f"/games/{game}/sheet.pdf")
    assert newer.status_code == 200 and rendered == ["game_sheet_pdf"] and newer.data != pdf.data


def test_a_sheet_drawn_by_one_worker_is_served_by_another_and_never_stale(
    apps, redis_url, prefix, monkeypatch
):
    first, second = apps
    one, two = first.test_client(), second.test_client()
    keeper = Keeper(one)
    keeper.signup()
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    page = one.get(f"/games/{game}")
    assert page.status_code == 200 and 'id="r1"' in page.get_data(as_text=True)
    assert keys(redis_url, f"{prefix}sheet:*") and len(sheet_view.SHEET_CACHE.local) == 0

    # The same phone (the same log-in's cookies) reaching the other worker.
    two._cookies = one._cookies  # type: ignore[attr-defined]
    drawn = counting(monkeypatch, sheet_view, "SheetView")
    served = two.get(f"/games/{game}")
    assert served.status_code == 200 and drawn == []  # from Redis: nothing drawn
    # The ETag one worker gave is answered by the other from the stored version: 304.
    etag = page.headers["ETag"]
    assert two.get(f"/games/{game}", headers={"If-None-Match": etag}).status_code == 304

    assert keeper.enter(game, "Bob", {"Ann": 3}).status_code == 302
    assert two.get(f"/games/{game}", headers={"If-None-Match": etag}).status_code == 200
    newer = two.get(f"/games/{game}").get_data(as_text=True)
    assert 'id="r2"' in newer and drawn  # a new version: drawn afresh, never the old page


def test_without_a_shared_cache_each_worker_keeps_its_own(app, client):
    files.PDF_CACHE.clear()
    keeper = Keeper(client)
    keeper.signup()
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert client.get(f"/games/{game}/blank.pdf").status_code == 200
    assert len(files.PDF_CACHE) == 1
    assert "scorekeeper_shared_cache" not in app.extensions


# ------------------------------------------------------------------ outage ---
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """A redis-server of the test's own, on a free loopback port, that it may stop."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if REDIS_URL:  # Redis was asked for (scripts/test installs redis-server)
                pytest.fail("redis-server is not installed", pytrace=False)
            pytest.skip("needs redis-server (scripts/test installs it)")
        self.binary = binary
        self.workdir = workdir
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_redis_that_goes_away_degrades_to_the_workers_own_caches(
    app, db_uri, own_redis, monkeypatch, caplog
):
    monkeypatch.setattr(SharedCache, "RETRY_SECONDS", 0.0)  # ask Redis again at once
    files.PDF_CACHE.clear()
    sheet_view.SHEET_CACHE.clear()
    worker = shared_app(db_uri, own_redis.url, "scorekeeper:")
    client = worker.test_client()
    keeper = Keeper(client)
    keeper.signup()
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    assert client.get(f"/games/{game}").status_code == 200
    assert keys(own_redis.url, "scorekeeper:sheet:*") and len(sheet_view.SHEET_CACHE.local) == 0

    own_redis.stop()  # mid-run: the server is gone
    # The test session ran Alembic's fileConfig (migrations), which disables the loggers
    # that existed then; a worker serving the app never runs it.
    monkeypatch.setattr(logging.getLogger("scorekeeper.cache"), "disabled", False)
    caplog.set_level(logging.WARNING, logger="scorekeeper.cache")
    pages = [client.get(f"/games/{game}") for _ in range(3)]
    saved = keeper.enter(game, "Bob", {"Ann": 4})
    after = client.get(f"/games/{game}")
    pdf = client.get(f"/games/{game}/sheet.pdf")
    pdf_again = client.get(f"/games/{game}/sheet.pdf")
    assert [p.status_code for p in pages] == [200, 200, 200]
    assert saved.status_code == 302 and after.status_code == 200
    assert 'id="r2"' in after.get_data(as_text=True)
    assert pdf.status_code == 200 and pdf_again.data == pdf.data
    # The worker's own caches took over: the sheet and the PDF are kept in its memory.
    assert len(sheet_view.SHEET_CACHE.local) > 0 and len(files.PDF_CACHE) == 1
    down = [r for r in caplog.records if "shared cache unavailable" in r.getMessage()]
    assert len(down) == 1, [r.getMessage() for r in caplog.records]  # once per outage
    assert down[0].levelno == logging.WARNING and "ConnectionError" in down[0].getMessage()

    own_redis.start()  # back: the worker uses it again, and says so
    back = client.get(f"/games/{game}/sheet.pdf")
    assert back.status_code == 200 and back.data.startswith(b"%PDF")
    assert any("answers again" in r.getMessage() for r in caplog.records)
    assert keys(own_redis.url, "scorekeeper:pdf:*")


def test_a_failed_redis_is_left_alone_for_a_while():
    """After a failure the backend is not asked again until RETRY_SECONDS have passed:
    a Redis that is gone does not cost every request a failed connection."""
    calls: list[str] = []

    class Gone:
        def get(self, key: str) -> Any:
            calls.append(key)
            raise redis.ConnectionError("Connection refused")

        def set(self, key: str, value: Any) -> None:
            calls.append(key)
            raise redis.ConnectionError("Connection refused")

    now = [100.0]
    shared = SharedCache(Gone(), clock=lambda: now[0])
    assert shared.get("a") == (False, None) and calls == ["a"]
    assert shared.get("b") == (False, None) and shared.set("c", 1) is False
    assert calls == ["a"]  # resting
    now[0] += SharedCache.RETRY_SECONDS
    assert shared.set("d", 1) is False and calls == ["a", "d"]
