"""Database models. The game record is the source of truth: a Game holds the record's
header (variant, settings, players, first dealer) and its rounds live in GameRound rows;
every total, expiry and payout is derived by replaying them with the rules engine."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

from flask_login import UserMixin
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
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

from .extensions import Model
from .rules import GAME_FORMAT, get_variant, name_key


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite gives them back without it (they are UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class User(UserMixin, Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Set by an operator (``flask users disable``): the account cannot log in, and its
    #: logins were ended when it was set. Its data stays; ``enable`` clears it.
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    nights: Mapped[list[Night]] = relationship(back_populates="owner")

    # The token of the login this object stands for: set when a login starts
    # (web.auth.start_session) and when the user is loaded from a session cookie or a
    # remember cookie (web.load_user). Not a column.
    __allow_unmapped__ = True  # session_token below is a plain attribute, not a column
    session_token: str | None = None

    def get_id(self) -> str:
        """What Flask-Login keeps in the session and in the remember cookie: the token of
        one login (a UserSession row), never the user's id, so that every login gets a new
        cookie and ending that row ends the login wherever its cookies were copied."""
        if self.session_token is None:
            raise RuntimeError("a user logs in through a UserSession (web.auth.start_session)")
        return self.session_token


class LoginAttempt(Model):
    """Password checks, to slow down password guessing across all workers, and the
    successful log-ins (``ok``) that make a device or an address known for an email (see
    :mod:`scorekeeper.services.logins`). Failures are kept 15 minutes, successes
    ``KNOWN_LOGIN_DURATION``."""

    __tablename__ = "login_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    remote_addr: Mapped[str] = mapped_column(String(64), default="", index=True)
    #: The SHA-256 digest of the browser's known-device token ("" without one).
    device: Mapped[str] = mapped_column(String(64), default="", server_default="")
    #: Whose allowance the attempt counts against: "" a stranger, else a known device,
    #: address or login session of the email (``logins.Source.bucket``).
    bucket: Mapped[str] = mapped_column(String(80), default="", server_default="")
    ok: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )


TOKEN_MAX = 64  # the length of a login token's column


class UserSession(Model):
    """One login: its token is what the session cookie and the remember cookie carry.
    Logging out deletes the row; changing the password or "log out everywhere else"
    deletes the user's other rows; a row past ``expires_at`` no longer logs anyone in."""

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True, index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    remember: Mapped[bool] = mapped_column(Boolean, default=False)
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    user: Mapped[User] = relationship()


class PasswordReset(Model):
    """A password-reset link asked for (``scorekeeper.services.resets``): only the SHA-256 digest
    of its random token is kept, never the token. Usable once (``used_at``), until
    ``expires_at``. A request for an email without an account is stored the same way
    (``user_id`` empty: it resets nothing), so both cost the same work."""

    __tablename__ = "password_resets"
    __table_args__ = (UniqueConstraint("email", "submission"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    email: Mapped[str] = mapped_column(String(254), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: The one-time id of the form that asked: sent twice, it asks once.
    submission: Mapped[str | None] = mapped_column(String(64))


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

    owner: Mapped[User] = relationship(back_populates="nights")
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
    pending_joins: Mapped[list[str]] = mapped_column(JSON, default=list)
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


class LedgerEntry(Model):
    """What people did with a night's money, kept for ever with who recorded it and when.

    - ``payment``: on ``night``, ``payer`` paid ``payee`` ``amount`` (from a suggested
      transfer with one tap, or any amount typed: a partial or a cash payment).
    - ``carry``: the debt ``payer`` owed ``payee`` on ``night`` moves to ``to_night``, a
      night played later: it leaves this night's balances and joins that night's.
    - ``write_off``: on ``night``, ``payee`` forgave what ``payer`` owed them: counted as
      the payment that will never happen.

    What each person still owes or is owed is derived from these entries and the games
    every time (``ledger.night_book``); nothing derived is stored. An entry recorded by
    mistake is undone (``undone_at``, kept). ``submission`` makes a repeated form count
    once; ``games_part`` is the night's games part of the balances (by regular id) as it
    stood when the entry was recorded, so the payout page can say what moved since."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        UniqueConstraint("night_id", "submission", "payer_id", "payee_id"),
        CheckConstraint("amount > 0", name="ck_ledger_entries_amount"),
        CheckConstraint("payer_id <> payee_id", name="ck_ledger_entries_two_people"),
        CheckConstraint(
            "(kind = 'carry') = (to_night_id IS NOT NULL)", name="ck_ledger_entries_carry_target"
        ),
        Index("ix_ledger_entries_to_night_id", "to_night_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))  # payment, carry, write_off
    payer_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"))
    amount: Mapped[int] = mapped_column(BigInteger)  # minor units, > 0
    to_night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    submission: Mapped[str | None] = mapped_column(String(64))
    games_part: Mapped[dict[str, int] | None] = mapped_column(JSON)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    undone_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    payer: Mapped[Regular] = relationship(foreign_keys=[payer_id])
    payee: Mapped[Regular] = relationship(foreign_keys=[payee_id])
    night: Mapped[Night] = relationship(foreign_keys=[night_id])
    to_night: Mapped[Night | None] = relationship(foreign_keys=[to_night_id])
    user: Mapped[User] = relationship(foreign_keys=[user_id])


class GameResult(Model):
    """One person's results of one game as the engine worked them out at the game's
    ``version``: a stored fact the stats read instead of replaying every game of a
    keeper's history (see :mod:`scorekeeper.services.results`, which keeps them up to date)."""

    __tablename__ = "game_results"
    __table_args__ = (UniqueConstraint("game_id", "person_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    finished: Mapped[bool] = mapped_column(Boolean)
    won: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    balance: Mapped[int] = mapped_column(BigInteger)  # minor units; 0 until finished


class Submission(Model):
    """The one-time id of a form that creates something (a night, a game, an import, a
    person): sent again (a double tap, a retry), it finds what the first one created
    instead of creating it twice. Unique per user, so two racing posts store one."""

    __tablename__ = "submissions"
    __table_args__ = (UniqueConstraint("user_id", "token"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(20))  # night, game, person, delete...
    target_id: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
