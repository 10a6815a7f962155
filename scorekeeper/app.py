"""Scorekeeper: the score sheet, pot and payouts of a card night, on a phone.

``create_app(test_config=None)``: config -> extensions -> blueprints -> command line.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from .operator_errors import StartRefused, report_operator_errors

ROOT = Path(__file__).resolve().parent.parent


def _asset_dir(name: str) -> str:
    """templates/ and static/ live at the top of the checkout (the product's layout);
    a built wheel carries them inside the package as ``scorekeeper/_<name>``, looked for
    first (an installed package's parent is site-packages, where another distribution
    may have left a folder of that name)."""
    packaged = Path(__file__).resolve().parent / f"_{name}"
    return str(packaged if packaged.is_dir() else ROOT / name)


def _secret_key(instance: Path) -> str:
    """A per-installation secret, generated into instance/ on first run."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return path.read_text().strip()


#: The secret key deploy/scorekeeper.env ships with, to be replaced.
PLACEHOLDER_SECRET = "change-me"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    if test_config is None:
        report_operator_errors()
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
        static_url_path="/static",
    )
    instance = Path(app.instance_path)
    app.config.from_mapping(_defaults(instance))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = _sqlalchemy_url(os.environ["DATABASE_URL"])
        app.config.from_prefixed_env("SCOREKEEPER")
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
        app.config["SECRET_KEY_GENERATED"] = True
    elif str(app.config["SECRET_KEY"]).startswith(PLACEHOLDER_SECRET):
        raise StartRefused(
            "SCOREKEEPER_SECRET_KEY is still the sample's placeholder: set it to the output "
            "of `python3 -c 'import secrets; print(secrets.token_hex(32))'`, the same on "
            "every instance."
        )
    if app.config.get("SECURE_COOKIES"):
        app.config.update(SESSION_COOKIE_SECURE=True, REMEMBER_COOKIE_SECURE=True)

    from .extensions import babel, compress, csrf, db, login_manager, migrate
    from .web.locales import select_locale

    db.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    migrate.init_app(app, db, directory=str(Path(__file__).resolve().parent / "migrations"))
    csrf.init_app(app)
    compress.init_app(app)
    login_manager.init_app(app)

    from . import cli, web

    web.init_app(app)
    cli.init_app(app)
    _shared_cache(app)
    _behind_proxies(app)
    _error_reporter(app)
    return app


def _error_reporter(app: Flask) -> None:
    """Sentry's SDK, when ``SENTRY_DSN`` is set (off otherwise, and nothing is sent):
    unhandled errors of requests, tagged with the request's id (the X-Request-ID header
    and the log lines), the release's version; the SDK's defaults send no personal data
    (no cookies, no addresses, no form bodies). ``SENTRY_OPTIONS``
    (a JSON object) adds options of ``sentry_sdk.init``."""
    dsn = app.config.get("SENTRY_DSN")
    if not dsn:
        return
    import sentry_sdk
    from flask import g, has_request_context
    from sentry_sdk.integrations.flask import FlaskIntegration

    from .services.health import version

    def tag_request(event: Any, hint: Any) -> Any:
        if has_request_context() and g.get("request_id"):
            event.setdefault("tags", {})["request_id"] = g.request_id
        return event

    sentry_sdk.init(
        dsn=dsn,
        integrations=[FlaskIntegration()],
        release=f"scorekeeper@{version()}",
        before_send=tag_request,
        **dict(app.config.get("SENTRY_OPTIONS") or {}),
    )


