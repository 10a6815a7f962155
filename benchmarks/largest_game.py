"""What the largest game the app allows costs, against a long ordinary game in the same run.

    .venv/bin/python benchmarks/largest_game.py [--repeats 3]

The limits (rules/settings.py MAX_ROUNDS, rules/rounds.py MAX_PLAYERS) are chosen so that a
real table never meets them; this states the worst case they allow. Two Vegas games are
imported into a fresh SQLite app and read through the test client, as a phone would:

- the baseline: 10 players x 60 rounds (a long night's game; benchmarks/http_load.py's sheet);
- the largest: 20 players x 200 rounds, every hand a card list (the most parsing).

For each: the sheet page the first time (standings cache empty: parse, replay, render), the
sheet page again (page and replay cached), the filled PDF the first time (PDF cache empty: replay
cached, WeasyPrint lays out every row) and the API. Best of ``--repeats``, interleaved, and
the ratio largest / baseline. Figures and the machine go in benchmarks/README.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The checkout's own scorekeeper (and tests.samples) come first.
sys.path[:] = [str(Path(__file__).resolve().parent.parent), *sys.path]

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.reports.files import PDF_CACHE  # noqa: E402
from scorekeeper.rules.rounds import MAX_PLAYERS  # noqa: E402
from scorekeeper.rules.settings import MAX_ROUNDS  # noqa: E402
from scorekeeper.services import state  # noqa: E402
from scorekeeper.web.games.sheet import SHEET_CACHE  # noqa: E402
from tests.samples import long_vegas  # noqa: E402

MIGRATIONS = str(Path(__file__).resolve().parent.parent / "scorekeeper" / "migrations")


def largest_record() -> dict[str, Any]:
    """MAX_PLAYERS x MAX_ROUNDS of Vegas nobody expires in, every hand a list of cards."""
    rng = random.Random(5)
    names = [f"Player {i:02d} with a long name"[:40] for i in range(1, MAX_PLAYERS + 1)]
    codes = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W"]
    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"max_score": 100_000, "buy_in": 200},
        "players": names,
        "rounds": [
            {
                "went_out": names[r % MAX_PLAYERS],
                "hands": {
                    n: rng.sample(codes, 7) for i, n in enumerate(names) if i != r % MAX_PLAYERS
                },
                "wild": "7C",
            }
            for r in range(MAX_ROUNDS)
        ],
    }


def hidden(html: str) -> dict[str, str]:
    import re

    out: dict[str, str] = {}
    for tag in re.findall(r"<input\b[^>]*>", html):
        attrs = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag))
        if attrs.get("type") == "hidden" and "name" in attrs:
            out.setdefault(attrs["name"], attrs.get("value", ""))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
            "SECRET_KEY": "bench",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        upgrade(directory=MIGRATIONS)
    c = app.test_client()

    def post(url: str, data: dict[str, str]) -> Any:
        form = hidden(c.get(url).get_data(as_text=True))
        return c.post(url, data={**form, **data})

    assert post("/signup", {"email": "b@example.com", "password": "x" * 12,
                            "confirm": "x" * 12}).status_code == 302  # fmt: skip
    assert post("/login", {"email": "b@example.com", "password": "x" * 12}).status_code == 302
    r = post("/nights/new", {"name": "Bench", "played_on": "2026-11-20", "currency": "USD",
                             "paper": "A4", "people": "Ann"})  # fmt: skip
    night = int(r.headers["Location"].rsplit("/", 1)[-1])
    games = {}
    for label, record in (("10x60", long_vegas(10, 60)), ("largest", largest_record())):
        r = post(f"/nights/{night}/games/import", {"record": json.dumps(record)})
        assert r.status_code == 302, r.get_data(as_text=True)[:500]
        games[label] = int(r.headers["Location"].rsplit("/", 1)[-1])
        c.get(f"/games/{games[label]}")  # the import's flash

    def timed(fn: Callable[[], Any]) -> float:
        started = time.perf_counter()
        fn()
        return time.perf_counter() - started

    def sheet(game: int, *, cold: bool) -> Callable[[], Any]:
        if not cold:  # the other game's cold view emptied the caches: fill them, untimed
            c.get(f"/games/{game}")

        def run() -> None:
            if cold:  # nothing of this game kept: parse, replay and render the page
                state.STANDINGS_CACHE.clear()
                SHEET_CACHE.clear()
            assert c.get(f"/games/{game}").status_code == 200

        return run

    def pdf(game: int) -> Callable[[], Any]:
        def run() -> None:
            PDF_CACHE.clear()
            assert c.get(f"/games/{game}/sheet.pdf").status_code == 200

        return run

    def api(game: int) -> Callable[[], Any]:
        return lambda: c.get(f"/api/v1/games/{game}")

    scenarios = {
        "sheet, first view": lambda g: sheet(g, cold=True),
        "sheet, again": lambda g: sheet(g, cold=False),
        "PDF, first render": pdf,
        "API": api,
    }
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.repeats):
        for name, make in scenarios.items():
            for label, game in games.items():
                spent = timed(make(game))
                best[(name, label)] = min(best.get((name, label), spent), spent)
    sizes = {label: len(c.get(f"/games/{g}").data) for label, g in games.items()}

    print(f"Python {platform.python_version()} on {platform.machine()}, best of {args.repeats}")
    print(f"baseline: Vegas 10x60; largest allowed: {MAX_PLAYERS}x{MAX_ROUNDS}, card hands")
    print(f"{'scenario':<20} {'10x60 ms':>10} {'largest ms':>11} {'ratio':>7}")
    for name in scenarios:
        base, big = best[(name, "10x60")], best[(name, "largest")]
        print(f"{name:<20} {base * 1000:10.1f} {big * 1000:11.1f} {big / base:7.1f}")
    print(f"{'sheet page bytes':<20} {sizes['10x60']:10d} {sizes['largest']:11d} "
          f"{sizes['largest'] / sizes['10x60']:7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
