"""The number of SQL statements a page costs must not grow with the size of the game.

Two Vegas games are built straight through the services (one night each, same owner): a
small one (3 players, 2 rounds) and a large one (10 players, 60 rounds with re-buys), each
with one correction so that the history holds every kind of change. Every page of a game
and of its night is then fetched for both, counting the statements sent to the database
with SQLAlchemy's ``before_cursor_execute`` event; the counts must be equal. A page whose
count grows with rounds or players is an N+1 query waiting for a long card night.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import User
from scorekeeper.rules import GAME_FORMAT, load_game
from scorekeeper.services import state
from scorekeeper.web.games.sheet import SHEET_CACHE
from tests.web.keeper import Keeper

EMAIL = "counter@example.com"
PAGES = {
    "sheet": "/games/{game}",
    "round entry form": "/games/{game}/rounds/new",
    "edit form of round 1": "/games/{game}/rounds/1",
    "history": "/games/{game}/history",
    "night": "/nights/{night}",
    "payout": "/nights/{night}/payout",
    "api": "/api/v1/games/{game}",
    "export": "/games/{game}/export.json",
}
CARDS = ["A", "2", "5", "9", "10", "J", "Q", "K", "JK", "W"]


@functools.cache
def vegas_rounds(names: tuple[str, ...], count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` valid rounds in which the game never ends (checked with the engine):
    hands as points and as cards, a flipped wild card, and now and then a re-buy."""
    rng = random.Random(seed)
    settings = {"buy_in": 200, "max_score": 100}
    header = {"format": GAME_FORMAT, "variant": "vegas", "settings": settings,
              "players": list(names), "first_dealer": names[0]}  # fmt: skip
    rounds: list[dict[str, Any]] = []
    for number in range(count):
        for attempt in range(50):
            went_out = names[(number + attempt) % len(names)]
            limit = 25 if attempt < 10 else 3
            hands: dict[str, Any] = {}
            for name in names:
                if name == went_out:
                    continue
                if rng.random() < 0.3:
                    hands[name] = rng.sample(CARDS, k=rng.randint(1, 2))
                else:
                    hands[name] = rng.randint(0, limit)
            rnd = {"went_out": went_out, "hands": hands, "wild": rng.choice(["7C", "QH", "JK"])}
            standings = load_game({**header, "rounds": [*rounds, rnd]})
            if not standings.finished:
                rounds.append(rnd)
                break
        else:  # pragma: no cover - the generator always finds a round
            raise AssertionError("could not extend the game")
    return rounds


def build_game(app: Flask, players: int, rounds: int, seed: int) -> tuple[int, int]:
    """A night with one Vegas game: rounds entered one by one (each an 'add' in the
    history), then round 1 corrected. Returns (night id, game id)."""
    names = tuple(f"Player {i:02d}" for i in range(1, players + 1))
    data = vegas_rounds(names, rounds, seed)
    with app.app_context():
        user = db.session.scalars(select(User).where(User.email == EMAIL)).one()
        night = services.create_night(
            user, name=f"Night of {players}", played_on=date(2026, 11, 20), currency="USD",
            paper="A4", people=names,
        )  # fmt: skip
        game = services.create_game(
            night, variant="vegas", players=[(n, 0) for n in names], first_dealer=names[0],
            settings={"buy_in": 200, "max_score": 100, "currency": "USD"}, user=user,
        )  # fmt: skip
        for rnd in data:
            services.save_round(
                game, rnd, number=None, expected_version=None, submission=None, user=user
            )
        corrected = {**data[0], "hands": {k: 0 for k in data[0]["hands"]}}
        services.save_round(
            game, corrected, number=1, expected_version=None, submission=None, user=user
        )
        assert len(game.rounds) == rounds and len(game.seats) == players
        ids = night.id, game.id
        db.session.remove()
    return ids


