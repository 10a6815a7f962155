"""Throughput of the app over HTTP under gunicorn, against a bare Flask app served the same way.

    PYTHONPATH=. .venv/bin/python -P benchmarks/http_load.py [--sqlite] [--duration 8] [--repeats 2]
        [--workers N] [--connections N] [--client wrk|python] [--only sheet conditional ...]
        [--floor-reads transaction|autocommit]

Starts, in one run and on one machine, three gunicorn servers with the same flags (sync
workers, ``--workers N``, loopback): the app (``scorekeeper:create_app()``) on a fresh
PostgreSQL database (``--sqlite``: a SQLite file), migrated with ``flask db upgrade``; the
baseline, a Flask app whose only route returns a constant string for any path and method;
and the floor, a Flask app that reads the same signed session cookie and runs one
primary-key SELECT on the same database (what any page of the app must do at least; in
SQLAlchemy's default transaction, or with ``--floor-reads autocommit`` in autocommit, as
the app's one-query answers read: a stricter floor). One
load generator (``wrk`` when installed, else a threaded Python client; the same one for
every server) then drives, for a fixed duration each:

1. **sheet**: GET the score sheet of a Vegas game of 10 players x 60 rounds (re-buys, a
   drop and a re-join: ``tests.samples.long_vegas``), logged in;
2. **post**: POST a round to a Vegas game of 10 players (imported with 60 rounds, max
   score 100000 so nobody expires); each connection posts to a game of its own, each
   request with a fresh submission id and the version the previous 302 implies; each
   connection takes turns over games of its own (``GAMES_PER_CONNECTION``), so that a game
   grows by a few rounds per run, not by hundreds;
3. **conditional**: GET the unchanged sheet with ``If-None-Match`` (the app answers 304);
4. **pdf**: GET the sheet as PDF, when the app has such a route (looked up in
   scorekeeper/web/*.py; skipped with a note otherwise). The app caches PDFs per worker
   process, so this measures the cached download; the first render is timed separately.
5. **live**: GET the players' live view of the same game (``/live/<token>``, the link the
   keeper shows with "Show players") with ``If-None-Match`` and no cookie at all: the 304
   a table of phones polling every few seconds gets while nothing changes (skipped with a
   note when the app has no live view). Its floor is the anonymous floor (no cookie).

The baselines get the same requests (same path, headers and body) from the same client.
Prints requests/s of each, the ratios app / baseline and app / floor, and each goal
against the floor with met / not met (``GOALS``: 304 >= 0.8, sheet >= 0.5, cached PDF >=
0.8, posted round >= 0.2, live view's 304 >= 0.8). Each measurement is repeated ``--repeats``
times, baseline and app taking turns, and the best is kept. A fixed duration per
measurement, never a fixed count.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import quote, urlencode  # noqa: E402

ROOT = HERE.parent
SECRET_KEY = "http-benchmark-secret-key"
PASSWORD = "benchmark password"
POST_PLAYERS = 10
POST_ROUNDS = 60
GAMES_PER_CONNECTION = 8
# Goals against the floor (issue 12): a page should cost about what checking who asks costs.
GOALS = {"sheet": 0.5, "post": 0.2, "conditional": 0.8, "pdf": 0.8, "live": 0.8}
BASELINE_APP = '''"""The baseline: a bare Flask app, a constant string for any path and method."""
from flask import Flask

app = Flask(__name__)


@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def constant(path):
    return "ok"
'''
FLOOR_APP = '''"""The floor: what any page of the app must do at least. It reads the signed session
cookie (Flask's session, the app's secret key: the same cookie the app reads) and runs one
primary-key SELECT on the app's database through a pooled SQLAlchemy engine with the app's
engine options, then answers a short string. Without a cookie it is the anonymous floor:
the same one query."""
import os

from flask import Flask, session
from sqlalchemy import create_engine, text

app = Flask(__name__)
app.secret_key = os.environ["SCOREKEEPER_SECRET_KEY"]
# --floor-reads autocommit: the read the app's one-query answers make (no BEGIN, no
# ROLLBACK); transaction: SQLAlchemy's default connection.
isolation = {"isolation_level": "AUTOCOMMIT"} if os.environ.get("FLOOR_AUTOCOMMIT") else {}
engine = create_engine(
    os.environ["SCOREKEEPER_SQLALCHEMY_DATABASE_URI"], pool_pre_ping=True, **isolation
)
QUERY = text("SELECT id, email FROM users WHERE id = :id")


@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def floor(path):
    who = session.get("_user_id")
    with engine.connect() as conn:
        row = conn.execute(QUERY, {"id": 1}).first()
    return f"ok {row[0] if row else 0} {bool(who)}"
'''


# ------------------------------------------------------------------- machine ---
def machine() -> str:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"nproc {os.cpu_count()}, CPU {cpu}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, load average {load}"
    )


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


# ------------------------------------------------------------------ database ---
@contextlib.contextmanager
def database(args: argparse.Namespace, tmp: Path) -> Iterator[str]:
    if args.sqlite:
        yield f"sqlite:///{tmp / 'bench.sqlite3'}"
        return
    import psycopg
    from sqlalchemy import make_url

    base = make_url(args.database_url)
    name = f"scorekeeper_http_bench_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(
        host=base.host or "127.0.0.1", port=base.port or 5432, user=base.username,
        password=base.password, dbname=base.database, autocommit=True,
    )  # fmt: skip
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def app_env(db_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(SCOREKEEPER_SQLALCHEMY_DATABASE_URI=db_url, SCOREKEEPER_SECRET_KEY=SECRET_KEY)
    return env


def migrate(db_url: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT, env=app_env(db_url), check=True, capture_output=True,
    )  # fmt: skip


# ------------------------------------------------------------------- servers ---
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_by_pid(pids: set[int]) -> dict[int, float]:
    """User + system CPU seconds of each process (from /proc/<pid>/stat)."""
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return out


def children(parent: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.add(int(stat.parent.name))
    return found


class Backends:
    """The PostgreSQL server processes serving the benchmark's database (for CPU time)."""

    def __init__(self, db_url: str | None) -> None:
        self.name = db_url.rsplit("/", 1)[-1] if db_url else None
        self.conn: Any = None
        if db_url:
            import psycopg
            from sqlalchemy import make_url

            url = make_url(db_url)
            self.conn = psycopg.connect(
                host=url.host or "127.0.0.1", port=url.port or 5432, user=url.username,
                password=url.password, dbname="postgres", autocommit=True,
            )  # fmt: skip

    def pids(self) -> set[int]:
        if self.conn is None:
            return set()
        rows = self.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.name,)
        ).fetchall()
        return {pid for (pid,) in rows}


