"""Sign up, log in (with a limit on failed attempts), log out, and the account page
(change the password, log out everywhere else).

Every login is a UserSession row whose random token is what the session cookie and the
remember cookie carry (``User.get_id``); ``web.load_user`` refuses a token without a
live row. Logging out deletes the row, so a copied cookie dies with it."""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import cache
from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ..extensions import db
from ..forms import LoginForm, PasswordChangeForm, SignupForm
from ..models import LoginAttempt, User, UserSession, utcnow

bp = Blueprint("auth", __name__)
WINDOW = timedelta(minutes=15)
TOO_MANY = "Too many failed attempts for this email. Wait 15 minutes and try again."
NO_MATCH = "That email and password do not match an account."
TAKEN = "There is already an account for this email: log in."


def _hash_method() -> str:
    return current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")


def _hash(password: str) -> str:
    return generate_password_hash(password, method=_hash_method())


@cache
def _dummy_hash(method: str) -> str:
    """A hash of a password nobody knows, made with the method real hashes use."""
    return generate_password_hash(secrets.token_urlsafe(16), method=method)


def _password_matches(user: User | None, password: str) -> bool:
    """The password check, which costs the same whether or not the email has an account:
    without one, the password is checked against a dummy hash of the same method."""
    if user is None:
        check_password_hash(_dummy_hash(_hash_method()), password)
        return False
    return check_password_hash(user.password_hash, password)


def _may_check_password(email: str) -> bool:
    """Record this attempt (committed on its own) before any password is checked, then
    count the email's attempts in the window, this one included. Requests racing on
    several workers each see every attempt committed before theirs, so at most the limit
    of them get to check a password. A refused attempt is removed again: asking while
    refused does not make the wait longer, and the attempts that were checked stay."""
    attempt = LoginAttempt(email=email, remote_addr=(request.remote_addr or "")[:64])
    db.session.add(attempt)
    db.session.commit()
    tries = db.session.scalar(
        select(func.count(LoginAttempt.id)).where(
            LoginAttempt.email == email, LoginAttempt.created_at >= utcnow() - WINDOW
        )
    )
    if (tries or 0) > current_app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"]:
        db.session.delete(attempt)
        db.session.commit()
        return False
    return True


def _forget_attempts(email: str) -> None:
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == email))


def _lifetime(remember: bool) -> timedelta:
    value = current_app.config["REMEMBER_COOKIE_DURATION" if remember else "LOGIN_DURATION"]
    return value if isinstance(value, timedelta) else timedelta(seconds=int(value))


def _user_agent() -> str:
    text = request.user_agent.string or ""
    return "".join(ch for ch in text if ch.isprintable())[:200]


def start_session(user: User, *, remember: bool) -> None:
    """Log the user in with a new UserSession (and commit): a new token, so a new
    session cookie and a new remember cookie. The user's expired rows go at the same time."""
    now = utcnow()
    token = secrets.token_urlsafe(32)
    db.session.execute(
        delete(UserSession).where(UserSession.user_id == user.id, UserSession.expires_at <= now)
    )
    db.session.add(
        UserSession(
            token=token,
            user_id=user.id,
            remember=remember,
            user_agent=_user_agent(),
            created_at=now,
            expires_at=now + _lifetime(remember),
        )
    )
    db.session.commit()
    user.session_token = token
    login_user(user, remember=remember)


def _end_sessions(user_id: int, *, keep: str) -> None:
    """Delete every session of the user but the one whose token is ``keep``; not committed."""
    db.session.execute(
        delete(UserSession).where(UserSession.user_id == user_id, UserSession.token != keep)
    )


