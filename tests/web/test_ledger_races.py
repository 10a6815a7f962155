"""Two phones recording money on one night at the same instant, on SQLite and PostgreSQL
(issue 19): the ledger's changes lock the night first, so of two carries, two marks of the
same transfer, or a carry and a mark racing, exactly one records what is still to pay and
the other finds it recorded; the same form sent twice at once records once. Each race runs
in both orders (either phone may win)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import LedgerEntry, Night, User
from scorekeeper.services import ledger, settle
from tests.web.keeper import Keeper
from tests.web.test_games import play_texas
from tests.web.test_settle_up import new_night, regular_ids

ROUNDS = 4


@pytest.fixture
def nights(app: Flask, client) -> tuple[int, int, dict[str, int]]:
    keeper = Keeper(client)
    keeper.signup()
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    later = new_night(keeper, "Later", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    return first, later, ids


def _at_once(app: Flask, *changes: Callable[[Night, Night, User], Any]) -> list[Any]:
    """Each change in a thread of its own, with a session of its own, released together."""
    start = threading.Barrier(len(changes))
    results: list[Any] = [None] * len(changes)

    def run(i: int, change: Callable[[Night, Night, User], Any], ids: tuple[int, int]) -> None:
        with app.app_context():
            user = db.session.scalars(select(User)).one()
            source, target = (db.session.get(Night, n) for n in ids)
            start.wait()
            try:
                results[i] = change(source, target, user)
            except Exception as exc:  # the refusal is the result
                results[i] = exc
            finally:
                db.session.remove()

    with app.app_context():
        ids = tuple(db.session.scalars(select(Night.id).order_by(Night.id)))
    threads = [threading.Thread(target=run, args=(i, c, ids)) for i, c in enumerate(changes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def _entries(app: Flask) -> list[tuple[str, int, int, int, bool]]:
    with app.app_context():
        rows = db.session.execute(
            select(
                LedgerEntry.kind,
                LedgerEntry.payer_id,
                LedgerEntry.payee_id,
                LedgerEntry.amount,
                LedgerEntry.undone_at.is_(None),
            ).order_by(LedgerEntry.id)
        ).all()
    return [tuple(r) for r in rows]


def _undo_all(app: Flask) -> None:
    with app.app_context():
        user = db.session.scalars(select(User)).one()
        night = db.session.scalars(select(Night).order_by(Night.id)).first()
        for entry in ledger.entries_of(night.id):
            if entry.undone_at is None:
                settle.undo_entry(night, entry.id, user=user)


def test_two_carries_at_once_carry_once(app, nights):
    ids = nights[2]
    for n in range(ROUNDS):
        results = _at_once(
            app,
            *(
                lambda s, t, u, k=k, n=n: settle.carry_open(s, t, user=u, submission=f"c{n}-{k}")
                for k in range(2)
            ),
        )
        carried = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, services.Refused)]
        assert carried == [30] and len(refused) == 1, results
        assert "Nothing is left to pay" in str(refused[0])
        live = [e for e in _entries(app) if e[4]]
        assert sorted(live) == sorted(
            [
                ("carry", ids["Bob"], ids["Ann"], 10, True),
                ("carry", ids["Cy"], ids["Ann"], 20, True),
            ]
        )
        _undo_all(app)


def test_the_same_carry_sent_twice_at_once_records_once(app, nights):
    for n in range(ROUNDS):
        results = _at_once(
            app,
            *(lambda s, t, u, n=n: settle.carry_open(s, t, user=u, submission=f"same-{n}"),) * 2,
        )
        assert sorted(type(r).__name__ for r in results) == ["AlreadySent", "int"], results
        assert len([e for e in _entries(app) if e[4]]) == 2
        _undo_all(app)


def test_two_phones_marking_one_transfer_paid_record_one_payment(app, nights):
    ids = nights[2]
    for n in range(ROUNDS):
        results = _at_once(
            app,
            *(
                lambda s, t, u, k=k, n=n: settle.settle_transfer(
                    s,
                    ids["Cy"],
                    ids["Ann"],
                    20,
                    plan=ledger.night_book(s).plan.stamp,
                    kind="payment",
                    user=u,
                    submission=f"m{n}-{k}",
                )
                for k in range(2)
            ),
        )
        refused = [r for r in results if isinstance(r, services.Refused)]
        assert len(refused) == 1 and "changed since the page was drawn" in str(refused[0])
        assert [e for e in _entries(app) if e[4]] == [("payment", ids["Cy"], ids["Ann"], 20, True)]
        _undo_all(app)


def test_a_carry_and_a_mark_racing_never_count_one_debt_twice(app, nights):
    ids = nights[2]
    for n in range(ROUNDS):
        results = _at_once(
            app,
            lambda s, t, u, n=n: settle.carry_open(s, t, user=u, submission=f"c{n}"),
            lambda s, t, u, n=n: settle.settle_transfer(
                s, ids["Cy"], ids["Ann"], 20, kind="payment", user=u, submission=f"m{n}"
            ),
        )
        live = [e for e in _entries(app) if e[4]]
        cy = [e for e in live if e[1] == ids["Cy"]]
        assert len(cy) == 1, (results, live)  # Cy's 20c was carried or paid, not both
        assert sum(e[3] for e in live) == 30  # and Bob's 10c carried either way
        _undo_all(app)