class Gunicorn:
    def __init__(self, target: str, env: dict[str, str], workers: int, log: Path) -> None:
        from gunicorn.config import KNOWN_SETTINGS

        self.port = free_port()
        no_control = any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS)
        self.command = [
            sys.executable, "-m", "gunicorn", "--workers", str(workers),
            "--bind", f"127.0.0.1:{self.port}",
            *(["--no-control-socket"] if no_control else []), target,
        ]  # fmt: skip
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, cwd: Path) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                self.command, cwd=cwd, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"gunicorn exited:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client(self.port).request("GET", "/").status < 500:
                    return
            time.sleep(0.1)
        raise SystemExit(f"gunicorn did not answer:\n{self.log.read_text()[-3000:]}")

    def pids(self) -> set[int]:
        assert self.proc is not None
        return {self.proc.pid, *children(self.proc.pid)}

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


# -------------------------------------------------------------------- client ---
@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str


class Client:
    """Stdlib HTTP, one connection per request, cookies kept by hand."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, Any] | None = None, **headers: str
    ) -> Reply:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            sent = {k.replace("_", "-"): v for k, v in headers.items()}
            if self.cookies:
                sent["Cookie"] = self.cookie_header()
            body = None
            if form is not None:
                body = urlencode(form)
                sent["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=sent)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
            for header in r.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                value = rest.split(";", 1)[0]
                if value and "expires=thu, 01 jan 1970" not in header.lower():
                    self.cookies[name.strip()] = value
                else:
                    self.cookies.pop(name.strip(), None)
            return Reply(r.status, r.headers, text)
        finally:
            conn.close()

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def hidden(self, path: str) -> dict[str, str]:
        page = self.request("GET", path)
        assert page.status == 200, (path, page.status)
        found = {}
        for tag in re.findall(r"<input\b[^>]*>", page.text):
            attrs = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag))
            if attrs.get("type") == "hidden" and "name" in attrs:
                found.setdefault(attrs["name"], attrs.get("value", ""))
        return found


# ------------------------------------------------------------------- fixture ---
def post_record(players: int, rounds: int) -> dict[str, Any]:
    """A Vegas game nobody can expire in (max score 100000), ``rounds`` rounds played."""
    names = [f"Player {i:02d}" for i in range(1, players + 1)]
    return {
        "format": "scorekeeper-game/1", "variant": "vegas",
        "settings": {"max_score": 100000, "buy_in": 200},
        "players": names, "first_dealer": names[0],
        "rounds": [
            {"went_out": names[r % players],
             "hands": {n: (r * 7 + i * 3) % 20 for i, n in enumerate(names) if i != r % players},
             "wild": "7C"}
            for r in range(rounds)
        ],
    }  # fmt: skip


@dataclass
class Fixture:
    cookie: str
    csrf: str
    sheet_game: int
    etag: str
    post_games: list[list[list[int]]]  # per repeat, per connection: its games
    pdf_path: str | None
    live_path: str | None = None  # the sheet game's live view, and its ETag
    live_etag: str = ""


def pdf_route() -> str | None:
    """The route of a game's sheet as PDF, as declared in scorekeeper/web/*.py."""
    for path in sorted((ROOT / "scorekeeper" / "web").glob("*.py")):
        for rule in re.findall(r"@bp\.(?:get|route)\(\s*\"([^\"]*pdf[^\"]*)\"", path.read_text()):
            if re.search(r"<(int|id):game_id>", rule) and "sheet" in rule:
                return rule
    return None


