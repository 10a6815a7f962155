"""The web app: one blueprint per feature, security headers, error pages."""

from __future__ import annotations

from contextlib import suppress

from flask import Flask, Response, g, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy import select

from ..extensions import db, login_manager
from ..models import User, UserSession, utcnow
from ..rules import format_cents

TOKEN_MAX = 64  # UserSession.token's column

# A content security policy with no inline script or style: everything is in static/.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@login_manager.user_loader
def load_user(token: str) -> User | None:
    """The user of a live login: ``token`` (from the session cookie or the remember
    cookie) must name a UserSession that is neither deleted nor expired; one query, the
    session joined with its user. A cookie from before sessions had tokens (a user's id)
    names no session and logs no one in."""
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX:
        return None
    user = db.session.scalar(
        select(User)
        .join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.token == token, UserSession.expires_at > utcnow())
    )
    if user is not None:
        user.session_token = token
    return user


def _security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def _error(code: int, title: str, message: str) -> tuple[str, int]:
    return render_template("error.html", code=code, title=title, message=message), code


def init_app(app: Flask) -> None:
    from . import api, auth, games, home, nights, printouts

    for module in (home, auth, nights, games, printouts, api):
        app.register_blueprint(module.bp)
    app.after_request(_security_headers)
    app.jinja_env.globals["money"] = format_cents

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[str, int]:
        return _error(
            400,
            "Form expired",
            "This form is out of date or was not sent from this app. Go back, "
            "reload the page and try again: nothing was saved.",
        )

    @app.errorhandler(400)
    def bad_request(exc: Exception) -> tuple[str, int]:
        return _error(
            400,
            "Bad request",
            "The form sent was incomplete or malformed: nothing was saved. Go back, "
            "reload the page and try again.",
        )

    @app.errorhandler(404)
    def not_found(exc: Exception) -> tuple[str, int]:
        return _error(404, "Not found", "There is nothing here, or it is not yours to see.")

    @app.errorhandler(413)
    def too_large(exc: Exception) -> tuple[str, int]:
        return _error(413, "Too large", "That upload is too large: nothing was saved.")

    @app.errorhandler(405)
    def not_allowed(exc: Exception) -> tuple[str, int]:
        return _error(405, "Not allowed", "That action is not available here.")

    @app.errorhandler(500)
    def server_error(exc: Exception) -> tuple[str, int]:
        # The database may be what failed: the error page must not need it, so it neither
        # rolls back through a dead connection nor looks up the logged-in user again.
        with suppress(Exception):
            db.session.rollback()
        g._login_user = login_manager.anonymous_user()
        return render_template(
            "error.html",
            code=500,
            title="Something went wrong",
            message="Every change is saved whole or not at all, never half. Reload the "
            "sheet to see whether your last change is there before you enter it again.",
        ), 500
