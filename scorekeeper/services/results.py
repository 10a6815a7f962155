"""Each person's results of each game (finished or not, place, win, and their balance of
the game's pot), kept as stored facts so that a keeper's stats cost the same whatever
their history: reading them is a few queries and some sums, not a replay of every game
ever played.

The rows of ``game_results`` are worked out by the engine from a game's record (the same
replay as its sheet) and carry the ``version`` of the game they were worked out at.
Whenever a transaction changes a game through the ORM (its row, rounds or seats: the
flush sees it), its rows are worked out again before it commits. The one change that does
not pass through the ORM, a round added at the end (``state.append_round``), asks for
it when the round finishes the game; a round that does not finish it changes no result.

Reading compares each game's stored version with its version now. A game whose rows are
out of date is worked out again for the answer (a read stores nothing), except a game
whose rows say it was running and that has only had rounds added since (its
``rewritten`` is not after the rows' version): no such round finished it, so it is still
running and counts for nothing. The stats are never wrong, only now and then slower.

A night's net for a person is their pot balances over its finished games, rounded to the
night's step as ``rules.settle`` rounds them (the games' part of ``ledger.night_book``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from flask import has_app_context
from sqlalchemy import event, select
from sqlalchemy.orm import Session, selectinload

from ..extensions import db
from ..models import Game, GameResult, GameRound, Night, Person, Seat
from ..rules import GameRecord, Standings, get_variant, name_key, replay
from ..rules.settlement import round_to_unit


@dataclass(frozen=True)
class GamePlayed:
    """One finished game of one person."""

    game_id: int
    title: str
    variant: str
    won: bool
    place: int
    players: int
    balance: int  # minor units: what the game's pot paid them, less what they paid in


@dataclass(frozen=True)
class PersonNight:
    """One person's results of one night: their finished games and their net."""

    person_id: int
    regular_id: int
    name: str
    games: tuple[GamePlayed, ...]
    net: int  # minor units: their games' part of the night's settlement, after rounding


class ResultRow(NamedTuple):
    """A row of ``game_results``, as read (a plain tuple: thousands are read at once)."""

    game_id: int
    person_id: int
    version: int
    finished: bool
    won: bool
    place: int
    players: int
    balance: int


_COLUMNS = [getattr(GameResult, name) for name in ResultRow._fields]


def _rows_of(game: Game, standings: Standings) -> list[ResultRow]:
    """The results of one game, a row per seated person."""
    seated = {s.person.name_key: s.person_id for s in game.seats}
    rows = []
    for p in standings.players:
        person_id = seated.get(name_key(p.name))
        if person_id is None:  # pragma: no cover - every player of a stored game has a seat
            continue
        rows.append(
            ResultRow(
                game.id,
                person_id,
                game.version,
                standings.finished,
                any(name_key(w) == name_key(p.name) for w in standings.winners),
                p.place,
                len(standings.players),
                standings.pot.balances.get(p.name, 0) if standings.finished else 0,
            )
        )
    return rows


def _replayed(game: Game) -> Standings:
    """The game's standings: its record replayed by the engine."""
    return replay(GameRecord.from_json(game.record_json()))


def refresh(game_ids: set[int]) -> None:
    """Work the games' results out again and store them (in the caller's transaction)."""
    if not game_ids:
        return
    games = db.session.scalars(
        select(Game)
        .where(Game.id.in_(sorted(game_ids)))
        .options(selectinload(Game.seats).joinedload(Seat.person), selectinload(Game.rounds))
        .execution_options(populate_existing=True)  # as stored now, Core writes included
    ).all()
    kept = {
        (r.game_id, r.person_id): r
        for r in db.session.scalars(select(GameResult).where(GameResult.game_id.in_(game_ids)))
    }
    for game in games:
        for data in _rows_of(game, _replayed(game)):
            row = kept.pop((data.game_id, data.person_id), None)
            if row is None:
                db.session.add(GameResult(**data._asdict()))
            else:
                for key, value in data._asdict().items():
                    setattr(row, key, value)
    for row in kept.values():  # a seat no longer in the game
        db.session.delete(row)


@dataclass
class _Game:
    id: int
    night_id: int
    variant: str
    version: int
    rewritten: int
    rows: list[ResultRow]