def prepare(port: int, connections: int, repeats: int) -> Fixture:
    from tests.samples import long_vegas

    c = Client(port)
    email = f"bench-{uuid.uuid4().hex[:8]}@example.com"
    hidden = c.hidden("/signup")
    r = c.request("POST", "/signup", {**hidden, "email": email, "password": PASSWORD,
                                      "confirm": PASSWORD})  # fmt: skip
    assert r.status == 302, r.text[:500]
    hidden = c.hidden("/login")  # signing up logs nobody in
    r = c.request("POST", "/login", {**hidden, "email": email, "password": PASSWORD})
    assert r.status == 302, r.text[:500]

    def new_night() -> int:
        hidden = c.hidden("/nights/new")
        r = c.request("POST", "/nights/new", {
            **hidden, "name": "Benchmark night", "played_on": "2026-11-20", "currency": "USD",
            "paper": "A4", "people": "Ann\nBob",
        })  # fmt: skip
        assert r.status == 302, r.text[:500]
        return int(r.headers["Location"].rstrip("/").split("/")[-1])

    def import_game(night: int, record: dict[str, Any]) -> int:
        url = f"/nights/{night}/games/import"
        r = c.request("POST", url, {**c.hidden(url), "record": json.dumps(record)})
        assert r.status == 302, r.text[:1000]
        return int(r.headers["Location"].split("?")[0].rstrip("/").split("/")[-1])

    def import_games(record: dict[str, Any]) -> list[int]:
        night = new_night()  # a night holds a bounded number of games: one per connection
        return [import_game(night, record) for _ in range(GAMES_PER_CONNECTION)]

    sheet_game = import_game(new_night(), long_vegas(10, 60))
    record = post_record(POST_PLAYERS, POST_ROUNDS)
    post_games = [[import_games(record) for _ in range(connections)] for _ in range(repeats)]
    csrf = c.hidden(f"/games/{sheet_game}/rounds/new")["csrf_token"]
    c.request("GET", "/")  # shows the flashes of the imports: none left in the session
    sheet = c.request("GET", f"/games/{sheet_game}")
    assert sheet.status == 200 and sheet.headers["ETag"], sheet.status
    again = c.request("GET", f"/games/{sheet_game}", If_None_Match=sheet.headers["ETag"])
    assert again.status == 304, again.status
    rule = pdf_route()
    pdf_path = re.sub(r"<(int|id):game_id>", str(sheet_game), rule) if rule else None
    live_path, live_etag = show_players(c, port, sheet_game)
    return Fixture(c.cookie_header(), csrf, sheet_game, sheet.headers["ETag"], post_games,
                   pdf_path, live_path, live_etag)  # fmt: skip


