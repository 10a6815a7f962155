"""Rendered documents shared between workers through Flask-Caching (issue 12): with
``CACHE_TYPE`` configured, a PDF rendered by one app (one worker, one host) is served by
another from the shared backend without rendering, and a saved round makes a new key, so
the shared cache never answers with an old sheet. The backend here is Redis's protocol
served in-process by fakeredis; production points ``CACHE_REDIS_URL`` at a Redis."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest
from flask import Flask
from flask_caching.backends.rediscache import RedisCache

from scorekeeper.reports import files
from scorekeeper.web import printouts
from tests.conftest import make_app
from tests.web.keeper import Keeper

SERVER = fakeredis.FakeServer()


class FakeRedisCache(RedisCache):
    """Flask-Caching's RedisCache on a fakeredis server shared by the test's apps."""

    @classmethod
    def factory(
        cls, app: Flask, config: dict[str, Any], args: list[Any], kwargs: dict[str, Any]
    ) -> RedisCache:
        client = fakeredis.FakeRedis(server=SERVER)
        return cls(host=client, key_prefix=config.get("CACHE_KEY_PREFIX"))


def shared_app(db_uri: str) -> Flask:
    return make_app(db_uri, CACHE_TYPE=f"{__name__}.FakeRedisCache")


@pytest.fixture
def apps(app: Flask, db_uri: str) -> tuple[Flask, Flask]:
    """Two apps on one database and one shared cache: two workers, or two hosts."""
    SERVER.connected = True
    fakeredis.FakeRedis(server=SERVER).flushall()
    files.PDF_CACHE.clear()
    return shared_app(db_uri), shared_app(db_uri)


def test_a_pdf_rendered_by_one_worker_is_served_by_another(apps, monkeypatch):
    first, second = apps
    one, two = first.test_client(), second.test_client()
    keeper = Keeper(one)
    keeper.signup()
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    pdf = one.get(f"/games/{game}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert len(files.PDF_CACHE) == 0  # nothing kept in this worker's memory: it is shared
    keys = fakeredis.FakeRedis(server=SERVER).scan_iter("scorekeeper:pdf:*")
    assert any(True for _ in keys)

    Keeper(two).login("keeper@example.com")
    rendered: list[str] = []
    real = printouts.game_sheet_pdf

    def counting(*args: Any, **kwargs: Any) -> bytes:
        rendered.append("sheet")
        return real(*args, **kwargs)

    monkeypatch.setattr(printouts, "game_sheet_pdf", counting)
    again = two.get(f"/games/{game}/sheet.pdf")
    assert again.data == pdf.data and rendered == []

    # A saved round is a new version: a new key, a new PDF, never the old one.
    assert keeper.enter(game, "Bob", {"Ann": 9, "Cy": 1}).status_code == 302
    newer = two.get(f"/games/{game}/sheet.pdf")
    assert newer.status_code == 200 and rendered == ["sheet"] and newer.data != pdf.data


def test_without_a_shared_cache_each_worker_keeps_its_own(app, client):
    files.PDF_CACHE.clear()
    keeper = Keeper(client)
    keeper.signup()
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert client.get(f"/games/{game}/blank.pdf").status_code == 200
    assert len(files.PDF_CACHE) == 1
    assert "scorekeeper_shared_cache" not in app.extensions
