"""The state of a game as the requests that read it see it: the one place of the speed
machinery.

- *Stamps* (``GameStamp``, ``game_stamp``): one indexed query names the stored state of a
  keeper's game (its version), for 304s and every cache keyed by a state.
- *Standings* (``standings_for``, ``standings_at``): a record replayed, kept by the hash of
  the record (``STANDINGS_CACHE``) and by game (``DRAWN_STATES``: the last state this
  worker drew, which rounds added since are folded onto, reading only those rounds).
- *The append* (``append_round``): a round added at the end is written in three Core
  statements (the version counted up, which locks the row and checks it; the round; its
  history entry), not through the ORM.

**The invariant** everything here rests on: every change to a game's record goes through
the ORM and counts its version up (``mark_changed``; ``models._count_rewrite`` then sets
``Game.rewritten``), except the append, which counts the version up and leaves
``rewritten``. So a state drawn at a version at or after ``rewritten`` is the start of the
record as stored now. ``tests/web/test_state_invariant.py`` fails on any write to the
``games`` table outside these two roads. Workers of different code must not share a
database (the README's deploy section).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached, selectinload

from ..cache import ByteBoundedCache
from ..extensions import db, reading
from ..models import (
    Edit,
    Game,
    GameRound,
    Night,
    Seat,
    User,
    UserSession,
    utcnow,
)
from ..rules import (
    GameRecord,
    RecordError,
    Standings,
    extend,
    parse_round,
    replay,
)
from . import results, streams
from .base import refuse
from .keepers import kept_by
from .regulars import keeping_as

# About 16 bytes of replay per byte of the record's JSON (tests/rules/test_cache.py): the
# largest game allowed (200 rounds, 20 players) is about 1 MB, a usual one a few dozen KB.
REPLAY_BYTES_PER_RECORD_BYTE = 16


STANDINGS_CACHE = ByteBoundedCache[Standings](max_bytes=64 * 1024 * 1024)


def _record_key(data: dict[str, Any]) -> tuple[str, int]:
    """A hash of a game's whole record, and the bytes a replay of it takes in the cache."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest(), len(text) * REPLAY_BYTES_PER_RECORD_BYTE


def standings_for(game: Game) -> Standings:
    """The game's standings: its record replayed. Replays are kept by a hash of the whole
    record, so a sheet viewed again (by any viewer) skips parsing and replaying, and a
    changed record can never be answered from the cache. The cache is bounded by bytes."""
    return _replayed(game.record_json())[0]


def _replayed(data: dict[str, Any]) -> tuple[Standings, int]:
    """The standings of a record's JSON data (kept by its hash), and what they weigh."""
    key, size = _record_key(data)
    standings = STANDINGS_CACHE.get_or_make(key, lambda: (replay(GameRecord.from_json(data)), size))
    return standings, size


@dataclass(frozen=True, slots=True)
class DrawnState:
    """The last state of a game this worker drew: its key (``GameStamp.key``), its
    version and its standings."""

    key: str
    version: int
    standings: Standings
    size: int  # what the standings weigh in a cache (see REPLAY_BYTES_PER_RECORD_BYTE)


# Per game (``game_key``), the last state drawn. A request that read the stamp of that
# state finds its standings here without loading the rounds or hashing the record; a later
# state that only has rounds added since (``Game.rewritten``), on this worker or another,
# is folded on from it (``extend``) reading only those rounds, not replayed from round 1.
DRAWN_STATES = ByteBoundedCache[DrawnState](max_bytes=32 * 1024 * 1024)


class StateStamp(Protocol):
    """What names one stored state of a game: the keeper's ``GameStamp`` or a live link's
    ``live.LinkStamp``, both read in one query before anything else."""

    @property
    def game_id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def key(self) -> str: ...


