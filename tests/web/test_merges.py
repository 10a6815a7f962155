"""Merging regulars (issue 20): two merges at once never make a loop, a merge racing "add a
person" never leaves the person on the entry merged away, a merge is recorded and can be
undone exactly, finding a regular is bounded even over a loop stored before, and
migration 0008 repairs such a loop. Races run in both orders on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import select, text

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Night, Person, Regular, RegularMerge, User
from scorekeeper.services import regulars, stats
from tests.conftest import MIGRATIONS
from tests.web.keeper import Keeper, text_of
from tests.web.test_settle_up import regular_ids

ROUNDS = 3


def _at_once(app: Flask, *changes: Callable[[], Any]) -> list[Any]:
    start = threading.Barrier(len(changes))
    results: list[Any] = [None] * len(changes)

    def run(i: int, change: Callable[[], Any]) -> None:
        with app.app_context():
            start.wait()
            try:
                results[i] = change()
            except Exception as exc:
                results[i] = exc
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(changes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def _owner() -> User:
    return db.session.scalars(select(User)).one()


def _regular(name: str) -> Regular:
    return db.session.scalars(select(Regular).where(Regular.name == name)).one()


def _merge(keep: str, gone: str) -> Callable[[], Any]:
    def change() -> Any:
        return regulars.merge_regulars(_regular(keep), _regular(gone), user=_owner()).id

    return change


def _every_person_on_a_live_regular(app: Flask) -> None:
    with app.app_context():
        rows = db.session.execute(
            select(Person.name, Regular.name, Regular.merged_into_id).join(
                Regular, Regular.id == Person.regular_id
            )
        ).all()
        assert all(merged is None for _, _, merged in rows), rows
        pointers = dict(db.session.execute(select(Regular.id, Regular.merged_into_id)).all())
        for target in pointers.values():
            assert target is None or pointers[target] is None  # one hop, never a loop


def test_two_merges_at_once_never_make_a_loop(app, client):
    keeper = Keeper(client)
    keeper.signup()
    keeper.night(["Xavi"], name="One")
    keeper.night(["Yann"], name="Two")
    for n in range(ROUNDS):
        results = _at_once(app, _merge("Xavi", "Yann"), _merge("Yann", "Xavi"))
        merged = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, services.Refused)]
        assert len(merged) == 1 and len(refused) == 1, results
        assert "merged into another regular already" in str(refused[0])
        _every_person_on_a_live_regular(app)
        assert len(set(regular_ids(client)) & {"Xavi", "Yann"}) == 1
        with app.app_context():
            regulars.undo_merge(merged[0], owner=_owner())  # both live again
        _every_person_on_a_live_regular(app)
        assert set(regular_ids(client)) == {"Xavi", "Yann"}, n


def test_a_merge_racing_add_person_leaves_nobody_on_the_entry_merged_away(app, client, monkeypatch):
    """Adding "Annie" to a night finds her regular, then (slowly) saves the person, while
    Annie is merged into Ann: in either order the person ends on Ann, the live one."""
    keeper = Keeper(client)
    keeper.signup()
    keeper.night(["Ann"], name="One")
    keeper.night(["Annie"], name="Two")
    found = regulars.find_regular

    def slow_find(owner_id: int, name: str) -> Any:
        regular = found(owner_id, name)
        time.sleep(0.3)  # the merge commits in here when it can
        return regular

    monkeypatch.setattr(regulars, "find_regular", slow_find)
    for n in range(2):
        keeper.night(["Bob"], name=f"Night {n}")
        with app.app_context():
            night_id = db.session.scalar(select(Night.id).where(Night.name == f"Night {n}"))

        def add(night_id: int = night_id, wait: float = 0.1 * n) -> Any:
            time.sleep(wait)  # round 0: add first; round 1: merge first
            night = db.session.get(Night, night_id)
            return services.add_person(night, "Annie", user=_owner())

        def merge(wait: float = 0.1 * (1 - n)) -> Any:
            time.sleep(wait)
            return _merge("Ann", "Annie")()

        results = _at_once(app, add, merge)
        assert not any(isinstance(r, Exception) for r in results), results
        _every_person_on_a_live_regular(app)
        with app.app_context():
            person = db.session.scalars(
                select(Person).where(Person.night_id == night_id, Person.name_key != "bob")
            ).one()
            assert person.regular.name == "Ann" and person.regular.merged_into_id is None
            regulars.undo_merge(results[1], owner=_owner())
            db.session.execute(text("DELETE FROM regular_merges"))
            db.session.commit()


def test_a_merge_can_be_undone_exactly(app, client):
    keeper = Keeper(client)
    keeper.signup()
    one = keeper.night(["Ann", "Bob"], name="One")
    game = keeper.game(one, "rummy", ["Ann", "Bob"], buy_in="2", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    keeper.night(["Annie", "Cy"], name="Two")
    ids = regular_ids(client)
    form = keeper.client.get(f"/regulars/{ids['Annie']}").get_data(as_text=True)
    assert form
    with app.app_context():
        before = {r.regular.id: (r.net, r.games) for r in stats.all_stats(_owner().id).values()}
    r = keeper.post_form("/regulars", {"keep": ids["Ann"], "gone": ids["Annie"]},
                         action="/regulars/merge")  # fmt: skip
    assert r.status_code == 302
    page = text_of(client.get("/regulars"))
    assert "Annie merged into Ann" in page
    with app.app_context():
        merge = db.session.scalars(select(RegularMerge)).one()
        merged = stats.all_stats(_owner().id)
        assert ids["Annie"] not in merged and merged[ids["Ann"]].net == before[ids["Ann"]][0]
    r = keeper.post_form("/regulars", {}, action=f"/regulars/merges/{merge.id}/undo")
    assert r.status_code == 302
    assert "Merge undone: Annie is a regular of their own again." in text_of(
        client.get(r.headers["Location"])
    )
    with app.app_context():
        after = {r.regular.id: (r.net, r.games) for r in stats.all_stats(_owner().id).values()}
    assert after == before
    assert set(regular_ids(client)) == {"Ann", "Annie", "Bob", "Cy"}


def test_finding_a_regular_over_a_stored_loop_is_bounded(app, client):
    keeper = Keeper(client)
    keeper.signup()
    keeper.night(["Xavi", "Yann"], name="One")
    with app.app_context():
        x, y = _regular("Xavi"), _regular("Yann")
        db.session.execute(
            text("UPDATE regulars SET merged_into_id = :y WHERE id = :x"), {"x": x.id, "y": y.id}
        )
        db.session.execute(
            text("UPDATE regulars SET merged_into_id = :x WHERE id = :y"), {"x": x.id, "y": y.id}
        )
        db.session.commit()
        started = time.monotonic()
        assert regulars.find_regular(_owner().id, "Xavi") is None
        assert time.monotonic() - started < 5  # bounded (it used to loop for ever)
    r = keeper.post_form("/nights/new", {"name": "Two", "people": "Xavi"})
    assert r.status_code < 500


def test_migration_repairs_loops_and_chains(app):
    with app.app_context():
        try:
            downgrade(directory=MIGRATIONS, revision="0007")
            with db.engine.begin() as conn:
                for statement in LOOPED.split(";"):
                    if statement.strip():
                        conn.execute(text(statement))
            upgrade(directory=MIGRATIONS)
            with db.engine.connect() as conn:
                pointers = dict(conn.execute(text("SELECT id, merged_into_id FROM regulars")).all())
                people = dict(conn.execute(text("SELECT id, regular_id FROM people")).all())
        finally:
            upgrade(directory=MIGRATIONS)
    # 1 <-> 2 looped: 1 (the lowest) is live, 2 points at it; 3 -> 2 -> ... flattened to 1;
    # the person left on 2 and on 3 moved to 1.
    assert pointers == {1: None, 2: 1, 3: 1, 4: None}
    assert people == {1: 1, 2: 1, 3: 1, 4: 4}


LOOPED = """
INSERT INTO users (id, email, password_hash, created_at) VALUES (1, 'a@x.org', 'x', '2026-11-01');
INSERT INTO nights (id, owner_id, name, played_on, currency, paper, created_at)
  VALUES (1, 1, 'N', '2026-11-06', 'USD', 'A4', '2026-11-06');
