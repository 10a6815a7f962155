"""The headers every response carries, added at the WSGI edge: the security headers; for
pages (not static files) who may cache them and what they vary on; for the players' live
views (anyone with the link may read them) no referrer and no indexing. And the pieces of
a conditional answer: the templates' part of an ETag, and the 304 itself.

One pass over the finished header list in ``start_response``, whatever made the response
(a view, an error page, Flask-Compress): a header a view set itself is kept. Done as
Flask ``after_request`` hooks on werkzeug's ``Headers`` these cost a fifth of a 304."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from flask import current_app, request
from flask_babel import get_locale
from werkzeug.http import quote_etag
from werkzeug.wrappers import Response

from ..reports.files import files_digest

# A content security policy with no inline script or style: everything is in static/.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)
HSTS = ("Strict-Transport-Security", "max-age=31536000")
# Pages hold one keeper's data and a CSRF token: caches may keep them only for that
# browser, and must ask again before using them (a 304 when nothing changed).
PAGE_CACHE_CONTROL = ("Cache-Control", "private, no-cache")
# who asks (and the language they read: their cookie, their browser's), how it is compressed
PAGE_VARY = ("cookie", "accept-encoding", "accept-language")
# The players' live views (``/live/...``): their URL is their key, so no page sends it on
# as a referrer, and no search engine keeps them.
PUBLIC_HEADERS = (("Referrer-Policy", "no-referrer"), ("X-Robots-Tag", "noindex, nofollow"))
# Where the players' public pages live: they get PUBLIC_HEADERS, and neither read nor
# write a session (web.SessionsOffPublicPages).
PUBLIC_PREFIX = "/live/"

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def add_headers(
    headers: list[tuple[str, str]], *, secure: bool, page: bool, public: bool = False
) -> None:
    """Add to ``headers`` (a WSGI header list) what is missing of the standard headers:
    HSTS only over HTTPS; the cache policy and ``Vary`` only for pages; a public live
    view's no-referrer and no-index before the rest."""
    present = {name.lower() for name, _ in headers}
    wanted = [*PUBLIC_HEADERS] if public else []
    wanted += [*SECURITY_HEADERS, HSTS] if secure else SECURITY_HEADERS
    if page:
        wanted.append(PAGE_CACHE_CONTROL)
    for name, value in wanted:
        if name.lower() not in present:
            headers.append((name, value))
            present.add(name.lower())
    if not page:
        return
    for i, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            have = {v.strip().lower() for v in value.split(",")}
            missing = [v.title() for v in PAGE_VARY if v not in have]
            if missing:
                headers[i] = (name, ", ".join([value, *missing]))
            return
    headers.append(("Vary", ", ".join(v.title() for v in PAGE_VARY)))


class StandardHeaders:
    """WSGI middleware around the Flask app's ``wsgi_app``: ``add_headers`` on every
    response. Static files (under ``static_prefix``) get the security headers only; the
    live views (under ``public_prefix``, their errors too) the public ones as well."""

    def __init__(
        self, app: WSGIApp, static_prefix: str, public_prefix: str = PUBLIC_PREFIX
    ) -> None:
        self.app = app
        self.static_prefix = static_prefix.rstrip("/") + "/"
        self.public_prefix = public_prefix

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        secure = environ.get("wsgi.url_scheme") in ("https", "wss")
        path = environ.get("PATH_INFO", "")
        page = not path.startswith(self.static_prefix)
        public = path.startswith(self.public_prefix)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            add_headers(headers, secure=secure, page=page, public=public)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def unchanged(etag: str) -> Response | None:
    """A 304 when the request's ``If-None-Match`` holds ``etag`` (weak comparison, as for
    every page's ETag here), else None. Built directly (no body, nothing to compress); the
    headers above are added on the way out."""
    if not request.if_none_match.contains_weak(etag):
        return None
    return Response(status=304, headers=[("ETag", quote_etag(etag, weak=True))])


def templates_version() -> str:
    """Part of every ETag of a rendered page (and every key of a rendered part): a deploy
    that changes any template changes every ETag, so no phone keeps a page drawn by the
    old templates; and the language the page is drawn in (``web.language``), so a keeper
    who changes language, or two phones reading two, never get each other's copy."""
    return f"{_templates_digest()}.{get_locale() or 'en'}"


@functools.cache
def _templates_digest() -> str:
    return files_digest(Path(current_app.template_folder or "templates"))