def standings_at(game: Game, stamp: StateStamp) -> tuple[Standings, bool]:
    """The game's standings, and whether they are those of the state ``stamp`` names
    (the stamp the request read first). Those are kept by that state, and found by it
    without loading the rounds or hashing the record. What is drawn from standings that
    are not that state (another phone saved in between) may be shown, never kept under
    the stamp's key.

    When this worker drew an earlier state of the game and nothing but rounds added at
    the end changed since (``Game.rewritten``), only those rounds are read and folded on.
    Otherwise all rounds are read in one statement with the game's version at that
    moment: when it is still the stamp's, nothing changed since the stamp was read (every
    change to a record bumps it), so the seats read before were that state too."""
    if not _loaded_at(game, stamp):
        return standings_for(game), False
    kept = game_key(game.id, game.created_at)
    last = DRAWN_STATES.get(kept)
    if last is not None and last.key == stamp.key:
        return last.standings, True
    if last is not None and game.rewritten <= last.version < stamp.version:
        folded = _folded_on(last, game.id, stamp)
        if folded is not None:
            DRAWN_STATES.put(kept, folded, folded.size)
            return folded.standings, True
    header = game.header_json()  # the seats: read before the version is
    rows = db.session.execute(
        select(Game.version, GameRound.data)
        .outerjoin(GameRound, GameRound.game_id == Game.id)
        .where(Game.id == game.id)
        .order_by(GameRound.number)
    ).all()
    standings, size = _replayed({**header, "rounds": [r.data for r in rows if r.data is not None]})
    if not rows or rows[0].version != stamp.version:
        return standings, False
    DRAWN_STATES.put(kept, DrawnState(stamp.key, stamp.version, standings, size), size)
    return standings, True


# The game's version and its rounds after the first ``known``, in one statement.
_ROUNDS_AFTER = (
    select(Game.version, GameRound.number, GameRound.data)
    .outerjoin(GameRound, (GameRound.game_id == Game.id) & (GameRound.number > bindparam("known")))
    .where(Game.id == bindparam("game_id"))
    .order_by(GameRound.number)
)


def _folded_on(last: DrawnState, game_id: int, stamp: StateStamp) -> DrawnState | None:
    """The state ``stamp`` names, folded on from ``last``, an earlier state of the game
    this worker drew that its record still starts with: the rounds stored after those of
    ``last`` are read (with the version, in one statement) and extended onto its
    standings. None when the game is no longer at the stamp's version (it is then read
    whole)."""
    known = len(last.standings.record.rounds)
    params = {"game_id": game_id, "known": known}
    rows = db.session.connection().execute(_ROUNDS_AFTER, params).all()
    added = [r for r in rows if r.data is not None]
    if not rows or rows[0].version != stamp.version:
        return None
    if [r.number for r in added] != list(range(known + 1, known + 1 + len(added))):
        return None
    variant = last.standings.variant
    try:
        parsed = [
            parse_round(
                r.data, number=r.number, variant=variant.name, card_codes=variant.card_codes
            )
            for r in added
        ]
        standings = extend(last.standings, parsed)
    except RecordError:
        return None  # replayed from the start, which says what is wrong
    size = last.size + REPLAY_BYTES_PER_RECORD_BYTE * len(json.dumps([r.data for r in added]))
    return DrawnState(stamp.key, stamp.version, standings, size)


def still_at(game: Game, stamp: StateStamp) -> bool:
    """Were the rows of ``game`` loaded so far the state ``stamp`` names? The game's row
    was, and its version, read again now, still is (seats and rounds load after the
    game's row, and every change to a record bumps the version, a change of this
    request's own session too)."""
    if not _loaded_at(game, stamp):
        return False
    now = db.session.scalar(select(Game.version).where(Game.id == game.id))
    return now == stamp.version


def _loaded_at(game: Game, stamp: StateStamp) -> bool:
    return (game.id, game.version) == (stamp.game_id, stamp.version) and not (
        db.session.new or db.session.dirty or db.session.deleted
    )


def owned_game(
    game_id: int,
    user: User,
    *,
    deleted: bool = False,
    eager: bool = True,
    owner_only: bool = False,
) -> Game | None:
    """A game with its seats and rounds in a fixed number of queries, of a night ``user``
    may keep (owner or co-keeper; the owner alone with ``owner_only``); a deleted
    game (or a game of a deleted night) only when ``deleted`` is asked for. With
    ``eager=False`` only the game's row: its seats and rounds load on first use (one
    query each then), for a request that may find the game's standings by its stamp and
    need neither (a round posted, the sheet or a PDF drawn)."""
    query = (
        select(Game)
        .join(Night)
        .where(Game.id == game_id, kept_by(user.id, owner_only=owner_only))
        .where(Night.deleted_at.is_(None))
    )
    if eager:
        query = query.options(
            selectinload(Game.seats).joinedload(Seat.person), selectinload(Game.rounds)
        )
    if not deleted:
        query = query.where(Game.deleted_at.is_(None))
    keeping_as(user.id)
    return db.session.scalars(query).first()


