"""Sign up, log in (with limits on failed attempts: ``scorekeeper.services.logins``), log out, the
account page (change the password, log out everywhere else), and a forgotten password
(a reset link by mail, or from the operator: ``scorekeeper.services.resets``). A disabled account
(``flask users disable``) does not log in.

Every login is a UserSession row whose random token is what the session cookie and the
remember cookie carry (``User.get_id``); ``web.load_user`` refuses a token without a
live row. Logging out deletes the row, so a copied cookie dies with it.

Sign-up does not tell whether an email has an account: whatever the email, it answers
the same (a redirect to the log-in page, with the same sentence), in the same time (the
password is hashed either way). A new email gets its account; an email that has one
keeps it unchanged, and nobody is logged in by signing up."""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import cache
from typing import Any, cast

from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import Table, delete, select
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ..extensions import N_, db, upsert
from ..models import User, UserSession, utcnow
from ..services import logins, mail, resets
from .auth_forms import (
    ForgotPasswordForm,
    LoginForm,
    PasswordChangeForm,
    ResetPasswordForm,
    SignupForm,
)
from .locales import remember_language

bp = Blueprint("auth", __name__)
# Each sentence is marked for the catalogs (N_) and shown with gettext, in the reader's
# language (web/locales.py).
NO_MATCH = N_("That email and password do not match an account.")
DISABLED = N_("This account is disabled: ask whoever runs this app to enable it again.")
SIGNED_UP_AS = "signed_up_as"  # the session key: the email just signed up with
SIGNED_UP = N_(
    "Sign-up received: now log in with your email and the password you chose. If that "
    "email already had an account, nothing was changed, and its own password logs in."
)


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


def _refused(refusal: logins.Refusal, page: str | Response) -> Response:
    """A password check refused for now: 429 with the sentence on the form, and how long
    to wait (Retry-After)."""
    response = make_response(page, 429)
    response.headers["Retry-After"] = str(refusal.seconds)
    return response


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


def register(email: str, password: str) -> bool:
    """An account for ``email`` with ``password``, unless the email has one (then nothing
    changes): True when it was made. Both cost the same: the password is hashed first
    either way, and either way one row is written (the new one, or the existing one
    rewritten unchanged), so the commit costs the same too. Two sign-ups racing with one
    email store one account (the first), without an error for either. The person
    signing up is told the same either way (``signup``); with mail, this is where the
    new address would be asked to confirm and the owner of an existing one told that
    someone signed up with it."""
    hashed = _hash(password)
    insert = upsert(cast(Table, User.__table__)).values(
        email=email, password_hash=hashed, created_at=utcnow()
    )
    stored = db.session.scalar(
        insert.on_conflict_do_update(
            index_elements=["email"], set_={"email": insert.excluded.email}
        ).returning(User.__table__.c.password_hash)
    )
    db.session.commit()
    return stored == hashed  # a hash has a salt of its own: another one is not this


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> str | Response | tuple[str, int]:
    if current_user.is_authenticated:
        return redirect(url_for("home.index"))
    form = SignupForm()
    if form.validate_on_submit():
        register(form.email.data.strip().lower(), form.password.data)
        flash(_(SIGNED_UP), "info")
        session[SIGNED_UP_AS] = form.email.data.strip()  # the log-in form starts with it
        # On to log in, then where the sign-up was going (a keeper link), else a new night.
        wanted = request.args.get("next")
        after = _safe_next(wanted) if wanted else url_for("nights.new")
        return redirect(url_for("auth.login", next=after))
    status = 422 if form.errors else 200
    return render_template("auth/signup.html", form=form), status


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | Response | tuple[str, int]:
    if current_user.is_authenticated:
        return redirect(url_for("home.index"))
    form = LoginForm()
    if request.method == "GET" and not form.email.data:
        form.email.data = session.pop(SIGNED_UP_AS, None)
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        cookie = request.cookies.get(logins.DEVICE_COOKIE)
        source = logins.source_of(email, request.remote_addr or "", cookie)
        check = logins.may_check_password(source)
        if check.refusal is not None:
            form.password.errors.append(check.refusal.message)
            return _refused(check.refusal, render_template("auth/login.html", form=form))
        user = db.session.scalar(select(User).where(User.email == email))
        if _password_matches(user, form.password.data) and user is not None:
            if user.disabled_at is not None:
                form.password.errors.append(_(DISABLED))
                return render_template("auth/login.html", form=form), 403
            token = logins.device_token(cookie) or logins.new_device_token()
            logins.succeeded(source, check, token)
            start_session(user, remember=form.remember.data)
            response = redirect(_safe_next(request.args.get("next")))
            _set_device_cookie(response, token)
            if user.language:  # this browser speaks it logged out too, until changed
                remember_language(response, user.language)
            return response
        form.password.errors.append(_(NO_MATCH))
    status = 422 if form.errors else 200
    return render_template("auth/login.html", form=form), status


