"""What the views ask of the database: each function is one transaction that commits
or changes nothing. Every change to a game is checked by replaying its whole record with
the rules engine before it is written, and kept in the game's history."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any, NoReturn, ParamSpec, TypeVar, overload

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached, selectinload
from sqlalchemy.orm.exc import StaleDataError

from . import results
from .cache import ByteBoundedCache
from .extensions import db, reading
from .models import (
    Edit,
    Game,
    GameRound,
    Night,
    Person,
    Regular,
    Seat,
    Submission,
    User,
    UserSession,
    utcnow,
)
from .rules import (
    GameRecord,
    RecordError,
    Round,
    Standings,
    extend,
    get_variant,
    name_key,
    parse_round,
    replay,
)
from .rules.record import MAX_NAME_LENGTH, MAX_PLAYERS, clean_name, read_json


def new_person(night: Night, raw_name: str) -> Person:
    from .regulars import new_person as make

    return make(night, raw_name)


def night_spellings(night: Night, raw_names: Sequence[str]) -> dict[str, str]:
    from .regulars import night_spellings as spell

    return spell(night, raw_names)


def add_missing_regulars(owner_id: int, names: Sequence[str]) -> None:
    from .regulars import add_missing_regulars as add

    add(owner_id, names)


# Limits a real card night never meets; beyond them a keeper is told so in a sentence, and
# no page of a night (which replays every game of it) can grow without bound.
MAX_GAMES_PER_NIGHT = 50
MAX_PEOPLE_PER_NIGHT = 60


P = ParamSpec("P")
R = TypeVar("R")


def transaction(fn: Callable[P, R]) -> Callable[P, R]:
    """A service that changes data is one transaction: it commits, or, whatever it raises
    (a broken rule, a conflict, a lost connection), it rolls back, so nothing is half
    saved and a view never has to clean up after it."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except BaseException:
            db.session.rollback()
            raise

    return run


class Conflict(Exception):
    """The game changed since the keeper's form was rendered (another phone saved)."""


class Refused(ValueError):
    """A change refused for a reason that is not a rule of the game record: a name already
    on the night's list, a limit of the app, a joiner already waiting. The message is a
    sentence for the keeper."""


class AlreadyCreated(Exception):
    """This creating form was already sent (a double tap or a retry): it created
    ``target_id`` (a night, a game, a person...) the first time, and nothing more now."""

    def __init__(self, kind: str, target_id: int) -> None:
        super().__init__(kind, target_id)
        self.kind = kind
        self.target_id = target_id


class Duplicate(Exception):
    """This submission was already recorded (a double tap or a retry); ``round_number``
    is the round it saved (None for a change that is not about one round)."""

    def __init__(self, round_number: int | None = None) -> None:
        super().__init__(round_number)
        self.round_number = round_number


def _recorded(game_id: int, submission: str | None) -> bool | int | None:
    """False when the submission is new; otherwise the round it recorded (or None)."""
    if not submission:
        return False
    row = db.session.execute(
        select(Edit.id, Edit.round_number).where(
            Edit.game_id == game_id, Edit.submission == submission
        )
    ).first()
    return False if row is None else row.round_number


@dataclass(frozen=True)
class Recorded:
    """A change already recorded under a submission id: the round it saved (if any), and
    the game's version as that change left it, or None when another change to the
    game's record came after it."""

    round_number: int | None
    version: int | None


def recorded(game_id: int, submission: str) -> Recorded | None:
    """What the change sent with ``submission`` recorded, or None if nothing yet. Every
    change to a record writes its Edit in the commit that counts the version up, after
    taking the game's row lock, so "its Edit is the game's latest" means "nothing changed
    the record since" (deleting and restoring the night count the version up and leave
    the record as it was): then the version now is the version it left. A phone that
    queued rounds offline sends the next one against that version, so it goes on top of
    exactly the round before it, never on top of a change from another phone. One
    statement, so one snapshot."""
    latest = select(func.max(Edit.id)).where(Edit.game_id == game_id).scalar_subquery()
    row = db.session.execute(
        select(Edit.round_number, Edit.id == latest, Game.version)
        .join(Game, Game.id == Edit.game_id)
        .where(Edit.game_id == game_id, Edit.submission == submission)
    ).first()
    if row is None:
        return None
    return Recorded(row[0], int(row[2]) if row[1] else None)


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


def standings_at(game: Game, stamp: GameStamp) -> tuple[Standings, bool]:
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


def _folded_on(last: DrawnState, game_id: int, stamp: GameStamp) -> DrawnState | None:
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


