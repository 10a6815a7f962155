"""Faults while keepers post rounds: gunicorn killed (SIGKILL, master and workers) and
restarted; the app's PostgreSQL connections terminated again and again. A keeper's phone
retries what failed (the same POST, the same submission id) until it is acknowledged.

Afterwards: every round whose POST got its 302 is stored as typed and no other round is;
no round is half there (rounds = 'add' edits - 'remove' edits, version = edits, numbers
1..n); every record replays to the API's standings; no orphan rows, no duplicate under a
unique constraint, every B-tree index consistent with its table (amcheck)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.web.keeper import Keeper, text_of

from .harness import (
    Account,
    GameLog,
    Server,
    Tally,
    connect,
    enter_round,
    game_problems,
    integrity_problems,
    run_threads,
)

pytestmark = pytest.mark.slow
KEEPERS = 4
PLAYERS = ["Ann", "Bob", "Cy"]
RETRY_SECONDS = 40


def keepers(server: Server, who: str) -> tuple[list[Account], list[GameLog]]:
    accounts, logs = [], []
    for i in range(KEEPERS):
        account = Account(server.port, f"{who}{i}@example.com")
        account.signup()
        night = account.night(PLAYERS)
        game = account.game(night, "rummy", PLAYERS, target_score="100000")
        accounts.append(account)
        logs.append(GameLog(game, "rummy"))
    return accounts, logs


def posting(
    accounts: list[Account], logs: list[GameLog], tallies: list[Tally], stop: threading.Event
) -> list[Any]:
    """Keeper threads: enter rounds until told to stop, finishing the round in hand."""

    def keeper(i: int) -> None:
        rng = random.Random(i)
        while not stop.is_set():
            deadline = time.monotonic() + RETRY_SECONDS
            saved = enter_round(accounts[i].phone, logs[i], rng, tallies[i], retry_until=deadline)
            if not saved:
                return

    return [lambda i=i: keeper(i) for i in range(len(accounts))]


def report(what: str, tallies: list[Tally], logs: list[GameLog]) -> None:
    print(
        f"\n{what}: {sum(t.requests for t in tallies)} requests, "
        f"{sum(len(log.acknowledged) for log in logs)} rounds acknowledged, "
        f"{sum(len(t.network_errors) for t in tallies)} connection errors, "
        f"{sum(len(t.server_errors) for t in tallies)} 5xx, "
        f"{sum(t.duplicates for t in tallies)} retried POSTs found already saved"
    )


def test_gunicorn_killed_mid_request_loses_no_acknowledged_round(server: Server) -> None:
    accounts, logs = keepers(server, "killed")
    tallies = [Tally() for _ in accounts]
    stop = threading.Event()
    kills = 0

    def killer() -> None:
        nonlocal kills
        try:
            time.sleep(1.5)
            server.kill()
            kills += 1
            time.sleep(0.3)
            server.start()
            time.sleep(1)
        finally:
            stop.set()

    run_threads([*posting(accounts, logs, tallies, stop), killer])
    report(f"SIGKILL x{kills}", tallies, logs)
    assert kills == 1
    assert sum(len(t.network_errors) for t in tallies) > 0  # the kills hit requests
    assert [e for t in tallies for e in t.unexpected] == []
    problems = []
    for account, log in zip(accounts, logs, strict=True):
        problems += game_problems(server.db_url, account.phone, [log], exact=True)
    assert problems == []
    assert integrity_problems(server.db_url) == []
    for account, log, tally in zip(accounts, logs, tallies, strict=True):  # and it goes on
        assert enter_round(account.phone, log, random.Random(), tally) is True


def test_database_connections_terminated_mid_request(server: Server) -> None:
    accounts, logs = keepers(server, "cut")
    tallies = [Tally() for _ in accounts]
    stop = threading.Event()
    terminated = 0
    database = server.db_url.rsplit("/", 1)[-1]

    def terminator() -> None:
        nonlocal terminated
        rng = random.Random(7)
        try:
            with connect(server.db_url.rsplit("/", 1)[0] + "/postgres") as admin:
                until = time.monotonic() + 5
                while time.monotonic() < until:
                    rows = admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = %s AND pid <> pg_backend_pid()",
                        (database,),
                    ).fetchall()
                    terminated += sum(1 for (ok,) in rows if ok)
                    time.sleep(rng.uniform(0.01, 0.1))
            time.sleep(1)  # then the keepers go on without faults
        finally:
            stop.set()

    run_threads([*posting(accounts, logs, tallies, stop), terminator])
    report(f"{terminated} connections terminated", tallies, logs)
    assert terminated > 0
    # gunicorn stayed up: every failure is an error page, none a dropped connection
    assert [e for t in tallies for e in t.network_errors] == []
    failures = [e for t in tallies for e in t.server_errors]
    bare = [e for e in failures if "Something went wrong" not in e]
    print(
        f"{len(bare)} of {len(failures)} error pages were the bare 'Internal Server Error' "
        "(the app's 500 handler needed the database too); "
        f"{sum(len(t.saved_after_5xx) for t in tallies)} POSTs answered 500 had saved the round"
    )
    assert all(": 500 " in e for e in failures), failures
    assert [e for t in tallies for e in t.unexpected] == []
    problems = []
    for account, log in zip(accounts, logs, strict=True):
        problems += game_problems(server.db_url, account.phone, [log], exact=True)
    assert problems == []
    assert integrity_problems(server.db_url) == []
    # with the faults over, requests succeed at once (pool_pre_ping replaces dead connections)
    after = Tally()
    for account, log in zip(accounts, logs, strict=True):
        assert enter_round(account.phone, log, random.Random(), after) is True
    assert after.server_errors == [] and after.network_errors == [] and after.unexpected == []


@pytest.mark.parametrize("fault", ["next statement after COMMIT", "COMMIT's answer lost"])
def test_a_connection_lost_at_the_commit_of_a_round(fresh_db: str, fault: str) -> None:
    """The faults above, made deterministic in-process at the worst moment: the round's
    COMMIT has reached the database, then the connection is lost, either on the next
    statement or before the COMMIT's answer came back (the app sees an error although the
    round is stored). The round is stored once; the keeper is told so (302) or gets an
    error page that does not claim nothing was stored (a keeper who believes it and types
    the round again on a fresh form would count it twice); sending the same form again
    (the same submission id) does not count it twice."""
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": fresh_db,
         "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"}
    )  # fmt: skip
    keeper = Keeper(app.test_client())
    keeper.signup()
    game = keeper.game(keeper.night(PLAYERS), "rummy", PLAYERS)
    url = f"/games/{game}/rounds/new"
    data = keeper.round_data(game, "Ann", {"Bob": 5, "Cy": 7})
    _, hidden = keeper.form(url)
    # The fault strikes at the COMMIT of the transaction that sent the round (the request
    # commits other reads before it: the login's and the game's stamp).
    armed = {"round sent": False, "on": False, "fired": False}
    lost = psycopg.OperationalError("server closed the connection unexpectedly")

    def strike() -> None:
        armed.update(on=False, fired=True)
        raise lost

    def committed(conn: Any) -> None:
        armed["on"] = armed["round sent"] and not armed["fired"]

    def next_statement(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if armed["on"]:
            strike()
        if statement.lstrip().upper().startswith("INSERT INTO GAME_ROUNDS"):
            armed["round sent"] = True

    with app.app_context():
        engine = db.engine
    real_commit = engine.dialect.do_commit

    def answer_lost(dbapi_connection: Any) -> None:
        real_commit(dbapi_connection)  # the database has the round...
        if armed["on"]:
            strike()  # ...but the app never hears back

    event.listen(engine, "before_cursor_execute", next_statement)
    event.listen(engine, "commit", committed)  # before the COMMIT is sent
    if not fault.startswith("next"):
        engine.dialect.do_commit = answer_lost  # type: ignore[method-assign]
    try:
        r = keeper.client.post(url, data={**hidden, **data})
    finally:
        event.remove(engine, "commit", committed)
        event.remove(engine, "before_cursor_execute", next_statement)
        if not fault.startswith("next"):
            del engine.dialect.do_commit
    if fault.startswith("next") and not armed["fired"]:
        # The save asks nothing of the database after its COMMIT: the keeper is answered.
        assert r.status_code == 302
    else:
        assert armed["fired"], "the fault never struck"

    def rounds() -> int:
        api = keeper.client.get(f"/api/v1/games/{game}").get_json()
        return api["standings"]["rounds_played"]

    assert rounds() == 1
    if r.status_code != 302:
        assert r.status_code == 500
        page = text_of(r)
        assert "still what is stored" not in page and "othing was saved" not in page, page
    again = keeper.client.post(url, data={**hidden, **data})  # the same form, sent again
    assert again.status_code == 302
    assert "Deal 1 was already saved" in text_of(keeper.client.get(again.headers["Location"]))
    assert rounds() == 1
    with app.app_context():
        db.engine.dispose()


def test_the_error_page_does_not_need_the_database(fresh_db: str) -> None:
    """With the database gone, a request still gets the app's own error page, whose
    advice matters ("reload the sheet to see whether your last change is there before you
    enter it again"), not a bare 'Internal Server Error' (gunicorn's, when the error
    handler fails too). Seen in test_database_connections_terminated_mid_request: the
    handler's template looks up the logged-in user, which needs the database again."""
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": fresh_db,
         "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"}
    )  # fmt: skip
    keeper = Keeper(app.test_client())
    keeper.signup()
    game = keeper.game(keeper.night(PLAYERS), "rummy", PLAYERS)

    def down(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", down)
    try:
        r = keeper.client.get(f"/games/{game}")
    except Exception as exc:  # the error handler itself failed: gunicorn's bare 500
        pytest.fail(f"the error page itself failed: {exc!r}"[:300])
    finally:
        event.remove(engine, "before_cursor_execute", down)
        with app.app_context():
            db.engine.dispose()
    assert r.status_code == 500
    assert "Something went wrong" in text_of(r)
