"""The table-night load model (a Locust file; benchmarks/capacity.py runs it headless).

One Locust user is one table of a card night, and runs that table's phones as greenlets,
each with its own HTTP session (Locust's FastHttpSession) and its own cookies:

- **the keeper** enters a round every 60 s through the real forms (``enter_round`` of
  tests/load/harness.py: the round form, 20 s of typing, the save, the sheet it redirects
  to), corrects the round just saved one time in ten (the correction form, 10 s, the
  save, the sheet), and when the game is over (Texas Rummy: 11 rounds) downloads the
  sheet as PDF, starts the next game and shows the players its live link;
- **six players** each have the game's live view open: a poll every 4 s with
  ``If-None-Match``, as static/js/live.js does (``setInterval``; a poll still waiting
  when the next is due is skipped), and the page again (200) when it changed; when the
  keeper shows a new game's link they open it;
- **one phone** has the night's live view open, polled the same way.

Time runs ``compress`` times faster than at a table (every interval above divided by it):
one simulated table makes the requests of ``compress`` real ones, so a run of T simulated
tables stands for T x compress tables. A table is set up when it
sits down (its keeper signs up, makes the night and the game and shows both links) while
the window settles. The plan (``windows``: tables, settle seconds, measure seconds) comes
from the run file capacity.py writes (``CAPACITY_RUN``); each
window's figures (per request kind: requests, latency percentiles, errors; the CPU the
app, PostgreSQL, the balancer, Redis and this generator spent; the app's own per-kind
costs from benchmarks/request_costs.py) go to the results file, one JSON line a window.
A ramp stops after the first window that fails (a p99 over the limit, an error or a
stale page) unless the run says to go on (the soak).

Checks made while running: every request answers below 400; the sheet a keeper is sent
to after a save shows that round and no later one; a player's live view never shows
fewer rounds than the keeper had been told were saved before the poll started (a 304
included: it would mean an older page is still current). After the run, capacity.py
checks every round the keepers were told was saved against the database and the API."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import resource
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gevent
from locust import LoadTestShape, User, constant, events, task
from locust.contrib.fasthttp import FastHttpSession

from benchmarks.capacity import Meter, make_table
from benchmarks.request_costs import kind_of
from tests.load.harness import (
    Account,
    GameLog,
    Phone,
    Reply,
    Tally,
    enter_round,
    local_path,
    random_round,
    read_round_form,
    show_players,
)

RUN = json.loads(Path(os.environ["CAPACITY_RUN"]).read_text())
COMPRESS = float(RUN["compress"])
ROUND_EVERY = 60 / COMPRESS
TYPING = 20 / COMPRESS
CORRECTION_TYPING = 10 / COMPRESS
CORRECTION_RATE = 0.1
POLL = 4 / COMPRESS
PLAYERS = 6
VARIANT = "texas"
P99_LIMIT_MS = float(RUN["p99_limit_ms"])


# -------------------------------------------------------------------- phones ---
class LocustPhone(Phone):
    """tests/load/harness.py's Phone (cookies by hand, no redirect followed) over a Locust
    session: every request is one of Locust's, named by ``request_costs.kind_of``, and
    fails when it answers 400 or more (or not at all)."""

    def __init__(
        self, user: User, cookies: dict[str, str] | None = None, address: str = ""
    ) -> None:
        super().__init__(0, cookies)
        # The table's own address (its Wi-Fi), as a proxy in front says it: the app's
        # limits count per client address (web/live.py RATE), and every simulated
        # table comes from 127.0.0.1 (capacity.py runs the app with PROXY_FIX for it).
        self.address = address
        self.session = FastHttpSession(
            base_url=user.host,
            request_event=user.environment.events.request,
            user=user,
            network_timeout=60.0,
            connection_timeout=60.0,
        )
        self.session.client.cookiejar = None  # cookies as the harness keeps them
        self.pause_before_post = 0.0  # typing: spent before the next POST only
        self.last: Reply | None = None
        self.sending = ""

    def copy(self) -> Phone:  # pragma: no cover - not used under Locust
        raise NotImplementedError

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Reply:
        if method == "POST" and self.pause_before_post:
            gevent.sleep(self.pause_before_post)
            self.pause_before_post = 0.0
        self.sending = f"{method} {path}"  # still set if the run stops before the answer
        sent, body = self.outgoing(form, headers)
        if self.address:
            sent = {**sent, "X-Forwarded-For": self.address}
        with self.session.request(
            method, path, data=body, headers=sent, allow_redirects=False, catch_response=True
        ) as r:
            status = r.status_code or 0
            r.request_meta["name"] = kind_of(method, path, status)
            if status == 0 or status >= 400:
                r.failure(f"{status} {method} {path}: {getattr(r, 'error', '')}"[:300])
            else:
                r.success()
        if status == 0:
            raise OSError(f"{method} {path}: {getattr(r, 'error', 'no answer')}")
        for header in r.headers.get_all("Set-Cookie") or []:
            self._keep(header)
        reply = Reply(status, r.headers, r.text or "")  # type: ignore[arg-type]
        self.last = reply
        self.sending = ""
        return reply


# -------------------------------------------------------------------- tables ---
@dataclass
class Table:
    """One table's fixture (made by capacity.py) and what its phones share."""

    email: str
    cookies: dict[str, str]
    night: int
    people: list[str]
    game: int
    game_live: str
    night_live: str
    logs: list[GameLog] = field(default_factory=list)
    keeper_phone: LocustPhone | None = None
    live_paths: dict[int, str] = field(default_factory=dict)  # each game's live link
    address: str = ""  # the table's Wi-Fi address, shared by its phones

    def __post_init__(self) -> None:
        self.logs.append(GameLog(self.game, VARIANT))
        self.live_paths[self.game] = self.game_live

    @property
    def saved(self) -> tuple[str, int]:
        """The current game's live path and the last round its keeper was told was saved."""
        log = self.logs[-1]
        return self.game_live, max(log.acknowledged, default=0)


