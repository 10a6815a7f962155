"""Fixtures: a fresh database per test on SQLite, and on PostgreSQL too when
SCOREKEEPER_TEST_DATABASE_URL is set (CI sets it; an unreachable server fails the run)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy import make_url, text

from scorekeeper import create_app
from scorekeeper.extensions import db

MIGRATIONS = str(Path(__file__).resolve().parent.parent / "scorekeeper" / "migrations")
PG_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "").strip()
ENGINES = ["sqlite", *(["postgresql"] if PG_URL else [])]


class _CompiledTemplates(BytecodeCache):
    """The templates compiled once per test process, not once per test's app: every app
    of the suite has the same Jinja settings, and a bucket is keyed by the template's
    name and the checksum of its source, so an edited template is compiled afresh.
    Parsing and compiling the pages was a fifth of a web test's time."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self.code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()


def make_app(uri: str, **extra: Any) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": uri,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            **extra,
        }
    )
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return app


def migrate_empty(uri: str) -> None:
    app = make_app(uri)
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        db.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    migrate_empty(f"sqlite:///{path}")
    return path


def _admin_connect(url: Any) -> Any:
    import psycopg

    try:
        return psycopg.connect(
            host=url.host or "127.0.0.1",
            port=url.port or 5432,
            user=url.username,
            password=url.password,
            dbname=url.database,
            autocommit=True,
            connect_timeout=10,
        )
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"SCOREKEEPER_TEST_DATABASE_URL is set but PostgreSQL is unreachable: {exc}",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def pg_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A database of this test worker's own, migrated from empty, dropped at the end."""
    worker_id = getattr(request.config, "workerinput", {}).get("workerid", "main")
    if not PG_URL:
        pytest.fail("PostgreSQL tests need SCOREKEEPER_TEST_DATABASE_URL")
    base = make_url(PG_URL)
    name = re.sub(r"\W", "_", f"{base.database}_{worker_id}")
    conn = _admin_connect(base)
    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{name}"')
    url = base.set(database=name).render_as_string(hide_password=False)
    migrate_empty(url)
    yield url
    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.close()


_RESTART_SEQUENCES = """
DO $$ DECLARE s record; BEGIN
  FOR s IN SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() LOOP
    PERFORM setval(format('%I', s.sequencename)::regclass, 1, false);
  END LOOP;
END $$"""


def _empty_tables(app: Flask) -> None:
    """Every table emptied and every id counting from 1 again. DELETE, children first,
    not TRUNCATE: TRUNCATE makes new files for each table and index, about 150 ms per
    test, where deleting a test's few rows takes a few milliseconds."""
    with app.app_context(), db.engine.begin() as conn:
        for table in reversed(db.metadata.sorted_tables):
            conn.execute(table.delete())
        conn.execute(text(_RESTART_SEQUENCES))


@pytest.fixture(params=ENGINES)
def db_uri(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        path = tmp_path / "scorekeeper.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    return request.getfixturevalue("pg_url")


@contextmanager
def another_database(
    db_uri: str, tmp_path: Path, request: pytest.FixtureRequest, *, migrated: bool = True
) -> Iterator[str]:
    """A second database on the engine of ``db_uri`` (another host), empty: made by the
    migrations, or with nothing at all in it (``migrated=False``: a backup's restore)."""
    if db_uri.startswith("sqlite"):
        path = tmp_path / f"another-{migrated}.sqlite3"
        if migrated:
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    url = make_url(db_uri)
    name = f"{url.database}_another"
    conn = _admin_connect(url)
    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{name}"')
    other = url.set(database=name).render_as_string(hide_password=False)
    try:
        if migrated:
            migrate_empty(other)
        yield other
    finally:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.close()


@pytest.fixture
def second_db_uri(db_uri: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A second database, made by the migrations, on the same engine as ``db_uri``."""
    with another_database(db_uri, tmp_path, request) as uri:
        yield uri


@pytest.fixture
def app(db_uri: str) -> Iterator[Flask]:
    app = make_app(db_uri)
    if db_uri.startswith("postgresql"):
        _empty_tables(app)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> Any:
    return app.test_cli_runner()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first: pytest-xdist hands tests out in this order, and a
    minute-long test handed out last keeps the whole run waiting on one worker."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
