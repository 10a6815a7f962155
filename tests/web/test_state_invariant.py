"""The invariant the speed machinery rests on (``scorekeeper/services/state.py``): every
change to a game's row goes through the ORM, whose update sets ``rewritten`` (the mapper
event ``models._count_rewrite``), except a round added at the end, which
``state.append_round`` writes in Core and which leaves ``rewritten``. A write to ``games``
by any other road would let a worker fold rounds onto a state that is no longer the start
of the record. This plays every change a keeper can make to a game and fails on any
statement that writes ``games`` another way."""

from __future__ import annotations

import traceback
from typing import Any

from sqlalchemy import event

from scorekeeper.extensions import db
from tests.web.keeper import Keeper, inputs


def _writes_to_games(app: Any) -> list[tuple[str, bool]]:
    """Every UPDATE of ``games`` while the caller plays: (SQL, made by append_round?)."""
    seen: list[tuple[str, bool]] = []

    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sql = " ".join(statement.split())
        if sql.upper().startswith("UPDATE GAMES"):
            frames = {f.name for f in traceback.extract_stack()}
            seen.append((sql, "append_round" in frames))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", before)
    return seen


def test_every_write_to_a_game_is_the_orm_or_the_append(app, client):
    seen = _writes_to_games(app)
    keeper = Keeper(client)
    keeper.signup()
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    vegas = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00", max_score="50")
    rummy = keeper.game(night, "rummy", ["Ann", "Bob"], deals="3")
    assert keeper.enter(rummy, "Ann", {"Bob": 5}).status_code == 302  # appended
    assert keeper.enter(vegas, "Ann", {"Bob": 30, "Cy": 10}).status_code == 302
    assert keeper.enter(rummy, "Bob", {"Ann": 5}, number=1).status_code == 302  # corrected
    r = keeper.post_form(f"/games/{vegas}/join", {"new_name": "Dee"})  # joins next round
    assert r.status_code in (200, 302), r.status_code
    assert keeper.enter(vegas, "Bob", {"Ann": 30, "Cy": 45, "Dee": 3}).status_code == 302
    sheet = client.get(f"/games/{rummy}").get_data(as_text=True)
    undo = {k: v for k, v in inputs(sheet).items() if k in {"csrf_token", "version"}}
    client.post(f"/games/{rummy}/rounds/last/delete", data=undo)
    ids = keeper.person_ids(night)
    keeper.post_form(f"/nights/{night}/people/{ids['Cy']}", {"name": "Cyd"})  # renamed
    keeper.post_form(f"/games/{rummy}/delete", {})
    keeper.post_form(f"/nights/{night}/delete", {})
    keeper.post_form("/nights/new", {}, action=f"/nights/{night}/restore")
    assert keeper.enter(vegas, "Ann", {"Bob": 1, "Cyd": 2, "Dee": 3}).status_code == 302
    appended = [sql for sql, by_append in seen if by_append]
    through_orm = [sql for sql, by_append in seen if not by_append]
    assert appended and through_orm, seen  # both roads were taken
    for sql in appended:
        assert "rewritten" not in sql and "games.version +" in sql, sql
    for sql in through_orm:
        assert "rewritten=" in sql.replace(" ", ""), (
            f"a write to games outside the two roads: {sql}"
        )
