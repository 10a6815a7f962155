"""What a night's money pages cost as its ledger grows to its bound (issue 30): the payout
page and the night's CSV with 0, 10, 100 and ``ledger.MAX_ENTRIES_PER_NIGHT`` entries.

    .venv/bin/python benchmarks/ledger_cost.py [--repeats 5]

A fresh SQLite app in-process, read through the test client as a phone would. Each night
has the same 10 people and the same finished game; its entries are payments between them
(every fourth one undone, every tenth a write-off), recorded through the services as the
forms record them. For each page: the best of ``--repeats`` in milliseconds and the number
of SQL statements (which must not grow: tests/web/test_queries.py checks it).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from flask_migrate import upgrade
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history_cost import MIGRATIONS, best, login

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import Night, User
from scorekeeper.services import ledger
from scorekeeper.services import settle as settling

NAMES = [f"Player {i}" for i in range(1, 11)]
SIZES = (0, 10, 100, ledger.MAX_ENTRIES_PER_NIGHT)


def game() -> dict[str, Any]:
    return {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"deals": 1, "buy_in": 10_000},
        "players": NAMES,
        "rounds": [{"went_out": NAMES[0], "hands": {n: 5 + i for i, n in enumerate(NAMES[1:])}}],
    }


def build(app: Any, user_id: int, entries: int) -> int:
    with app.app_context():
        user = db.session.get(User, user_id)
        night = services.create_night(
            user, name=f"{entries} entries", played_on=date(2026, 1, 1), currency="USD",
            paper="A4", people=NAMES,
        )  # fmt: skip
        services.import_game(night, json.dumps(game()), user=user, submission=None)
        night_id = night.id
        people = [p.regular_id for p in db.session.get(Night, night_id).people]
        for i in range(entries):
            night = db.session.get(Night, night_id)
            payer, payee = people[i % 10], people[(i + 1 + i // 10) % 10 or 1]
            if payer == payee:
                payee = people[(i + 2) % 10]
            if i % 10 == 9:
                book = ledger.night_book(night)
                t = book.transfers[0]
                assert t.payer is not None and t.payee is not None
                settling.settle_transfer(
                    night, t.payer.id, t.payee.id, t.transfer.amount, kind="write_off",
                    user=user, submission=None,
                )  # fmt: skip
            else:
                settling.record_payment(
                    night, payer, payee, 100 + i, user=user, submission=f"{night_id}-{i}"
                )
        night = db.session.get(Night, night_id)
        for line in ledger.night_book(night).recorded[::4]:
            settling.undo_entry(night, line.entry.id, user=user)
        assert ledger.entry_count(night_id) == entries
        return night_id


def count_statements(app: Any, client: Any, url: str) -> int:
    """The SQL statements one GET of ``url`` sends."""
    sent: list[str] = []

    def listener(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", listener)
    try:
        assert client.get(url).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    return len(sent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'ledger.sqlite3'}",
            "SECRET_KEY": "bench",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        from werkzeug.security import generate_password_hash

        user = User(email="keeper@example.com", password_hash=generate_password_hash("x" * 12))
        db.session.add(user)
        db.session.commit()
        user_id = user.id
    started = time.perf_counter()
    nights = {n: build(app, user_id, n) for n in SIZES}
    print(f"built {len(SIZES)} nights in {time.perf_counter() - started:.0f} s "
          f"({platform.python_implementation()} {platform.python_version()})")  # fmt: skip
    client = login(app, "keeper@example.com")
    client.get("/")
    pages = {
        "payout page": "/nights/{night}/payout",
        "night CSV": "/nights/{night}/export.csv",
    }
    print(f"{'page':<14}" + "".join(f"{n:>16}" for n in SIZES))
    for label, template in pages.items():
        cells = []
        for night_id in nights.values():
            url = template.format(night=night_id)
            statements = count_statements(app, client, url)
            ms = best(lambda url=url: client.get(url), args.repeats) * 1000
            cells.append(f"{ms:8.1f} ms {statements:3d}q")
        print(f"{label:<14}" + "".join(f"{c:>16}" for c in cells))


if __name__ == "__main__":
    main()
