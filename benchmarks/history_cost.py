"""What a keeper's history and a big night cost a request (issue 20), against small ones in
the same run.

    .venv/bin/python benchmarks/history_cost.py [--games 500] [--repeats 3]

A fresh SQLite app in-process, read through the test client as a phone would. A keeper
plays ``--games`` of the largest finished games the app allows (20 players x 200 deals of
Rummy), 50 to a night (the most a night takes); a second keeper plays one small game. For
each, best of ``--repeats``:

- the stats: ``/regulars``, a regular's page and their history CSV, read from the stored
  results (``game_results``); and the same with those rows deleted, which is what every
  request cost before they were stored (every game replayed);
- one night of 50 of those games on its live link: the first render (nothing cached), the
  same state asked again without ``If-None-Match`` (the kept page), and the 304.

Ratios are against the small keeper's page of the same kind, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import delete, select

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import GameResult, Night, Regular, User
from scorekeeper.rules.rounds import MAX_PLAYERS
from scorekeeper.rules.settings import MAX_ROUNDS
from scorekeeper.services import state
from scorekeeper.web import live

MIGRATIONS = str(Path(__file__).resolve().parent.parent / "scorekeeper" / "migrations")
PER_NIGHT = 50


def largest_finished(seed: int) -> dict[str, Any]:
    """MAX_PLAYERS x MAX_ROUNDS deals of Rummy (it ends after the last deal)."""
    rng = random.Random(seed)
    names = [f"Player {i:02d}" for i in range(1, MAX_PLAYERS + 1)]
    return {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"deals": MAX_ROUNDS, "buy_in": 100},
        "players": names,
        "rounds": [
            {
                "went_out": names[(r + seed) % MAX_PLAYERS],
                "hands": {
                    n: rng.randint(0, 60)
                    for i, n in enumerate(names)
                    if i != (r + seed) % MAX_PLAYERS
                },
            }
            for r in range(MAX_ROUNDS)
        ],
    }


def small_game() -> dict[str, Any]:
    return {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"deals": 1, "buy_in": 100},
        "players": ["Ann", "Bob", "Cy"],
        "rounds": [{"went_out": "Ann", "hands": {"Bob": 5, "Cy": 7}}],
    }


def build(app: Flask, email: str, records: list[dict[str, Any]]) -> int:
    """A keeper (returns their id) with the records as finished games, 50 to a night."""
    from werkzeug.security import generate_password_hash

    with app.app_context():
        user = User(email=email, password_hash=generate_password_hash("x" * 12))
        db.session.add(user)
        db.session.commit()
        user_id = user.id
        for start in range(0, len(records), PER_NIGHT):
            names = [p if isinstance(p, str) else p["name"] for p in records[start]["players"]]
            night = services.create_night(
                db.session.get(User, user_id), name=f"Night {start // PER_NIGHT + 1}",
                played_on=__import__("datetime").date(2026, 1, 1), currency="USD", paper="A4",
                people=names,
            )  # fmt: skip
            for record in records[start : start + PER_NIGHT]:
                night = db.session.get(Night, night.id)
                services.import_game(
                    night, json.dumps(record), user=db.session.get(User, user_id), submission=None
                )
        return user_id


def login(app: Flask, email: str) -> Any:
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]* value="([^"]+)"', page)
    assert token
    r = client.post(
        "/login", data={"csrf_token": token.group(1), "email": email, "password": "x" * 12}
    )
    assert r.status_code == 302, r.status_code
    return client


def best(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'history.sqlite3'}",
            "SECRET_KEY": "bench",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        upgrade(directory=MIGRATIONS)
    started = time.perf_counter()
    big = build(app, "big@example.com", [largest_finished(i) for i in range(args.games)])
    small = build(app, "small@example.com", [small_game()])
    print(f"built {args.games} games of {MAX_PLAYERS}x{MAX_ROUNDS} in "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    clients = {big: login(app, "big@example.com"), small: login(app, "small@example.com")}
    with app.app_context():
        regular = {
            uid: db.session.scalar(select(Regular.id).where(Regular.owner_id == uid).limit(1))
            for uid in clients
        }
        nights = {
            uid: db.session.scalar(select(Night.id).where(Night.owner_id == uid).limit(1))
            for uid in clients
        }

    def get(uid: int, url: str, status: int = 200, **headers: str) -> Callable[[], Any]:
        def run() -> None:
            r = clients[uid].get(url, headers=headers)
            assert r.status_code == status, (url, r.status_code)

        return run

    rows: list[tuple[str, float, float]] = []

    def measure(label: str, make: Callable[[int], Callable[[], Any]]) -> None:
        big_t, small_t = best(make(big), args.repeats), best(make(small), args.repeats)
        rows.append((label, big_t, small_t))

    measure("stats page /regulars", lambda u: get(u, "/regulars"))
    measure("a regular's page", lambda u: get(u, f"/regulars/{regular[u]}"))
    measure("their history CSV", lambda u: get(u, f"/regulars/{regular[u]}/history.csv"))
    with app.app_context():
        db.session.execute(delete(GameResult))
        db.session.commit()
    state.STANDINGS_CACHE.clear()
    measure("/regulars, no stored results", lambda u: get(u, "/regulars"))

    links = {}
    for uid, client in clients.items():
        page = client.get(f"/nights/{nights[uid]}/live").get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]* value="([^"]+)"', page)
        assert token, page[:2000]
        client.post(f"/nights/{nights[uid]}/live", data={"csrf_token": token.group(1)})
        html = client.get(f"/nights/{nights[uid]}/live").get_data(as_text=True)
        found = re.search(r'id="live-url"[^>]* value="[^"]*(/live/night/[^"]+)"', html)
        assert found
        links[uid] = found.group(1)
    app.extensions["live_limiter"] = live._Limiter(10**9, live.PER)  # measured here: no limit

    def first_render(uid: int) -> Callable[[], Any]:
        def run() -> None:
            live.LIVE_PAGES.clear()
            state.STANDINGS_CACHE.clear()
            get(uid, links[uid])()

        return run

    measure("live night, first render", first_render)
    measure("live night, same state again", lambda u: get(u, links[u]))
    etags = {u: clients[u].get(links[u]).headers["ETag"] for u in clients}
    measure("live night, 304", lambda u: get(u, links[u], 304, **{"If-None-Match": etags[u]}))

    print(f"\n{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{'':34} {'big keeper':>12} {'small':>10} {'ratio':>8}")
    for label, big_t, small_t in rows:
        print(f"{label:34} {big_t * 1000:10.1f}ms {small_t * 1000:8.1f}ms {big_t / small_t:8.1f}")


if __name__ == "__main__":
    main()