@contextmanager
def listening(app: Flask, name: str, listener: Callable[..., None]) -> Iterator[None]:
    """``listener`` on the app's engine event ``name`` meanwhile."""
    with app.app_context():
        engine = db.engine
    event.listen(engine, name, listener)
    try:
        yield
    finally:
        event.remove(engine, name, listener)


@contextmanager
def counting(app: Flask) -> Iterator[list[str]]:
    """The statements sent meanwhile."""
    statements: list[str] = []
    with listening(app, "before_cursor_execute", lambda c, cur, s, *a: statements.append(s)):
        yield statements


@contextmanager
def checkouts(app: Flask) -> Iterator[list[int]]:
    """The connections taken from the pool meanwhile (one entry each)."""
    taken: list[int] = []
    with listening(app, "checkout", lambda *args: taken.append(1)):
        yield taken


def fetch(client: FlaskClient, app: Flask, url: str) -> list[str]:
    with counting(app) as statements:
        r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    return statements


def test_queries_per_page_do_not_grow_with_rounds_or_players(
    app: Flask, client: FlaskClient
) -> None:
    Keeper(client).signup(EMAIL)
    small = build_game(app, players=3, rounds=2, seed=1)
    large = build_game(app, players=10, rounds=60, seed=2)
    client.get("/")  # shows the welcome flash, so no page below renders it

    data = client.get(f"/api/v1/games/{large[1]}").get_json()["standings"]
    assert data["rounds_played"] == 60 and len(data["players"]) == 10
    assert any(p["expiries"] for p in data["players"]) and not data["finished"]

    counts: dict[str, tuple[int, int]] = {}
    grown: list[str] = []
    for page, template in PAGES.items():
        small_url = template.format(night=small[0], game=small[1])
        large_url = template.format(night=large[0], game=large[1])
        fetch(client, app, small_url)  # warm up: the first connection, caches
        SHEET_CACHE.clear()  # the sheet as first drawn (its cached answer: see below)
        few = fetch(client, app, small_url)
        SHEET_CACHE.clear()
        many = fetch(client, app, large_url)
        counts[page] = (len(few), len(many))
        if len(few) != len(many):
            grown.append(f"{page} ({large_url}):\n  " + "\n  ".join(many))
    print("statements per page (3 players x 2 rounds, 10 players x 60 rounds):", counts)
    assert not grown, "statements grow with the game: " + repr(counts) + "\n" + "\n".join(grown)


def test_night_pages_do_not_grow_with_the_number_of_games(app: Flask, client: FlaskClient) -> None:
    keeper = Keeper(client)
    keeper.signup(EMAIL)
    one = keeper.night(["Ann", "Bob", "Cy"], name="One game")
    keeper.game(one, "rummy", ["Ann", "Bob"])
    four = keeper.night(["Ann", "Bob", "Cy"], name="Four games")
    for variant in ("rummy", "texas", "dummy", "vegas"):
        game = keeper.game(four, variant, ["Ann", "Bob", "Cy"])
        keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7})
    client.get("/")  # reads the last flash
    for template in ("/nights/{night}", "/nights/{night}/payout"):
        fetch(client, app, template.format(night=one))  # warm up
        few = fetch(client, app, template.format(night=one))
        many = fetch(client, app, template.format(night=four))
        assert len(few) == len(many), (template, len(few), len(many), many)


