"""Where a page's stream is (``STREAMS_SUBSCRIBE``: the stream engine's subscriber
locations, ``deploy/nginx.conf``), for the pages that follow a table: the live views
(``/live/<token>`` -> ``<base>/live/<token>``) and the keeper's sheet
(``<base>/game/<id>``, authorized by ``games.stream_auth``). None when not configured
(the embedded default): the pages poll."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, current_app

from .headers import CSP


def stream_url(path: str) -> str | None:
    base = current_app.config.get("STREAMS_SUBSCRIBE")
    return f"{str(base).rstrip('/')}/{path}" if base else None


def allow_stream(response: Response) -> Response:
    """A page whose stream is on another origin (the front's, while the page was asked of
    the app itself) may connect to it: its own content security policy says so."""
    base = str(current_app.config.get("STREAMS_SUBSCRIBE") or "")
    parts = urlsplit(base)
    if parts.scheme in ("http", "https") and parts.netloc:
        origin = f"{parts.scheme}://{parts.netloc}"
        response.headers["Content-Security-Policy"] = CSP.replace(
            "connect-src 'self'", f"connect-src 'self' {origin}"
        )
    return response
