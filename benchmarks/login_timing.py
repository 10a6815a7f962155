"""Does a failed log-in (and a sign-up) take as long for an email without an account as
for one with?

    .venv/bin/python benchmarks/login_timing.py [--repeats 40] [--method scrypt]

In one run and one process: the app (``create_app``) on a fresh SQLite file migrated from
empty, the password hash method production uses (``scrypt`` unless ``--method``), one
account, and the failed-login limit raised out of the way. Then POST /login through the
test client with a wrong password, taking turns between an unknown email and the
account's email (a fresh client and CSRF token each time, the form fetched outside the
timing), ``--repeats`` times each. Prints the median and the spread of each, and the
ratio unknown / known of the medians: near 1.00 means the answer does not tell whether an
email has an account. Then the same for sign-ups: a new email each time (an account is
made) against the account's email (nothing is made), with the same answer for both.
Timed with ``time.perf_counter``; no figure here is asserted by the test suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The checkout's own scorekeeper (and tests.web.keeper) come first.
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [str(ROOT), *sys.path]

import argparse  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from tests.web.keeper import Keeper  # noqa: E402

MIGRATIONS = str(ROOT / "scorekeeper" / "migrations")
KNOWN = "known@example.com"
UNKNOWN = "unknown@example.com"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--method", default="scrypt")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SECRET_KEY": "login-timing-benchmark",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
                "PASSWORD_HASH_METHOD": args.method,
                "LOGIN_ATTEMPTS_PER_15_MINUTES": 10**9,
                "LOGIN_ATTEMPTS_PER_ADDRESS_PER_15_MINUTES": 10**9,
            }
        )
        with app.app_context():
            upgrade(directory=MIGRATIONS)
        Keeper(app.test_client()).signup(KNOWN, "the right password")
        times: dict[str, list[float]] = {UNKNOWN: [], KNOWN: []}
        for i in range(args.repeats * 2 + 2):
            email = (UNKNOWN, KNOWN)[i % 2]
            keeper = Keeper(app.test_client())
            _, hidden = keeper.form("/login")
            start = time.perf_counter()
            response = keeper.client.post(
                "/login", data={**hidden, "email": email, "password": "a wrong password"}
            )
            elapsed = time.perf_counter() - start
            assert response.status_code == 422, response.status_code
            if i >= 2:  # the first of each warms up (the dummy hash is made once)
                times[email].append(elapsed)
        signups: dict[str, list[float]] = {UNKNOWN: [], KNOWN: []}
        for i in range(args.repeats * 2 + 2):
            email = (f"new{i}@example.com", KNOWN)[i % 2]
            keeper = Keeper(app.test_client())
            _, hidden = keeper.form("/signup")
            start = time.perf_counter()
            response = keeper.client.post(
                "/signup",
                data={**hidden, "email": email, "password": "a password", "confirm": "a password"},
            )
            elapsed = time.perf_counter() - start
            assert response.status_code == 302, response.status_code
            if i >= 2:
                signups[KNOWN if email == KNOWN else UNKNOWN].append(elapsed)
        with app.app_context():
            db.engine.dispose()
    _report(f"failed log-ins, {args.method}", args.repeats, times, ("unknown", "known"))
    _report(f"sign-ups, {args.method}", args.repeats, signups, ("new", "taken"))


def _report(
    what: str, repeats: int, times: dict[str, list[float]], labels: tuple[str, str]
) -> None:
    """The median and spread of the times for an email without an account (UNKNOWN) and
    with one (KNOWN), and the ratio of the medians."""
    print(f"{what}, {repeats} each, interleaved")
    print(f"{'':10}{'median ms':>10}{'min ms':>9}{'max ms':>9}")
    for label, email in zip(labels, (UNKNOWN, KNOWN), strict=True):
        ms = [t * 1000 for t in times[email]]
        print(f"{label:10}{statistics.median(ms):10.1f}{min(ms):9.1f}{max(ms):9.1f}")
    ratio = statistics.median(times[UNKNOWN]) / statistics.median(times[KNOWN])
    print(f"ratio     {labels[0]} / {labels[1]}: {ratio:.2f} (goal: near 1.00)")


if __name__ == "__main__":
    main()