def show_players(c: Client, port: int, game: int) -> tuple[str | None, str]:
    """The keeper's "Show players" on the game: the live view's path and ETag, as a phone
    with no cookie first gets them (None when the app has no live view)."""
    page = f"/games/{game}/live"
    form = c.hidden(page) if c.request("GET", page).status == 200 else {}
    if "csrf_token" not in form:
        return None, ""
    r = c.request("POST", page, {"csrf_token": form["csrf_token"]})
    assert r.status == 302, r.status
    link = re.search(r'id="live-url"[^>]* value="([^"]+)"', c.request("GET", page).text)
    assert link, "no link on the keeper's live page"
    path = "/" + link.group(1).split("/", 3)[3]
    phone = Client(port)
    first = phone.request("GET", path)
    assert first.status == 200 and first.headers["ETag"] and not phone.cookies, first.status
    again = phone.request("GET", path, If_None_Match=first.headers["ETag"])
    assert again.status == 304, again.status
    return path, first.headers["ETag"]


# ------------------------------------------------------------------ scenario ---
@dataclass
class Scenario:
    name: str
    method: str
    path: str  # for posts, with %d for the game id
    expect: int
    headers: dict[str, str] = field(default_factory=dict)
    games: list[list[int]] = field(default_factory=list)  # post: per connection, its games
    csrf: str = ""


def post_body(csrf: str, version: int, submission: str, went_out: int) -> str:
    hands = "".join(f"&hand-{seat}=3" for seat in range(POST_PLAYERS))
    return (
        f"csrf_token={quote(csrf)}&version={version}&submission={submission}"
        f"&went_out={went_out}{hands}"
    )


@dataclass
class Result:
    rps: float
    statuses: Counter[int]
    errors: int
    server_ms: float = 0.0  # CPU ms per request of the gunicorn master and workers
    db_ms: float = 0.0  # CPU ms per request of the PostgreSQL backends


def measured(
    runner: Any, server: Gunicorn, backends: Backends, s: Scenario, seconds: float,
    connections: int, tmp: Path,
) -> Result:  # fmt: skip
    """One run of the load generator, with the CPU time the server side spent on it."""
    server_pids, db_pids = server.pids(), backends.pids()
    before = cpu_by_pid(server_pids), cpu_by_pid(db_pids)
    r = runner(server.port, s, seconds, connections, tmp)
    after = cpu_by_pid(server_pids | server.pids()), cpu_by_pid(db_pids | backends.pids())
    n = max(1, sum(r.statuses.values()))
    spent = [sum(a[p] - b.get(p, 0.0) for p in a) for b, a in zip(before, after, strict=True)]
    r.server_ms, r.db_ms = spent[0] * 1000 / n, spent[1] * 1000 / n
    return r


