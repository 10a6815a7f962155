"""What is played: nights, the keeper's regulars and their pay handles, the people on a
night's roster, games with their seats, rounds and history."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    event,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, object_session, relationship

from ..extensions import Model
from ..rules import GAME_FORMAT, get_variant, name_key
from .accounts import User, utcnow


class Night(Model):
    __tablename__ = "nights"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    played_on: Mapped[date] = mapped_column(Date)
    currency: Mapped[str] = mapped_column(String(3), default="USD")
    paper: Mapped[str] = mapped_column(String(6), default="A4")
    #: How money is written on the night's pages (a Babel locale: ``en``, ``de_CH``...).
    locale: Mapped[str] = mapped_column(String(20), default="en", server_default="en")
    #: Settle up in steps of this many minor units (1: exactly; 100: whole dollars).
    settle_unit: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    owner: Mapped[User] = relationship()
    people: Mapped[list[Person]] = relationship(
        back_populates="night", order_by="Person.id", cascade="all, delete-orphan"
    )
    #: Every game of the night, deleted ones included (a rename reaches them too, so a
    #: restored game still replays).
    all_games: Mapped[list[Game]] = relationship(
        back_populates="night", order_by="Game.id", cascade="all, delete-orphan"
    )
    #: The games that count: shown, settled, printed. A deleted game is kept (restorable)
    #: but leaves the night's pages and its settlement.
    games: Mapped[list[Game]] = relationship(
        primaryjoin="and_(Night.id == foreign(Game.night_id), Game.deleted_at.is_(None))",
        order_by="Game.id",
        viewonly=True,
    )


class Regular(Model):
    """Someone a keeper plays with, night after night. Each night's :class:`Person` is one
    of the keeper's regulars; the game records keep the name each game was played with,
    and the link is by identity, so renaming a regular rewrites nothing recorded. Merging
    two entries for one person points the second's nights at the first
    (:class:`RegularMerge`); ``merged_into_id`` never points at a merged entry, so finding
    the regular behind a merged one is one step."""

    __tablename__ = "regulars"
    __table_args__ = (
        UniqueConstraint("owner_id", "name_key"),
        CheckConstraint("merged_into_id <> id", name="ck_regulars_not_into_itself"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40))
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("regulars.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    handles: Mapped[list[PaymentHandle]] = relationship(
        back_populates="regular", order_by="PaymentHandle.position", cascade="all, delete-orphan"
    )


class RegularMerge(Model):
    """A merge of two entries for one person, as the keeper did it: ``gone`` became part of
    ``kept``. ``moved`` lists what moved from one to the other (people, ledger entries as
    payer and as payee, handles copied, regulars merged into ``gone`` before), so the merge
    can be undone exactly (``undone_at``, kept). ``Regular.merged_into_id`` is the state
    the merges in force leave: set and cleared only here, under the keeper's lock."""

    __tablename__ = "regular_merges"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kept_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"))
    gone_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"), index=True)
    moved: Mapped[dict[str, list[int]]] = mapped_column(JSON)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    kept: Mapped[Regular] = relationship(foreign_keys=[kept_id])
    gone: Mapped[Regular] = relationship(foreign_keys=[gone_id])


class PaymentHandle(Model):
    """How a regular likes to be paid: a PayPal.me, Venmo, Revolut or Cash App handle, an
    IBAN, or a line of text (see :mod:`scorekeeper.services.payments`)."""

    __tablename__ = "payment_handles"

    id: Mapped[int] = mapped_column(primary_key=True)
    regular_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))
    value: Mapped[str] = mapped_column(String(80))
    position: Mapped[int] = mapped_column(Integer, default=0)

    regular: Mapped[Regular] = relationship(back_populates="handles")