INSERT INTO regulars (id, owner_id, name, name_key, created_at) VALUES
  (1, 1, 'X', 'x', '2026-11-01'), (2, 1, 'Y', 'y', '2026-11-01'),
  (3, 1, 'Z', 'z', '2026-11-01'), (4, 1, 'W', 'w', '2026-11-01');
UPDATE regulars SET merged_into_id = 2 WHERE id = 1;
UPDATE regulars SET merged_into_id = 1 WHERE id = 2;
UPDATE regulars SET merged_into_id = 2 WHERE id = 3;
INSERT INTO people (id, night_id, name, name_key, regular_id) VALUES
  (1, 1, 'X', 'x', 1), (2, 1, 'Y', 'y', 2), (3, 1, 'Z', 'z', 3), (4, 1, 'W', 'w', 4)
"""


def test_a_payment_recorded_before_a_merge_keeps_the_payout_page(app, client):
    """Found by the stateful test: a payment keeps the games' balances the plan was drawn
    from, by regular id; merging the payer's regular into another one left that id behind
    and the payout page failed (a KeyError, a 500). The merged-away regular counts as the
    one it went into, and the payment stays paid."""
    from tests.web.test_games import play_texas
    from tests.web.test_plan_stays_put import transfer_form

    keeper = Keeper(client)
    keeper.signup()
    night = keeper.night(["Ann", "Bob", "Cy"], name="One")
    play_texas(keeper, keeper.game(night, "texas", ["Ann", "Bob", "Cy"]))
    keeper.night(["Robert", "Dee"], name="Two")
    ids = regular_ids(client)
    page = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    payer = next(p for p in ("Ann", "Bob", "Cy") if f'name="payer" value="{ids[p]}"' in page)
    payee = next(p for p in ("Ann", "Bob", "Cy") if p != payer and f'value="{ids[p]}"' in page)
    whole = transfer_form(keeper, night, ids[payer], ids[payee], part=False)
    assert client.post(whole.action, data=whole.values()).status_code == 302
    paid = text_of(client.get(f"/nights/{night}/payout"))
    r = keeper.post_form("/regulars", {"keep": ids["Robert"], "gone": ids[payer]},
                         action="/regulars/merge")  # fmt: skip
    assert r.status_code == 302
    after = client.get(f"/nights/{night}/payout")
    assert after.status_code == 200
    line = f"{payer} paid {payee}"
    assert line in paid and line in text_of(after)  # the payment stays paid