def still_at(game: Game, stamp: GameStamp) -> bool:
    """Were the rows of ``game`` loaded so far the state ``stamp`` names? The game's row
    was, and its version, read again now, still is (seats and rounds load after the
    game's row, and every change to a record bumps the version, a change of this
    request's own session too)."""
    if not _loaded_at(game, stamp):
        return False
    now = db.session.scalar(select(Game.version).where(Game.id == game.id))
    return now == stamp.version


def _loaded_at(game: Game, stamp: GameStamp) -> bool:
    return (game.id, game.version) == (stamp.game_id, stamp.version) and not (
        db.session.new or db.session.dirty or db.session.deleted
    )


def load_game(
    game_id: int, owner: User, *, deleted: bool = False, eager: bool = True
) -> Game | None:
    """A game with its seats and rounds in a fixed number of queries, owner only; a deleted
    game (or a game of a deleted night) only when ``deleted`` is asked for. With
    ``eager=False`` only the game's row: its seats and rounds load on first use (one
    query each then), for a request that may find the game's standings by its stamp and
    need neither (a round posted, the sheet or a PDF drawn)."""
    query = (
        select(Game)
        .join(Night)
        .where(Game.id == game_id, Night.owner_id == owner.id, Night.deleted_at.is_(None))
    )
    if eager:
        query = query.options(
            selectinload(Game.seats).joinedload(Seat.person), selectinload(Game.rounds)
        )
    if not deleted:
        query = query.where(Game.deleted_at.is_(None))
    return db.session.scalars(query).first()


