"""Accounts: users, their logins and log-in attempts, password resets, and the one-time
ids of the forms they send."""

from __future__ import annotations

from datetime import UTC, datetime

from flask_login import UserMixin
from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model


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
    #: The language the keeper chose on the account page (``web.locales.LANGUAGES``);
    #: None follows the browser (its ``Accept-Language``).
    language: Mapped[str | None] = mapped_column(String(8))

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
