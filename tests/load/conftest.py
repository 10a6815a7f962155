"""Fixtures of the load tests: a PostgreSQL database of the test's own, created and
migrated with ``flask db upgrade``, and gunicorn serving the app on it.

They run only when SCOREKEEPER_TEST_DATABASE_URL is set (CI sets it): without it they are
skipped; set but unreachable, they fail."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import make_url

from .harness import Server, migrate

PG_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "").strip()


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[Any]:
    if not PG_URL:
        pytest.skip(
            "load tests need PostgreSQL: set SCOREKEEPER_TEST_DATABASE_URL (CI does), e.g. "
            "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        )
    url = make_url(PG_URL)
    try:
        conn = psycopg.connect(
            host=url.host or "127.0.0.1", port=url.port or 5432, user=url.username,
            password=url.password, dbname=url.database, autocommit=True, connect_timeout=10,
        )  # fmt: skip
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"SCOREKEEPER_TEST_DATABASE_URL is set but PostgreSQL is unreachable: {exc}",
            pytrace=False,
        )
    yield conn
    conn.close()


@contextmanager
def database(pg_admin: Any) -> Iterator[str]:
    """A fresh database, migrated from empty, dropped afterwards."""
    base = make_url(PG_URL)
    name = f"{base.database}_load_{uuid.uuid4().hex[:10]}"
    pg_admin.execute(f'CREATE DATABASE "{name}"')
    url = base.set(database=name).render_as_string(hide_password=False)
    try:
        migrate(url)
        yield url
    finally:
        pg_admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def serving(pg_admin: Any, log: Path) -> Iterator[Server]:
    """gunicorn, 3 workers, on a free loopback port; stopped (or killed) afterwards."""
    with database(pg_admin) as url:
        srv = Server(url, log)
        try:
            srv.start()
            yield srv
        finally:
            srv.stop()


@pytest.fixture(scope="session")
def server(pg_admin: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server (and database) for the load tests of this pytest worker: each test uses
    accounts of its own. The fault tests kill it and start it again."""
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with serving(pg_admin, log) as srv:
        yield srv


@pytest.fixture
def fresh_db(pg_admin: Any) -> Iterator[str]:
    """A database of the test's own, migrated, for an app run in-process."""
    with database(pg_admin) as url:
        yield url
