"""Migration 0012 adds keeper links and co-keepers to a database with nights in it, on
SQLite and PostgreSQL: up, the new rules hold (one link in force per night, one row per
night and account), down to 0011 with the nights untouched, and up again."""

from __future__ import annotations

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from tests.conftest import MIGRATIONS
from tests.web.checks import run_sql, schema_at

ROWS = """
INSERT INTO users (id, email, password_hash, created_at) VALUES
  (1, 'a@example.com', 'x', CURRENT_TIMESTAMP), (2, 'b@example.com', 'x', CURRENT_TIMESTAMP);
INSERT INTO nights (id, owner_id, name, played_on, currency, paper, created_at) VALUES
  (1, 1, 'First', '2026-11-06', 'USD', 'A4', CURRENT_TIMESTAMP)
"""

LINK = (
    "INSERT INTO keeper_links (token, night_id, created_at, revoked_at) "
    "VALUES (:token, 1, CURRENT_TIMESTAMP, NULL)"
)


def test_keeper_links_and_co_keepers_come_and_go_with_the_nights_kept(app):
    with schema_at(app, "0011_accounts"):
        run_sql(ROWS)
        upgrade(directory=MIGRATIONS)
        assert {"keeper_links", "co_keepers"} <= set(inspect(db.engine).get_table_names())
        with db.engine.begin() as conn:
            conn.execute(text(LINK), {"token": "A" * 22})
            conn.execute(
                text(
                    "INSERT INTO co_keepers (night_id, user_id, added_at) "
                    "VALUES (1, 2, CURRENT_TIMESTAMP)"
                )
            )
        with pytest.raises(IntegrityError), db.engine.begin() as conn:
            conn.execute(text(LINK), {"token": "B" * 22})  # a second link in force
        with pytest.raises(IntegrityError), db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO co_keepers (night_id, user_id, added_at) "
                    "VALUES (1, 2, CURRENT_TIMESTAMP)"
                )
            )
        with db.engine.begin() as conn:  # turned off, a new one may come in
            conn.execute(text("UPDATE keeper_links SET revoked_at = CURRENT_TIMESTAMP"))
            conn.execute(text(LINK), {"token": "C" * 22})
            links = conn.execute(text("SELECT COUNT(*) FROM keeper_links")).scalar()
        assert links == 2

        downgrade(directory=MIGRATIONS, revision="0011_accounts")
        tables = set(inspect(db.engine).get_table_names())
        assert not {"keeper_links", "co_keepers"} & tables
        with db.engine.connect() as conn:
            nights = conn.execute(text("SELECT id, owner_id, name FROM nights")).all()
        assert [tuple(n) for n in nights] == [(1, 1, "First")]


REGULARS = """
INSERT INTO regulars (id, owner_id, name, name_key, created_at) VALUES
  (1, 1, 'Ann', 'ann', CURRENT_TIMESTAMP), (2, 1, 'Bob', 'bob', CURRENT_TIMESTAMP)
"""


def test_a_ledger_entry_outlives_the_account_that_recorded_it(app):
    """Up: an entry may be recorded by nobody (its co-keeper's account deleted since);
    down: such an entry goes back to the night's owner, as 0011 can say no more."""
    with schema_at(app, "0011_accounts"):
        run_sql(ROWS)
        run_sql(REGULARS)
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO ledger_entries (night_id, kind, payer_id, payee_id, amount,"
                    " user_id, created_at) VALUES (1, 'payment', 2, 1, 250, NULL,"
                    " CURRENT_TIMESTAMP)"
                )
            )
        downgrade(directory=MIGRATIONS, revision="0011_accounts")
        with db.engine.connect() as conn:
            rows = conn.execute(text("SELECT user_id, amount FROM ledger_entries")).all()
        assert [tuple(r) for r in rows] == [(1, 250)]
        upgrade(directory=MIGRATIONS)