@dataclass(frozen=True, slots=True)
class GameStamp:
    """One stored state of one keeper's game, read in one indexed query: who asks, the
    game's version and what its documents print beside the record (night, date, paper).
    ``key`` names the state for every cache of what is drawn from it (rendered sheet,
    PDFs): the version changes with every change to the record (see ``_bump``), and the
    creation time keeps a game id reused by another database (tests) from matching."""

    user_id: int
    user_email: str
    game_id: int
    night_id: int
    version: int
    created_at: datetime
    variant: str
    night_name: str
    played_on: date
    paper: str
    locale: str  # how the night writes money

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
    Game.id,
    Game.night_id,
    Game.version,
    Game.created_at,
    Game.variant,
    Night.name,
    Night.played_on,
    Night.paper,
    Night.locale,
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
    .join(Night, Night.owner_id == User.id)
    .join(Game, Game.night_id == Night.id)
    .where(UserSession.token == bindparam("token"), UserSession.expires_at > bindparam("now"))
    .where(*_LIVE_GAME)
)
_STAMP_LOADING_GAME = _STAMP_BY_TOKEN.add_columns(Game)
_STAMP_BY_USER = (
    select(*_STAMP_COLUMNS)
    .join(Night, Night.owner_id == User.id)
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
    return None if row is None else GameStamp(*row)


def game_stamp_loading(game_id: int, token: str) -> tuple[GameStamp, Game] | None:
    """``game_stamp`` by token for a request that goes on to change the game (a form
    sent): the same query, in the ORM session's transaction (no connection of its own),
    loading the game's row too. The row is that of a live game of the login's user, as a
    lean ``load_game`` would have found it."""
    found = db.session.execute(
        _STAMP_LOADING_GAME, {"token": token, "now": utcnow(), "game_id": game_id}
    ).first()
    return None if found is None else (GameStamp(*found[:-1]), found[-1])


def login_from_stamp(stamp: GameStamp, token: str) -> User:
    """The user of the login ``token``, which ``stamp``'s query found live: a ``User`` of
    the ORM session made from the stamp's columns, without a second query (columns the
    stamp did not read load on first use, like any expired attribute)."""
    user = User(id=stamp.user_id, email=stamp.user_email)
    make_transient_to_detached(user)
    # The session's own User of that id when a query of this request loaded it already;
    # else this one, attached without a query.
    user = db.session.merge(user, load=False)
    user.session_token = token
    return user


def load_night(night_id: int, owner: User, *, deleted: bool = False) -> Night | None:
    """A night with its people and games (seats and rounds too), in a fixed number of
    queries however many games it holds; owner only; a deleted night only when asked."""
    games = selectinload(Night.games)
    query = (
        select(Night)
        .where(Night.id == night_id, Night.owner_id == owner.id)
        .options(
            selectinload(Night.people),
            games.selectinload(Game.seats).joinedload(Seat.person),
            games.selectinload(Game.rounds),
        )
    )
    if not deleted:
        query = query.where(Night.deleted_at.is_(None))
    return db.session.scalars(query).first()


def history_page(game: Game, *, before: int | None, size: int) -> list[Edit]:
    """Up to ``size + 1`` of the game's changes, newest first, older than edit ``before``
    (the one more says whether there is an older page)."""
    query = select(Edit).where(Edit.game_id == game.id)
    if before is not None and 0 < before < 2**31:
        query = query.where(Edit.id < before)
    return list(db.session.scalars(query.order_by(Edit.id.desc()).limit(size + 1)))


def night_games(night: Night) -> list[tuple[str, Standings]]:
    """The night's games that count (not deleted), as (title, standings), in play order."""
    return [(game.title, standings_for(game)) for game in night.games]


# ------------------------------------------------------------- one-time ids ---
def _check_new(user: User, submission: str | None) -> None:
    """Raise AlreadyCreated when this creating form was sent before."""
    if not submission:
        return
    row = db.session.execute(
        select(Submission.kind, Submission.target_id).where(
            Submission.user_id == user.id, Submission.token == submission
        )
    ).first()
    if row is not None:
        raise AlreadyCreated(row.kind, row.target_id)


@contextmanager
def _creating(user: User, submission: str | None) -> Iterator[None]:
    """The body of a service that creates something from a form with a one-time id.

    The id is checked first: a form sent before finds what it created (AlreadyCreated).
    Then a row that another request wrote first, met at any write of the body (a regular,
    a person, the one-time id itself; in an autoflush before a query as well as at the
    commit), rolls the whole body back and is answered the same way: AlreadyCreated when
    the other request was this very form (a double tap: it committed first), else
    Conflict. No write of a creating service can reach the app's bare 409 page. A
    refusal that what the body makes exists already ("already on tonight's list") is
    checked the same way: the other request may have been this form."""
    _check_new(user, submission)
    try:
        yield
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        _check_new(user, submission)
        raise Conflict from None
    except Refused:
        _check_new(user, submission)
        raise


def _commit_created(user: User, submission: str | None, kind: str, target: Any) -> None:
    """Commit a creation together with its one-time id (inside ``_creating``). Two posts
    of one form racing each other: the unique id lets one commit; the other finds what
    the first created."""
    db.session.flush()  # gives ``target`` its id
    if submission:
        db.session.add(
            Submission(user_id=user.id, token=submission, kind=kind, target_id=target.id)
        )
    db.session.commit()


# ------------------------------------------------------------------------ nights ---
@transaction
def create_night(
    owner: User,
    *,
    name: str,
    played_on: date,
    currency: str,
    paper: str,
    people: Sequence[str],
    locale: str = "en",
    submission: str | None = None,
) -> Night:
    with _creating(owner, submission):
        if len(people) > MAX_PEOPLE_PER_NIGHT:
            raise Refused(f"a night takes at most {MAX_PEOPLE_PER_NIGHT} people")
        typed = [clean_name(raw, what="name") for raw in people]
        night = Night(
            owner=owner, name=name, played_on=played_on, currency=currency, paper=paper,
            locale=locale,
        )  # fmt: skip
        db.session.add(night)
        db.session.flush()  # the night's owner id, for its regulars
        add_missing_regulars(owner.id, typed)
        seen: list[Regular] = []
        for each in typed:
            person = new_person(night, each)
            regular = person.regular
            if person.name_key in {p.name_key for p in night.people} or any(
                r is regular for r in seen
            ):
                raise Refused(f"{each} is listed twice")
            seen.append(regular)
            night.people.append(person)
        _commit_created(owner, submission, "night", night)
    return night


def _check_room_for_people(night: Night, adding: int = 1) -> None:
    if len(night.people) + adding > MAX_PEOPLE_PER_NIGHT:
        raise Refused(f"a night takes at most {MAX_PEOPLE_PER_NIGHT} people: start another night")


@transaction
def add_person(night: Night, raw_name: str, *, user: User, submission: str | None = None) -> Person:
    person_name = clean_name(raw_name, what="name")
    try:
        with _creating(user, submission):
            person = new_person(night, person_name)
            if any(
                p.name_key == person.name_key or p.regular_id == person.regular.id
                for p in night.people
            ):
                raise Refused(f"{person_name} is already on tonight's list")
            _check_room_for_people(night)
            night.people.append(person)
            _commit_created(user, submission, "person", person)
    except Conflict:
        # Someone else added the same name at the same moment (the unique name key).
        raise Refused(f"{person_name} is already on tonight's list") from None
    return person


def find_or_add_person(night: Night, raw_name: str) -> Person:
    person_name = clean_name(raw_name, what="name")
    for p in night.people:
        if p.name_key == name_key(person_name):
            return p
    _check_room_for_people(night)
    person = new_person(night, person_name)
    for p in night.people:
        if p.regular_id is not None and p.regular_id == person.regular.id:
            return p  # the same regular under the night's spelling
    night.people.append(person)
    return person


@transaction
def rename_person(night: Night, person: Person, raw_name: str, user: User) -> None:
    """Rename someone on the night's list and in every game of the night they play in or
    are waiting to join (deleted games too, so a restored game still replays).

    Only the places that hold names change (seats, first dealer, went out, hand keys,
    contracts, drops, joins, waiting joiners): never card codes, whatever the old or new
    name. Each renamed record is replayed before anything is written; one that would
    no longer replay refuses the whole rename with a sentence."""
    new = clean_name(raw_name, what="name")
    old = person.name
    if new == old:
        return
    if any(p.name_key == name_key(new) and p is not person for p in night.people):
        raise Refused(f"{new} is already on tonight's list")
    _lock_games([game.id for game in night.all_games])
    for game in night.all_games:
        seated = any(s.person_id == person.id for s in game.seats)
        waiting = [n for n in game.pending_joins if name_key(n) == person.name_key]
        if not seated and not waiting:
            continue
        renamed = standings_for(game).record.renamed(old, new)
        try:
            replay(renamed)
        except RecordError as exc:
            raise RecordError(
                f"renaming {old} to {new} would break {game.title} (game {game.id}): {exc}"
            ) from None
        for row, rnd in zip(game.rounds, renamed.rounds, strict=True):
            data = rnd.to_json()
            if data != row.data:
                row.data = data
        game.first_dealer = renamed.first_dealer
        game.pending_joins = [
            new if name_key(n) == person.name_key else n for n in game.pending_joins
        ]
        _bump(game)
        db.session.add(
            Edit(
                game=game,
                user_id=user.id,
                action="rename",
                before=json.dumps(old),
                after=json.dumps(new),
            )
        )
    person.rename(new)
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict from None


def _bump(game: Game) -> None:
    """Mark the game changed. Its ``version`` (SQLAlchemy's version counter) goes up with
    any change to the game row, and this one says when: every change to a game's record
    (its rounds, seats, names, waiting joiners, deletion) must call it, so that the sheet's
    ETag and every cache keyed by the version see the change."""
    game.updated_at = utcnow()


@transaction
def delete_night(night: Night, *, user: User) -> None:
    """Delete a night: it leaves the list of nights, and can be restored from there."""
    _lock_games([game.id for game in night.all_games])
    night.deleted_at = utcnow()
    for game in night.all_games:
        _bump(game)
    _commit_plain()


@transaction
def restore_night(night: Night, *, user: User) -> None:
    _lock_games([game.id for game in night.all_games])
    night.deleted_at = None
    for game in night.all_games:
        _bump(game)
    _commit_plain()


@transaction
def set_paper(night: Night, paper: str) -> None:
    night.paper = paper
    _commit_plain()


@transaction
def set_locale(night: Night, locale: str) -> None:
    """Write the night's money as in ``locale`` from now on. Every game of the night is
    marked changed, so no page or PDF drawn in the old way is served again."""
    if locale == night.locale:
        return
    _lock_games([game.id for game in night.all_games])
    night.locale = locale
    for game in night.all_games:
        _bump(game)
    _commit_plain()


def _commit_plain() -> None:
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict from None


# ------------------------------------------------------------------------- games ---
@transaction
def create_game(
    night: Night,
    *,
    variant: str,
    players: Sequence[tuple[str, int]],
    first_dealer: str,
    settings: dict[str, Any],
    user: User,
    rounds: Sequence[dict[str, Any]] = (),
    action: str = "create",
    submission: str | None = None,
) -> Game:
    """Check the record with the engine, then store the game (and its rounds on import).
    The same ``submission`` sent twice stores the game once (AlreadyCreated)."""
    with _creating(user, submission):
        _check_room_for_games(night)
        data = {
            "format": "scorekeeper-game/1",
            "variant": variant,
            "settings": settings,
            "players": [{"name": n, "handicap": h} if h else n for n, h in players],
            "first_dealer": first_dealer,
            "rounds": list(rounds),
        }
        record = GameRecord.from_json(data)
        if record.settings.currency != night.currency and "currency" in settings:
            raise RecordError(
                f"this game is in {record.settings.currency} but the night is in {night.currency}",
                field="currency",
            )
        standings = replay(record)
        record, standings = _in_night_spelling(night, record, standings)
        canonical = record.to_json()
        canonical["settings"]["currency"] = night.currency
        add_missing_regulars(night.owner_id, [p.name for p in standings.players])
        game = Game(
            night=night,
            variant=variant,
            settings=canonical["settings"],
            first_dealer=record.first_dealer,
            pending_joins=[],
        )
        db.session.add(game)
        for position, spec in enumerate(record.players):
            game.seats.append(
                Seat(
                    person=find_or_add_person(night, spec.name),
                    position=position,
                    handicap=spec.handicap,
                )
            )
        for player in standings.players[len(record.players) :]:
            game.seats.append(
                Seat(
                    person=find_or_add_person(night, player.name),
                    position=player.seat,
                    joined_round=player.joined_round,
                )
            )
        for number, rnd in enumerate(canonical["rounds"], 1):
            game.rounds.append(GameRound(number=number, data=rnd))
        db.session.add(Edit(game=game, user_id=user.id, action=action, after=json.dumps(canonical)))
        _commit_created(user, submission, "game", game)
    return game


def _in_night_spelling(
    night: Night, record: GameRecord, standings: Standings
) -> tuple[GameRecord, Standings]:
    """The record with each player under the name the night's list holds them by (see
    ``night_spellings``), replayed again if a name changed. Two players who are one
    person on the list are refused: each person takes one seat."""
    names = [p.name for p in standings.players]
    spelled = night_spellings(night, names)
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name_key(spelled[name]), name)
        if other != name:
            raise RecordError(
                f"{other} and {name} are one person on tonight's list ({spelled[name]}): "
                "each person takes one seat",
                player=name,
                field="players",
            )
    changed = [(old, new) for old, new in spelled.items() if old != new]
    if not changed:
        return record, standings
    for old, new in changed:
        record = record.renamed(old, new)
    record = GameRecord.from_json(record.to_json())
    return record, replay(record)


