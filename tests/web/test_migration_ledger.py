"""Marks and carried debts move into the ledger without losing a payment, and yen nights
move from hundredths to whole yen, on SQLite and PostgreSQL: the migration from the
schema before the ledger, with data in it, up, down and up again."""

from __future__ import annotations

import json

from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from scorekeeper.extensions import db
from tests.conftest import MIGRATIONS
from tests.web.checks import run_sql, schema_at

TEXAS_JPY = {"currency": "JPY", "ante": 50, "per_round": 10, "buy_in": 50000}
RECORD = {"format": "scorekeeper-game/1", "variant": "texas", "settings": TEXAS_JPY,
          "players": ["Ann", "Bob"], "first_dealer": "Ann"}  # fmt: skip
ROWS = f"""
INSERT INTO users (id, email, password_hash, created_at) VALUES
  (1, 'a@example.com', 'x', '2026-11-01 10:00:00');
INSERT INTO nights (id, owner_id, name, played_on, currency, paper, settle_unit, created_at)
VALUES
  (1, 1, 'First', '2026-11-06', 'USD', 'A4', 25, '2026-11-06 10:00:00'),
  (2, 1, 'Second', '2026-11-13', 'USD', 'A4', 1, '2026-11-13 10:00:00'),
  (3, 1, 'Tokyo', '2026-11-14', 'JPY', 'A4', 500, '2026-11-14 10:00:00');
INSERT INTO regulars (id, owner_id, name, name_key, created_at) VALUES
  (1, 1, 'Ann', 'ann', '2026-11-01 10:00:00'), (2, 1, 'Bob', 'bob', '2026-11-01 10:00:00'),
  (3, 1, 'Cy', 'cy', '2026-11-01 10:00:00');
INSERT INTO people (id, night_id, name, name_key, regular_id) VALUES
  (1, 1, 'Ann', 'ann', 1), (2, 1, 'Bob', 'bob', 2), (3, 1, 'Cy', 'cy', 3),
  (4, 2, 'Ann', 'ann', 1), (5, 2, 'Bob', 'bob', 2),
  (6, 3, 'Ann', 'ann', 1), (7, 3, 'Bob', 'bob', 2);
INSERT INTO games (id, night_id, variant, settings, first_dealer, pending_joins, version,
                   rewritten, created_at, updated_at)
VALUES (1, 3, 'texas', '{json.dumps(TEXAS_JPY)}', 'Ann', '[]', 1, 1,
        '2026-11-14 10:00:00', '2026-11-14 10:00:00');
INSERT INTO seats (id, game_id, person_id, position, handicap, joined_round) VALUES
  (1, 1, 6, 0, 0, 0), (2, 1, 7, 1, 0, 0);
INSERT INTO edits (id, game_id, user_id, action, after, created_at) VALUES
  (1, 1, 1, 'create', '{json.dumps(RECORD)}', '2026-11-14 10:00:00');
INSERT INTO transfer_marks (id, night_id, payer_id, payee_id, amount, paid, user_id, created_at)
VALUES
  (1, 1, 2, 1, 300, true, 1, '2026-11-06 22:00:00'),
  (2, 1, 3, 1, 200, true, 1, '2026-11-06 22:01:00'),
  (3, 1, 3, 1, 200, false, 1, '2026-11-06 22:02:00'),
  (4, 1, 3, 1, 175, true, 1, '2026-11-06 22:03:00'),
  (5, 3, 2, 1, 50050, true, 1, '2026-11-14 22:00:00');
INSERT INTO carries (id, from_night_id, to_night_id, payer_id, payee_id, amount, user_id,
                     created_at, written_off_at, written_off_by)
VALUES
  (1, 1, 2, 2, 1, 125, 1, '2026-11-06 23:00:00', NULL, NULL),
  (2, 1, 2, 3, 1, 50, 1, '2026-11-06 23:00:00', '2026-11-13 21:00:00', 1);
"""


def _rows(sql: str) -> list[tuple]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql)).all()]


def test_marks_and_carries_become_entries_and_yen_whole_units_and_back(app):
    with schema_at(app, "0006"):
        _up_down_up()


def _up_down_up() -> None:
    run_sql(ROWS)
    upgrade(directory=MIGRATIONS)
    entries = _rows(
        "SELECT night_id, kind, payer_id, payee_id, amount, to_night_id, user_id, undone_at "
        "FROM ledger_entries ORDER BY created_at, id"
    )
    # Bob's 300 paid; Cy's 200 marked paid then not paid (no payment), and a 175 paid;
    # the yen payment of 50050 hundredths is 501 yen (500.50, half up); the carries, and
    # the written-off one also as a write-off on the night it was carried into.
    assert entries == [
        (1, "payment", 2, 1, 300, None, 1, None),
        (1, "payment", 3, 1, 175, None, 1, None),
        (1, "carry", 2, 1, 125, 2, 1, None),
        (1, "carry", 3, 1, 50, 2, 1, None),
        (2, "write_off", 3, 1, 50, None, 1, None),
        (3, "payment", 2, 1, 501, None, 1, None),
    ]
    nights = _rows("SELECT id, settle_unit, locale FROM nights ORDER BY id")
    assert nights == [(1, 25, "en"), (2, 1, "en"), (3, 1, "en")]  # 5.00 JPY -> 5 -> step 1
    (settings,) = _rows("SELECT settings FROM games")[0]
    settings = settings if isinstance(settings, dict) else json.loads(settings)
    # 50000 hundredths -> 500 yen; an ante of 0.50 yen and a dime of 0.10 yen had no coin:
    # they become 1 yen each.
    assert settings == {"currency": "JPY", "ante": 1, "per_round": 1, "buy_in": 500}
    (after,) = _rows("SELECT after FROM edits")[0]
    assert json.loads(after)["settings"] == settings

    downgrade(directory=MIGRATIONS, revision="0006")
    marks = _rows(
        "SELECT night_id, payer_id, payee_id, amount, paid FROM transfer_marks ORDER BY id"
    )
    assert [m[:4] for m in marks] == [(1, 2, 1, 300), (1, 3, 1, 175), (3, 2, 1, 50100)]
    assert all(m[4] for m in marks)
    carries = _rows(
        "SELECT from_night_id, to_night_id, payer_id, payee_id, amount, "
        "written_off_at IS NOT NULL FROM carries ORDER BY id"
    )
    assert [tuple(c[:5]) for c in carries] == [(1, 2, 2, 1, 125), (1, 2, 3, 1, 50)]
    assert [bool(c[5]) for c in carries] == [False, True]
    assert _rows("SELECT settle_unit FROM nights ORDER BY id") == [(25,), (1,), (100,)]
    upgrade(directory=MIGRATIONS)
    assert len(_rows("SELECT id FROM ledger_entries")) == 6
