"""Capacity with push (issue 29): how many live tables the deployed stack holds when the
phones hold streams instead of polling.

    PYTHONPATH=. .venv/bin/python -P benchmarks/streams.py [--tables 1000] [--minutes 3]
        [--settle 30] [--workers 4] [--connect-rate 400] [--tables-per-keeper 25]

Starts the deployed stack (``deploy/stack up``: nginx with nchan from deploy/nginx.conf,
gunicorn from deploy/gunicorn.conf.py, Redis, a PostgreSQL database of its own) and seats
``--tables`` tables through the app's own forms (a night of six people, a Rummy game, the
game's and the night's live links; one keeper account per ``--tables-per-keeper``
tables). Then the table-night model with streams, for ``--minutes`` measured minutes after
``--settle`` seconds: each table's six players hold the game's live stream and the night
phone the night's; each table's keeper enters a round a minute (the round form, the save,
the sheet it lands on), at an offset of its own within the minute. As live.js does, each
phone asks for its page when it opens it and whenever its stream (re)connects (the page
notes its language, and names its stream: data-stream); a message holding the page is
swapped in with no request, a message of the version only makes the phone ask once
(``?v=<message>``, ``If-None-Match``) unless it already swapped in that version's page.

The load generator is this process: one asyncio loop, plain sockets, no library (an idle
stream costs it a socket and a task); its CPU time is reported. Reported: per request kind
requests/s and p50/p95/p99; the delivery latency from the save's response (and from the
keeper's tap) to the message at each subscriber, p50/p99; the streams held; the CPU of the
app, the front, PostgreSQL and the load generator; tables per core. A page asked because
of a save that does not show that save (a 304 or fewer rounds) is stale. Goals printed met
or NOT MET: ``--tables`` (1,000) held with every p99 under 250 ms, delivery p99 under 1 s,
0 errors, nothing stale. ``deploy/stack down`` at the end, whatever happened.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402
from urllib.parse import urlencode  # noqa: E402

from benchmarks.capacity import postgres_backends  # noqa: E402
from benchmarks.http_load import children, commit, cpu_by_pid, machine  # noqa: E402
from tests.load.harness import (  # noqa: E402
    Account,
    random_round,
    read_round_form,
    show_players,
)

PEOPLE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
PLAYERS_PER_TABLE = 6  # on the game's stream; and the night phone on the night's
GOAL_P99_MS = 250
GOAL_DELIVERY_P99_MS = 1000


# ------------------------------------------------------------------- set-up ---
@dataclass
class Table:
    n: int
    cookies: dict[str, str]
    game: int
    game_path: str  # /live/<token>
    night_path: str  # /live/night/<token>
    saves: list[tuple[float, float, int]] = field(default_factory=list)  # sent, answered, round
    tap: tuple[float, int] | None = None  # the save under way: sent, its round


def seat(port: int, n: int, account: Account) -> Table:
    night = account.night(PEOPLE)
    game = account.game(night, "rummy", PEOPLE, target_score="100000")
    game_path = show_players(account.phone, f"/games/{game}/live")
    night_path = show_players(account.phone, f"/nights/{night}/live")
    return Table(n, dict(account.phone.cookies), game, game_path, night_path)


def seat_all(port: int, tables: int, per_keeper: int, threads: int) -> list[Table]:
    def keeper(k: int) -> list[Table]:
        account = Account(port, f"keeper{k}-{random.randrange(10**9)}@example.com")
        account.signup()
        first = k * per_keeper
        return [seat(port, n, account) for n in range(first, min(first + per_keeper, tables))]

    keepers = (tables + per_keeper - 1) // per_keeper
    with ThreadPoolExecutor(threads) as pool:
        return [t for group in pool.map(keeper, range(keepers)) for t in group]


# ------------------------------------------------------------- the measures ---
class Meter:
    def __init__(self) -> None:
        self.measuring = False
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.error_samples: list[str] = []
        self.stale: list[str] = []
        self.delivery: list[float] = []  # ms from the save's response to the message
        self.from_tap: list[float] = []  # ms from the keeper's tap (request sent)
        self.shown: list[float] = []  # ms from the keeper's tap to the new page shown
        self.messages: Counter[str] = Counter()  # with the page, version only, ignored
        self.held = 0
        self.max_held = 0

    def took(self, kind: str, started: float) -> None:
        if self.measuring:
            self.times[kind].append((time.monotonic() - started) * 1000)

    def error(self, what: str) -> None:
        kind = what.split(":")[0]
        if not self.errors[kind]:
            self.error_samples.append(what[:300])
        self.errors[kind] += 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# -------------------------------------------------------------- the client ---
async def http(
    port: int, method: str, path: str, headers: dict[str, str] | None = None,
    body: str | None = None, source: str | None = None,
) -> tuple[int, dict[str, str], str, list[str]]:  # fmt: skip
    """One request on a connection of its own: status, headers, body, Set-Cookies. From
    the loopback address ``source`` when given (a phone of its own)."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port, local_addr=(source, 0) if source else None
    )
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        data = body.encode() if body is not None else b""
        if body is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(data)}"]  # fmt: skip
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        raw = await reader.read(-1)
    finally:
        writer.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found: dict[str, str] = {}
    cookies = []
    for line in header_lines:
        name, _, value = line.partition(":")
        if name.lower() == "set-cookie":
            cookies.append(value.strip())
        found[name.lower()] = value.strip()
    if found.get("transfer-encoding") == "chunked":
        rest = _dechunk(rest)
    return int(status_line.split()[1]), found, rest.decode("utf-8", "replace"), cookies


