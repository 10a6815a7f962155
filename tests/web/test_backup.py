"""Issue 25, part 5: the backup the README documents, done once on each engine. A
database with a keeper's nights is backed up (PostgreSQL: ``pg_dump``; SQLite: the
``.backup`` of the sqlite3 module, what the ``sqlite3`` shell's ``.backup`` does) and
restored into a fresh database (``pg_restore``; the backup file put in place), which then
shows the same pages: the night's payout, the sheet and the regulars' stats."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import make_url

from tests.conftest import another_database, make_app
from tests.web.keeper import Keeper, text_of
from tests.web.test_settle_up import mark, new_night, regular_ids


def keeper_pages(app: Flask, night: int, game: int) -> dict[str, str]:
    """What the keeper reads, logged in anew (sessions are in the backup too)."""
    keeper = Keeper(app.test_client())
    assert keeper.login("keeper@example.com").status_code == 302
    return {
        url: text_of(keeper.client.get(url))
        for url in (f"/nights/{night}/payout", f"/games/{game}", "/regulars", "/")
    }


def libpq_url(uri: str) -> str:
    """The SQLAlchemy URL as the PostgreSQL tools take it (no ``+psycopg``)."""
    return make_url(uri).set(drivername="postgresql").render_as_string(hide_password=False)


def back_up(db_uri: str, folder: Path) -> Path:
    """The README's backup command for the engine."""
    if db_uri.startswith("sqlite"):
        backup = folder / "backup.sqlite3"
        source = sqlite3.connect(make_url(db_uri).database)
        target = sqlite3.connect(backup)
        with target:
            source.backup(target)
        source.close()
        target.close()
        return backup
    if shutil.which("pg_dump") is None:
        pytest.fail("pg_dump is not installed (Debian: postgresql-client)", pytrace=False)
    dump = folder / "backup.dump"
    subprocess.run(
        ["pg_dump", "--format=custom", f"--file={dump}", libpq_url(db_uri)],
        check=True,
        capture_output=True,
    )
    return dump


def restore(backup: Path, empty_uri: str) -> None:
    """The README's restore command, into an empty database."""
    if empty_uri.startswith("sqlite"):
        shutil.copyfile(backup, make_url(empty_uri).database)
        return
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={libpq_url(empty_uri)}",
         str(backup)],
        check=True,
        capture_output=True,
    )  # fmt: skip


def test_a_backup_restored_into_a_fresh_database_shows_the_same_pages(
    app, client, db_uri, tmp_path, request
):
    keeper = Keeper(client)
    keeper.signup("keeper@example.com")
    night = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="2.00", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    ids = regular_ids(client)
    mark(keeper, night, ids["Bob"], ids["Ann"])
    before = keeper_pages(app, night, game)
    assert "Bob paid Ann $2.00" in before[f"/nights/{night}/payout"]
    assert "Cy pays Ann $2.00" in before[f"/nights/{night}/payout"]

    backup = back_up(db_uri, tmp_path)
    with another_database(db_uri, tmp_path, request, migrated=False) as fresh:
        restore(backup, fresh)
        restored = make_app(fresh)
        try:
            assert keeper_pages(restored, night, game) == before
        finally:
            from scorekeeper.extensions import db

            with restored.app_context():
                db.session.remove()
                db.engine.dispose()