TABLES: list[Table] = []  # in the order they sat down
CHECKS: Counter[str] = Counter()
PROBLEMS: list[str] = []


def problem(what: str, detail: str) -> None:
    CHECKS[what] += 1
    if len(PROBLEMS) < 50:
        PROBLEMS.append(f"{what}: {detail}"[:400])
    events.request.fire(
        request_type="CHECK",
        name=f"check: {what}",
        response_time=0,
        response_length=0,
        exception=AssertionError(detail),
        context={},
    )


def until(deadline: float) -> None:
    gevent.sleep(max(0.0, deadline - time.monotonic()))


def keeper(user: User, table: Table, rng: random.Random) -> None:
    phone = table.keeper_phone = LocustPhone(user, table.cookies, table.address)
    account = Account(0, table.email)
    account.phone = phone
    tally = Tally()
    until(time.monotonic() + rng.uniform(0, ROUND_EVERY))
    while True:
        started = time.monotonic()
        log = table.logs[-1]
        phone.pause_before_post = TYPING
        try:
            saved = enter_round(phone, log, rng, tally)
            if saved:
                check_sheet(table, phone.last, max(log.acknowledged))
                if rng.random() < CORRECTION_RATE:
                    correct(phone, table, log, rng, max(log.acknowledged))
            elif saved is None:  # the game is over: its PDF, the next game, its link
                phone.pause_before_post = 0.0
                phone.get(f"/games/{log.game_id}/sheet.pdf")
                game = account.game(table.night, VARIANT, table.people)
                live = show_players(phone, f"/games/{game}/live")
                table.logs.append(GameLog(game, VARIANT))
                table.live_paths[game] = table.game_live = live
                continue
        except Exception as exc:  # recorded, and the keeper goes on with the next round
            problem("keeper", repr(exc))
        until(started + ROUND_EVERY)


def correct(phone: LocustPhone, table: Table, log: GameLog, rng: random.Random, n: int) -> None:
    """The keeper opens the round just saved, types it again and saves it."""
    url = f"/games/{log.game_id}/rounds/{n}"
    page = phone.get(url)
    if page.status != 200:
        return
    form = read_round_form(page.text)
    fields, expected = random_round(form, rng, log.variant)
    phone.pause_before_post = CORRECTION_TYPING
    r = phone.post(url, {**form.hidden, **fields})
    if r.status != 302:
        problem("correction refused", f"{url}: {r.status}")
        return
    log.acknowledged[n] = expected
    check_sheet(table, phone.get(local_path(r.location)), n, last=max(log.acknowledged))


