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


def test_existing_games_are_rewritten_at_their_version(app):
    """Migration 0006 adds ``games.rewritten`` at each game's current version: nothing a
    worker drew before it is folded on (see ``Game.rewritten``)."""
    from datetime import date

    from sqlalchemy import text

    from scorekeeper import services
    from scorekeeper.models import User

    with app.app_context():
        user = User(email="m@example.com", password_hash="x")
        db.session.add(user)
        db.session.commit()
        night = services.create_night(
            user, name="N", played_on=date(2026, 11, 20), currency="USD", paper="A4",
            people=["Ann", "Bob"],
        )  # fmt: skip
        game = services.create_game(
            night, variant="rummy", players=[("Ann", 0), ("Bob", 0)], first_dealer="Ann",
            settings={}, user=user,
        )  # fmt: skip
        for went_out, hand in (("Ann", 5), ("Bob", 7), ("Ann", 2)):
            loser = "Bob" if went_out == "Ann" else "Ann"
            services.save_round(
                game, {"went_out": went_out, "hands": {loser: hand}}, number=None,
                expected_version=None, submission=None, user=user,
            )  # fmt: skip
        game_id = game.id
        version = db.session.scalar(text(f"SELECT version FROM games WHERE id = {game_id}"))
        assert version > 1
        db.session.remove()  # its transaction would hold the table the migration alters
        downgrade(directory=MIGRATIONS, revision="0005")
        upgrade(directory=MIGRATIONS)
        row = db.session.execute(
            text(f"SELECT version, rewritten FROM games WHERE id = {game_id}")
        ).one()
    assert row == (version, version)
