"""Links handed out by token: the players' live links (:mod:`.live`) and the keepers' links
(:mod:`.keepers`). A link's token is its only key (128 random bits, unique); what it opens
has at most one link in force (``revoked_at`` empty, kept by a partial unique index). The
keeper opens one (idempotent), turns it off (the row kept, with when) or renews it (a new
token, the old one off, in one commit)."""

from __future__ import annotations

import secrets
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import LIVE_TOKEN_BYTES, KeeperLink, LiveLink, User, utcnow
from .base import Conflict, commit_created, commit_plain, creating, transaction

Link = TypeVar("Link", LiveLink, KeeperLink)


def new_token() -> str:
    return secrets.token_urlsafe(LIVE_TOKEN_BYTES)


def in_force(model: type[Link], **opens: Any) -> Link | None:
    """The link in force of what ``opens`` names (``game_id=``, ``night_id=``), if any."""
    return db.session.scalars(select(model).filter_by(revoked_at=None, **opens)).first()


@transaction
def open_link(model: type[Link], **opens: Any) -> Link:
    """The link in force, made when there is none. Idempotent: a second tap finds the same
    link, and of two phones asking at the same moment one makes it and the other finds it
    (the partial unique index lets only one in)."""
    found = in_force(model, **opens)
    if found is not None:
        return found
    link = model(token=new_token(), **opens)
    db.session.add(link)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        found = in_force(model, **opens)
        if found is None:  # pragma: no cover - a clash of 128-bit tokens
            raise Conflict from None
        return found
    return link


@transaction
def turn_off(model: type[Link], **opens: Any) -> bool:
    """Turn the link in force off (kept, with when); False when there was none."""
    found = in_force(model, **opens)
    if found is None:
        return False
    found.revoked_at = utcnow()
    commit_plain()
    return True


@transaction
def renew(
    model: type[Link], kind: str, *, user: User, submission: str | None, **opens: Any
) -> Link:
    """A new link in force, the old one (if any) off, in one commit: whoever had the old
    link gets nothing more. The form's one-time id makes a second post of it (a double
    tap) renew nothing more (AlreadySent): the link the first made stays."""
    with creating(user, submission):
        found = in_force(model, **opens)
        if found is not None:
            found.revoked_at = utcnow()
            db.session.flush()  # off before the new one comes in (one in force at a time)
        link = model(token=new_token(), **opens)
        db.session.add(link)
        commit_created(user, submission, kind, link)
    return link
