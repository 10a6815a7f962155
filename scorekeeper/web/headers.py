"""The headers every response carries, added at the WSGI edge: the security headers, and
for pages (not static files) who may cache them and what they vary on.

One pass over the finished header list in ``start_response``, whatever made the response
(a view, an error page, Flask-Compress): a header a view set itself is kept. Done as
Flask ``after_request`` hooks on werkzeug's ``Headers`` these cost a fifth of a 304."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.wrappers import Response

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
PAGE_VARY = ("cookie", "accept-encoding")  # who asks, and how the body is compressed

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def add_headers(headers: list[tuple[str, str]], *, secure: bool, page: bool) -> None:
    """Add to ``headers`` (a WSGI header list) what is missing of the standard headers:
    HSTS only over HTTPS; the cache policy and ``Vary`` only for pages."""
    present = {name.lower() for name, _ in headers}
    wanted = [*SECURITY_HEADERS, HSTS] if secure else [*SECURITY_HEADERS]
    if page:
        wanted.append(PAGE_CACHE_CONTROL)
    headers.extend((name, value) for name, value in wanted if name.lower() not in present)
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
    response. Static files (under ``static_prefix``) get the security headers only."""

    def __init__(self, app: WSGIApp, static_prefix: str) -> None:
        self.app = app
        self.static_prefix = static_prefix.rstrip("/") + "/"

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        secure = environ.get("wsgi.url_scheme") in ("https", "wss")
        page = not environ.get("PATH_INFO", "").startswith(self.static_prefix)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            add_headers(headers, secure=secure, page=page)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def not_modified(etag: str) -> Response:
    """A 304 confirming the phone's copy, tagged with its weak ``etag``: built directly
    (no body, nothing to compress); the headers above are added on the way out."""
    return Response(status=304, headers=[("ETag", f'W/"{etag}"')])
