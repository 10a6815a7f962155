"""Read-only live links for the players at the table; keeper links and co-keepers."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .accounts import utcnow

LIVE_TOKEN_BYTES = 16  # secrets.token_urlsafe(16): 22 characters, 128 random bits
LIVE_TOKEN_MAX = 43  # the column's length: room for up to 32 random bytes


class LiveLink(Model):
    """A read-only link for the players at the table: ``/live/<token>`` shows one game,
    ``/live/night/<token>`` one night, to anyone who has the link, with no account.

    The token is the only key (unguessable: 128 random bits, unique). A game or a night
    has at most one link in force (``revoked_at`` empty; a partial unique index keeps two
    racing requests from making two); the keeper turns it off (``revoked_at`` set, the row
    kept) or renews it (the old one turned off, a new token in force). A link of a deleted
    game or night, or of a game of a deleted night, shows nothing (404)."""

    __tablename__ = "live_links"
    __table_args__ = (
        CheckConstraint(
            "(game_id IS NULL) <> (night_id IS NULL)", name="ck_live_links_game_or_night"
        ),
        Index(
            "uq_live_links_game_in_force",
            "game_id",
            unique=True,
            sqlite_where=text("revoked_at IS NULL AND game_id IS NOT NULL"),
            postgresql_where=text("revoked_at IS NULL AND game_id IS NOT NULL"),
        ),
        Index(
            "uq_live_links_night_in_force",
            "night_id",
            unique=True,
            sqlite_where=text("revoked_at IS NULL AND night_id IS NOT NULL"),
            postgresql_where=text("revoked_at IS NULL AND night_id IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(LIVE_TOKEN_MAX), unique=True, index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class KeeperLink(Model):
    """A link the keeper of a night hands out (``/keep/<token>``): whoever opens it, logged
    in, may become a co-keeper of that night (:class:`CoKeeper`). The token is the only
    key (128 random bits, unique); a night has at most one link in force (``revoked_at``
    empty, kept by a partial unique index), turned off or renewed like a ``LiveLink``. A
    link of a deleted night, or turned off, or never made, answers the same 404."""

    __tablename__ = "keeper_links"
    __table_args__ = (
        Index(
            "uq_keeper_links_night_in_force",
            "night_id",
            unique=True,
            sqlite_where=text("revoked_at IS NULL"),
            postgresql_where=text("revoked_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(LIVE_TOKEN_MAX), unique=True, index=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class CoKeeper(Model):
    """Another account that keeps a night with its owner: enters, corrects and undoes
    rounds, adds late joiners and marks payments there (never deletes it, never sees the
    owner's other nights). Removing a co-keeper deletes the row: access ends at once, and
    a :class:`KeeperRemoval` bars the account from the night's keeper link."""

    __tablename__ = "co_keepers"
    __table_args__ = (UniqueConstraint("night_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class KeeperRemoval(Model):
    """The owner removed ``user_id`` from keeping ``night_id``: an entry, kept, that bars
    that account from the night's keeper links (the one in force and any renewed later)
    until the owner lets them back in (``let_back_at`` set, the row kept). At most one
    bar in force per night and account (a partial unique index: two taps of Remove at
    once leave one). The removals and returns stay as the night's record of who kept it."""

    __tablename__ = "keeper_removals"
    __table_args__ = (
        Index(
            "uq_keeper_removals_in_force",
            "night_id",
            "user_id",
            unique=True,
            sqlite_where=text("let_back_at IS NULL"),
            postgresql_where=text("let_back_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    removed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    let_back_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
