"""What every change of the domain layer shares: one transaction that commits or changes
nothing (``transaction``), the refusals a keeper reads (``Refused``, ``Conflict``,
``AlreadySent``), one-time ids of creating forms (``creating``), and the
row lock every change takes first (``lock_rows``), and the freshness checks of a change
to a game (``check_fresh``, ``commit_change``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn, ParamSpec, TypeVar, overload

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..models import (
    Edit,
    Game,
    Submission,
    User,
)

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


class AlreadySent(Exception):
    """This form was sent before (a double tap, a retry after a timeout): it counted once,
    the first time, and nothing more now. What the first sending made, for the view to
    lead to: ``kind`` and ``target_id`` (a night, a game, a person...: a creating form's
    one-time id), or ``round_number`` (a change to a game: the round it saved, if any).
    Raised by every service a form reaches twice: a creation, a change to a game, money
    recorded, an account imported."""

    def __init__(
        self,
        kind: str | None = None,
        target_id: int | None = None,
        *,
        round_number: int | None = None,
    ) -> None:
        super().__init__(kind, target_id, round_number)
        self.kind = kind
        self.target_id = target_id
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


# ------------------------------------------------------------- one-time ids ---
def check_new(user: User, submission: str | None) -> None:
    """Raise AlreadySent when this creating form was sent before."""
    if not submission:
        return
    row = db.session.execute(
        select(Submission.kind, Submission.target_id).where(
            Submission.user_id == user.id, Submission.token == submission
        )
    ).first()
    if row is not None:
        raise AlreadySent(row.kind, row.target_id)


@contextmanager
def creating(user: User, submission: str | None) -> Iterator[None]:
    """The body of a service that creates something from a form with a one-time id.

    The id is checked first: a form sent before finds what it created (AlreadySent).
    Then a row that another request wrote first, met at any write of the body (a regular,
    a person, the one-time id itself; in an autoflush before a query as well as at the
    commit), rolls the whole body back and is answered the same way: AlreadySent when
    the other request was this very form (a double tap: it committed first), else
    Conflict. No write of a creating service can reach the app's bare 409 page. A
    refusal that what the body makes exists already ("already on tonight's list") is
    checked the same way: the other request may have been this form."""
    check_new(user, submission)
    try:
        yield
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        check_new(user, submission)
        raise Conflict from None
    except Refused:
        check_new(user, submission)
        raise


def commit_created(user: User, submission: str | None, kind: str, target: Any) -> None:
    """Commit a creation together with its one-time id (inside ``creating``). Two posts
    of one form racing each other: the unique id lets one commit; the other finds what
    the first created."""
    db.session.flush()  # gives ``target`` its id
    if submission:
        db.session.add(
            Submission(user_id=user.id, token=submission, kind=kind, target_id=target.id)
        )
    db.session.commit()


def commit_plain() -> None:
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict from None


@overload
def commit_change(game_id: int, submission: str | None) -> None: ...


@overload
def commit_change(game_id: int, submission: str | None, game: Game) -> int: ...


def commit_change(game_id: int, submission: str | None, game: Game | None = None) -> int | None:
    """Commit the change, or raise AlreadySent (this submission was recorded already) or
    Conflict (another change came first). With the ``game``: the version committed."""
    try:
        db.session.flush()
        version = None if game is None else game.version  # counted up by the flush
        db.session.commit()
    except (IntegrityError, StaleDataError):
        refuse(game_id, submission)
    return version


def refuse(game_id: int, submission: str | None) -> NoReturn:
    """A change that found the game moved on writes nothing and raises AlreadySent, when
    its submission was recorded already (a double tap or a retry), else Conflict."""
    db.session.rollback()
    recorded = _recorded(game_id, submission)
    if recorded is not False:
        raise AlreadySent(round_number=recorded) from None
    raise Conflict from None


def check_fresh(game: Game, expected_version: int | None, submission: str | None) -> None:
    """Before a change to ``game``: lock its row (``lock_rows``), then raise
    AlreadySent when ``submission`` was recorded already, Conflict when the game is no
    longer at ``expected_version`` or changed since it was loaded. A recorded submission
    moved the version on (a change with a submission always bumps it, in the same
    commit), so while the version is still the one expected no query for it is needed."""
    lock_rows(Game, [game.id])
    now = db.session.scalar(select(Game.version).where(Game.id == game.id))
    if expected_version is not None and game.version == expected_version == now:
        return
    recorded = _recorded(game.id, submission)
    if recorded is not False:
        raise AlreadySent(round_number=recorded)
    if expected_version is not None or now != game.version:
        raise Conflict


def lock_rows(model: Any, ids: Iterable[int], *, reread: bool = False) -> None:
    """Lock these rows of ``model``, in id order, as the first thing a change writes: a
    second change to the same rows waits here until the first has committed, then reads
    what it wrote. Every change takes its lock this way (a game's, a night's, a keeper's
    row), so two changes never wait for each other's rows in opposite orders (which
    PostgreSQL ends as a deadlock: a 500 for one keeper).

    PostgreSQL: ``SELECT ... FOR NO KEY UPDATE``, the row lock an UPDATE takes (it does not
    hold back a row being added that refers to the locked one). SQLite renders no FOR
    UPDATE and locks the whole database at a change's first write: for rows with a
    version counter (a game: every write checks and counts it up, and only the ORM and
    the append write it) that first write is the lock; for others, an UPDATE that
    changes nothing takes it now. ``reread``: objects loaded before are read again."""
    wanted = sorted(set(ids))
    if wanted:
        if db.session.get_bind().dialect.name == "postgresql":
            db.session.execute(
                select(model.id)
                .where(model.id.in_(wanted))
                .order_by(model.id)
                .with_for_update(key_share=True)
            )
        elif model.__mapper__.version_id_col is None:
            db.session.execute(
                update(model)
                .where(model.id.in_(wanted))
                .values(id=model.id)
                .execution_options(synchronize_session=False)
            )
    if reread:
        db.session.expire_all()
