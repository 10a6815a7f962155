"""Migration 0013 adds the removals of co-keepers (a bar on an account for a night) to a
database with nights, keeper links and co-keepers in it, on SQLite and PostgreSQL: up,
one bar in force per night and account; down to 0012, a night with someone barred has
its keeper link turned off (0012 cannot bar one account), the others' left as they were;
and up again."""

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
  (1, 'a@example.com', 'x', CURRENT_TIMESTAMP), (2, 'b@example.com', 'x', CURRENT_TIMESTAMP),
  (3, 'c@example.com', 'x', CURRENT_TIMESTAMP);
INSERT INTO nights (id, owner_id, name, played_on, currency, paper, created_at) VALUES
  (1, 1, 'First', '2026-11-06', 'USD', 'A4', CURRENT_TIMESTAMP),
  (2, 1, 'Second', '2026-11-13', 'USD', 'A4', CURRENT_TIMESTAMP);
INSERT INTO keeper_links (token, night_id, created_at, revoked_at) VALUES
  ('AAAAAAAAAAAAAAAAAAAAAA', 1, CURRENT_TIMESTAMP, NULL),
  ('BBBBBBBBBBBBBBBBBBBBBB', 2, CURRENT_TIMESTAMP, NULL);
INSERT INTO co_keepers (night_id, user_id, added_at) VALUES
  (1, 3, CURRENT_TIMESTAMP), (2, 2, CURRENT_TIMESTAMP)
"""

BAR = (
    "INSERT INTO keeper_removals (night_id, user_id, removed_at, let_back_at) "
    "VALUES (:night, :user, CURRENT_TIMESTAMP, NULL)"
)


def _links() -> list[tuple[str, bool]]:
    with db.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT token, revoked_at IS NULL FROM keeper_links ORDER BY id")
        ).all()
    return [(token[0], bool(in_force)) for token, in_force in rows]


def test_removals_bar_an_account_and_going_down_turns_its_nights_link_off(app):
    with schema_at(app, "0012_co_keepers"):
        run_sql(ROWS)
        upgrade(directory=MIGRATIONS)
        assert "keeper_removals" in set(inspect(db.engine).get_table_names())
        with db.engine.begin() as conn:  # Bob removed from night 1, then let back in
            conn.execute(text(BAR), {"night": 1, "user": 2})
        with pytest.raises(IntegrityError), db.engine.begin() as conn:
            conn.execute(text(BAR), {"night": 1, "user": 2})  # a second bar in force
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE keeper_removals SET let_back_at = CURRENT_TIMESTAMP"))
            conn.execute(text(BAR), {"night": 1, "user": 2})  # removed again: allowed
            bars = conn.execute(text("SELECT COUNT(*) FROM keeper_removals")).scalar()
        assert bars == 2
        with db.engine.begin() as conn:  # Bob's bar on night 2 lifted: its link stays
            conn.execute(
                text(
                    "INSERT INTO keeper_removals (night_id, user_id, removed_at, let_back_at)"
                    " VALUES (2, 3, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                )
            )

        downgrade(directory=MIGRATIONS, revision="0012_co_keepers")
        assert "keeper_removals" not in set(inspect(db.engine).get_table_names())
        assert _links() == [("A", False), ("B", True)]
        with db.engine.connect() as conn:
            nights = conn.execute(text("SELECT id, name FROM nights ORDER BY id")).all()
            keeping = conn.execute(
                text("SELECT night_id, user_id FROM co_keepers ORDER BY night_id")
            ).all()
        assert [tuple(n) for n in nights] == [(1, "First"), (2, "Second")]
        assert [tuple(k) for k in keeping] == [(1, 3), (2, 2)]
        upgrade(directory=MIGRATIONS)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT COUNT(*) FROM keeper_removals")).scalar() == 0