@dataclass(frozen=True, slots=True)
class GameStamp:
    """One stored state of a game one user keeps (owns, or co-keeps: ``owned`` says
    which), read in one indexed query: who asks, the
    game's version and what its documents print beside the record (night, date, paper).
    ``key`` names the state for every cache of what is drawn from it (rendered sheet,
    PDFs): the version changes with every change to the record (see ``mark_changed``), and the
    creation time keeps a game id reused by another database (tests) from matching."""

    user_id: int
    user_email: str
    user_language: str | None  # the keeper's chosen language (the page's words), or None
    game_id: int
    night_id: int
    version: int
    created_at: datetime
    variant: str
    night_name: str
    played_on: date
    paper: str
    locale: str  # how the night writes money
    owner_id: int  # the night's owner: ``user_id`` itself, or a co-keeper's night

    @property
    def owned(self) -> bool:
        """Whether the user is the night's owner (not a co-keeper)."""
        return self.user_id == self.owner_id

    @property
    def key(self) -> str:
        return state_key(self.game_id, self.created_at, self.version)


def game_key(game_id: int, created_at: datetime) -> str:
    """The name of a game across databases (a game id reused by another one, in tests,
    has another creation time)."""
    return f"{game_id}.{created_at.timestamp():.6f}"


def state_key(game_id: int, created_at: datetime, version: int) -> str:
    """The name of one stored state of a game (see ``GameStamp``)."""
    return f"{game_key(game_id, created_at)}.{version}"


_STAMP_COLUMNS = (
    User.id,
    User.email,
    User.language,
    Game.id,
    Game.night_id,
    Game.version,
    Game.created_at,
    Game.variant,
    Night.name,
    Night.played_on,
    Night.paper,
    Night.locale,
    Night.owner_id,
)


_LIVE_GAME = (
    Game.id == bindparam("game_id"),
    Game.deleted_at.is_(None),
    Night.deleted_at.is_(None),
)


# Built once: the statement is compiled once per process, then only its values change.
_STAMP_BY_TOKEN = (
    select(*_STAMP_COLUMNS)
    .join(UserSession, UserSession.user_id == User.id)
    .join(Night, kept_by(User.id))
    .join(Game, Game.night_id == Night.id)
    .where(UserSession.token == bindparam("token"), UserSession.expires_at > bindparam("now"))
    .where(*_LIVE_GAME)
)


_STAMP_LOADING_GAME = _STAMP_BY_TOKEN.add_columns(Game)


_STAMP_BY_USER = (
    select(*_STAMP_COLUMNS)
    .select_from(User)
    .join(Night, kept_by(User.id))
    .join(Game, Game.night_id == Night.id)
    .where(User.id == bindparam("user_id"))
    .where(*_LIVE_GAME)
)


def game_stamp(
    game_id: int, *, token: str | None = None, user: User | None = None
) -> GameStamp | None:
    """The state of a live game of the user behind a login ``token`` (the session's user
    and the game in one query: login, owner, version and labels together) or of ``user``;
    None when there is no such login, or the game is not theirs or is deleted.

    By token, the query runs on a pooled connection of its own, not through the ORM
    session: it is the first thing a request for a game's sheet or PDF does, and a 304 or
    a cached document then needs nothing else (no session, no ``User`` built). By
    ``user``, it runs in the ORM session's transaction, with what the request already did."""
    if token is not None:
        with reading() as conn:
            row = conn.execute(
                _STAMP_BY_TOKEN, {"token": token, "now": utcnow(), "game_id": game_id}
            ).first()
    elif user is not None:
        row = db.session.execute(_STAMP_BY_USER, {"user_id": user.id, "game_id": game_id}).first()
    else:
        return None
    return None if row is None else GameStamp(*tuple(row))