def _dechunk(data: bytes) -> bytes:
    out, i = bytearray(), 0
    while True:
        j = data.index(b"\r\n", i)
        size = int(data[i:j].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += data[j + 2 : j + 2 + size]
        i = j + 2 + size + 2


def _keep_cookies(cookies: dict[str, str], headers: list[str]) -> None:
    for header in headers:
        name, _, rest = header.partition("=")
        value = rest.split(";", 1)[0]
        if value and "max-age=0" not in header.lower():
            cookies[name.strip()] = value


def phone_address(index: int) -> str:
    """A loopback address of the phone's own (Linux routes all of 127/8 to ``lo``): each
    phone is its own client to the front and, through X-Forwarded-For, to the app's
    per-client limit on the live views, as phones on a network are."""
    return f"127.{1 + index // (256 * 254)}.{index // 254 % 256}.{1 + index % 254}"


@dataclass
class Phone:
    """What a phone's page holds: its ETag, its stream, the last version swapped in from
    a message, the last version whose delivery was counted."""

    etag: str = ""
    stream: str = ""
    swapped: str = ""
    counted: str = ""


async def open_page(port: int, path: str, kind: str, phone: Phone, meter: Meter, source: str
                    ) -> None:  # fmt: skip
    """The phone asks for its page (opening it, or its stream back): its ETag and stream."""
    started = time.monotonic()
    status, headers, body, _ = await http(
        port, "GET", path, {"If-None-Match": phone.etag} if phone.etag else None, source=source
    )
    meter.took(f"{kind} (open)", started)
    if status == 200:
        phone.etag = headers.get("etag", phone.etag)
        found = re.search(r'data-stream="([^"]+)"', body)
        if found:
            phone.stream = re.sub(r"^https?://[^/]+", "", found.group(1))
    elif status != 304:
        raise ConnectionError(f"{kind} (open): status {status}")


async def subscriber(
    port: int, table: Table, path: str, kind: str, meter: Meter, source: str
) -> None:
    """A phone on a live view: asks for its page, holds its stream; on each message swaps
    the page in, or asks for it once (a message of the version only)."""
    phone = Phone()
    while True:
        started = time.monotonic()
        try:
            await open_page(port, path, kind, phone, meter, source)
            channel = phone.stream or "/streams" + path.replace("/live/night/", "/live/")
            started = time.monotonic()
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
        except (OSError, ConnectionError) as exc:
            meter.error(f"stream connect: {exc}")
            await asyncio.sleep(1)
            continue
        writer.write(  # HTTP/1.0: the stream unchunked, a line at a time
            f"GET {channel} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        replay = False  # live channels replay nothing on connect (nginx.conf: newest)
        try:
            status = (await reader.readline()).split()[1]
            if status != b"200":
                meter.error(f"stream status {status.decode()}")
                raise ConnectionError
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            meter.took("stream connect", started)
            meter.held += 1
            meter.max_held = max(meter.max_held, meter.held)
            try:
                while True:
                    line = await reader.readline()
                    if not line:
                        raise ConnectionError("stream closed")
                    if line.startswith(b"data: "):
                        heard = time.monotonic()
                        message = line[6:].strip().decode()
                        _heard(port, table, path, kind, message, phone, heard, meter, replay,
                               source)  # fmt: skip
                        replay = False
            finally:
                meter.held -= 1
        except (OSError, ConnectionError, IndexError) as exc:
            if meter.measuring:
                meter.error(f"stream lost: {exc!r}")
            writer.close()
            await asyncio.sleep(1)


def _heard(
    port: int, table: Table, path: str, kind: str, message: str, phone: Phone, heard: float,
    meter: Meter, replay: bool, source: str,
) -> None:  # fmt: skip
    said = json.loads(message) if message.startswith("{") else {"v": message}
    save = table.saves[-1] if table.saves else None
    if table.tap is not None and heard >= table.tap[0]:  # before the save's response
        save = (table.tap[0], heard, table.tap[1])
    counted = meter.measuring and save is not None and heard >= save[0] and not replay
    if counted and save is not None and said["v"] != phone.counted:  # a phone's first
        phone.counted = said["v"]  # message of a save (it hears two: page and version)
        meter.delivery.append(max(0.0, (heard - save[1]) * 1000))  # 0: before the response
        meter.from_tap.append((heard - save[0]) * 1000)
    if "page" in said:
        meter.messages["with the page" if meter.measuring else "-"] += 1
        phone.swapped, phone.etag = said["v"], said.get("etag", phone.etag)
        if counted and save is not None:
            meter.shown.append((heard - save[0]) * 1000)
            _check(meter, table, kind, save, 200, said["page"])
        return
    if said["v"] == phone.swapped:
        meter.messages["version only, page had" if meter.measuring else "-"] += 1
        return
    meter.messages["version only, asked" if meter.measuring else "-"] += 1
    task = asyncio.ensure_future(_ask(port, table, path, kind, said["v"], phone, meter, source,
                                      save if counted else None))  # fmt: skip
    _ASKING.add(task)  # held until done (the loop keeps only weak references)
    task.add_done_callback(_ASKING.discard)


_ASKING: set[asyncio.Future[None]] = set()


def _check(meter: Meter, table: Table, kind: str, save: tuple[float, float, int], status: int,
           body: str) -> None:  # fmt: skip
    """A page that does not show the save it was had for is stale."""
    if kind == "live game page":
        rounds = body.count('data-round="') if status == 200 else -1
        if status == 304 or rounds < save[2]:
            meter.stale.append(f"table {table.n}: round {save[2]} saved, page shows {rounds}")


async def _ask(
    port: int, table: Table, path: str, kind: str, version: str, phone: Phone, meter: Meter,
    source: str, save: tuple[float, float, int] | None,
) -> None:  # fmt: skip
    await asyncio.sleep(random.uniform(0, 0.25))  # as live.js: the table's phones apart
    if version == phone.swapped:  # its page came in a message meanwhile
        return
    started = time.monotonic()
    try:
        status, headers, body, _ = await http(
            port,
            "GET",
            f"{path}?v={version}",
            {"If-None-Match": phone.etag} if phone.etag else None,
            source=source,
        )
    except OSError as exc:
        meter.error(f"{kind}: {exc!r}")
        return
    meter.took(kind, started)
    if status not in (200, 304):
        meter.error(f"{kind}: status {status} {body[:200]!r}")
        return
    if save is not None:
        meter.shown.append((time.monotonic() - save[0]) * 1000)
        _check(meter, table, kind, save, status, body)
    if status == 200:
        phone.etag = headers.get("etag", phone.etag)


async def keeper(port: int, table: Table, meter: Meter, rng: random.Random, end: float) -> None:
    """A round a minute, at this table's own second of the minute."""
    await asyncio.sleep(rng.uniform(0, 60))
    url = f"/games/{table.game}/rounds/new"
    while time.monotonic() < end:
        began = time.monotonic()
        cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in table.cookies.items())}
        try:
            status, _, html, cookies = await http(port, "GET", url, cookie)
            meter.took("round form", began)
            _keep_cookies(table.cookies, cookies)
            if status != 200:
                raise RuntimeError(f"round form: status {status}")
            form = read_round_form(html)
            fields, _ = random_round(form, rng, "rummy")
            sent = time.monotonic()
            table.tap = (sent, form.number)
            status, headers, _, cookies = await http(
                port, "POST", url, cookie, urlencode({**form.hidden, **fields})
            )
            table.tap = None
            meter.took("save round", sent)
            _keep_cookies(table.cookies, cookies)
            if status != 302:
                raise RuntimeError(f"save round: status {status}")
            table.saves.append((sent, time.monotonic(), form.number))
            location = re.sub(r"^https?://[^/]+", "", headers["location"])
            started = time.monotonic()
            status, *_ = await http(port, "GET", location, cookie)
            meter.took("sheet", started)
            if status != 200:
                raise RuntimeError(f"sheet: status {status}")
        except (OSError, RuntimeError, AssertionError, KeyError) as exc:
            meter.error(f"keeper {exc}")
        await asyncio.sleep(max(0.0, 60 - (time.monotonic() - began)))


