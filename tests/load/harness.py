"""What the load tests drive: the app under gunicorn on a database of its own, phones that
talk to it over loopback HTTP (stdlib only: one connection per request, cookies kept by
hand), score keepers that enter rounds through the real forms, and the checks run on the
database and the API afterwards."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psycopg

from scorekeeper.rules import load_game
from tests.web.keeper import inputs

ROOT = Path(__file__).resolve().parents[2]
SECRET_KEY = "load-test-secret-key"
PASSWORD = "correct horse"
NETWORK_ERRORS = (OSError, http.client.HTTPException)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def app_env(db_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        SCOREKEEPER_SQLALCHEMY_DATABASE_URI=db_url,
        SCOREKEEPER_SECRET_KEY=SECRET_KEY,
        # Sign-ups and log-ins are not what is measured here: a cheap hash keeps them quick.
        SCOREKEEPER_PASSWORD_HASH_METHOD="pbkdf2:sha256:1000",
    )
    return env


def migrate(db_url: str) -> None:
    """``flask --app scorekeeper db upgrade``, the way a deployment creates its tables."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env=app_env(db_url),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _control_socket_args() -> list[str]:
    """gunicorn >= 25 opens a control socket at one fixed path per user: servers started
    side by side (pytest-xdist) must not share it."""
    from gunicorn.config import KNOWN_SETTINGS

    if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS):
        return ["--no-control-socket"]
    return []


class Service:
    """A server process (``command`` run from the checkout, or from ``cwd``) in a process
    group of its own, so that a master and its workers are stopped or killed at once."""

    def __init__(
        self, name: str, command: list[str], env: dict[str, str], log: Path, cwd: Path = ROOT
    ) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.log = log
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, ready: Callable[[], bool], timeout: float = 45) -> None:
        """Start it and wait until ``ready()`` (its errors count as not ready yet)."""
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                self.command,
                cwd=self.cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"{self.name} exited ({self.proc.returncode}):\n{self.log_tail()}"
                )
            with contextlib.suppress(Exception):
                if ready():
                    return
            time.sleep(0.1)
        raise AssertionError(f"{self.name} did not answer in {timeout} s:\n{self.log_tail()}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL to the whole group: no clean shutdown of anything."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def log_text(self, since: int = 0) -> str:
        """What it logged (from byte ``since`` on: see log_size)."""
        if not self.log.exists():
            return ""
        with open(self.log, "rb") as fh:
            fh.seek(since)
            return fh.read().decode(errors="replace")

    def log_size(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])


class Server(Service):
    """gunicorn serving ``scorekeeper:create_app()`` on a free loopback port."""

    def __init__(
        self, db_url: str, log: Path, workers: int = 3, env: dict[str, str] | None = None
    ) -> None:
        self.db_url = db_url
        self.workers = workers
        self.port = free_port()
        command = [
            sys.executable, "-m", "gunicorn", "--workers", str(workers),
            "--bind", f"127.0.0.1:{self.port}", *_control_socket_args(),
            "scorekeeper:create_app()",
        ]  # fmt: skip
        super().__init__("gunicorn", command, {**app_env(db_url), **(env or {})}, log)

    def start(self, timeout: float = 45) -> None:  # type: ignore[override]
        super().start(lambda: Phone(self.port).get("/login", timeout=2).status == 200, timeout)


# ------------------------------------------------------------------------ phones ---
@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")


