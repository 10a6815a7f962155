"""The app behind gzip, as a TLS proxy with compression on (nginx ``gzip on``, Caddy
``encode gzip``) would serve it: ``gunicorn --pythonpath benchmarks/lighthouse
'gzipped:create_app()'``. Benchmark only: run.py --gzip measures what compression gives."""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterable
from typing import Any

from scorekeeper import create_app as create_scorekeeper

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest")


class Gzip:
    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if "gzip" not in environ.get("HTTP_ACCEPT_ENCODING", ""):
            return self.app(environ, start_response)
        captured: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            captured.update(status=status, headers=headers, exc_info=exc_info)
            return lambda data: None  # the app returns its body; nothing writes directly

        chunks = self.app(environ, capture)
        try:
            body = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
        headers = list(captured["headers"])
        kind = next((v for k, v in headers if k.lower() == "content-type"), "")
        if kind.startswith(COMPRESSIBLE) and len(body) > 256:
            body = gzip.compress(body, compresslevel=6)
            headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
            headers += [
                ("Content-Encoding", "gzip"),
                ("Content-Length", str(len(body))),
                ("Vary", "Accept-Encoding"),
            ]
        start_response(captured["status"], headers, captured["exc_info"])
        return [body]


def create_app() -> Gzip:
    return Gzip(create_scorekeeper())