def _safe_next(target: str | None) -> str:
    """Only a path on this site. Browsers drop tabs and newlines from a URL and read a
    backslash as a slash, so "/<tab>/evil.example" or "/<backslash>evil.example" would
    leave it."""
    if (
        target
        and target.startswith("/")
        and target.isprintable()
        and "\\" not in target
        and not target.startswith("//")
    ):
        return target
    return url_for("home.index")


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> str | Response | tuple[str, int]:
    if current_user.is_authenticated:
        return redirect(url_for("home.index"))
    form = SignupForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        if db.session.scalar(select(User.id).where(User.email == email)):
            form.email.errors.append(TAKEN)
        else:
            try:
                user = User(email=email, password_hash=_hash(form.password.data))
                db.session.add(user)
                db.session.flush()
                start_session(user, remember=True)
            except IntegrityError:
                # Another sign-up with this email was stored since the check above.
                db.session.rollback()
                if db.session.scalar(select(User.id).where(User.email == email)) is None:
                    raise
                form.email.errors.append(TAKEN)
            else:
                flash("Welcome! Start your first card night.", "success")
                return redirect(url_for("nights.new"))
    status = 422 if form.errors else 200
    return render_template("auth/signup.html", form=form), status


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | Response | tuple[str, int]:
    if current_user.is_authenticated:
        return redirect(url_for("home.index"))
    form = LoginForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        if not _may_check_password(email):
            form.password.errors.append(TOO_MANY)
            return render_template("auth/login.html", form=form), 429
        user = db.session.scalar(select(User).where(User.email == email))
        if _password_matches(user, form.password.data) and user is not None:
            _forget_attempts(email)
            start_session(user, remember=form.remember.data)
            return redirect(_safe_next(request.args.get("next")))
        form.password.errors.append(NO_MATCH)
    status = 422 if form.errors else 200
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
@login_required
def logout() -> Response:
    db.session.execute(delete(UserSession).where(UserSession.token == current_user.get_id()))
    db.session.commit()
    logout_user()  # and Flask-Login clears the remember cookie
    flash("Logged out.", "info")
    return redirect(url_for("home.index"))


# ------------------------------------------------------------------------ account ---
def _render_account(
    password_form: PasswordChangeForm | None = None, status: int = 200
) -> tuple[str, int]:
    user: User = current_user._get_current_object()
    sessions = db.session.scalars(
        select(UserSession)
        .where(UserSession.user_id == user.id, UserSession.expires_at > utcnow())
        .order_by(UserSession.created_at.desc(), UserSession.id.desc())
    ).all()
    context: dict[str, Any] = {
        "password_form": password_form or PasswordChangeForm(formdata=None),
        "sessions": sessions,
        "this_token": user.get_id(),
    }
    return render_template("auth/account.html", **context), status


@bp.get("/account")
@login_required
def account() -> tuple[str, int]:
    return _render_account()


@bp.post("/account/password")
@login_required
def change_password() -> Response | tuple[str, int]:
    """A new password; every other session of the account ends, this one stays."""
    form = PasswordChangeForm()
    if not form.validate_on_submit():
        return _render_account(form, 422)
    user: User = current_user._get_current_object()
    if not _may_check_password(user.email):
        form.current.errors.append(TOO_MANY)
        return _render_account(form, 429)
    if not _password_matches(user, form.current.data):
        form.current.errors.append("That is not your current password: nothing was changed.")
        return _render_account(form, 422)
    _forget_attempts(user.email)
    user.password_hash = _hash(form.password.data)
    _end_sessions(user.id, keep=user.get_id())
    db.session.commit()
    flash("Password changed. Every other phone and browser is logged out.", "success")
    return redirect(url_for("auth.account"))


@bp.post("/account/logout-others")
@login_required
def logout_others() -> Response:
    """Log out every other phone and browser of this account (this one stays)."""
    # Its form is only a CSRF token, which CSRFProtect checked before this view ran.
    user: User = current_user._get_current_object()
    _end_sessions(user.id, keep=user.get_id())
    db.session.commit()
    flash("Every other phone and browser is logged out.", "success")
    return redirect(url_for("auth.account"))