def _set_device_cookie(response: Response, token: str) -> None:
    """The known-device cookie: sent back only to the log-in page and the page that asks
    for a reset link (its paths: the owner's own phone gets its link whoever asked for
    that email before), for as long as a log-in keeps a device known."""
    config = current_app.config
    for path in (url_for("auth.login"), url_for("auth.forgot_password")):
        response.set_cookie(
            logins.DEVICE_COOKIE,
            token,
            max_age=int(logins.known_for().total_seconds()),
            path=path,
            secure=bool(config.get("SESSION_COOKIE_SECURE")),
            httponly=True,
            samesite="Lax",
        )


@bp.post("/logout")
@login_required
def logout() -> Response:
    db.session.execute(delete(UserSession).where(UserSession.token == current_user.get_id()))
    db.session.commit()
    logout_user()  # and Flask-Login clears the remember cookie
    flash(_("Logged out."), "info")
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
    source = logins.session_source(user.email, request.remote_addr or "", user.get_id())
    check = logins.may_check_password(source)
    if check.refusal is not None:
        form.current.errors.append(check.refusal.message)
        return _refused(check.refusal, _render_account(form)[0])
    if not _password_matches(user, form.current.data):
        form.current.errors.append(_("That is not your current password: nothing was changed."))
        return _render_account(form, 422)
    logins.succeeded(source, check)
    user.password_hash = _hash(form.password.data)
    _end_sessions(user.id, keep=user.get_id())
    db.session.commit()
    flash(_(PASSWORD_CHANGED), "success")
    return redirect(url_for("auth.account"))


@bp.post("/account/logout-others")
@login_required
def logout_others() -> Response:
    """Log out every other phone and browser of this account (this one stays)."""
    # Its form is only a CSRF token, which CSRFProtect checked before this view ran.
    user: User = current_user._get_current_object()
    _end_sessions(user.id, keep=user.get_id())
    db.session.commit()
    flash(_("Every other phone and browser is logged out."), "success")
    return redirect(url_for("auth.account"))


# ------------------------------------------------------------- password reset ---
PASSWORD_CHANGED = N_("Password changed. Every other phone and browser is logged out.")
RESET_SENT = N_(
    "A mail is on its way to %(email)s: open the link in it within the hour to choose a new "
    "password. Nothing there? Look in the spam folder, or ask again in a few minutes."
)
RESET_HELD = N_(
    "Reset links for %(email)s were asked for often in the last 15 minutes, so no new mail "
    "goes to it for %(wait)s: use the link of a mail already sent. A phone or browser that "
    "has logged in to this account before gets a new link now."
)
NO_MAIL = N_(
    "This app cannot send mail. Ask whoever runs it for a reset link: they make one with "
    "flask users reset-link and your email."
)
MAIL_FAILED = N_(
    "The mail could not be sent just now: nothing was changed. Try again in a few minutes."
)
LINK_DEAD = N_(
    "This reset link does not work: it was used already, is more than an hour old, or "
    "was copied wrong. Ask for a new one."
)


@bp.route("/password/forgot", methods=["GET", "POST"])
def forgot_password() -> str | Response | tuple[str, int]:
    """Ask for a reset link by mail. The answer is the same whether or not the email has
    an account (``resets.request_link`` does the same work either way)."""
    form = ForgotPasswordForm()
    if not mail.configured():
        status = 422 if request.method == "POST" else 200
        return render_template("auth/forgot.html", form=None, no_mail=_(NO_MAIL)), status
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        cookie = request.cookies.get(logins.DEVICE_COOKIE)
        try:
            asked = resets.request_link(
                email, request.remote_addr or "", form.submission.data, device_cookie=cookie
            )
        except mail.MailFailed:
            form.email.errors.append(_(MAIL_FAILED))
            return render_template("auth/forgot.html", form=form), 503
        if asked.refusal is not None:
            form.email.errors.append(asked.refusal.message)
            return _refused(asked.refusal, render_template("auth/forgot.html", form=form))
        if asked.held is not None:  # asked for too often by others: no mail, no 429
            flash(_(RESET_HELD, email=email, wait=asked.held), "info")
        else:
            flash(_(RESET_SENT, email=email), "info")
        return redirect(url_for("auth.login"))
    status = 422 if form.errors else 200
    return render_template("auth/forgot.html", form=form), status


@bp.route(resets.RESET_PATH, methods=["GET", "POST"])
def reset_password() -> str | Response | tuple[str, int]:
    """Choose a new password with a reset link (``?token=``): it works once; every login
    of the account ends, and this browser is logged in with the new password."""
    form = ResetPasswordForm()
    if request.method == "GET":
        token = request.args.get("token", "")
        form.token.data = token
        alive = resets.usable(token) is not None
        dead = _(LINK_DEAD)
        return render_template("auth/reset.html", form=form if alive else None, dead=dead)
    if not form.validate_on_submit():
        if resets.usable(form.token.data or "") is None:
            return render_template("auth/reset.html", form=None, dead=_(LINK_DEAD)), 422
        return render_template("auth/reset.html", form=form, dead=_(LINK_DEAD)), 422
    user = resets.redeem(form.token.data, _hash(form.password.data))
    if user is None:
        return render_template("auth/reset.html", form=None, dead=_(LINK_DEAD)), 422
    logout_user()
    start_session(user, remember=False)
    flash(_(PASSWORD_CHANGED), "success")
    return redirect(url_for("home.index"))
