"""Slowing down password guessing without letting a stranger lock the owner out.

Every password check is first recorded as a row of ``login_attempts`` (committed before
the password is checked, so that requests racing on several workers each count the
others) in a *bucket* that says who is asking:

- a **known device** (``d:<digest>``): the browser carries the long-lived ``known_device``
  cookie of a browser that logged in to this email before (a random token set at every
  successful log-in; only its SHA-256 digest is stored);
- a **known address** (``a:<address>``): the client address logged in to this email
  before;
- a **login session** (``s:<digest>``): the keeper, logged in, typing the current
  password to change it;
- anyone else, a **stranger** (``""``), counted per email *and* per client address.

Each bucket has its own allowance: ``LOGIN_ATTEMPTS_PER_15_MINUTES`` failed checks in 15
minutes per email (``LOGIN_ATTEMPTS_PER_ADDRESS_PER_15_MINUTES`` per client address for
strangers); past it, each further check waits since the bucket's last failure, twice as
long as the one before (30 s, 1 min, 2 min... at most 15 min). So a stranger who fails
again and again slows down only strangers; the owner's phone or address that logged in
before still gets in with the right password. A refused attempt is removed again (asking
while refused does not make the wait longer).

The table stays bounded: failures are kept 15 minutes, successful log-ins (what makes a
device or an address known) ``KNOWN_LOGIN_DURATION``; older rows are pruned on every
write and by ``flask prune-logins``.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from sqlalchemy import and_, delete, func, or_, select, update

from ..extensions import N_, db
from ..models import LoginAttempt, utcnow

WINDOW = timedelta(minutes=15)
BACKOFF_START = timedelta(seconds=30)
DEVICE_COOKIE = "known_device"
_DEVICE_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")
# Deletes of rows that no object of the request holds: nothing in the session to update.
_PLAIN = {"synchronize_session": False}

TOO_MANY = _l("Too many failed attempts for this email. Wait %(wait)s and try again.")
TOO_MANY_HERE = _l("Too many failed attempts from this network. Wait %(wait)s and try again.")
KNOWN_STILL_GETS_IN = N_(
    "A phone or browser that has logged in to this account before can still log in."
)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def device_token(cookie: str | None) -> str | None:
    """The known-device token a browser sent, if it has the form of one."""
    return cookie if cookie and _DEVICE_TOKEN.fullmatch(cookie) else None


def new_device_token() -> str:
    return secrets.token_urlsafe(32)


def known_for() -> timedelta:
    value = current_app.config["KNOWN_LOGIN_DURATION"]
    return value if isinstance(value, timedelta) else timedelta(seconds=int(value))


@dataclass(frozen=True, slots=True)
class Source:
    """Who is asking to check a password for ``email``, as the limits see it."""

    email: str
    address: str
    device: str  # the digest of the browser's known-device token, "" without one
    bucket: str  # "" a stranger; "d:...", "a:...", "s:..." known (see the module)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A password check refused for now: the sentence, and how long to wait."""

    message: str
    wait: timedelta

    @property
    def seconds(self) -> int:
        return max(1, math.ceil(self.wait.total_seconds()))


def source_of(email: str, address: str, cookie: str | None) -> Source:
    """The bucket of a log-in attempt for ``email`` from ``address`` with the browser's
    known-device cookie: one indexed query, the same whether or not the email has an
    account."""
    address = address[:64]
    token = device_token(cookie)
    device = digest(token) if token else ""
    known = db.session.execute(
        select(LoginAttempt.device, LoginAttempt.remote_addr)
        .where(LoginAttempt.email == email, LoginAttempt.ok.is_(True))
        .where(LoginAttempt.created_at >= utcnow() - known_for())
        .where(or_(LoginAttempt.remote_addr == address, LoginAttempt.device == (device or "-")))
    ).all()
    if device and any(row.device == device for row in known):
        bucket = f"d:{device}"
    elif any(row.remote_addr == address for row in known):
        bucket = f"a:{address}"
    else:
        bucket = ""
    return Source(email, address, device, bucket)


