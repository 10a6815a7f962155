"""Live links: a read-only view of one game or one night for the players at the table, on
their own phones or a tablet propped up, with no account (``/live/<token>``,
``/live/night/<token>``).

A link's token is its only key: 128 random bits, unique. A game or a night has at most one
link in force; the keeper turns it off or renews it (a new token, the old one off). What a
link shows is found by its token alone, and only while the link is in force and its game or
night is not deleted: otherwise nothing at all (the views answer 404, the same for a token
that never existed).

The players' phones ask every few seconds. The answer "nothing changed" (304) comes from
the stamps below, one indexed query each (two for a night), with no replay and nothing
rendered: :func:`game_stamp` and :func:`night_stamp` name the state of what the link shows,
and the views make their ETags from them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, or_, select, union
from sqlalchemy.orm import selectinload

from ..extensions import db, reading
from ..models import (
    LIVE_TOKEN_MAX,
    Game,
    LedgerEntry,
    LiveLink,
    Night,
    PaymentHandle,
    Person,
    Regular,
    Seat,
    User,
)
from . import links
from .state import state_key

_TOKEN = re.compile(rf"[A-Za-z0-9_-]{{16,{LIVE_TOKEN_MAX}}}")


def plausible(token: str) -> bool:
    """Whether ``token`` could be one (a cheap check before any query)."""
    return _TOKEN.fullmatch(token) is not None


# ------------------------------------------------------------------- the keeper ---
def _opens(game_id: int | None, night_id: int | None) -> dict[str, int | None]:
    return {"game_id": game_id} if game_id is not None else {"night_id": night_id}


def link_in_force(*, game_id: int | None = None, night_id: int | None = None) -> LiveLink | None:
    """The game's (or the night's) link in force, if there is one."""
    return links.in_force(LiveLink, **_opens(game_id, night_id))


def open_link(*, game_id: int | None = None, night_id: int | None = None) -> LiveLink:
    """The link in force, made when there is none (idempotent: :func:`links.open_link`)."""
    return links.open_link(LiveLink, **_opens(game_id, night_id))


def turn_off(*, game_id: int | None = None, night_id: int | None = None) -> bool:
    """Turn the link in force off (kept, with when); False when there was none."""
    return links.turn_off(LiveLink, **_opens(game_id, night_id))


def renew(
    *,
    game_id: int | None = None,
    night_id: int | None = None,
    user: User,
    submission: str | None,
) -> LiveLink:
    """A new link in force, the old one off, in one commit; a double tap renews once."""
    opens = _opens(game_id, night_id)
    return links.renew(LiveLink, "live_link", user=user, submission=submission, **opens)


# ------------------------------------------------------------------ the players ---
@dataclass(frozen=True, slots=True)
class LinkStamp:
    """The state a game link shows: the link, the game's version, the night's name (and
    how it writes money: changing that bumps the game's version)."""

    link_id: int
    game_id: int
    version: int
    created_at: datetime
    night_name: str
    locale: str

    @property
    def key(self) -> str:
        """The stored state it shows, as the keeper's caches name it (``state.state_key``)."""
        return state_key(self.game_id, self.created_at, self.version)

    @property
    def tag(self) -> str:
        name = hashlib.sha256(self.night_name.encode()).hexdigest()[:8]
        return (
            f"l{self.link_id}-g{self.game_id}.{self.created_at.timestamp():.6f}"
            f"-v{self.version}-n{name}"
        )


_GAME_BY_TOKEN = (
    select(LiveLink.id, Game.id, Game.version, Game.created_at, Night.name, Night.locale)
    .join(Game, Game.id == LiveLink.game_id)
    .join(Night, Night.id == Game.night_id)
    .where(
        LiveLink.token == bindparam("token"),
        LiveLink.revoked_at.is_(None),
        Game.deleted_at.is_(None),
        Night.deleted_at.is_(None),
    )
)


def link_stamp(token: str) -> LinkStamp | None:
    """The game behind a link in force, in one query by the token's unique index; None
    for a token that is unknown, turned off, or of a deleted game (or night)."""
    if not plausible(token):
        return None
    row = _first(_GAME_BY_TOKEN, {"token": token})
    return None if row is None else LinkStamp(*row)


def _first(statement: Any, values: dict[str, Any]) -> Any:
    """The first row of a read, on a connection of its own rather than through the ORM
    session (``extensions.reading``): a phone's poll answered 304 never opens a session."""
    with reading() as conn:
        return conn.execute(statement, values).first()


@dataclass(frozen=True, slots=True)
class NightStamp:
    """The state a night link shows, as one digest: the night's own fields, every game's
    version (deleted ones too: a delete or restore bumps it), the ledger entries (and
    whether the other night of each carry lives), the people and their ways to pay."""

    link_id: int
    night_id: int
    digest: str

    @property
    def tag(self) -> str:
        return f"l{self.link_id}-n{self.night_id}-{self.digest}"


# Each part of what the night's page shows, as a number that changes whenever it does:
# versions only grow; ledger entries are only added or undone, and a carry counts while
# both of its nights live; people are added or moved to another regular (a merge).
_ENTRIES = or_(LedgerEntry.night_id == Night.id, LedgerEntry.to_night_id == Night.id)
_OTHER_NIGHT = Night.__table__.alias("other_night")
_NIGHT_BY_TOKEN = (
    select(
        LiveLink.id,
        Night.id,
        Night.name,
        Night.played_on,
        Night.currency,
        Night.locale,
        Night.settle_unit,
        select(func.coalesce(func.sum(Game.version), 0))
        .where(Game.night_id == Night.id)
        .scalar_subquery(),
        select(func.count(Game.id))
        .where(Game.night_id == Night.id, Game.deleted_at.is_(None))
        .scalar_subquery(),
        select(func.coalesce(func.max(LedgerEntry.id), 0)).where(_ENTRIES).scalar_subquery(),
        select(func.count(LedgerEntry.undone_at)).where(_ENTRIES).scalar_subquery(),
        select(func.count(LedgerEntry.id))
        .join(
            _OTHER_NIGHT,
            or_(
                _OTHER_NIGHT.c.id == LedgerEntry.night_id,
                _OTHER_NIGHT.c.id == LedgerEntry.to_night_id,
            ),
        )
        .where(_ENTRIES, _OTHER_NIGHT.c.id != Night.id, _OTHER_NIGHT.c.deleted_at.is_(None))
        .scalar_subquery(),
        select(func.count(Person.id)).where(Person.night_id == Night.id).scalar_subquery(),
        select(func.coalesce(func.sum(Person.regular_id), 0))
        .where(Person.night_id == Night.id)
        .scalar_subquery(),
    )
    .join(Night, Night.id == LiveLink.night_id)
    .where(
        LiveLink.token == bindparam("token"),
        LiveLink.revoked_at.is_(None),
        Night.deleted_at.is_(None),
    )
)
_NIGHT_ID: Any = bindparam("night_id")
# The regulars a night's settlement names (its people and the parties to debts carried
# in) with their ways to pay: read as they are, since a handle edited in place keeps its
# row count, and SQLite may give a new row the id of one just deleted.
_NIGHT_REGULARS = union(
    select(Person.regular_id.label("id")).where(Person.night_id == _NIGHT_ID),
    select(LedgerEntry.payer_id).where(LedgerEntry.to_night_id == _NIGHT_ID),
    select(LedgerEntry.payee_id).where(LedgerEntry.to_night_id == _NIGHT_ID),
).subquery()
_NIGHT_HANDLES = (
    select(Regular.id, Regular.name, PaymentHandle.kind, PaymentHandle.value)
    .outerjoin(PaymentHandle, PaymentHandle.regular_id == Regular.id)
    .where(Regular.id.in_(select(_NIGHT_REGULARS.c.id)))
    .order_by(Regular.id, PaymentHandle.position, PaymentHandle.id)
)


def night_link_stamp(token: str) -> NightStamp | None:
    """The night behind a link in force (one query by the token's unique index, then one
    for the ways to pay of its regulars); None for a token that is unknown, turned off,
    or of a deleted night."""
    if not plausible(token):
        return None
    with reading() as conn:  # as in _first: no ORM session for a 304
        row = conn.execute(_NIGHT_BY_TOKEN, {"token": token}).first()
        if row is None:
            return None
        handles = conn.execute(_NIGHT_HANDLES, {"night_id": row[1]}).all()
    digest = hashlib.sha256(repr((tuple(row[2:]), [tuple(h) for h in handles])).encode())
    return NightStamp(row[0], row[1], digest.hexdigest()[:20])


def linked_game(game_id: int) -> Game | None:
    """The game's row, for a link already checked by its stamp (its seats and rounds load
    on first use: its standings may be found by the stamp's state without them)."""
    query = select(Game).where(Game.id == game_id, Game.deleted_at.is_(None))
    return db.session.scalars(query).first()


def linked_night(night_id: int) -> Night | None:
    """A live night with its people and games, seats and rounds (as ``nights.owned_night``
    without an owner: the link was checked by its stamp)."""
    games = selectinload(Night.games)
    query = (
        select(Night)
        .where(Night.id == night_id, Night.deleted_at.is_(None))
        .options(
            selectinload(Night.people),
            games.selectinload(Game.seats).joinedload(Seat.person),
            games.selectinload(Game.rounds),
        )
    )
    return db.session.scalars(query).first()