def test_cheap_answers_cost_one_statement(app: Flask, client: FlaskClient) -> None:
    """A 304 of the sheet, the sheet drawn before and a cached PDF are answered from one
    indexed query that finds the session's user and the game's version together (issue
    12): no user load, no rounds. Another user or an unknown game still gets its 404."""
    Keeper(client).signup(EMAIL)
    _, game = build_game(app, players=4, rounds=5, seed=3)
    client.get("/")
    etag = client.get(f"/games/{game}").headers["ETag"]
    with counting(app) as statements:
        r = client.get(f"/games/{game}")
    assert r.status_code == 200 and "Player 04" in r.get_data(as_text=True)
    assert len(statements) == 1, statements
    with counting(app) as statements:
        r = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert r.status_code == 304
    assert len(statements) == 1, statements
    for pdf in ("sheet.pdf", "blank.pdf"):
        assert client.get(f"/games/{game}/{pdf}").status_code == 200  # rendered, cached
        with counting(app) as statements:
            r = client.get(f"/games/{game}/{pdf}")
        assert r.status_code == 200 and r.data.startswith(b"%PDF")
        assert len(statements) == 1, (pdf, statements)
    other = app.test_client()
    Keeper(other).signup("other@example.com")
    assert other.get(f"/games/{game}", headers={"If-None-Match": etag}).status_code == 404
    assert other.get(f"/games/{game}/sheet.pdf").status_code == 404
    assert app.test_client().get(f"/games/{game}/sheet.pdf").status_code == 302  # to log in
    assert client.get(f"/games/{game + 1000}", headers={"If-None-Match": etag}).status_code == 404


def test_one_query_answers_read_in_autocommit(app: Flask, client: FlaskClient) -> None:
    """A 304, a cached PDF and a live view's 304 read on a connection of their own in
    autocommit: no transaction is left open after their statement, so nothing ends it
    (no BEGIN, COMMIT or ROLLBACK: two round trips fewer), and psycopg, which drops every
    prepared statement at a rollback, keeps the stamp query (four tables joined)
    prepared, planned once per connection, not on every request (``extensions.reading``)."""
    keeper = Keeper(client)
    keeper.signup(EMAIL)
    _, game = build_game(app, players=3, rounds=2, seed=4)
    client.get("/")
    etag = client.get(f"/games/{game}").headers["ETag"]
    client.get(f"/games/{game}/sheet.pdf")
    token = keeper.form(f"/games/{game}/live")[1]["csrf_token"]
    client.post(f"/games/{game}/live", data={"csrf_token": token})
    page = client.get(f"/games/{game}/live").get_data(as_text=True)
    live = "/live/" + re.search(r'value="[^"]*/live/([^"]+)"', page)[1]
    live_etag = app.test_client().get(live).headers["ETag"]

    open_after: list[bool] = []  # per statement: was a transaction open after it?

    def after(conn: Any, *args: Any) -> None:
        dbapi = conn.connection.dbapi_connection
        info = getattr(dbapi, "info", None)  # psycopg; sqlite3 says in_transaction
        status = getattr(info, "transaction_status", None)
        open_after.append(dbapi.in_transaction if status is None else status.name != "IDLE")

    # (SQLAlchemy still says "rollback" when such a connection closes; psycopg sends
    # nothing then, and keeps its prepared statements, when no transaction is open.)
    with listening(app, "after_cursor_execute", after):
        assert client.get(f"/games/{game}", headers={"If-None-Match": etag}).status_code == 304
        assert client.get(f"/games/{game}/sheet.pdf").status_code == 200
        phone = app.test_client()
        assert phone.get(live, headers={"If-None-Match": live_etag}).status_code == 304
    assert open_after == [False, False, False]


def test_a_round_saved_from_a_kept_state_reads_no_round(app: Flask, client: FlaskClient) -> None:
    """A keeper's usual loop (the form, the round posted, the sheet after it): when the
    worker holds the standings of the state the stamp names, no round row is read, and
    the statements of each step are the same for 2 rounds as for 60."""
    keeper = Keeper(client)
    keeper.signup(EMAIL)
    client.get("/")
    per_game: list[list[int]] = []
    for players, rounds, seed in ((3, 2, 1), (10, 60, 2)):
        _, game = build_game(app, players=players, rounds=rounds, seed=seed)
        client.get(f"/games/{game}/rounds/new")  # draws the standings and keeps them
        counts = []
        for went_out in ("Player 01", "Player 02"):
            SHEET_CACHE.clear()
            url = f"/games/{game}/rounds/new"
            with counting(app) as form_statements:
                _, hidden = keeper.form(url)
            hands = {f"Player {i:02d}": 0 for i in range(1, players + 1)}
            del hands[went_out]
            data = keeper.round_data(game, went_out, hands)
            with counting(app) as post_statements, checkouts(app) as connections:
                r = client.post(url, data={**hidden, **data})
            assert r.status_code == 302, r.get_data(as_text=True)[:500]
            assert len(connections) == 1
            with counting(app) as sheet_statements:
                assert client.get(r.headers["Location"]).status_code == 200
            # The stamp (with the game's row), the version counted up (which locks the
            # row), the round and its history entry: nothing else, and no second
            # connection (the stamp is read in the transaction that writes).
            assert [_kind(s) for s in post_statements] == [
                "SELECT users",
                "UPDATE games",
                "INSERT game_rounds",
                "INSERT edits",
            ], post_statements
            steps = (form_statements, post_statements, sheet_statements)
            for statements in steps:
                read_rounds = [s for s in statements if re.search(r"FROM game_rounds", s)]
                assert not read_rounds, statements
            counts += [len(s) for s in steps]
        per_game.append(counts)
    assert per_game[0] == per_game[1], per_game