def results_of(owner_id: int) -> list[tuple[Night, list[PersonNight]]]:
    """The keeper's live nights, oldest first, each with its people's results: stored
    rows where they are up to date, worked out now where they are not (not stored)."""
    nights = list(
        db.session.scalars(
            select(Night)
            .where(Night.owner_id == owner_id, Night.deleted_at.is_(None))
            .order_by(Night.played_on, Night.id)
        )
    )
    live = {n.id for n in nights}
    games: dict[int, _Game] = {}
    for row in db.session.execute(
        select(Game.id, Game.night_id, Game.variant, Game.version, Game.rewritten)
        .join(Night, Night.id == Game.night_id)
        .where(Night.owner_id == owner_id, Night.deleted_at.is_(None), Game.deleted_at.is_(None))
    ):
        games[row[0]] = _Game(*row, rows=[])
    for result in db.session.execute(
        select(*_COLUMNS)
        .join(Game, Game.id == GameResult.game_id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.owner_id == owner_id, Night.deleted_at.is_(None), Game.deleted_at.is_(None))
    ):
        games[result[0]].rows.append(ResultRow(*result))
    people = {
        p.id: p
        for p in db.session.scalars(
            select(Person).join(Night, Night.id == Person.night_id).where(Night.id.in_(live))
        )
    }
    finished: dict[int, list[ResultRow]] = {}
    stale = []
    for game in games.values():
        rows = game.rows
        fresh = bool(rows) and all(r.version == game.version for r in rows)
        running = bool(rows) and not any(r.finished for r in rows)
        still_running = running and game.rewritten <= min(r.version for r in rows)
        if fresh or still_running:
            if not running:
                finished.setdefault(game.night_id, []).extend(rows)
        else:
            stale.append(game.id)
    if stale:
        for game_row in db.session.scalars(
            select(Game)
            .where(Game.id.in_(stale))
            .options(selectinload(Game.seats).joinedload(Seat.person), selectinload(Game.rounds))
        ):
            rows = _rows_of(game_row, _replayed(game_row))
            if any(r.finished for r in rows):
                finished.setdefault(game_row.night_id, []).extend(rows)
    out = []
    for night in nights:
        out.append((night, _night_lines(night, finished.get(night.id, []), games, people)))
    return out


def _night_lines(
    night: Night, rows: list[ResultRow], games: dict[int, _Game], people: dict[int, Person]
) -> list[PersonNight]:
    """Each person of the night's results from their finished games' rows."""
    balances: dict[int, int] = {}
    played: dict[int, list[GamePlayed]] = {}
    for row in sorted(rows):
        balances[row.person_id] = balances.get(row.person_id, 0) + row.balance
        variant = get_variant(games[row.game_id].variant)
        played.setdefault(row.person_id, []).append(
            GamePlayed(
                row.game_id, variant.title, variant.name, row.won, row.place, row.players,
                row.balance,
            )
        )  # fmt: skip
    # The night's rounding works on names, as rules.settle does (ties go by name).
    by_name = {people[p].name: b for p, b in balances.items() if p in people}
    rounded = round_to_unit(by_name, night.settle_unit or 1) if by_name else {}
    return [
        PersonNight(
            person.id,
            person.regular_id,
            person.name,
            tuple(played.get(person.id, ())),
            rounded.get(person.name, 0),
        )
        for person in people.values()
        if person.night_id == night.id
    ]


# ------------------------------------------------------------ kept up to date ---
_TOUCHED = "results_touched_games"


def touch(game_id: int) -> None:
    """Ask for the game's results to be worked out again before the transaction commits
    (a round added at the end, outside the ORM, that finished the game)."""
    db.session.info.setdefault(_TOUCHED, set()).add(game_id)


@event.listens_for(Session, "after_flush")
def _note_changed_games(session: Session, _context: Any) -> None:
    """Every game whose row, rounds or seats changed in this flush: its results are
    worked out again before the commit."""
    touched = session.info.setdefault(_TOUCHED, set())
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, Game):
            touched.add(obj.id)
        elif isinstance(obj, GameRound | Seat):
            touched.add(obj.game_id)
    touched.discard(None)


@event.listens_for(Session, "before_commit")
def _refresh_changed_games(session: Session) -> None:
    touched = session.info.pop(_TOUCHED, None)
    if touched and has_app_context() and session is db.session():
        refresh(set(touched))


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_TOUCHED, None)
