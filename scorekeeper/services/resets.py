"""Password-reset links: "Forgot password?" mails one, ``flask users reset-link EMAIL``
prints one. A link carries a random token (256 bits); only its SHA-256 digest is stored
(``password_resets``), so the table gives nobody a working link. A link works once, for
``RESET_LINK_DURATION`` (an hour), and using it ends every login of the account.

Asking does not tell whether the email has an account: the answer is the same, and so is
the work done, since the request is counted (``logins.may_request_reset``, per email and
per client address), a token is made and its row stored, and one mail is sent either way:
the link to an account's address, or to any other address a note that it has no
account here (so whoever typed it learns nothing, and the owner of the address sees that
someone asked)."""

from __future__ import annotations

import secrets
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from flask_babel import force_locale, gettext
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import N_, db
from ..models import PasswordReset, User, UserSession, as_utc, utcnow
from . import logins, mail
from .logins import digest

RESET_PATH = "/password/reset"  # the route of web.auth.reset_password
_PLAIN = {"synchronize_session": False}


def _lifetime() -> timedelta:
    value = current_app.config["RESET_LINK_DURATION"]
    return value if isinstance(value, timedelta) else timedelta(seconds=int(value))


def link(token: str) -> str:
    """The link of a token: whole with ``PUBLIC_URL``, else the path alone."""
    return f"{mail.public_url() or ''}{RESET_PATH}?token={token}"


def _store(email: str, user_id: int | None, submission: str | None = None) -> str:
    """A new token for ``email`` (of ``user_id``, or of no account), its digest stored
    and committed; the token itself is only returned."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    db.session.execute(
        delete(PasswordReset).where(PasswordReset.expires_at < now), execution_options=_PLAIN
    )
    db.session.add(
        PasswordReset(
            user_id=user_id,
            email=email,
            token_digest=digest(token),
            created_at=now,
            expires_at=now + _lifetime(),
            submission=submission,
        )
    )
    db.session.commit()
    return token


def make_link(user: User) -> str:
    """A reset link for ``user`` (the operator's ``flask users reset-link``)."""
    return link(_store(user.email, user.id))


@dataclass(frozen=True, slots=True)
class Asked:
    """What a reset request came to: refused for now (``refusal``), or asked (a mail sent,
    or this form's earlier post found)."""

    refusal: logins.Refusal | None = None
    held: str | None = None  # no mail sent: the email's mails are used up for this long


# The mails, in the language of the account's keeper (``User.language``), else of the
# browser that asked (web/locales.py); marked for the catalogs (N_), drawn with gettext.
LINK_SUBJECT = N_("Reset your Scorekeeper password")
LINK_MAIL = N_(
    "Someone, hopefully you, asked to reset the password of the Scorekeeper account\n"
    "of this address.\n"
    "\n"
    "Open this link to choose a new password (it works once, within %(minutes)s minutes):\n"
    "\n"
    "%(link)s\n"
    "\n"
    "Every phone and browser logged in to the account is then logged out.\n"
    "\n"
    "If you did not ask, ignore this mail: your password stays as it is.\n"
)
NO_ACCOUNT_MAIL = N_(
    "Someone, hopefully you, asked to reset the password of the Scorekeeper account\n"
    "of this address at %(site)s, but this address has no account there.\n"
    "\n"
    "If it was you, perhaps you signed up with another address: ask for the link again with\n"
    "that one.\n"
    "\n"
    "If you did not ask, ignore this mail: nothing was changed.\n"
)


def _send(email: str, account: bool, language: str | None, token: str) -> None:
    """The link to an account's address, in its keeper's ``language`` (None: the asker's);
    else the note that the address has no account, in the asker's."""
    with force_locale(language) if language else nullcontext():
        if account:
            minutes = int(_lifetime().total_seconds() // 60)
            body = gettext(LINK_MAIL, minutes=minutes, link=link(token))
        else:
            body = gettext(NO_ACCOUNT_MAIL, site=mail.public_url())
        mail.send(email, gettext(LINK_SUBJECT), body)


def request_link(
    email: str, address: str, submission: str | None, *, device_cookie: str | None = None
) -> Asked:
    """Mail a reset link to ``email`` if it has an account, else a note that it has none:
    the same work either way. Refused (429) only when this client address asked too often;
    past the mails the email may be sent (``logins.reset_mail_wait``), no mail is sent and
    the asker is told so, unless the browser is one that logged in to the account. Raises
    ``mail.MailFailed`` when the mail could not be sent (the stored token then stays
    unused: it was never given out)."""
    source = logins.reset_source(email, address, device_cookie)
    if submission and _asked_before(email, submission):
        return Asked()
    check = logins.may_request_reset(source)
    if check.refusal is not None:
        return Asked(check.refusal)
    held = logins.reset_mail_wait(source)
    if held is not None:
        return Asked(held=held)
    user = db.session.scalar(select(User).where(User.email == email))
    # Read before the commit below expires the row: no query more for an account.
    language = user.language if user is not None else None
    try:
        token = _store(email, user.id if user is not None else None, submission)
    except IntegrityError:  # the same form, racing itself: it asked once
        db.session.rollback()
        return Asked()
    _send(email, user is not None, language, token)
    return Asked()


def _asked_before(email: str, submission: str) -> bool:
    return (
        db.session.scalar(
            select(PasswordReset.id).where(
                PasswordReset.email == email, PasswordReset.submission == submission
            )
        )
        is not None
    )


def usable(token: str) -> PasswordReset | None:
    """The stored request of a link that still works: not used, not expired, of an
    account that is not disabled."""
    if not token or len(token) > 100:
        return None
    row = db.session.scalar(
        select(PasswordReset).where(PasswordReset.token_digest == digest(token))
    )
    if row is None or row.used_at is not None or row.user_id is None:
        return None
    if as_utc(row.expires_at) <= utcnow():
        return None
    user = db.session.get(User, row.user_id)
    return row if user is not None and user.disabled_at is None else None


def redeem(token: str, password_hash: str) -> User | None:
    """Set the account's password to ``password_hash`` with the link of ``token``, once:
    the link is marked used in the same statement that checks it is unused and unexpired
    (two posts of it racing: one wins), every other link of the account stops working,
    and every login of the account ends. Committed. None when the link does not work."""
    row = usable(token)
    if row is None:
        return None
    now = utcnow()
    won = db.session.execute(
        update(PasswordReset)
        .where(
            PasswordReset.id == row.id,
            PasswordReset.used_at.is_(None),
            PasswordReset.expires_at > now,
        )
        .values(used_at=now),
        execution_options=_PLAIN,
    )
    if won.rowcount != 1:  # type: ignore[attr-defined]
        db.session.rollback()
        return None
    user_id = row.user_id
    db.session.execute(
        update(PasswordReset)
        .where(PasswordReset.user_id == user_id, PasswordReset.used_at.is_(None))
        .values(used_at=now),
        execution_options=_PLAIN,
    )
    user = db.session.get(User, user_id)
    assert user is not None
    user.password_hash = password_hash
    db.session.execute(
        delete(UserSession).where(UserSession.user_id == user_id), execution_options=_PLAIN
    )
    db.session.commit()
    return user