LUA = r"""
local cfg = %(cfg)s
local threads = {}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("tid", count)
  table.insert(threads, thread)
end
function init(args)
  statuses = {}
  sent = 0
  mine = cfg.games[tid] or {}
  versions = {}
  for i = 1, #mine do versions[i] = 1 end
  turn = 0
end
function request()
  sent = sent + 1
  local headers = {}
  for k, v in pairs(cfg.headers) do headers[k] = v end
  if cfg.method == "POST" then
    turn = (sent - 1) %% #mine + 1
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    local hands = ""
    for seat = 0, cfg.seats - 1 do hands = hands .. "&hand-" .. seat .. "=3" end
    local body = string.format(
      "csrf_token=%%s&version=%%d&submission=%%s-%%d-%%d&went_out=%%d%%s",
      cfg.csrf, versions[turn], cfg.run, tid, sent, sent %% cfg.seats, hands)
    return wrk.format("POST", string.format(cfg.path, mine[turn]), headers, body)
  end
  return wrk.format("GET", cfg.path, headers)
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 302 and turn > 0 then versions[turn] = versions[turn] + 1 end
end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, k .. "=" .. v) end
  io.write("STATUSES " .. table.concat(parts, ",") .. "\n")
end
"""


def lua_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"[{lua_value(k)}] = {lua_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "{" + ", ".join(lua_value(v) for v in value) + "}"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))  # ASCII only here: a valid Lua string literal