class Person(Model):
    """Someone on a night's roster, one of the keeper's regulars; the same person across
    the night's games (the records use ``name``, the night's spelling)."""

    __tablename__ = "people"
    __table_args__ = (UniqueConstraint("night_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    regular_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40))

    night: Mapped[Night] = relationship(back_populates="people")
    regular: Mapped[Regular] = relationship()

    def rename(self, name: str) -> None:
        self.name = name
        self.name_key = name_key(name)


class Game(Model):
    """One game of a night. ``version`` counts changes: an edit made against an older
    version is refused (two phones never silently overwrite each other). ``rewritten`` is
    the version of the last change that did more than add a round at the end (see
    ``_count_rewrite``): a state drawn at a version at or after it is the start of the
    record as stored now, which then only has rounds added after it."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    variant: Mapped[str] = mapped_column(String(20))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_dealer: Mapped[str] = mapped_column(String(40))
    #: Late joiners waiting for the next round, as its record's ``joins`` will hold them:
    #: a name, or {"name": ..., "after": ...} for a newcomer seated after someone.
    pending_joins: Mapped[list[str | dict[str, str]]] = mapped_column(JSON, default=list)
    version: Mapped[int] = mapped_column(Integer, default=1)
    rewritten: Mapped[int] = mapped_column(Integer, default=1, server_default=text("1"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    night: Mapped[Night] = relationship(back_populates="all_games")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[GameRound]] = relationship(
        back_populates="game", order_by="GameRound.number", cascade="all, delete-orphan"
    )
    edits: Mapped[list[Edit]] = relationship(
        back_populates="game", order_by="Edit.id", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012

    @property
    def title(self) -> str:
        return get_variant(self.variant).title

    def header_json(self) -> dict[str, Any]:
        """The record without its rounds (players are the seats of round 1)."""
        return {
            "format": GAME_FORMAT,
            "variant": self.variant,
            "settings": self.settings,
            "players": [s.record_entry() for s in self.seats if s.joined_round == 0],
            "first_dealer": self.first_dealer,
        }

    def record_json(self) -> dict[str, Any]:
        return {**self.header_json(), "rounds": [r.data for r in self.rounds]}


@event.listens_for(Game, "before_update")
def _count_rewrite(_mapper: Any, _connection: Any, game: Game) -> None:
    """Every change to a game's row through the ORM is a rewrite: its rounds, seats, names,
    waiting joiners, settings or deletion may have changed, so no state drawn before it is
    the start of the record any more. The one change that is not, a round added at the
    end, is written without the ORM (``services.state.append_round``) and leaves ``rewritten``
    alone. Only a row with a change of its own is updated (and its version counted up)."""
    session = object_session(game)
    if session is not None and session.is_modified(game, include_collections=False):
        game.rewritten = game.version + 1  # the version this update commits


class Seat(Model):
    """A person's seat in a game, in clockwise order (late joiners take new seats)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    handicap: Mapped[int] = mapped_column(Integer, default=0)
    joined_round: Mapped[int] = mapped_column(Integer, default=0)

    game: Mapped[Game] = relationship(back_populates="seats")
    person: Mapped[Person] = relationship(lazy="joined")

    def record_entry(self) -> str | dict[str, Any]:
        if self.handicap:
            return {"name": self.person.name, "handicap": self.handicap}
        return self.person.name


class GameRound(Model):
    """One round of a game, stored as the round object of the game record."""

    __tablename__ = "game_rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    number: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")


class Edit(Model):
    """The game's history: every change, with the round before and after, kept forever
    because money depends on it. ``submission`` makes a repeated POST count once."""

    __tablename__ = "edits"
    __table_args__ = (
        UniqueConstraint("game_id", "submission"),
        Index("ix_edits_game_id_id", "game_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    action: Mapped[str] = mapped_column(String(20))  # create, import, add, edit, remove
    round_number: Mapped[int | None] = mapped_column(Integer)
    before: Mapped[str | None] = mapped_column(Text)
    after: Mapped[str | None] = mapped_column(Text)
    submission: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="edits")

    @property
    def before_data(self) -> Any:
        return json.loads(self.before) if self.before else None

    @property
    def after_data(self) -> Any:
        return json.loads(self.after) if self.after else None