def _kind(statement: str) -> str:
    """'SELECT users', 'UPDATE games', 'INSERT edits'...: the verb and the first table."""
    verb = statement.split(None, 1)[0].upper()
    table = re.search(r"\b(?:FROM|INTO|UPDATE)\s+(\w+)", statement)
    return f"{verb} {table.group(1) if table else ''}"


def test_a_round_posted_after_another_worker_saved_reads_only_the_new_rounds(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers take turns with a keeper's posts. The one that drew the game before
    the other saved a round folds that round on (``Game.rewritten`` says nothing else
    changed): it reads the rounds after those it holds (one row, not 60), no seat, and
    the standings it keeps equal a replay of the stored record."""
    from scorekeeper.cache import ByteBoundedCache

    keeper = Keeper(client)
    keeper.signup(EMAIL)
    client.get("/")
    _, game = build_game(app, players=10, rounds=60, seed=2)
    url = f"/games/{game}/rounds/new"
    here = state.DRAWN_STATES
    client.get(url)  # this worker draws the game as it is
    hands = {f"Player {i:02d}": 0 for i in range(2, 11)}

    monkeypatch.setattr(state, "DRAWN_STATES", ByteBoundedCache(max_bytes=1 << 24))
    r = client.post(
        url, data={**keeper.form(url)[1], **keeper.round_data(game, "Player 01", hands)}
    )
    assert r.status_code == 302  # saved by the other worker
    _, hidden = keeper.form(url)
    hands = {f"Player {i:02d}": 0 for i in range(1, 11) if i != 2}
    data = {**hidden, **keeper.round_data(game, "Player 02", hands)}
    monkeypatch.setattr(state, "DRAWN_STATES", here)

    with counting(app) as statements:
        r = client.post(url, data=data)
    assert r.status_code == 302, r.get_data(as_text=True)[:500]
    assert [_kind(s) for s in statements] == [
        "SELECT users",
        "SELECT games",  # the version and the rounds after the 60 this worker holds
        "UPDATE games",
        "INSERT game_rounds",
        "INSERT edits",
    ], statements
    assert "game_rounds.number >" in statements[1]
    record = client.get(f"/games/{game}/export.json").get_json()
    assert len(record["rounds"]) == 62
    kept = [drawn.standings for drawn, _ in here._entries.values()]
    assert load_game(record) in kept


def test_every_change_to_a_game_locks_its_row_before_writing(
    app: Flask, client: FlaskClient
) -> None:
    """Two changes to one game at once must not take their rows in opposite orders:
    PostgreSQL ends one of them as a deadlock, a 500 for a keeper (seen in
    tests/load/test_concurrency.py: two corrections of one round, where one transaction
    updated the round before the game and the other the game before the round). Every
    change first locks the games' rows (``SELECT ... FOR NO KEY UPDATE``, the lock an
    UPDATE takes, in id order), before
    its first INSERT, UPDATE or DELETE, or makes the game's row its first write (a round
    added at the end counts the version up first); the second change then waits."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("SQLite locks the whole database for a write; it has no FOR UPDATE")
    keeper = Keeper(client)
    keeper.signup(EMAIL)
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    client.get("/")

    def first_write_is_locked(label: str, send: Any) -> None:
        with counting(app) as statements:
            r = send()
        assert r.status_code == 302, (label, r.status_code)
        writes = [i for i, s in enumerate(statements) if re.match(r"\s*(INSERT|UPDATE|DELETE)", s)]
        locks = [
            i
            for i, s in enumerate(statements)
            if (re.search(r"FOR (NO KEY )?UPDATE", s) and "games" in s)
            or re.match(r"\s*UPDATE games ", s)
        ]
        assert writes and locks and locks[0] <= writes[0], (label, statements)

    first_write_is_locked("a round added", lambda: keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}))
    first_write_is_locked(
        "a round corrected", lambda: keeper.enter(game, "Ann", {"Bob": 9, "Cy": 7}, number=1)
    )
    assert keeper.enter(game, "Bob", {"Ann": 1, "Cy": 2}).status_code == 302
    _, hidden = keeper.form(f"/games/{game}")
    first_write_is_locked(
        "the last round removed",
        lambda: client.post(f"/games/{game}/rounds/last/delete", data=hidden),
    )
    person = keeper.person_ids(night)["Bob"]
    _, hidden = keeper.form(f"/nights/{night}/people/{person}")
    first_write_is_locked(
        "a player renamed",
        lambda: client.post(f"/nights/{night}/people/{person}", data={**hidden, "name": "Rob"}),
    )
    _, hidden = keeper.form(f"/games/{game}/delete")
    first_write_is_locked(
        "the game deleted", lambda: client.post(f"/games/{game}/delete", data=hidden)
    )


