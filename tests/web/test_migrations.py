"""The schema is the migrations': from an empty database they build exactly what the
models declare, on SQLite and on PostgreSQL, and they go down and up again cleanly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from scorekeeper.extensions import db
from tests.conftest import MIGRATIONS


def _differences(app):
    with app.app_context(), db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def test_migrations_from_empty_match_the_models(app):
    # The app fixture's database was made from empty by the migrations (tests/conftest.py).
    assert _differences(app) == []


def test_migrations_go_down_to_empty_and_up_again(app):
    with app.app_context():
        downgrade(directory=MIGRATIONS, revision="base")
        tables = set(inspect(db.engine).get_table_names()) - {"alembic_version"}
        assert tables == set()
        upgrade(directory=MIGRATIONS)
        tables = set(inspect(db.engine).get_table_names())
        assert {t.name for t in db.metadata.sorted_tables} <= tables
    assert _differences(app) == []
