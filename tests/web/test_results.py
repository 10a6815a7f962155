"""A keeper's history must not cost every request (issue 20): the stats read each game's
stored results (``game_results``) and replay nothing; the results are worked out again
by every change to a game, including the round added at the end that finishes it; and a
row out of date never makes a stat wrong."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, select, update

from scorekeeper.extensions import db
from scorekeeper.models import GameResult, User
from scorekeeper.services import results, stats
from tests.web.keeper import Keeper, text_of
from tests.web.test_settle_up import regular_ids


@pytest.fixture
def keeper(client) -> Keeper:
    k = Keeper(client)
    k.signup()
    return k


def _nets(app) -> dict[str, int]:
    with app.app_context():
        owner = db.session.scalars(select(User)).one()
        return {s.regular.name: s.net for s in stats.all_stats(owner.id).values()}


def _replays(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = results._replayed
    monkeypatch.setattr(results, "_replayed", lambda game: calls.append(game.id) or real(game))
    return calls


def test_the_stats_replay_nothing_and_follow_every_change(app, keeper, client, monkeypatch):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="1", deals="2")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    assert _nets(app) == {"Ann": 0, "Bob": 0, "Cy": 0}  # running: counts for nothing
    # The last deal, added at the end (the three-statement path): it finishes the game.
    assert keeper.enter(game, "Bob", {"Ann": 30, "Cy": 5}).status_code == 302
    replays = _replays(monkeypatch)
    page = text_of(client.get("/regulars"))
    assert replays == []  # read from the stored results
    # Ann scored 5 + 5 = 10, Bob 30 + 5 = 35: Bob wins the $3.00 pot.
    assert _nets(app) == {"Ann": -100, "Bob": 200, "Cy": -100}
    assert "Bob 1 1 1 $2.00" in page
    # A correction (the ORM path): Ann went out in deal 2 instead (10 + 35): she wins.
    assert keeper.enter(game, "Ann", {"Bob": 30, "Cy": 5}, number=2).status_code == 302
    replays.clear()  # (the save worked the results out again, once)
    assert _nets(app) == {"Ann": 200, "Bob": -100, "Cy": -100}
    keeper.post_form(f"/games/{game}/delete", {})
    replays.clear()
    assert _nets(app) == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert replays == []


def test_a_row_out_of_date_never_makes_a_stat_wrong(app, keeper, client, monkeypatch):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    before = _nets(app)
    with app.app_context():
        db.session.execute(update(GameResult).values(version=GameResult.version - 1, balance=7))
        db.session.commit()
    replays = _replays(monkeypatch)
    assert _nets(app) == before and replays == [game]  # worked out again for the answer
    with app.app_context():
        db.session.execute(delete(GameResult))
        db.session.commit()
    assert _nets(app) == before
    ids = regular_ids(client)
    assert "Best night" in text_of(client.get(f"/regulars/{ids['Ann']}"))


def test_a_game_still_running_costs_no_replay_after_rounds_are_added(app, keeper, monkeypatch):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], target_score="500")
    for _ in range(3):
        assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    replays = _replays(monkeypatch)
    assert _nets(app) == {"Ann": 0, "Bob": 0} and replays == []