def session_source(email: str, address: str, session_token: str) -> Source:
    """The bucket of a logged-in keeper checking the current password (to change it)."""
    return Source(email, address[:64], "", f"s:{digest(session_token)}")


@dataclass(frozen=True, slots=True)
class Check:
    """A password check asked for: the attempt's row, and the refusal if it must wait."""

    attempt: int
    refusal: Refusal | None


def may_check_password(source: Source) -> Check:
    """Record this attempt (committed on its own) before any password is checked, then
    count the failures of its buckets in the window, this one included and any other
    request's committed since: requests racing on several workers each see every attempt
    committed before theirs, so at most the allowance of them get to check a password.
    A refused attempt is removed again. Old rows are pruned (``prune``)."""
    config = current_app.config
    checks = [
        (LoginAttempt.email == source.email, config["LOGIN_ATTEMPTS_PER_15_MINUTES"], TOO_MANY)
    ]
    if not source.bucket:
        checks.append(
            (
                LoginAttempt.remote_addr == source.address,
                config["LOGIN_ATTEMPTS_PER_ADDRESS_PER_15_MINUTES"],
                TOO_MANY_HERE,
            )
        )
    return _counted(source, checks, gettext(KNOWN_STILL_GETS_IN) if not source.bucket else "")


#: The bucket of password-reset requests ("Forgot password?"): counted per client address
#: like a stranger's log-ins, against an allowance of its own (asking for links neither
#: uses up nor is used up by log-in attempts); past it, 429 to that address only. The
#: email, which anyone can type, is never refused: what it bounds is the mails sent to it
#: (``reset_mail_wait``), strangers' asks together, and each browser that logged in to
#: it before on its own, so the owner's phone gets its link whoever asked before.
RESET_BUCKET = "r"
MAILED, MAILED_KNOWN = "rm", "rmd"  # a mail sent: to a stranger's ask, a known browser's
TOO_MANY_RESETS_HERE = _l(
    "Too many reset links asked from this network. Wait %(wait)s and try again."
)


def reset_source(email: str, address: str, cookie: str | None = None) -> Source:
    """A reset request's source: its device is the browser's known-device digest when
    that browser logged in to ``email`` before (else "")."""
    known = source_of(email, address, cookie) if device_token(cookie) else None
    device = known.device if known is not None and known.bucket.startswith("d:") else ""
    return Source(email, address[:64], device, RESET_BUCKET)


def may_request_reset(source: Source) -> Check:
    """A password-reset request, recorded and counted as :func:`may_check_password` does
    a log-in attempt: ``RESET_REQUESTS_PER_ADDRESS_PER_15_MINUTES`` per client address,
    then the same doubling wait. The same work whether or not the email has an account."""
    allowed = current_app.config["RESET_REQUESTS_PER_ADDRESS_PER_15_MINUTES"]
    where = LoginAttempt.remote_addr == source.address
    return _counted(source, [(where, allowed, TOO_MANY_RESETS_HERE)], "")


def reset_mail_wait(source: Source) -> str | None:
    """Whether a reset mail may go to the email now: None (and the mail counted) while
    fewer than ``RESET_REQUESTS_PER_15_MINUTES`` went in the window to strangers' asks
    (or to this known browser's, for one), else how long until one may, in words."""
    bucket = MAILED_KNOWN if source.device else MAILED
    where = [LoginAttempt.email == source.email, LoginAttempt.bucket == bucket]
    if source.device:
        where.append(LoginAttempt.device == source.device)
    sent, oldest = db.session.execute(
        select(func.count(LoginAttempt.id), func.min(LoginAttempt.created_at))
        .where(*where, LoginAttempt.created_at >= utcnow() - WINDOW)
    ).one()  # fmt: skip
    if sent >= int(current_app.config["RESET_REQUESTS_PER_15_MINUTES"]) and oldest is not None:
        return _minutes(_aware(oldest) + WINDOW - utcnow())
    db.session.add(
        LoginAttempt(email=source.email, remote_addr=source.address, device=source.device,
                     bucket=bucket, ok=False)
    )  # fmt: skip
    db.session.commit()
    return None


