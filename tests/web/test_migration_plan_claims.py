"""Migration 0014 adds each ledger entry's plan stamp and the claim a payment confirms,
on a database with nights, regulars and ledger entries in it (SQLite and PostgreSQL): up,
the entries recorded before keep their amounts and have no stamp, and a claim with its
confirming payment can be stored; down to 0013, the claims go (they moved no money) and
the payment that confirmed one stays a payment; and up again."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.conftest import MIGRATIONS
from tests.web.checks import run_sql, schema_at

ROWS = """
INSERT INTO users (id, email, password_hash, created_at) VALUES
  (1, 'a@example.com', 'x', CURRENT_TIMESTAMP);
INSERT INTO nights (id, owner_id, name, played_on, currency, paper, created_at) VALUES
  (1, 1, 'First', '2026-11-06', 'USD', 'A4', CURRENT_TIMESTAMP);
INSERT INTO regulars (id, owner_id, name, name_key, created_at) VALUES
  (1, 1, 'Ann', 'ann', CURRENT_TIMESTAMP), (2, 1, 'Bob', 'bob', CURRENT_TIMESTAMP);
INSERT INTO ledger_entries (id, night_id, kind, payer_id, payee_id, amount, user_id,
  created_at) VALUES (1, 1, 'payment', 2, 1, 200, 1, CURRENT_TIMESTAMP)
"""

CLAIMED = """
INSERT INTO ledger_entries (id, night_id, kind, payer_id, payee_id, amount, plan,
  created_at) VALUES (2, 1, 'claim', 2, 1, 225, '0123456789ab', CURRENT_TIMESTAMP);
INSERT INTO ledger_entries (id, night_id, kind, payer_id, payee_id, amount, user_id, plan,
  claim_id, created_at) VALUES (3, 1, 'payment', 2, 1, 225, 1, '0123456789ab', 2,
  CURRENT_TIMESTAMP)
"""


def _entries() -> list[tuple]:
    with db.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, kind, amount FROM ledger_entries ORDER BY id"))
        return [tuple(r) for r in rows]


def test_plan_stamps_and_claims_go_up_and_down_with_data(app):
    with schema_at(app, "0013_keeper_removals"):
        run_sql(ROWS)
        upgrade(directory=MIGRATIONS)
        columns = {c["name"] for c in inspect(db.engine).get_columns("ledger_entries")}
        assert {"plan", "claim_id"} <= columns
        with db.engine.connect() as conn:
            old = conn.execute(text("SELECT plan, claim_id FROM ledger_entries")).one()
        assert tuple(old) == (None, None)
        run_sql(CLAIMED)
        assert _entries() == [(1, "payment", 200), (2, "claim", 225), (3, "payment", 225)]

        downgrade(directory=MIGRATIONS, revision="0013_keeper_removals")
        columns = {c["name"] for c in inspect(db.engine).get_columns("ledger_entries")}
        assert not {"plan", "claim_id"} & columns
        assert _entries() == [(1, "payment", 200), (3, "payment", 225)]
        upgrade(directory=MIGRATIONS)
        assert _entries() == [(1, "payment", 200), (3, "payment", 225)]