def _defaults(instance: Path) -> dict[str, Any]:
    """The settings before the instance's config.py and ``SCOREKEEPER_*`` variables
    (README: Configuration)."""
    return {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'scorekeeper.sqlite3'}",
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_DURATION": 60 * 60 * 24 * 60,
        # How long a login without "Keep me logged in" lasts on the server (a card night
        # and then some); a remembered login lasts REMEMBER_COOKIE_DURATION. Seconds.
        "LOGIN_DURATION": 60 * 60 * 24,
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 30,
        "WTF_CSRF_TIME_LIMIT": None,
        # Flask-WTF's own hook checks exemptions before the method, on every GET too; the
        # app's hook (web.init_app) asks the method first and then makes the same check.
        "WTF_CSRF_CHECK_DEFAULT": False,
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        "LOGIN_ATTEMPTS_PER_15_MINUTES": 10,
        "LOGIN_ATTEMPTS_PER_ADDRESS_PER_15_MINUTES": 50,
        # "Forgot password?": reset links asked for, per email and per client address
        # (services/resets.py), and how long a link works (seconds).
        "RESET_REQUESTS_PER_15_MINUTES": 3,
        "RESET_REQUESTS_PER_ADDRESS_PER_15_MINUTES": 10,
        "RESET_LINK_DURATION": 60 * 60,
        # Mail (services/mail.py): off until MAIL_SERVER is set. PUBLIC_URL is the
        # address the app is reached at (https://cards.example.org), which links in mails
        # and the command line's reset links start with; never taken from a request.
        "MAIL_SERVER": None,
        "MAIL_PORT": None,
        "MAIL_USE_TLS": True,
        "MAIL_USE_SSL": False,
        "MAIL_USERNAME": None,
        "MAIL_PASSWORD": None,
        "MAIL_SENDER": None,
        "MAIL_TIMEOUT": 10,
        "PUBLIC_URL": None,
        # "Import" of a whole account (services/accounts/): the largest zip file.
        "ACCOUNT_IMPORT_MAX_BYTES": 16 * 1024 * 1024,
        # How long a successful log-in keeps its browser and address known for its email
        # (they then log in past a stranger's failed attempts: services/logins.py).
        "KNOWN_LOGIN_DURATION": 60 * 60 * 24 * 365,
        "COMPRESS_MIMETYPES": [
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "text/plain",
            "application/manifest+json",
        ],
        "COMPRESS_ALGORITHM": ["br", "gzip"],
    }


def _behind_proxies(app: Flask) -> None:
    """``PROXY_FIX = n``: the app is served behind ``n`` proxies (a TLS-terminating nginx
    or Caddy: 1) whose ``X-Forwarded-For``, ``-Proto``, ``-Host`` and ``-Port`` it trusts
    (werkzeug's ProxyFix): HTTPS is seen as HTTPS (HSTS, https:// live links and QR codes),
    and the client's address as the client's. Unset, those headers are ignored: anyone
    could send them."""
    hops = int(app.config.get("PROXY_FIX") or 0)
    if hops > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops
        )


def _shared_cache(app: Flask) -> None:
    """A cache of rendered documents shared by every worker and host (Flask-Caching), when
    ``CACHE_TYPE`` is configured, e.g. ``SCOREKEEPER_CACHE_TYPE=RedisCache`` and
    ``SCOREKEEPER_CACHE_REDIS_URL=redis://127.0.0.1:6379/0``. Without it each worker keeps
    its own cache in memory (scorekeeper/cache.py), and no other service is needed. When
    the backend fails, each worker logs it and uses its own caches until it answers again
    (``cache.SharedCache``); Redis gets short socket timeouts by default, so a Redis host
    that went silent holds a request up for at most about a second."""
    if not app.config.get("CACHE_TYPE"):
        return
    from flask_caching import Cache

    from .cache import SharedCache

    app.config.setdefault("CACHE_DEFAULT_TIMEOUT", 24 * 60 * 60)
    app.config.setdefault("CACHE_KEY_PREFIX", "scorekeeper:")
    if str(app.config["CACHE_TYPE"]).endswith("RedisCache"):
        app.config.setdefault(
            "CACHE_OPTIONS", {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
        )
    app.extensions["scorekeeper_shared_cache"] = SharedCache(Cache(app))


def _sqlalchemy_url(url: str) -> str:
    """Accept the common ``postgres://`` spelling and use psycopg 3 for PostgreSQL."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