class Phone:
    """A browser reduced to what the app needs: cookies, forms, no redirects followed."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.cookies = dict(cookies or {})

    def copy(self) -> Phone:
        return Phone(self.port, self.cookies)

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Reply:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            sent, body = self.outgoing(form, headers)
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                self._keep(header)
            return Reply(response.status, response.headers, text)
        finally:
            conn.close()

    def outgoing(
        self, form: dict[str, Any] | None, headers: dict[str, str] | None
    ) -> tuple[dict[str, str], str | None]:
        """The headers (with this phone's cookies) and the body of a request."""
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        return sent, body

    def _keep(self, header: str) -> None:
        name, _, rest = header.partition("=")
        value = rest.split(";", 1)[0]
        lowered = header.lower()
        if not value or "max-age=0" in lowered or "expires=thu, 01 jan 1970" in lowered:
            self.cookies.pop(name.strip(), None)
        else:
            self.cookies[name.strip()] = value

    def get(self, path: str, headers: dict[str, str] | None = None, timeout: float = 30) -> Reply:
        return self.request("GET", path, headers=headers, timeout=timeout)

    def post(self, path: str, form: dict[str, Any]) -> Reply:
        return self.request("POST", path, form=form)

    def form(self, path: str) -> tuple[Reply, dict[str, str]]:
        page = self.get(path)
        assert page.status == 200, (path, page.status, page.text[:500])
        return page, inputs(page.text)


def page_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def local_path(location: str) -> str:
    """A redirect's target as a path to request (no scheme, host or #fragment)."""
    path = re.sub(r"^https?://[^/]+", "", location)
    return path.split("#", 1)[0]


def last_id(location: str) -> int:
    return int(location.split("?")[0].split("#")[0].rstrip("/").split("/")[-1])


class Account:
    """A score keeper's account, set up through the forms (sign-up, night, games)."""

    def __init__(self, port: int, email: str) -> None:
        self.port = port
        self.email = email
        self.phone = Phone(port)

    def signup(self) -> None:
        _, hidden = self.phone.form("/signup")
        r = self.phone.post(
            "/signup", {**hidden, "email": self.email, "password": PASSWORD, "confirm": PASSWORD}
        )
        assert r.status == 302, page_text(r.text)[:500]
        _, hidden = self.phone.form("/login")  # signing up logs nobody in: log in
        r = self.phone.post(
            "/login", {**hidden, "email": self.email, "password": PASSWORD, "remember": "y"}
        )
        assert r.status == 302, page_text(r.text)[:500]
        self.phone.get("/")  # reads the flash

    def another_phone(self) -> Phone:
        """A second session of the same account: log in from another phone."""
        phone = Phone(self.port)
        _, hidden = phone.form("/login")
        r = phone.post("/login", {**hidden, "email": self.email, "password": PASSWORD})
        assert r.status == 302, page_text(r.text)[:500]
        return phone

    def night(self, people: list[str]) -> int:
        _, hidden = self.phone.form("/nights/new")
        r = self.phone.post(
            "/nights/new",
            {**hidden, "name": "Load night", "played_on": "2026-11-20", "currency": "USD",
             "paper": "A4", "people": "\n".join(people)},
        )  # fmt: skip
        assert r.status == 302, page_text(r.text)[:500]
        return last_id(r.location)

    def game(self, night: int, variant: str, players: list[str], **settings: Any) -> int:
        """The new-game form filled like tests.web.keeper.Keeper.game does it."""
        url = f"/nights/{night}/games/new?variant={variant}"
        page, hidden = self.phone.form(url)
        html = page.text
        ids = {
            unescape(name): int(pid)
            for pid, name in re.findall(r'<label for="seat-(\d+)">([^<]+)</label>', html)
        }
        defaults = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', html))
        checked = set(re.findall(r'<input[^>]*checked[^>]*name="(\w+)"', html)) | set(
            re.findall(r'<input[^>]*name="(\w+)"[^>]*checked', html)
        )
        data: dict[str, Any] = {
            k: v
            for k, v in defaults.items()
            if not k.startswith(("seat-", "handicap-")) and k != "csrf_token"
        }
        data.update({key: "y" for key in checked})
        data.update({k: str(v) for k, v in settings.items()})
        data.update({f"seat-{pid}": "" for pid in ids.values()})
        data.update({f"seat-{ids[name]}": str(seat) for seat, name in enumerate(players, 1)})
        data.update(variant=variant, first_dealer=players[0])
        r = self.phone.post(url, {**hidden, **data})
        if r.status == 200 and (warned := re.search(r'name="warned" value="(\w+)"', r.text)):
            r = self.phone.post(url, {**hidden, **data, "warned": warned[1]})  # start anyway
        assert r.status == 302, page_text(r.text)[:800]
        return last_id(r.location)

    def import_game(self, night: int, record: dict[str, Any]) -> int:
        """A game record (JSON) imported into the night through its import form."""
        url = f"/nights/{night}/games/import"
        _, hidden = self.phone.form(url)
        r = self.phone.post(url, {**hidden, "record": json.dumps(record)})
        assert r.status == 302, page_text(r.text)[:800]
        return last_id(r.location)


def show_players(phone: Phone, page: str) -> str:
    """The keeper's "Show players" on a game's or a night's live page (``/games/<id>/live``,
    ``/nights/<id>/live``): the path of the link the players open."""
    _, hidden = phone.form(page)
    r = phone.post(page, {"csrf_token": hidden["csrf_token"]})
    assert r.status == 302, (page, r.status)
    link = re.search(r'id="live-url"[^>]* value="([^"]+)"', phone.get(page).text)
    assert link, f"no link on {page}"
    return local_path(unescape(link.group(1)))


# ----------------------------------------------------------------------- rounds ---
@dataclass
class RoundForm:
    number: int
    hidden: dict[str, str]
    seats: dict[str, str]  # seat -> name


def read_round_form(html: str) -> RoundForm:
    number = re.search(r"<h1>(?:Round|Deal|Correct round|Correct deal) (\d+)</h1>", html)
    assert number, html[:500]
    choice = r'name="went_out" value="(\d+)"[^>]*>\s*<span class="who"><span class="name">([^<]+)<'
    seats = {seat: unescape(name.strip()) for seat, name in re.findall(choice, html)}
    return RoundForm(int(number.group(1)), inputs(html), seats)


def random_round(
    form: RoundForm, rng: random.Random, variant: str
) -> tuple[dict[str, str], dict[str, Any]]:
    """What a keeper types (form fields) and the round it must be stored as."""
    seats = list(form.seats)
    went_out = rng.choice(seats)
    fields: dict[str, str] = {"went_out": went_out}
    hands: dict[str, int] = {}
    for seat in seats:
        if seat == went_out:
            continue
        a, b = rng.randint(0, 20), rng.randint(0, 9)
        fields[f"hand-{seat}"] = f"{a}+{b}" if rng.random() < 0.3 else str(a)
        hands[form.seats[seat]] = a + b if "+" in fields[f"hand-{seat}"] else a
        if variant == "dummy" and rng.random() < 0.2:
            fields[f"contract-{seat}"] = "y"
    return fields, {"went_out": form.seats[went_out], "hands": hands}


@dataclass
class Tally:
    """What one client thread saw."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    network_errors: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    duplicates: int = 0  # a retried POST that the app had already saved
    # POSTs answered with an error page although the round was saved (their retry was
    # found already saved)
    saved_after_5xx: list[str] = field(default_factory=list)

    def count(self, reply: Reply, what: str) -> Reply:
        self.requests += 1
        self.statuses[reply.status] += 1
        if reply.status >= 500:
            self.server_errors.append(f"{what}: {reply.status} {page_text(reply.text)[:200]}")
        return reply


@dataclass
class GameLog:
    """The rounds a keeper was told were saved (302 after the POST), by number."""

    game_id: int
    variant: str
    acknowledged: dict[int, dict[str, Any]] = field(default_factory=dict)
    finished: bool = False  # set by game_problems from the API's standings


def enter_round(
    phone: Phone,
    log: GameLog,
    rng: random.Random,
    tally: Tally,
    *,
    retry_until: float | None = None,
) -> bool | None:
    """Enter one round the way a phone does: GET the form, POST it (Vegas: confirm the
    expiries), follow the redirect to the sheet. Returns True when saved, None when the
    game is over. Without ``retry_until`` any failure is recorded and ends the attempt
    (False); with it, network errors and 5xx are retried (the same POST, the same
    submission id) until acknowledged or the deadline passes."""
    game = log.game_id
    url = f"/games/{game}/rounds/new"

    def attempt(method: str, path: str, form: dict[str, Any] | None = None) -> Reply | None:
        while True:
            try:
                return tally.count(phone.request(method, path, form=form), f"{method} {path}")
            except NETWORK_ERRORS as exc:
                tally.requests += 1
                tally.network_errors.append(f"{method} {path}: {exc!r}")
            if retry_until is None or time.monotonic() > retry_until:
                return None
            time.sleep(0.05)

    while True:
        page = attempt("GET", url)
        if page is None:
            return False
        if page.status == 302:
            return None  # the game is over
        if page.status == 200:
            break
        if page.status < 500 or retry_until is None or time.monotonic() > retry_until:
            tally.unexpected.append(f"GET {url}: {page.status}")
            return False
        time.sleep(0.05)
    form = read_round_form(page.text)
    fields, expected = random_round(form, rng, log.variant)
    body = {**form.hidden, **fields}
    confirmed = False
    error_page = ""
    while True:
        r = attempt("POST", url, body)
        if r is None:
            return False
        if r.status >= 500:
            error_page = page_text(r.text)
        expired = re.findall(r'name="expiry-(\d+)" value="drop"', r.text)
        if r.status == 200 and expired and not confirmed:
            # Vegas: someone expired; the keeper says re-buy or drop, then confirms.
            confirmed = True
            body = {**fields, **inputs(r.text)}
            for seat in expired:
                if rng.random() < 0.3:
                    body[f"expiry-{seat}"] = "drop"
                    expected.setdefault("drops", []).append(form.seats[seat])
            continue
        if r.status == 302:
            break
        if r.status >= 500 and retry_until is not None and time.monotonic() < retry_until:
            time.sleep(0.05)
            continue
        tally.unexpected.append(f"POST {url}: {r.status} {page_text(r.text)[:300]}")
        return False
    if f"saved={form.number}" not in r.location:
        tally.duplicates += 1
        if error_page:
            tally.saved_after_5xx.append(f"game {game} round {form.number}: {error_page[-200:]}")
    log.acknowledged[form.number] = expected
    attempt("GET", local_path(r.location))  # the sheet, like a phone
    return True


# ------------------------------------------------------------------------ checks ---
def connect(db_url: str) -> psycopg.Connection[Any]:
    from sqlalchemy import make_url

    url = make_url(db_url)
    return psycopg.connect(
        host=url.host or "127.0.0.1", port=url.port or 5432, user=url.username,
        password=url.password, dbname=url.database, autocommit=True, connect_timeout=10,
    )  # fmt: skip


ORPHANS = {
    "games without their night": "games g LEFT JOIN nights n ON n.id = g.night_id "
    "WHERE n.id IS NULL",
    "nights without their owner": "nights n LEFT JOIN users u ON u.id = n.owner_id "
    "WHERE u.id IS NULL",
    "people without their night": "people p LEFT JOIN nights n ON n.id = p.night_id "
    "WHERE n.id IS NULL",
    "seats without their game": "seats s LEFT JOIN games g ON g.id = s.game_id WHERE g.id IS NULL",
    "seats without their person": "seats s LEFT JOIN people p ON p.id = s.person_id "
    "WHERE p.id IS NULL",
    "rounds without their game": "game_rounds r LEFT JOIN games g ON g.id = r.game_id "
    "WHERE g.id IS NULL",
    "edits without their game": "edits e LEFT JOIN games g ON g.id = e.game_id WHERE g.id IS NULL",
    "edits without their user": "edits e LEFT JOIN users u ON u.id = e.user_id "
    "WHERE e.user_id IS NOT NULL AND u.id IS NULL",
    "sessions without their user": "user_sessions s LEFT JOIN users u ON u.id = s.user_id "
    "WHERE u.id IS NULL",
}
UNIQUE = {
    "users.email": "SELECT email FROM users GROUP BY 1 HAVING count(*) > 1",
    "user_sessions.token": "SELECT token FROM user_sessions GROUP BY 1 HAVING count(*) > 1",
    "game_rounds (game_id, number)": "SELECT game_id, number FROM game_rounds "
    "GROUP BY 1, 2 HAVING count(*) > 1",
    "edits (game_id, submission)": "SELECT game_id, submission FROM edits "
    "WHERE submission IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1",
    "seats (game_id, position)": "SELECT game_id, position FROM seats GROUP BY 1, 2 "
    "HAVING count(*) > 1",
    "people (night_id, name_key)": "SELECT night_id, name_key FROM people GROUP BY 1, 2 "
    "HAVING count(*) > 1",
}


def integrity_problems(db_url: str) -> list[str]:
    """Orphans across every foreign key, duplicates under every unique constraint, and
    amcheck's verification of every B-tree index against its table."""
    problems = []
    with connect(db_url) as conn:
        for what, sql in ORPHANS.items():
            n = conn.execute(f"SELECT count(*) FROM {sql}").fetchone()[0]
            if n:
                problems.append(f"{n} {what}")
        for what, sql in UNIQUE.items():
            rows = conn.execute(sql).fetchall()
            if rows:
                problems.append(f"duplicates under {what}: {rows[:5]}")
        conn.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        indexes = conn.execute(
            "SELECT c.oid, c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am am ON am.oid = c.relam "
            "WHERE am.amname = 'btree' AND c.relnamespace = 'public'::regnamespace"
        ).fetchall()
        assert indexes
        for oid, name in indexes:
            try:
                conn.execute("SELECT bt_index_check(%s, true)", (oid,))
            except psycopg.Error as exc:  # pragma: no cover - a corrupt index
                problems.append(f"amcheck {name}: {exc}")
    return problems


def game_problems(db_url: str, phone: Phone, logs: list[GameLog], *, exact: bool) -> list[str]:
    """Each game, checked in the database and through the API:

    - its rounds are numbered 1..n without gaps, and n = 'add' edits - 'remove' edits;
    - its version is the number of its edits (one commit, one edit, one version);
    - every acknowledged round is stored as typed (``exact``: and no other round is);
    - the record replays with the engine to the standings the API returned;
    - the pot ledger balances: finished, the balances sum to 0; otherwise to -pot total.
    """
    problems = []
    with connect(db_url) as conn:
        for log in logs:
            g = log.game_id
            numbers = [
                n for (n,) in conn.execute(
                    "SELECT number FROM game_rounds WHERE game_id = %s ORDER BY number", (g,)
                )
            ]  # fmt: skip
            n = len(numbers)
            if numbers != list(range(1, n + 1)):
                problems.append(f"game {g}: rounds numbered {numbers}")
            actions = dict(
                conn.execute(
                    "SELECT action, count(*) FROM edits WHERE game_id = %s GROUP BY 1", (g,)
                ).fetchall()
            )
            if n != actions.get("add", 0) - actions.get("remove", 0):
                problems.append(f"game {g}: {n} rounds but edits {actions}")
            (version,) = conn.execute("SELECT version FROM games WHERE id = %s", (g,)).fetchone()
            if version != sum(actions.values()):
                problems.append(f"game {g}: version {version} after {actions}")
            stored = dict(
                conn.execute(
                    "SELECT number, data FROM game_rounds WHERE game_id = %s", (g,)
                ).fetchall()
            )
            for number, expected in log.acknowledged.items():
                got = stored.get(number)
                if got is None:
                    problems.append(f"game {g}: acknowledged round {number} is missing")
                    continue
                for key, value in expected.items():
                    if got.get(key) != value:
                        problems.append(
                            f"game {g} round {number}: {key} {got.get(key)!r}, typed {value!r}"
                        )
            if exact and set(stored) != set(log.acknowledged):
                extra = sorted(set(stored) - set(log.acknowledged))
                problems.append(f"game {g}: rounds {extra} stored but never acknowledged")
            r = phone.get(f"/api/v1/games/{g}")
            if r.status != 200:
                problems.append(f"game {g}: API {r.status}")
                continue
            data = json.loads(r.text)
            standings = data["standings"]
            if load_game(data["record"]).to_json() != standings:
                problems.append(f"game {g}: the record does not replay to the API's standings")
            if standings["rounds_played"] != n:
                problems.append(f"game {g}: API has {standings['rounds_played']} rounds, db {n}")
            log.finished = standings["finished"]
            pot = standings["pot"]
            total = sum(pot["balances"].values())
            if standings["finished"] and total != 0:
                problems.append(f"game {g}: finished but balances sum to {total}: {pot}")
            if not standings["finished"] and total != -pot["total"]:
                problems.append(f"game {g}: balances sum {total} but the pot holds {pot['total']}")
    return problems


def race(*calls: Callable[[], Reply]) -> list[Reply]:
    """Run the calls in threads released together by a barrier."""
    barrier = threading.Barrier(len(calls))
    results: list[Reply | BaseException | None] = [None] * len(calls)

    def run(i: int, call: Callable[[], Reply]) -> None:
        barrier.wait()
        try:
            results[i] = call()
        except BaseException as exc:  # reported below
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for r in results:
        assert isinstance(r, Reply), r
    return results  # type: ignore[return-value]


def run_threads(targets: list[Any]) -> None:
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive(), "a client thread hung"
