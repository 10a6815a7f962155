"""Who may keep a night: its owner, and the co-keepers who opened its keeper link.

:func:`kept_by` is the one rule of access, a condition on ``Night`` that every query
finding a night or a game for a user puts in (``nights.owned_night``, ``state.owned_game``
and the game stamps); with ``owner_only`` it is the owner alone (delete a night or a game,
its live and keeper links, its co-keepers). A co-keeper enters, corrects and undoes
rounds, adds late joiners and marks payments on that night, and reads its pages; nothing
of the owner's other nights, regulars or account.

A keeper link (``/keep/<token>``) is found by its token alone, only while it is in force
and its night is not deleted; otherwise nothing (the same 404 as a token never made).

Removing a co-keeper ends their access at once and records a :class:`KeeperRemoval`: a
bar on that account for that night, so the keeper link the others still use (or one
renewed later) does not make them a co-keeper again, until the owner lets them back in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, exists, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import CoKeeper, KeeperLink, KeeperRemoval, Night, User, utcnow
from . import links
from .base import transaction


def kept_by(user_id: Any, *, owner_only: bool = False) -> ColumnElement[bool]:
    """The condition on ``Night`` that the user ``user_id`` (an id, or a column such as
    ``User.id``) may keep it: owns it, or (unless ``owner_only``) co-keeps it."""
    owned = Night.owner_id == user_id
    if owner_only:
        return owned
    co_keeps = exists().where(CoKeeper.night_id == Night.id, CoKeeper.user_id == user_id)
    return or_(owned, co_keeps)


# ------------------------------------------------------------------ keeper links ---
# The night's one keeper link in force, opened, turned off and renewed as a live link is
# (:mod:`.links`).
def link_in_force(night_id: int) -> KeeperLink | None:
    return links.in_force(KeeperLink, night_id=night_id)


def open_link(night_id: int) -> KeeperLink:
    return links.open_link(KeeperLink, night_id=night_id)


def turn_off(night_id: int) -> bool:
    """Turn the link in force off (the row kept); False when none was. Who already keeps
    the night stays a co-keeper (removing one is its own step)."""
    return links.turn_off(KeeperLink, night_id=night_id)


def renew(night_id: int, *, user: User, submission: str | None) -> KeeperLink:
    return links.renew(KeeperLink, "keeper_link", user=user, submission=submission,
                       night_id=night_id)  # fmt: skip


def night_of_link(token: str) -> Night | None:
    """The night a keeper link in force opens, if it is not deleted; else None (unknown,
    turned off, or its night deleted: the caller answers the same 404)."""
    return db.session.scalars(
        select(Night)
        .join(KeeperLink, KeeperLink.night_id == Night.id)
        .where(KeeperLink.token == token, KeeperLink.revoked_at.is_(None))
        .where(Night.deleted_at.is_(None))
    ).first()


# -------------------------------------------------------------------- co-keepers ---
def is_co_keeper(night_id: int, user_id: int) -> bool:
    found = db.session.scalar(
        select(CoKeeper.id).where(CoKeeper.night_id == night_id, CoKeeper.user_id == user_id)
    )
    return found is not None


def is_barred(night_id: int, user_id: int) -> bool:
    """The owner removed ``user_id`` from the night and has not let them back in."""
    found = db.session.scalar(select(KeeperRemoval.id).where(*_bar(night_id, user_id)))
    return found is not None


def _bar(night_id: int, user_id: int) -> tuple[ColumnElement[bool], ...]:
    return (
        KeeperRemoval.night_id == night_id,
        KeeperRemoval.user_id == user_id,
        KeeperRemoval.let_back_at.is_(None),
    )


class Barred(Exception):
    """The account was removed from keeping the night: the keeper link adds it no more."""


@transaction
def join(night: Night, user: User) -> bool:
    """Make ``user`` a co-keeper of ``night`` (the owner is one already); True when the
    row was added. Idempotent: a second tap, or two at once, leave one row. An account
    the owner removed (and has not let back in) is refused: :class:`Barred`."""
    if night.owner_id == user.id or is_co_keeper(night.id, user.id):
        return False
    if is_barred(night.id, user.id):
        raise Barred
    db.session.add(CoKeeper(night_id=night.id, user_id=user.id))
    try:
        db.session.commit()
    except IntegrityError:  # the same tap twice at once: the other one added it
        db.session.rollback()
        return False
    return True


@transaction
def remove(night: Night, user_id: int, *, link_off: bool = False) -> bool:
    """End ``user_id``'s co-keeping of ``night`` at once and bar them from its keeper link
    (an entry, until :func:`let_back`); with ``link_off`` the link in force goes off too
    (the other co-keepers stay). One commit. False when they were not one (a second tap:
    nothing more is recorded, the link is left as it is)."""
    gone = db.session.execute(
        delete(CoKeeper).where(CoKeeper.night_id == night.id, CoKeeper.user_id == user_id)
    ).rowcount  # type: ignore[attr-defined]
    if not gone:
        db.session.rollback()
        return False
    if not is_barred(night.id, user_id):
        db.session.add(KeeperRemoval(night_id=night.id, user_id=user_id))
    if link_off and (link := link_in_force(night.id)) is not None:
        link.revoked_at = utcnow()
    db.session.commit()
    return True


@transaction
def let_back(night: Night, user_id: int) -> bool:
    """Lift the bar on ``user_id`` (the entry kept, with when): the keeper link lets them
    keep the night again once they open it and confirm. False when no bar was in force."""
    lifted = db.session.execute(
        update(KeeperRemoval).where(*_bar(night.id, user_id)).values(let_back_at=utcnow())
    ).rowcount  # type: ignore[attr-defined]
    db.session.commit()
    return bool(lifted)


def removed(night_id: int) -> list[Keeping]:
    """The accounts barred from the night (removed, not let back in), first removed
    first; ``added_at`` is when they were removed."""
    rows = db.session.execute(
        select(User.id, User.email, KeeperRemoval.removed_at)
        .join(KeeperRemoval, KeeperRemoval.user_id == User.id)
        .where(KeeperRemoval.night_id == night_id, KeeperRemoval.let_back_at.is_(None))
        .order_by(KeeperRemoval.removed_at, KeeperRemoval.id)
    ).all()
    return [Keeping(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class Keeping:
    """A co-keeper of a night as the owner's page lists them, or a night a co-keeper
    keeps as their home page lists it."""

    user_id: int
    email: str
    added_at: datetime


def co_keepers(night_id: int) -> list[Keeping]:
    """The night's co-keepers, first added first."""
    rows = db.session.execute(
        select(User.id, User.email, CoKeeper.added_at)
        .join(CoKeeper, CoKeeper.user_id == User.id)
        .where(CoKeeper.night_id == night_id)
        .order_by(CoKeeper.added_at, CoKeeper.id)
    ).all()
    return [Keeping(*row) for row in rows]


def nights_kept_with(user: User, limit: int = 50) -> list[tuple[Night, str]]:
    """The nights ``user`` co-keeps (not deleted), newest first, each with its owner's
    email."""
    rows = db.session.execute(
        select(Night, User.email)
        .join(CoKeeper, CoKeeper.night_id == Night.id)
        .join(User, User.id == Night.owner_id)
        .where(CoKeeper.user_id == user.id, Night.deleted_at.is_(None))
        .order_by(Night.played_on.desc(), Night.id.desc())
        .limit(limit)
    ).all()
    return [(night, email) for night, email in rows]


def emails_of(user_ids: set[int]) -> dict[int, str]:
    """The emails of the accounts ``user_ids`` (for a history that says who did what)."""
    if not user_ids:
        return {}
    rows = db.session.execute(select(User.id, User.email).where(User.id.in_(user_ids)))
    return {user_id: email for user_id, email in rows}