def run_wrk(port: int, s: Scenario, seconds: float, connections: int, tmp: Path) -> Result:
    cfg = {
        "method": s.method, "path": s.path, "headers": s.headers, "games": s.games,
        "csrf": quote(s.csrf), "seats": POST_PLAYERS, "run": uuid.uuid4().hex[:8],
    }  # fmt: skip
    script = tmp / f"{s.name}.lua"
    script.write_text(LUA % {"cfg": lua_value(cfg)})
    path = s.path % s.games[0][0] if s.games else s.path
    done = subprocess.run(
        ["wrk", "-t", str(connections), "-c", str(connections), "-d", f"{seconds:g}s",
         "-s", str(script), f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", done.stdout).group(1))
    statuses: Counter[int] = Counter()
    line = re.search(r"STATUSES (\S*)", done.stdout)
    for part in filter(None, (line.group(1) if line else "").split(",")):
        k, v = part.split("=")
        statuses[int(k)] += int(v)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       done.stdout)  # fmt: skip
    return Result(rps, statuses, sum(int(x) for x in errors.groups()) if errors else 0)


def run_python(port: int, s: Scenario, seconds: float, connections: int, tmp: Path) -> Result:
    statuses: Counter[int] = Counter()
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    run = uuid.uuid4().hex[:8]

    def worker(tid: int) -> None:
        games = s.games[tid] if s.games else []
        versions, sent, mine = [1] * len(games), 0, Counter()
        while time.monotonic() < stop_at:
            sent += 1
            turn = (sent - 1) % max(1, len(games))
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                if s.method == "POST":
                    body = post_body(
                        s.csrf, versions[turn], f"{run}-{tid}-{sent}", sent % POST_PLAYERS
                    )
                    headers = {**s.headers, "Content-Type": "application/x-www-form-urlencoded"}
                    conn.request("POST", s.path % games[turn], body=body, headers=headers)
                else:
                    conn.request("GET", s.path, headers=s.headers)
                r = conn.getresponse()
                r.read()
                mine[r.status] += 1
                if r.status == 302 and games:
                    versions[turn] += 1
            except (OSError, http.client.HTTPException):
                with lock:
                    errors[0] += 1
            finally:
                conn.close()
        with lock:
            statuses.update(mine)

    started = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    return Result(sum(statuses.values()) / elapsed, statuses, errors[0])


# ---------------------------------------------------------------------- main ---
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of PostgreSQL")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
        or "postgresql+psycopg://postgres@127.0.0.1:5432/test",
        help="a PostgreSQL database to connect to for creating the benchmark's own",
    )
    parser.add_argument("--duration", type=float, default=8, help="seconds per measurement")
    parser.add_argument("--repeats", type=int, default=2, help="best of this many, interleaved")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--connections", type=int, default=0, help="default: --workers")
    parser.add_argument("--client", choices=["wrk", "python"], default=None)
    parser.add_argument("--only", nargs="*", default=[], help="scenarios to run (default all)")
    parser.add_argument(
        "--floor-reads",
        choices=["autocommit", "transaction"],
        default="transaction",
        help="how the floor's query runs: in SQLAlchemy's default transaction (the floor "
        "issue 12 defines, the default), or in autocommit, as the app's one-query answers "
        "read (a stricter floor)",
    )
    args = parser.parse_args()
    connections = args.connections or args.workers
    client = args.client or ("wrk" if shutil.which("wrk") else "python")
    runner = run_wrk if client == "wrk" else run_python

    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit()}")
    print(f"Machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="scorekeeper-http-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "baseline_app.py").write_text(BASELINE_APP)
        (tmp / "floor_app.py").write_text(FLOOR_APP)
        with database(args, tmp) as db_url:
            migrate(db_url)
            engine = "SQLite" if args.sqlite else "PostgreSQL"
            app = Gunicorn("scorekeeper:create_app()", app_env(db_url), args.workers,
                           tmp / "app.log")  # fmt: skip
            base = Gunicorn("baseline_app:app", app_env(db_url), args.workers,
                            tmp / "baseline.log")  # fmt: skip
            autocommit = "1" if args.floor_reads == "autocommit" else ""
            floor = Gunicorn("floor_app:app", {**app_env(db_url), "FLOOR_AUTOCOMMIT": autocommit},
                             args.workers, tmp / "floor.log")  # fmt: skip
            try:
                app.start(ROOT)
                base.start(tmp)
                floor.start(tmp)
                print(
                    f"Servers: gunicorn {args.workers} sync workers each, app on {engine}; "
                    f"client {client}, {connections} connections, {args.duration:g} s per "
                    f"measurement, best of {args.repeats}; the floor reads in "
                    f"{args.floor_reads}"
                )
                fx = prepare(app.port, connections, args.repeats)
                backends = Backends(None if args.sqlite else db_url)
                measure(args, runner, app, {"baseline": base, "floor": floor}, backends, fx,
                        connections, tmp)  # fmt: skip
            finally:
                app.stop()
                base.stop()
                floor.stop()


