"""The web app: one blueprint per feature, security headers, error pages."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any

from flask import (
    Flask,
    Response,
    current_app,
    g,
    has_request_context,
    jsonify,
    render_template,
    request,
)
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from ..extensions import N_, csrf, db, login_manager
from ..models import TOKEN_MAX, User, UserSession, utcnow
from ..rules import format_money
from ..rules.money import use_money_locale
from ..services import login_from_stamp
from . import locales
from .clock import local_moment, local_time
from .fields import new_submission
from .headers import PUBLIC_PREFIX, StandardHeaders
from .offline import wants_json
from .script_words import script_words


def datetime_attr(moment: datetime) -> str:
    """A stored moment as a ``<time datetime>`` value: UTC to the second
    (``2026-11-27T21:43:05Z``). Stored moments are UTC; SQLite gives them back without
    their zone, and the HTML standard takes no more than three decimals of a second."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class IdConverter(IntegerConverter):
    """``<id:game_id>``: a database id. Ids are INTEGER columns, so a larger number cannot
    exist: it is not found (404) rather than overflowing the query, on every route and
    before any view (or a conditional GET's shortcut) runs."""

    def __init__(self, map: Any) -> None:
        super().__init__(map, min=1, max=2**31 - 1)


@login_manager.user_loader
def load_user(token: str) -> User | None:
    """The user of a live login: ``token`` (from the session cookie or the remember
    cookie) must name a UserSession that is neither deleted nor expired; one query, the
    session joined with its user. A cookie from before sessions had tokens (a user's id)
    names no session and logs no one in. When the request's game stamp already found this
    login (``games.blueprint.owned_stamp``), the user is made from that row instead."""
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX:
        return None
    proven = g.get("stamp_login")
    if proven is not None and proven[0] == token:  # the game's stamp read this login
        return login_from_stamp(proven[1], token)
    user = db.session.scalar(
        select(User)
        .join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.token == token, UserSession.expires_at > utcnow())
        .where(User.disabled_at.is_(None))
    )
    if user is not None:
        user.session_token = token
    return user


class _NoSession(SecureCookieSession):
    """The session of a public page: empty, and never saved."""


