"""Existing nights move onto regulars without losing anything, on SQLite and PostgreSQL:
the migration from the schema before regulars, with data in it, up and down again."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from scorekeeper.extensions import db
from tests.conftest import MIGRATIONS
from tests.web.checks import run_sql, schema_at

ROWS = """
INSERT INTO users (id, email, password_hash, created_at) VALUES
  (1, 'a@example.com', 'x', CURRENT_TIMESTAMP), (2, 'b@example.com', 'x', CURRENT_TIMESTAMP);
INSERT INTO nights (id, owner_id, name, played_on, currency, paper, created_at) VALUES
  (1, 1, 'First', '2026-11-06', 'USD', 'A4', CURRENT_TIMESTAMP),
  (2, 1, 'Second', '2026-11-13', 'USD', 'A4', CURRENT_TIMESTAMP),
  (3, 2, 'Theirs', '2026-11-13', 'USD', 'A4', CURRENT_TIMESTAMP);
INSERT INTO people (id, night_id, name, name_key) VALUES
  (1, 1, 'Ann', 'ann'), (2, 1, 'Bob', 'bob'),
  (3, 2, 'ANN', 'ann'), (4, 2, 'Cy', 'cy'),
  (5, 3, 'Ann', 'ann');
"""


def test_people_move_onto_one_regular_per_keeper_and_name_and_back(app):
    with schema_at(app, "0003"):
        _up_down_up()


def _up_down_up() -> None:
    run_sql(ROWS)
    upgrade(directory=MIGRATIONS)
    with db.engine.connect() as conn:
        regulars = conn.execute(
            text("SELECT owner_id, name, name_key FROM regulars ORDER BY owner_id, name_key")
        ).all()
        people = dict(
            conn.execute(
                text(
                    "SELECT p.id, r.owner_id || ':' || r.name FROM people p "
                    "JOIN regulars r ON r.id = p.regular_id"
                )
            ).all()
        )
        units = conn.execute(text("SELECT settle_unit FROM nights")).scalars().all()
    # Keeper 1's Ann (twice, once as ANN), Bob and Cy; keeper 2's own Ann.
    assert [tuple(r) for r in regulars] == [
        (1, "Ann", "ann"),
        (1, "Bob", "bob"),
        (1, "Cy", "cy"),
        (2, "Ann", "ann"),
    ]
    assert people == {1: "1:Ann", 2: "1:Bob", 3: "1:Ann", 4: "1:Cy", 5: "2:Ann"}
    assert units == [1, 1, 1]

    downgrade(directory=MIGRATIONS, revision="0003")
    with db.engine.connect() as conn:
        names = conn.execute(text("SELECT id, name FROM people ORDER BY id")).all()
    assert [tuple(n) for n in names] == [
        (1, "Ann"),
        (2, "Bob"),
        (3, "ANN"),
        (4, "Cy"),
        (5, "Ann"),
    ]
    upgrade(directory=MIGRATIONS)
