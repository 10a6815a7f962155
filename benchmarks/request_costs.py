"""What each kind of request of a table night costs the app and PostgreSQL, measured inside
gunicorn (benchmarks/capacity.py): server hooks added to deploy/gunicorn.conf.py.

For every request a sync worker serves, ``pre_request`` and ``post_request`` read the
worker's CPU time (``time.process_time``: one request at a time, one thread) and the CPU
time of the PostgreSQL backends of the worker's pooled connections (``/proc/<pid>/schedstat``,
in nanoseconds; a backend serves only its connection, so what it spent between the two
hooks it spent on this request). ``post_request`` runs after the response was written and
logged, so the app's share includes sending and the access log line; parsing the request
before ``pre_request`` is not counted (the whole worker's CPU, counted from /proc by
capacity.py, is the check). Totals by kind go to ``$CAPACITY_COSTS_DIR/<pid>.json`` at
most twice a second, with the worker's cache fill.

Standard library only (and SQLAlchemy's event API): no Locust, no gevent, in a worker.
``kind_of`` names a request by its method, path and status; the load model
(benchmarks/table_night.py) names its statistics with it too."""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

#: (method, path pattern, name); the first match names the request. A 304 and a 200 of a
#: page are different kinds (one query against a render).
KINDS = [
    ("GET", r"/games/\d+/rounds/new", "keeper: round form"),
    ("POST", r"/games/\d+/rounds/new", "keeper: save round"),
    ("GET", r"/games/\d+/rounds/\d+", "keeper: correction form"),
    ("POST", r"/games/\d+/rounds/\d+", "keeper: save correction"),
    ("GET", r"/games/\d+\?saved=\d+", "keeper: sheet after save"),
    ("GET", r"/games/\d+", "keeper: sheet"),
    ("GET", r"/games/\d+/sheet\.pdf", "keeper: sheet PDF"),
    ("GET", r"/nights/\d+/games/new\?.*", "keeper: new game form"),
    ("POST", r"/nights/\d+/games/new\?.*", "keeper: start game"),
    ("POST", r"/games/\d+/live", "keeper: show players"),
    ("GET", r"/games/\d+/live", "keeper: live link page"),
    ("GET", r"/live/night/[\w-]+", "night phone: live view"),
    ("GET", r"/live/[\w-]+", "player: live view"),
]
_KINDS = [(m, re.compile(p + r"\Z"), name) for m, p, name in KINDS]


def kind_of(method: str, path: str, status: int) -> str:
    for m, pattern, name in _KINDS:
        if m == method and pattern.match(path):
            if name.endswith("live view") or name == "keeper: sheet":
                return f"{name} {status}"
            return name
    return f"other {method}"


# ------------------------------------------------------------- gunicorn hooks ---
_backends: dict[int, int] = {}  # PostgreSQL backend pid -> open fd of its schedstat
_totals: dict[str, list[float]] = {}  # kind -> [requests, app CPU s, PostgreSQL CPU s]
_mark: dict[str, float] = {}
_written = [0.0]


def _backend_ns() -> int:
    spent = 0
    for pid, fd in list(_backends.items()):
        try:
            spent += int(os.pread(fd, 64, 0).split()[0])
        except (OSError, ValueError, IndexError):  # the connection is gone
            os.close(fd)
            del _backends[pid]
    return spent


def post_fork(server: Any, worker: Any) -> None:
    """Watch every database connection this worker opens: its backend's pid."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def connected(dbapi_connection: Any, record: Any) -> None:
        pid = getattr(getattr(dbapi_connection, "info", None), "backend_pid", None)
        if pid and pid not in _backends:
            with contextlib.suppress(OSError):
                _backends[pid] = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY)

    event.listen(Engine, "connect", connected)


def pre_request(worker: Any, req: Any) -> None:
    _mark["app"] = time.process_time()
    _mark["db"] = _backend_ns() / 1e9


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    app = time.process_time() - _mark.get("app", time.process_time())
    db = _backend_ns() / 1e9 - _mark.get("db", 0.0)
    path = req.path + (f"?{req.query}" if req.query else "")
    kind = kind_of(req.method, path, int(str(resp.status).split()[0]))
    total = _totals.setdefault(kind, [0, 0.0, 0.0])
    total[0] += 1
    total[1] += app
    total[2] += max(db, 0.0)
    now = time.monotonic()
    if now - _written[0] >= 0.5:
        _written[0] = now
        _write()


def worker_exit(server: Any, worker: Any) -> None:
    _write()


def _caches() -> dict[str, int]:
    """The bytes each of the worker's caches holds (what the README bounds)."""
    try:
        from scorekeeper.reports import files
        from scorekeeper.services import state
        from scorekeeper.web.games import sheet
    except ImportError:  # pragma: no cover - the app is not loaded yet
        return {}
    return {
        "standings": state.STANDINGS_CACHE.bytes,
        "drawn states": state.DRAWN_STATES.bytes,
        "sheets": sheet.SHEET_CACHE.local.bytes,
        "pdfs": files.PDF_CACHE.documents.local.bytes,
    }


def _write() -> None:
    folder = os.environ.get("CAPACITY_COSTS_DIR")
    if not folder:
        return
    path = Path(folder) / f"{os.getpid()}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"kinds": _totals, "caches": _caches(), "at": time.time()}))
    tmp.replace(path)