class SessionsOffPublicPages(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except on the players' public pages (paths under
    ``PUBLIC_PREFIX``, their 404s too): there the session cookie is not read, and nothing
    is saved, so no cookie is ever set (a keeper's browser opening a live link included).
    Decided by the path, since the session opens before the URL is matched."""

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        if request.path.startswith(PUBLIC_PREFIX):
            return _NoSession()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        if not isinstance(session, _NoSession):
            super().save_session(app, session, response)


def _nobody_on_public_pages() -> None:
    """On the players' public pages nobody is logged in, without looking: Flask-Login
    would otherwise load the login from the keeper's remember cookie as soon as a
    template asks for ``current_user`` (a query, and a session written back as a
    cookie). Those pages show nothing of an account."""
    if request.path.startswith(PUBLIC_PREFIX):
        g._login_user = login_manager.anonymous_user()


def _error(code: int, title: str, message: str) -> tuple[str | Response, int]:
    if request.path.startswith("/api/") or wants_json():
        # The API answers in JSON, even before a view runs (an id out of range, a 405); so
        # does every page to the phone's queue of rounds (web/offline.py).
        return jsonify({"error": API_MESSAGES.get(code, message)}), code
    # The page in the reader's language; the API's JSON keeps the English (its clients').
    page = render_template("error.html", code=code, title=_(title), message=_(message))
    return page, code


API_MESSAGES = {404: "no such game among yours"}
CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class SafeMethodWrite(Exception):
    """A GET or HEAD request tried to change the database (it carries no CSRF check)."""


def _refuse_writes_in_safe_requests(session: Any, flush_context: Any, instances: Any) -> None:
    """GET and HEAD are never checked for CSRF (Flask-WTF protects POST and the like), so
    they must never change anything: a view that forgets which method it answers (a HEAD
    with a form body running the POST branch) is stopped here, before anything is written,
    for every view at once."""
    if (
        has_request_context()
        and request.method not in CHANGING_METHODS
        and (session.new or session.dirty or session.deleted)
    ):
        raise SafeMethodWrite(request.method)


def _check_csrf() -> None:
    """Money is written in English until the request finds its night
    (``rules.money.use_money_locale``): a worker's thread never carries one request's
    locale into the next. Then Flask-WTF's CSRF check of every request that can change
    something, exactly as its default hook makes it (exempt views skipped), after asking
    the method first: the GETs, most of what the app answers, pass at once."""
    use_money_locale(None)
    if request.method in CHANGING_METHODS and current_app.config["WTF_CSRF_ENABLED"]:
        csrf.protect(apply_exemptions=True)


#: Routes that take a larger upload than ``MAX_CONTENT_LENGTH``: the setting that bounds it.
LARGER_UPLOADS = {"accounts.import_account": "ACCOUNT_IMPORT_MAX_BYTES"}


def _larger_uploads() -> None:
    """The account import takes a file up to its own limit: set before anything reads
    the body (the CSRF check reads the form)."""
    setting = LARGER_UPLOADS.get(request.endpoint or "")
    if setting is not None:
        request.max_content_length = int(current_app.config[setting])


def init_app(app: Flask) -> None:
    from . import (
        accounts,
        api,
        auth,
        claims,
        games,
        home,
        keepers,
        language,
        live,
        nights,
        offline,
        ops,
        printouts,
        regulars,
        settle,
    )

    app.url_map.converters["id"] = IdConverter
    ops.init_app(app)  # first: the request's id and the schema guard come before the rest
    blueprints = (home, auth, accounts, nights, settle, regulars, games, printouts, api, live,
                  keepers, claims, language)  # fmt: skip
    for module in (*blueprints, offline):
        app.register_blueprint(module.bp)
    app.before_request(_larger_uploads)
    app.before_request(_check_csrf)
    app.before_request(_nobody_on_public_pages)
    app.session_interface = SessionsOffPublicPages()
    app.wsgi_app = StandardHeaders(app.wsgi_app, app.static_url_path or "/static")  # type: ignore[method-assign]
    if not event.contains(db.session, "before_flush", _refuse_writes_in_safe_requests):
        event.listen(db.session, "before_flush", _refuse_writes_in_safe_requests)
    app.jinja_env.globals["money"] = format_money
    app.jinja_env.globals["new_submission"] = new_submission
    app.jinja_env.filters["datetime_attr"] = datetime_attr
    app.jinja_env.filters["local_time"] = local_time
    app.jinja_env.filters["local_moment"] = local_moment
    app.jinja_env.globals["html_lang"] = locales.html_lang
    app.jinja_env.globals["languages"] = locales.LANGUAGES
    app.jinja_env.globals["current_language"] = locales.current_language
    app.jinja_env.globals["script_words"] = script_words

    for raised, (code, title, message) in ERROR_PAGES.items():
        app.register_error_handler(raised, _error_page(code, title, message))
    app.register_error_handler(500, _server_error)


# What each refusal shows: the code, the page's title and what happened to the change.
# The API and the phone's queue get the message (or API_MESSAGES) in JSON (``_error``).
_CHANGED_AT_ONCE = (
    409,
    N_("Changed at the same moment"),
    N_(
        "Two changes met at the same moment, so yours was not saved (nothing was half "
        "saved). Reload the page and try again."
    ),
)
ERROR_PAGES: dict[type[Exception] | int, tuple[int, str, str]] = {
    CSRFError: (
        400,
        N_("Form expired"),
        N_(
            "This form is out of date or was not sent from this app. Go back, reload the "
            "page and try again: nothing was saved."
        ),
    ),
    400: (
        400,
        N_("Bad request"),
        N_(
            "The form sent was incomplete or malformed: nothing was saved. Go back, reload "
            "the page and try again."
        ),
    ),
    404: (404, N_("Not found"), N_("There is nothing here, or it is not yours to see.")),
    405: (405, N_("Not allowed"), N_("That action is not available here.")),
    413: (413, N_("Too large"), N_("That upload is too large: nothing was saved.")),
    SafeMethodWrite: (
        405,
        N_("Not allowed"),
        N_("Nothing was saved: a change must be sent with the app's own form."),
    ),
    # The last line of defence: services turn these into sentences of their own.
    IntegrityError: _CHANGED_AT_ONCE,
    StaleDataError: _CHANGED_AT_ONCE,
}


def _error_page(
    code: int, title: str, message: str
) -> Callable[[Exception], tuple[str | Response, int]]:
    def handler(exc: Exception) -> tuple[str | Response, int]:
        if not isinstance(exc, HTTPException):
            db.session.rollback()  # a refused write: nothing of it stays in the session
        return _error(code, title, message)

    return handler


def _server_error(exc: Exception) -> tuple[str, int]:
    # The database may be what failed: the error page must not need it, so it neither
    # rolls back through a dead connection nor looks up the logged-in user again.
    with suppress(Exception):
        db.session.rollback()
    g._login_user = login_manager.anonymous_user()
    return render_template(
        "error.html",
        code=500,
        title=_("Something went wrong"),
        message=_(
            "Every change is saved whole or not at all, never half. Reload the sheet to see "
            "whether your last change is there before you enter it again."
        ),
    ), 500