def game_stamp_loading(game_id: int, token: str) -> tuple[GameStamp, Game] | None:
    """``game_stamp`` by token for a request that goes on to change the game (a form
    sent): the same query, in the ORM session's transaction (no connection of its own),
    loading the game's row too. The row is that of a live game of the login's user, as a
    lean ``load_game`` would have found it."""
    found = db.session.execute(
        _STAMP_LOADING_GAME, {"token": token, "now": utcnow(), "game_id": game_id}
    ).first()
    if found is None:
        return None
    stamp = GameStamp(*found[:-1])
    keeping_as(stamp.user_id)
    return stamp, found[-1]


def login_from_stamp(stamp: GameStamp, token: str) -> User:
    """The user of the login ``token``, which ``stamp``'s query found live: a ``User`` of
    the ORM session made from the stamp's columns, without a second query (columns the
    stamp did not read load on first use, like any expired attribute)."""
    user = User(id=stamp.user_id, email=stamp.user_email, language=stamp.user_language)
    make_transient_to_detached(user)
    # The session's own User of that id when a query of this request loaded it already;
    # else this one, attached without a query.
    user = db.session.merge(user, load=False)
    user.session_token = token
    return user


def mark_changed(game: Game) -> None:
    """Mark the game changed. Its ``version`` (SQLAlchemy's version counter) goes up with
    any change to the game row, and this one says when: every change to a game's record
    (its rounds, seats, names, waiting joiners, deletion) must call it, so that the sheet's
    ETag and every cache keyed by the version see the change."""
    game.updated_at = utcnow()


# A round added at the end counts the game's version up first, only if it is still the one
# the round was planned on: the first write of the change, which locks the game's row as
# ``lock_rows`` does. ``rewritten`` stays (see ``Game.rewritten``).
_GAMES = cast(Table, Game.__table__)
_ROUNDS = cast(Table, GameRound.__table__)
_EDITS = cast(Table, Edit.__table__)
_COUNT_UP = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"))
    .where(_GAMES.c.version == bindparam("planned_on"))
    .values(version=_GAMES.c.version + 1, updated_at=bindparam("now"))
)


_ADD_ROUND = insert(_ROUNDS).inline()  # no RETURNING: its id is not needed


_ADD_EDIT = insert(_EDITS).inline()


def append_round(
    game: Game,
    number: int,
    stored: dict[str, Any],
    standings: Standings,
    *,
    submission: str | None,
    user: User,
) -> Standings:
    """Add round ``number`` (``stored``, its record object) at the end of a game that
    nobody joins in, the game then at ``standings``: the game's version counted up (if it
    is still the one the round was planned on), the round and its history entry inserted,
    in three statements and without the ORM's unit of work. Raises AlreadySent or Conflict
    (when the version moved on), writing nothing."""
    game_id, created_at, version = game.id, game.created_at, game.version
    after = json.dumps(stored)
    try:
        conn = db.session.connection()  # the session's transaction, without the ORM
        counted = conn.execute(
            _COUNT_UP, {"game_id": game_id, "planned_on": version, "now": utcnow()}
        ).rowcount
        if counted == 1:
            if standings.finished:  # the one appended round that changes a result
                results.touch(game_id)
            streams.touch(game_id)  # the phones watching it hear of the commit
            conn.execute(_ADD_ROUND, {"game_id": game_id, "number": number, "data": stored})
            conn.execute(
                _ADD_EDIT,
                {
                    "game_id": game_id,
                    "user_id": user.id,
                    "action": "add",
                    "round_number": number,
                    "before": None,
                    "after": after,
                    "submission": submission,
                },
            )
            db.session.commit()
    except IntegrityError:
        counted = 0
    if counted != 1:
        refuse(game_id, submission)
    keep_saved(game_id, created_at, version + 1, standings, len(after))
    return standings


def keep_saved(
    game_id: int, created_at: datetime, version: int, standings: Standings, round_bytes: int
) -> None:
    """Keep the standings of the state a save committed, for the sheet shown after the
    redirect and the next round (they were made from the state it was saved onto, which
    the save checked was still the stored one). Their weight is guessed from the saved
    round's stored length."""
    size = REPLAY_BYTES_PER_RECORD_BYTE * (round_bytes + 40) * (len(standings.record.rounds) + 1)
    kept = DrawnState(state_key(game_id, created_at, version), version, standings, size)
    DRAWN_STATES.put(game_key(game_id, created_at), kept, size)