def _night_with_entries(app: Flask, keeper: Keeper, name: str, entries: int) -> int:
    """A night of three whose Texas game is over, with ``entries`` payments recorded on
    it (every other one undone, one write-off), straight through the services."""
    from scorekeeper.models import Night
    from scorekeeper.services import settle as settling
    from tests.web.test_games import play_texas

    night_id = keeper.night(["Ann", "Bob", "Cy"], name=name)
    play_texas(keeper, keeper.game(night_id, "texas", ["Ann", "Bob", "Cy"]))
    with app.app_context():
        night = db.session.get(Night, night_id)
        user = db.session.scalar(select(User).where(User.email == EMAIL))
        people = {p.name: p.regular_id for p in night.people}
        for i in range(entries):
            payer, payee = ("Bob", "Cy") if i % 2 else ("Cy", "Bob")
            settling.record_payment(
                night, people[payer], people[payee], 5 + i, user=user, submission=f"{name}{i}"
            )
        book = services.ledger.night_book(night)
        settling.settle_transfer(
            night, book.transfers[0].payer.id, book.transfers[0].payee.id,
            book.transfers[0].transfer.amount, plan=book.plan.stamp, kind="write_off",
            user=user, submission=None,
        )  # fmt: skip
        for line in services.ledger.night_book(night).payments[::2]:
            settling.undo_entry(night, line.entry.id, user=user)
    return night_id


def test_a_nights_money_pages_do_not_grow_with_its_ledger(app: Flask, client: FlaskClient) -> None:
    """The payout page, the players' night page and the CSV cost as many statements with 60
    entries as with 2 (the bound is ``ledger.MAX_ENTRIES_PER_NIGHT``)."""
    keeper = Keeper(client)
    keeper.signup(EMAIL)
    few = _night_with_entries(app, keeper, "Few", 2)
    many = _night_with_entries(app, keeper, "Many", 60)
    client.get("/")
    for template in ("/nights/{night}/payout", "/nights/{night}/export.csv"):
        fetch(client, app, template.format(night=few))  # warm up
        small = fetch(client, app, template.format(night=few))
        large = fetch(client, app, template.format(night=many))
        assert len(small) == len(large), (template, len(small), len(large), large)