def measure(
    args: argparse.Namespace,
    runner: Any,
    app: Gunicorn,
    baselines: dict[str, Gunicorn],
    backends: Backends,
    fx: Fixture,
    connections: int,
    tmp: Path,
) -> None:
    cookie = {"Cookie": fx.cookie}
    scenarios = [
        Scenario("sheet", "GET", f"/games/{fx.sheet_game}", 200, cookie),
        Scenario(
            "conditional",
            "GET",
            f"/games/{fx.sheet_game}",
            304,
            {**cookie, "If-None-Match": fx.etag},
        ),
        Scenario("post", "POST", "/games/%d/rounds/new", 302, cookie, csrf=fx.csrf),
    ]
    if fx.pdf_path:
        client = Client(app.port)
        client.cookies = dict(p.split("=", 1) for p in fx.cookie.split("; "))
        started = time.perf_counter()
        first = client.request("GET", fx.pdf_path)
        first_ms = (time.perf_counter() - started) * 1000
        assert first.status == 200, first.status
        print(f"pdf: first render of {fx.pdf_path} took {first_ms:.0f} ms (then cached per worker)")
        scenarios.append(Scenario("pdf", "GET", fx.pdf_path, 200, cookie))
    else:
        print("pdf: no PDF route of a game's sheet in scorekeeper/web/*.py: skipped")
    if fx.live_path:
        # A player's phone: no cookie at all (the floor reads none either: its anonymous
        # floor, the same one primary-key SELECT).
        scenarios.append(Scenario("live", "GET", fx.live_path, 304,
                                  {"If-None-Match": fx.live_etag}))  # fmt: skip
    else:
        print("live: the app has no live view (/games/<id>/live): skipped")
    scenarios = [s for s in scenarios if not args.only or s.name in args.only]

    servers = {**baselines, "app": app}
    rows = []
    acknowledged = 0
    for s in scenarios:
        if s.method == "GET":  # warm up: templates, each worker's first PDF render
            for server in servers.values():
                runner(server.port, s, 2 if server is app else 1, connections, tmp)
        best: dict[str, Result] = {}
        for rep in range(args.repeats):
            for name, server in servers.items():
                if s.method == "POST":
                    s.games = fx.post_games[rep]
                dbs = backends if server is not baselines["baseline"] else Backends(None)
                r = measured(runner, server, dbs, s, args.duration, connections, tmp)
                want = s.expect if server is app else 200
                wrong = {k: v for k, v in r.statuses.items() if k != want}
                if wrong or r.errors:
                    print(f"  {s.name} {name}: unexpected statuses {wrong}, {r.errors} errors")
                if server is app and s.method == "POST":
                    acknowledged += r.statuses[302]
                if name not in best or r.rps > best[name].rps:
                    best[name] = r
        rows.append((s.name, best))
        if s.method == "POST":
            check_posts(app.port, fx, acknowledged, connections * args.repeats)

    print()
    print("requests/s: baseline = bare Flask route; floor = the same session cookie read and "
          "one primary-key SELECT (served the same way)")  # fmt: skip
    print("scenario     baseline    floor      app  app/base  app/floor  goal  met   "
          "CPU ms/req floor  app (gunicorn+db)")  # fmt: skip
    print("-" * 104)
    for name, best in rows:
        b, f, a = best["baseline"], best["floor"], best["app"]
        goal = GOALS.get(name)
        met = "" if goal is None else ("met" if a.rps / f.rps >= goal else "NOT MET")
        goal_text = f"{goal:.2f}" if goal else "   -"
        print(
            f"{name:<12} {b.rps:>8.0f} {f.rps:>8.0f} {a.rps:>8.0f}  {a.rps / b.rps:>8.3f}  "
            f"{a.rps / f.rps:>9.3f}  {goal_text}  {met:<7} {f.server_ms + f.db_ms:>10.2f}  "
            f"{a.server_ms + a.db_ms:>6.2f} ({a.server_ms:.2f}+{a.db_ms:.2f})"
        )
    print("goal: app / floor requests per second, measured in this run")


def check_posts(port: int, fx: Fixture, acknowledged: int, in_flight_max: int) -> None:
    """Every 302 of the posting runs is a round stored: nothing was lost or doubled."""
    client = Client(port)
    client.cookies = dict(p.split("=", 1) for p in fx.cookie.split("; "))
    stored = 0
    for per_connection in fx.post_games:
        for game in (g for games in per_connection for g in games):
            data = json.loads(client.request("GET", f"/api/v1/games/{game}").text)
            stored += data["standings"]["rounds_played"] - POST_ROUNDS
    # wrk stops reading when the time is up: the last request of each connection may have
    # been served (and stored) without its 302 being counted
    in_flight = stored - acknowledged
    ok = 0 <= in_flight <= in_flight_max
    print(
        f"  post: {stored} rounds stored for {acknowledged} POSTs answered 302 "
        f"({in_flight} still in flight at the end of a run){'' if ok else ': MISMATCH'}"
    )


if __name__ == "__main__":
    main()