def _counted(source: Source, checks: list[tuple[Any, Any, str]], note: str) -> Check:
    """Record the attempt of ``source`` (committed on its own), then count it against each
    allowance of ``checks`` (where, allowed, sentence) in its bucket: the first one past
    its allowance refuses it (the attempt is removed again), with ``note`` added."""
    attempt = LoginAttempt(
        email=source.email, remote_addr=source.address, device=source.device,
        bucket=source.bucket, ok=False,
    )  # fmt: skip
    db.session.add(attempt)
    db.session.flush()
    attempt_id = attempt.id  # read before the commit expires it
    db.session.commit()
    refusal = None
    for where, allowed, message in checks:
        wait = _wait(attempt_id, where, source.bucket, int(allowed))
        if wait is not None:
            text = str(message) % {"wait": _minutes(wait)}
            refusal = Refusal(f"{text} {note}" if note else text, wait)
            break
    if refusal is not None:
        gone = delete(LoginAttempt).where(LoginAttempt.id == attempt_id)
        db.session.execute(gone, execution_options=_PLAIN)
    prune()
    db.session.commit()
    return Check(attempt_id, refusal)


def _wait(own_id: int, where: Any, bucket: str, allowed: int) -> timedelta | None:
    """How long the attempt ``own_id`` must still wait, or None: the bucket's failures in
    the window (this one included) past ``allowed`` double the wait each, counted from
    the last failure before it or beside it."""
    now = utcnow()
    tries, latest = db.session.execute(
        select(
            func.count(LoginAttempt.id),
            func.max(LoginAttempt.created_at).filter(LoginAttempt.id != own_id),
        )
        .where(where, LoginAttempt.bucket == bucket, LoginAttempt.ok.is_(False))
        .where(LoginAttempt.created_at >= now - WINDOW)
    ).one()
    if tries <= allowed or latest is None:
        return None
    backoff = min(WINDOW, BACKOFF_START * 2 ** min(tries - allowed - 1, 16))
    left = _aware(latest) + backoff - now
    return left if left > timedelta(0) else None


def _aware(moment: datetime) -> datetime:
    """SQLite gives back its times without their zone (they are UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _minutes(wait: timedelta) -> str:
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    return ngettext("%(num)d minute", "%(num)d minutes", minutes)


def succeeded(source: Source, check: Check, token: str | None = None) -> None:
    """The right password. The attempt is no failure, and the failures of this source's
    own known bucket are forgotten (a stranger's are not: they run out by themselves).
    With a device ``token`` (the known-device cookie to set) the attempt's row is kept as
    the success that makes this device and this address known for the email from now
    on. Not committed (the log-in that follows commits it)."""
    forget = LoginAttempt.id == check.attempt
    if source.bucket:
        forget = or_(forget, LoginAttempt.bucket == source.bucket)
    if token is not None:
        device = digest(token)
        db.session.execute(
            update(LoginAttempt)
            .where(LoginAttempt.id == check.attempt)
            .values(ok=True, device=device, bucket=source.bucket, created_at=utcnow()),
            execution_options=_PLAIN,
        )
        # Its earlier successes from this device and address say nothing more.
        forget = or_(
            and_(forget, LoginAttempt.ok.is_(False)),
            and_(
                LoginAttempt.ok.is_(True),
                LoginAttempt.device == device,
                LoginAttempt.remote_addr == source.address,
                LoginAttempt.id != check.attempt,
            ),
        )
    db.session.execute(
        delete(LoginAttempt).where(LoginAttempt.email == source.email, forget),
        execution_options=_PLAIN,
    )


def prune(now: datetime | None = None) -> int:
    """Delete the failures older than the window and the successful log-ins older than
    ``KNOWN_LOGIN_DURATION`` (not committed); how many rows went."""
    now = now or utcnow()
    gone = 0
    for ok, age in ((False, WINDOW), (True, known_for())):
        result = db.session.execute(
            delete(LoginAttempt).where(
                LoginAttempt.ok.is_(ok), LoginAttempt.created_at < now - age
            ),
            execution_options=_PLAIN,
        )
        gone += result.rowcount or 0  # type: ignore[attr-defined]
    return gone
