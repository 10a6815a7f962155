"""Load, bounded in time and in requests, over loopback: keepers enter rounds in games of
every variant (starting a new game when one ends) while viewers reload the sheets, half
the time conditionally. Afterwards nothing failed, every round a keeper was told was saved
is stored as typed and no other, and every game replays and balances."""

from __future__ import annotations

import random
import threading
import time

import pytest

from .harness import (
    NETWORK_ERRORS,
    Account,
    GameLog,
    Server,
    Tally,
    enter_round,
    game_problems,
    integrity_problems,
    run_threads,
)

pytestmark = pytest.mark.slow
SECONDS = 12
MAX_REQUESTS = 6000
KEEPERS = [
    ("texas", ["Ann", "Bob", "Cy"], {}),
    ("rummy", ["Ann", "Bob"], {"target_score": "50"}),
    ("vegas", ["Ann", "Bob", "Cy", "Dee"], {"max_score": "60"}),
    ("multiplayer", ["Ann", "Bob", "Cy"], {"target_score": "80"}),
    ("dummy", ["Ann", "Bob", "Cy"], {}),
    ("vegas", ["Ann", "Bob", "Cy"], {"buy_in": "1.50"}),
]
VIEWERS_PER_KEEPER = 1


def test_keepers_and_viewers_under_load(server: Server) -> None:
    log_start = server.log_size()
    accounts, nights, logs = [], [], []
    for i, (variant, players, settings) in enumerate(KEEPERS):
        account = Account(server.port, f"keeper{i}@example.com")
        account.signup()
        night = account.night(players)
        logs.append([GameLog(account.game(night, variant, players, **settings), variant)])
        accounts.append(account)
        nights.append(night)
    viewers = [a.another_phone() for a in accounts for _ in range(VIEWERS_PER_KEEPER)]
    tallies = [Tally() for _ in range(len(accounts) + len(viewers))]
    stop = threading.Event()
    not_modified = [0]
    conditional = [0]

    def out_of_budget() -> bool:
        return stop.is_set() or sum(t.requests for t in tallies) >= MAX_REQUESTS

    def keeper(i: int) -> None:
        variant, players, settings = KEEPERS[i]
        rng, tally = random.Random(i), tallies[i]
        while not out_of_budget():
            saved = enter_round(accounts[i].phone, logs[i][-1], rng, tally)
            if saved is None:  # the game is over: a new one, same players
                try:
                    new = accounts[i].game(nights[i], variant, players, **settings)
                except (AssertionError, *NETWORK_ERRORS) as exc:
                    tally.unexpected.append(f"new game: {exc!r}"[:300])
                    return
                finally:
                    tally.requests += 3
                logs[i].append(GameLog(new, variant))

    def viewer(j: int) -> None:
        i = j // VIEWERS_PER_KEEPER
        rng, tally, phone = random.Random(100 + j), tallies[len(accounts) + j], viewers[j]
        etags: dict[int, str] = {}
        while not out_of_budget():
            game = logs[i][-1].game_id
            etag = etags.get(game) if rng.random() < 0.5 else None
            path = f"/api/v1/games/{game}" if rng.random() < 0.1 else f"/games/{game}"
            try:
                r = phone.get(path, headers={"If-None-Match": etag} if etag else None)
            except NETWORK_ERRORS as exc:
                tally.requests += 1
                tally.network_errors.append(f"GET {path}: {exc!r}")
                continue
            tally.count(r, f"GET {path}")
            if etag and "api" not in path:
                conditional[0] += 1
            if r.status == 200 and "api" not in path:
                etags[game] = r.headers["ETag"]
            elif r.status == 304 and etag:
                not_modified[0] += 1
                if r.headers.get("ETag") != etag:
                    tally.unexpected.append(f"304 for {etag} with ETag {r.headers.get('ETag')}")
            elif r.status != 200:
                tally.unexpected.append(f"GET {path} ({etag}): {r.status}")

    timer = threading.Timer(SECONDS, stop.set)
    started = time.monotonic()
    timer.start()
    try:
        run_threads(
            [lambda i=i: keeper(i) for i in range(len(accounts))]
            + [lambda j=j: viewer(j) for j in range(len(viewers))]
        )
    finally:
        timer.cancel()
        stop.set()
    elapsed = time.monotonic() - started

    requests = sum(t.requests for t in tallies)
    games = [log for keeper_logs in logs for log in keeper_logs]
    rounds = sum(len(log.acknowledged) for log in games)
    print(
        f"\nload: {requests} requests in {elapsed:.1f} s = {requests / elapsed:.0f} requests/s "
        f"({len(accounts)} keepers, {len(viewers)} viewers, gunicorn 3 workers); {rounds} "
        f"rounds saved in {len(games)} games; {not_modified[0]} of {conditional[0]} "
        f"conditional GETs answered 304"
    )
    assert [e for t in tallies for e in t.network_errors] == []
    assert [e for t in tallies for e in t.server_errors] == []
    assert [e for t in tallies for e in t.unexpected] == []
    assert sum(t.duplicates for t in tallies) == 0
    assert rounds > 0 and not_modified[0] > 0
    problems = []
    for account, keeper_logs in zip(accounts, logs, strict=True):
        problems += game_problems(server.db_url, account.phone, keeper_logs, exact=True)
    assert problems == []
    assert integrity_problems(server.db_url) == []
    finished = sum(log.finished for log in games)
    print(f"load: {finished} games played to the end and settled")
    assert finished > 0  # the ledger of a finished game was checked too
    assert "Traceback" not in server.log_text(since=log_start), server.log_tail(80)