# ---------------------------------------------------------------------- run ---
def stack(*args: str, run: Path) -> str:
    done = subprocess.run([str(ROOT / "deploy" / "stack"), *args, "--dir", str(run)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    return done.stdout


def processes(state: dict[str, Any]) -> dict[str, set[int]]:
    app = {state["pids"]["gunicorn"], *children(state["pids"]["gunicorn"])}
    nginx_pid = int((Path(state["dir"]) / "nginx.pid").read_text())
    return {
        "app": app,
        "front": {nginx_pid, *children(nginx_pid)},
        "db": postgres_backends(state["database"]),
        "redis": {state["pids"]["redis"]},
    }


def cpu(groups: dict[str, set[int]]) -> dict[str, float]:
    out = {name: sum(cpu_by_pid(pids).values()) for name, pids in groups.items()}
    me = resource.getrusage(resource.RUSAGE_SELF)
    out["load generator"] = me.ru_utime + me.ru_stime
    return out


async def model(args: argparse.Namespace, port: int, tables: list[Table], state: dict[str, Any]
                ) -> dict[str, Any]:  # fmt: skip
    meter = Meter()
    rng = random.Random(29)
    tasks = []
    phones = iter(range(10**6))
    for table in tables:  # the streams, --connect-rate a second, each phone its own address
        for _ in range(PLAYERS_PER_TABLE):
            tasks.append(asyncio.ensure_future(subscriber(
                port, table, table.game_path, "live game page", meter,
                phone_address(next(phones)))))  # fmt: skip
        tasks.append(asyncio.ensure_future(subscriber(
            port, table, table.night_path, "live night page", meter,
            phone_address(next(phones)))))  # fmt: skip
        await asyncio.sleep((PLAYERS_PER_TABLE + 1) / args.connect_rate)
    end = time.monotonic() + args.settle + args.minutes * 60
    tasks += [asyncio.ensure_future(keeper(port, t, meter, rng, end)) for t in tables]
    await asyncio.sleep(args.settle)
    groups = processes(state)
    before, t0 = cpu(groups), time.monotonic()
    meter.measuring = True
    await asyncio.sleep(args.minutes * 60)
    meter.measuring = False
    after, seconds = cpu(groups), time.monotonic() - t0
    held = meter.held
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"meter": meter, "seconds": seconds, "held": held,
            "cpu": {k: (after[k] - before[k]) / seconds for k in after}}  # fmt: skip


def report(args: argparse.Namespace, result: dict[str, Any], tables: int) -> bool:
    meter: Meter = result["meter"]
    seconds = result["seconds"]
    print(f"\n{tables} tables, {result['held']} streams held at the end "
          f"(most {meter.max_held}), {seconds:.0f} s measured")  # fmt: skip
    print(f"{'kind':<18}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    worst = 0.0
    for kind, values in sorted(meter.times.items()):
        p99 = pct(values, 99)
        if kind != "stream connect":
            worst = max(worst, p99)
        print(f"{kind:<18}{len(values) / seconds:>8.1f}{pct(values, 50):>9.1f}"
              f"{pct(values, 95):>9.1f}{p99:>9.1f}")  # fmt: skip
    d50, d99 = pct(meter.delivery, 50), pct(meter.delivery, 99)
    print(f"delivery after the save's response: p50 {d50:.1f} ms, p99 {d99:.1f} ms "
          f"({len(meter.delivery)} messages); from the keeper's tap: p50 "
          f"{pct(meter.from_tap, 50):.1f} ms, p99 {pct(meter.from_tap, 99):.1f} ms")  # fmt: skip
    print(f"the new page on the phone, from the keeper's tap: p50 {pct(meter.shown, 50):.0f} "
          f"ms, p99 {pct(meter.shown, 99):.0f} ms")  # fmt: skip
    kinds = {k: v for k, v in meter.messages.items() if k != "-"}
    print("messages at the phones: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    asked = sum(len(v) for k, v in meter.times.items() if k.startswith("live "))
    print(f"page requests from the phones: {asked} ({asked / seconds:.1f}/s) for "
          f"{len(meter.times.get('save round', []))} saves")  # fmt: skip
    cores = result["cpu"]
    print("CPU (cores): " + ", ".join(f"{k} {v:.2f}" for k, v in cores.items()))
    served = sum(v for k, v in cores.items() if k != "load generator")
    if served:
        print(f"tables per core of the stack (app + front + db + redis): {tables / served:.0f}")
    errors = sum(meter.errors.values())
    print(f"errors: {errors} {dict(meter.errors)}", *meter.error_samples, sep="\n  ")
    print(f"stale pages: {len(meter.stale)} {meter.stale[:3]}")
    saves = len(meter.times.get("save round", []))
    goals = [
        (f"{tables} tables held (all streams up)", result["held"] == tables * 7),
        (f"every p99 under {GOAL_P99_MS} ms (worst {worst:.0f})", worst < GOAL_P99_MS),
        (f"delivery p99 under {GOAL_DELIVERY_P99_MS} ms ({d99:.0f})",
         bool(meter.delivery) and d99 < GOAL_DELIVERY_P99_MS),
        ("0 errors", errors == 0),
        ("nothing stale", not meter.stale and saves > 0),
    ]  # fmt: skip
    for what, met in goals:
        print(f"  {'met' if met else 'NOT MET'}: {what}")
    return all(met for _, met in goals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--settle", type=float, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--connect-rate", type=float, default=400)
    parser.add_argument("--tables-per-keeper", type=int, default=25)
    parser.add_argument("--setup-threads", type=int, default=6)
    args = parser.parse_args()
    print(f"commit {commit()}; {machine()}")
    run = Path(tempfile.mkdtemp(prefix="streams-bench-")) / "stack"
    try:
        stack("up", "--workers", str(args.workers), "--access-log", run=run)
        state = json.loads((run / "stack.json").read_text())
        port = state["front_port"]
        began = time.monotonic()
        tables = seat_all(port, args.tables, args.tables_per_keeper, args.setup_threads)
        print(f"{len(tables)} tables seated in {time.monotonic() - began:.0f} s")
        result = asyncio.run(model(args, port, tables, state))
        print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        ok = report(args, result, len(tables))
        if result["meter"].errors:
            for log in ("error.log", "gunicorn.log"):
                lines = (run / log).read_text().splitlines()
                print(f"--- {log}, last lines:", *lines[-15:], sep="\n")
    finally:
        stack("down", run=run)
        shutil.rmtree(run.parent, ignore_errors=True)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