def _check_room_for_games(night: Night) -> None:
    if len(night.games) >= MAX_GAMES_PER_NIGHT:
        raise Refused(f"a night holds at most {MAX_GAMES_PER_NIGHT} games: start another night")


@transaction
def delete_game(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> None:
    """Delete a game: it leaves the night's pages and settlement, kept for a restore."""
    game_id = game.id
    _check_fresh(game, expected_version, submission)
    game.deleted_at = utcnow()
    _bump(game)
    db.session.add(Edit(game=game, user_id=user.id, action="delete", submission=submission))
    _commit_change(game_id, submission)


@transaction
def restore_game(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> None:
    game_id = game.id
    _check_fresh(game, expected_version, submission)
    _check_room_for_games(game.night)
    game.deleted_at = None
    _bump(game)
    db.session.add(Edit(game=game, user_id=user.id, action="restore", submission=submission))
    _commit_change(game_id, submission)


@overload
def _commit_change(game_id: int, submission: str | None) -> None: ...
@overload
def _commit_change(game_id: int, submission: str | None, game: Game) -> int: ...
def _commit_change(game_id: int, submission: str | None, game: Game | None = None) -> int | None:
    """Commit the change, or raise Duplicate (this submission was recorded already) or
    Conflict (another change came first). With the ``game``: the version committed."""
    try:
        db.session.flush()
        version = None if game is None else game.version  # counted up by the flush
        db.session.commit()
    except (IntegrityError, StaleDataError):
        _refuse(game_id, submission)
    return version


def _refuse(game_id: int, submission: str | None) -> NoReturn:
    """A change that found the game moved on writes nothing and raises Duplicate, when
    its submission was recorded already (a double tap or a retry), else Conflict."""
    db.session.rollback()
    recorded = _recorded(game_id, submission)
    if recorded is not False:
        raise Duplicate(recorded) from None
    raise Conflict from None


def _check_fresh(game: Game, expected_version: int | None, submission: str | None) -> None:
    """Before a change to ``game``: lock its row (see ``_lock_games``), then raise
    Duplicate when ``submission`` was recorded already, Conflict when the game is no
    longer at ``expected_version`` or changed since it was loaded. A recorded submission
    moved the version on (a change with a submission always bumps it, in the same
    commit), so while the version is still the one expected no query for it is needed."""
    now = _lock_games([game.id]).get(game.id)
    if expected_version is not None and game.version == expected_version == now:
        return
    recorded = _recorded(game.id, submission)
    if recorded is not False:
        raise Duplicate(recorded)
    if expected_version is not None or now != game.version:
        raise Conflict


def _lock_games(game_ids: Sequence[int]) -> dict[int, int]:
    """Lock the games' rows, in id order, before anything of theirs is written, and give
    their versions as committed now. Every change to a game takes this lock first, so
    two changes to one game never wait for each other's rows in opposite orders (which
    PostgreSQL ends as a deadlock: a 500 for one keeper); the second waits here until the
    first has committed, then sees the new version. SQLite locks the whole database for
    a write, and renders no FOR UPDATE."""
    rows = db.session.execute(
        select(Game.id, Game.version)
        .where(Game.id.in_(sorted(game_ids)))
        .order_by(Game.id)
        .with_for_update()
    ).all()
    return {row.id: row.version for row in rows}


def with_pending_joins(game: Game, round_data: dict[str, Any]) -> dict[str, Any]:
    """The next round as it will be saved: late joiners waiting for it join in it."""
    if not game.pending_joins or "joins" in round_data:
        return round_data
    return {**round_data, "joins": list(game.pending_joins)}


@dataclass(frozen=True)
class Expiry:
    """A player who reaches the max in the round being entered, if they re-buy."""

    name: str
    reached: int
    reset: int  # the total a re-buy sets them back to
    fee: int  # what a re-buy costs, in cents


@dataclass(frozen=True)
class RoundPlan:
    """A round as typed, checked against the game up to itself, before it is saved.

    ``before`` is the game as stored. ``preview`` is the game up to this round with
    nobody dropping in it: it says who expires in it and where a re-buy resets them to
    (which depend only on the rounds before), so the keeper can choose re-buy or drop
    before anything is saved. When the round is saved as previewed (a new round, no
    drop), the save reuses this replay."""

    number: int
    before: Standings
    round: Round
    preview: Standings

    @property
    def base(self) -> GameRecord:
        return self.before.record

    @property
    def appends(self) -> bool:
        return self.number > len(self.base.rounds)

    def standings(self) -> Standings:
        """The game once the round is saved: a new round is folded onto the stored game's
        standings, a corrected one replays the game from the start."""
        if not self.appends:
            return replay(self.record())
        if self.round == self.preview.record.rounds[-1]:  # the preview is this very game
            return self.preview
        return extend(self.before, [self.round])

    def expiries(self) -> list[Expiry]:
        result = self.preview.rounds[self.number - 1]
        rebuys = {e.player: e for e in result.events if e.kind == "rebuy"}
        return [
            Expiry(
                e.player,
                e.value or 0,
                rebuys[e.player].value or 0,
                -(rebuys[e.player].amount_cents or 0),
            )
            for e in result.events
            if e.kind == "expire" and e.player in rebuys
        ]

    def with_drops(self, names: Sequence[str]) -> RoundPlan:
        return replace(self, round=replace(self.round, drops=tuple(names)))

    def record(self) -> GameRecord:
        rounds = list(self.base.rounds)
        if self.appends:
            rounds.append(self.round)
        else:
            rounds[self.number - 1] = self.round
        return self.base.with_rounds(rounds)


def import_game(night: Night, text: str, *, user: User, submission: str | None) -> Game:
    """A game record (JSON text) as a new game of the night, checked whole by replay: the
    record's currency must be the night's. Idempotent per ``submission``."""
    data = read_json(text)
    record = GameRecord.from_json(data)
    if record.settings.currency != night.currency:
        raise RecordError(
            f"the record is in {record.settings.currency} but this night is in {night.currency}"
        )
    given = frozenset((data.get("settings") or {}) if isinstance(data, dict) else {})
    return create_game(
        night,
        variant=record.variant,
        players=[(p.name, p.handicap) for p in record.players],
        first_dealer=record.first_dealer,
        settings=record.settings.to_json(given | {"currency"}),
        rounds=[r.to_json() for r in record.rounds],
        user=user,
        action="import",
        submission=submission,
    )


def plan_round(
    game: Game,
    round_data: dict[str, Any],
    *,
    number: int | None,
    standings: Standings | None = None,
) -> RoundPlan:
    """Check a typed round (``number`` None: the next one) up to itself; raises
    RecordError naming the round and player. Waiting Vegas joiners join a new round; a
    correction keeps the round's joins (they are made on the join page). ``standings``:
    the game's, when the caller has them already."""
    # Parsed and replayed once per record, then cached.
    before = standings if standings is not None else standings_for(game)
    base = before.record
    if number is None:
        number = len(base.rounds) + 1
        round_data = with_pending_joins(game, round_data)
    elif not 1 <= number <= len(base.rounds):
        raise RecordError(f"there is no round {number} to edit", round=number)
    else:
        round_data = {**round_data, "joins": list(base.rounds[number - 1].joins)}
    variant = get_variant(game.variant)
    typed = parse_round(
        round_data, number=number, variant=game.variant, card_codes=variant.card_codes
    )
    probe = replace(typed, drops=())
    if number > len(base.rounds):
        preview = extend(before, [probe])
    else:
        preview = replay(base.with_rounds([*base.rounds[: number - 1], probe]))
    return RoundPlan(number, before, typed, preview)


def save_round(
    game: Game,
    round_data: dict[str, Any],
    *,
    number: int | None,
    expected_version: int | None,
    submission: str | None,
    user: User,
) -> Standings:
    """Add a round (``number`` None) or replace round ``number``, drops as given in the
    round: :func:`plan_round` and :func:`save_planned_round` in one call."""
    plan = plan_round(game, round_data, number=number)
    plan = plan.with_drops(tuple(round_data.get("drops") or ()))
    return save_planned_round(
        game, plan, expected_version=expected_version, submission=submission, user=user
    )


@transaction
def save_planned_round(
    game: Game,
    plan: RoundPlan,
    *,
    expected_version: int | None,
    submission: str | None,
    user: User,
) -> Standings:
    """Add or replace the planned round; everything after it is recomputed by the replay.
    Raises RecordError (naming the round it breaks), Conflict or Duplicate, writing
    nothing. The standings it makes are kept for the sheet shown after the redirect."""
    if (
        plan.appends
        and not plan.round.joins
        and not game.pending_joins
        and expected_version in (None, game.version)
    ):
        return _append_round(game, plan, submission, user)
    game_id = game.id
    _check_fresh(game, expected_version, submission)
    standings = plan.standings()
    number = plan.number
    stored = plan.round.to_json()
    if plan.appends:
        # Beside the rounds, not through ``game.rounds``: a game whose standings were
        # found by its stamp has loaded no round, and the new one needs none of them.
        db.session.add(GameRound(game=game, number=number, data=stored))
        before = None
        action = "add"
        game.pending_joins = []
    else:
        row = game.rounds[number - 1]
        before = json.dumps(row.data)
        row.data = stored
        action = "edit"
    if action == "edit" or plan.round.joins:  # seats change only when someone joins
        _sync_seats(game, standings)
    _bump(game)
    after = json.dumps(stored)
    db.session.add(
        Edit(
            game=game,
            user_id=user.id,
            action=action,
            round_number=number,
            before=before,
            after=after,
            submission=submission,
        )
    )
    created_at = game.created_at
    version = _commit_change(game_id, submission, game)
    _keep_saved(game_id, created_at, version, standings, len(after))
    return standings


# A round added at the end counts the game's version up first, only if it is still the one
# the round was planned on: the first write of the change, which locks the game's row as
# ``_lock_games`` does. ``rewritten`` stays (see ``Game.rewritten``).
_COUNT_UP = (
    update(Game.__table__)
    .where(Game.__table__.c.id == bindparam("game_id"))
    .where(Game.__table__.c.version == bindparam("planned_on"))
    .values(version=Game.__table__.c.version + 1, updated_at=bindparam("now"))
)


_ADD_ROUND = insert(GameRound.__table__).inline()  # no RETURNING: its id is not needed
_ADD_EDIT = insert(Edit.__table__).inline()


def _append_round(game: Game, plan: RoundPlan, submission: str | None, user: User) -> Standings:
    """Add a round at the end that nobody joins in: the game's version counted up (if it is
    still the one the round was planned on), the round and its history entry inserted, in
    three statements and without the ORM's unit of work. Raises Duplicate or Conflict
    (when the version moved on), writing nothing."""
    game_id, created_at, version = game.id, game.created_at, game.version
    standings = plan.standings()
    stored = plan.round.to_json()
    after = json.dumps(stored)
    try:
        conn = db.session.connection()  # the session's transaction, without the ORM
        counted = conn.execute(
            _COUNT_UP, {"game_id": game_id, "planned_on": version, "now": utcnow()}
        ).rowcount
        if counted == 1:
            if standings.finished:  # the one appended round that changes a result
                results.touch(game_id)
            conn.execute(_ADD_ROUND, {"game_id": game_id, "number": plan.number, "data": stored})
            conn.execute(
                _ADD_EDIT,
                {
                    "game_id": game_id,
                    "user_id": user.id,
                    "action": "add",
                    "round_number": plan.number,
                    "before": None,
                    "after": after,
                    "submission": submission,
                },
            )
            db.session.commit()
    except IntegrityError:
        counted = 0
    if counted != 1:
        _refuse(game_id, submission)
    _keep_saved(game_id, created_at, version + 1, standings, len(after))
    return standings


def _keep_saved(
    game_id: int, created_at: datetime, version: int, standings: Standings, round_bytes: int
) -> None:
    """Keep the standings of the state a save committed, for the sheet shown after the
    redirect and the next round (they were made from the state it was saved onto, which
    the save checked was still the stored one). Their weight is guessed from the saved
    round's stored length."""
    size = REPLAY_BYTES_PER_RECORD_BYTE * (round_bytes + 40) * (len(standings.record.rounds) + 1)
    kept = DrawnState(state_key(game_id, created_at, version), version, standings, size)
    DRAWN_STATES.put(game_key(game_id, created_at), kept, size)


@transaction
def remove_last_round(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> int:
    game_id = game.id
    _check_fresh(game, expected_version, submission)
    if not game.rounds:
        raise Refused("there is no round to remove")
    row = game.rounds[-1]
    number = row.number
    record = standings_for(game).record
    standings = replay(record.with_rounds(record.rounds[:-1]))
    db.session.add(
        Edit(
            game=game,
            user_id=user.id,
            action="remove",
            round_number=number,
            before=json.dumps(row.data),
            submission=submission,
        )
    )
    game.rounds.remove(row)
    db.session.delete(row)
    _sync_seats(game, standings)
    _bump(game)
    _commit_change(game_id, submission)
    return number


def _sync_seats(game: Game, standings: Standings) -> None:
    """Late joiners get seats; seats of joins that no longer happen are removed."""
    by_position = {s.position: s for s in game.seats}
    wanted = {p.seat: p for p in standings.players}
    for position, seat in list(by_position.items()):
        if position not in wanted:
            game.seats.remove(seat)
            db.session.delete(seat)
    for position, player in wanted.items():
        seat = by_position.get(position)
        if seat is None:
            game.seats.append(
                Seat(
                    person=find_or_add_person(game.night, player.name),
                    position=position,
                    joined_round=player.joined_round,
                )
            )
        elif seat.joined_round:
            seat.joined_round = player.joined_round or seat.joined_round


def join_candidates(game: Game, standings: Standings) -> list[str]:
    """The night's people who could join the game next round."""
    playing = {name_key(p.name) for p in standings.players if p.in_contention}
    waiting = {name_key(n) for n in game.pending_joins}
    return [p.name for p in game.night.people if p.name_key not in playing | waiting]


@transaction
def add_joiner(game: Game, raw_name: str, *, expected_version: int | None, user: User) -> str:
    """Someone joins at the start of the next round (saved with that round); returns the
    name as it will be written. Raises Refused with a sentence, Conflict."""
    standings = standings_for(game)
    if not raw_name.strip():
        raise Refused("Choose who joins, or type a new name.")
    name = clean_name(raw_name, what="the name")
    name = night_spellings(game.night, [name])[name]  # "ann." is Ann if the night has her
    key = name_key(name)
    if any(name_key(p.name) == key and p.in_contention for p in standings.players):
        raise Refused(f"{name} is already in the game.")
    if any(name_key(n) == key for n in game.pending_joins):
        raise Refused(f"{name} is already joining next round.")
    if len(standings.players) + len(game.pending_joins) >= MAX_PLAYERS:
        raise Refused(f"A game takes at most {MAX_PLAYERS} players.")
    _set_pending_joins(game, [*game.pending_joins, name], expected_version, user)
    return name


@transaction
def cancel_joiner(game: Game, name: str, *, expected_version: int | None, user: User) -> None:
    if not any(name_key(n) == name_key(name) for n in game.pending_joins):
        raise Refused(f"{name[:MAX_NAME_LENGTH]} is not joining next round.")
    waiting = [n for n in game.pending_joins if name_key(n) != name_key(name)]
    _set_pending_joins(game, waiting, expected_version, user)


def _set_pending_joins(
    game: Game, names: Sequence[str], expected_version: int | None, user: User
) -> None:
    game_id = game.id
    _check_fresh(game, expected_version, None)
    game.pending_joins = list(names)
    _bump(game)
    db.session.add(Edit(game=game, user_id=user.id, action="joins", after=json.dumps(list(names))))
    _commit_change(game_id, None)