def check_sheet(table: Table, reply: Reply | None, n: int, last: int | None = None) -> None:
    """The sheet after a save shows round ``n`` and nothing after the last saved round."""
    last = n if last is None else last
    if reply is None or reply.status != 200:
        problem("sheet after save", f"{table.email}: {reply and reply.status}")
    elif f'id="r{n}"' not in reply.text or f'id="r{last + 1}"' in reply.text:
        problem("stale sheet", f"{table.email}: round {n} of {last} not as saved")


ROUND_ROW = re.compile(r'data-round="(\d+)"')


def player(user: User, table: Table, rng: random.Random, night: bool) -> None:
    """A phone with the live view open: live.js's poll every POLL seconds."""
    phone = LocustPhone(user, address=table.address)
    path, etag, shown = "", "", 0
    due = time.monotonic() + rng.uniform(0, POLL)
    while True:
        until(due)
        due += POLL
        late = time.monotonic() - due
        if late > 0:  # a poll waited past the next one's time: that one is skipped
            due += POLL * (1 + int(late // POLL))
        current, saved = (table.night_live, 0) if night else table.saved
        if current != path:  # a new game's link: opened afresh
            path, etag, shown = current, "", 0
        try:
            r = phone.get(path, headers={"If-None-Match": etag} if etag else None)
        except Exception:  # counted as the request's failure already
            continue
        if r.status == 200:
            etag = r.headers.get("ETag") or ""
            if not night:
                shown = max((int(x) for x in ROUND_ROW.findall(r.text)), default=0)
                if shown < saved:
                    problem("stale live view", f"{path}: shows {shown}, {saved} saved")
        elif r.status == 304 and not night and shown < saved:
            problem("stale 304", f"{path}: 304 while showing {shown} of {saved} saved")


SEATS = itertools.count(1)


class TableUser(User):
    """A table: its keeper, its players and the night's phone, each a greenlet."""

    wait_time = constant(3600)

    def on_start(self) -> None:
        """The keeper sets the table up (benchmarks/capacity.py ``make_table``: while the
        window settles, unmeasured), then the phones start."""
        n = next(SEATS)
        account = Account(0, f"table{n}-{uuid.uuid4().hex[:8]}@example.com")
        address = f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"  # the table's Wi-Fi
        account.phone = LocustPhone(self, address=address)
        try:
            table = Table(**make_table(account, n), address=address)
        except Exception as exc:
            problem("setting up a table", repr(exc))
            raise
        TABLES.append(table)
        rng = random.Random(n)
        self.phones = [gevent.spawn(keeper, self, table, random.Random(rng.random()))]
        self.phones += [
            gevent.spawn(player, self, table, random.Random(rng.random()), False)
            for _ in range(PLAYERS)
        ]
        self.phones.append(gevent.spawn(player, self, table, random.Random(rng.random()), True))

    @task
    def play(self) -> None:
        gevent.sleep(3600)  # the table's phones run in their own greenlets

    def on_stop(self) -> None:
        gevent.killall(self.phones, block=False)


# ---------------------------------------------------------------- statistics ---
@dataclass
class Window:
    label: str
    tables: int
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)


CURRENT: list[Window | None] = [None]
ALL_ERRORS: Counter[str] = Counter()


@events.request.add_listener
def on_request(name: str, response_time: float, exception: Any = None, **_: Any) -> None:
    window = CURRENT[0]
    if exception is not None:
        ALL_ERRORS[name] += 1
    if window is None:
        return
    if name.startswith("check: "):
        window.errors[name] += 1
    else:
        window.times[name].append(response_time)
        if exception is not None:
            window.errors[name] += 1
    if exception is not None and len(window.samples) < 10:
        window.samples.append(f"{name}: {exception}"[:300])


def percentile(ordered: list[float], p: float) -> float:
    """Nearest rank."""
    if not ordered:
        return 0.0
    return ordered[max(0, min(len(ordered) - 1, int(-(-p * len(ordered) // 100)) - 1))]


def summary(window: Window, seconds: float) -> dict[str, Any]:
    kinds = {}
    for name in sorted(set(window.times) | set(window.errors)):
        ordered = sorted(window.times.get(name, []))
        kinds[name] = {
            "n": len(ordered),
            "rps": len(ordered) / seconds,
            "p50": percentile(ordered, 50),
            "p95": percentile(ordered, 95),
            "p99": percentile(ordered, 99),
            "max": ordered[-1] if ordered else 0.0,
            "errors": window.errors.get(name, 0),
        }
    return kinds


# --------------------------------------------------------------------- shape ---
class Plan(LoadTestShape):
    """The run file's windows, one after another: tables up to the window's count, then
    ``settle`` seconds unmeasured, then ``measure`` seconds measured and summed up."""

    def __init__(self) -> None:
        super().__init__()
        self.windows = RUN["windows"]
        self.index = 0
        self.phase_end: float | None = None
        self.measuring = False
        self.meter = Meter(RUN["meter"])
        self.results = Path(RUN["results"])
        self.stopped = False

    def tick(self) -> tuple[int, float] | None:
        if self.stopped or self.index >= len(self.windows):
            return None
        now = self.get_run_time()
        w = self.windows[self.index]
        if self.phase_end is None:  # the window begins: tables up, settle
            self.phase_end = now + w["settle"]
            self.measuring = False
        elif now >= self.phase_end and not self.measuring:
            self.measuring = True
            self.phase_end = now + w["measure"]
            CURRENT[0] = Window(w["label"], w["tables"])
            self.meter.start()
            self.cpu0 = _own_cpu()
        elif now >= self.phase_end and self.measuring:
            self.finish(w)
            self.index += 1
            self.phase_end = None
            if self.stopped or self.index >= len(self.windows):
                return None
            return self.tick()
        return w["tables"], float(RUN.get("spawn_rate", 50))

    def finish(self, w: dict[str, Any]) -> None:
        window = CURRENT[0]
        assert window is not None
        CURRENT[0] = None
        meter = self.meter.stop()
        seconds = meter["seconds"]
        meter["cpu"]["load generator"] = _own_cpu() - self.cpu0
        kinds = summary(window, seconds)
        errors = sum(window.errors.values())
        worst = max((k["p99"] for k in kinds.values()), default=0.0)
        failed = errors > 0 or worst > P99_LIMIT_MS
        row = {
            "label": w["label"],
            "tables": w["tables"],
            "compress": COMPRESS,
            "tables_equiv": w["tables"] * COMPRESS,
            "kinds": kinds,
            "errors": errors,
            "error_samples": window.samples,
            "worst_p99": worst,
            "failed": failed,
            **meter,
        }
        with open(self.results, "a") as out:
            out.write(json.dumps(row) + "\n")
        print(
            f"[{w['label']}] {w['tables']} tables x{COMPRESS:g}: "
            f"{sum(k['n'] for k in kinds.values()) / seconds:.0f} req/s, worst p99 "
            f"{worst:.0f} ms, {errors} errors, CPU busy {meter['machine_busy']:.2f} of "
            f"{meter['machine_cores']} cores{' -- FAILED' if failed else ''}",
            flush=True,
        )
        if failed and RUN.get("stop_on_fail", True):
            self.stopped = True


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@events.quitting.add_listener
def write_logs(environment: Any, **_: Any) -> None:
    """What the keepers were told was saved, for capacity.py's checks afterwards."""
    data = {
        "games": [
            {
                "game_id": log.game_id,
                "variant": log.variant,
                "acknowledged": log.acknowledged,
                "email": table.email,
                "cookies": table.cookies,
                "live": table.live_paths.get(log.game_id, ""),
                # a save the run stopped before its answer came: it may be stored or not
                "unanswered": (
                    table.keeper_phone.sending
                    if table.keeper_phone and f"/games/{log.game_id}/" in table.keeper_phone.sending
                    else ""
                ),
            }
            for table in TABLES
            for log in table.logs
        ],
        "checks": dict(CHECKS),
        "problems": PROBLEMS,
        "errors": dict(ALL_ERRORS),
    }
    Path(RUN["logs"]).write_text(json.dumps(data))
