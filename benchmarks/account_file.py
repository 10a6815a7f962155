"""What "Download everything" and "Import" cost for a keeper with a long history.

    .venv/bin/python benchmarks/account_file.py [--nights 100] [--games 5]

A fresh SQLite app gets one keeper with ``--nights`` nights of ``--games`` Vegas games
each (6 players x 60 rounds, re-buys and a drop: tests/samples.py ``long_vegas``), made
through the services as the game importer makes them. Then: the export (the zip file and
its size), the import's checks (unpacking, every reference, every game replayed), and the
whole import into a second, empty account of the same database (checks and writing, the
game results worked out again). Figures go in benchmarks/README.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The checkout's own scorekeeper (and tests.samples) come first.
sys.path[:] = [str(Path(__file__).resolve().parent.parent), *sys.path]

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from datetime import date, timedelta  # noqa: E402

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app, services  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import User  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402
from tests.samples import long_vegas  # noqa: E402

MIGRATIONS = str(Path(__file__).resolve().parent.parent / "scorekeeper" / "migrations")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
            "SECRET_KEY": "bench",
        }
    )
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        keeper = User(email="keeper@example.com", password_hash="x")
        newcomer = User(email="newcomer@example.com", password_hash="x")
        db.session.add_all([keeper, newcomer])
        db.session.commit()
        record = json.dumps(long_vegas(6, 60))
        for n in range(args.nights):
            night = services.create_night(
                keeper, name=f"Night {n + 1}", played_on=date(2025, 1, 1) + timedelta(days=n),
                currency="USD", paper="A4", people=[],
            )  # fmt: skip
            for _ in range(args.games):
                services.import_game(night, record, user=keeper, submission=None)

        def timed(label: str, fn):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            out = fn()
            print(f"{label:<40} {time.perf_counter() - started:7.2f} s")
            return out

        python = f"{platform.python_implementation()} {platform.python_version()}"
        print(f"{args.nights} nights x {args.games} games of 6 x 60 rounds ({python}, SQLite)")
        data = timed("export (Download everything)", lambda: accounts.export_account(keeper))
        print(f"{'zip file':<40} {len(data) / 1024:7.0f} KiB")
        timed("import: checks only", lambda: accounts.check_file(data))
        done = timed("import: checks and writing", lambda: accounts.import_account(newcomer, data))
        print(f"imported {done}")


if __name__ == "__main__":
    main()
