"""Capacity: how many live tables one box holds, and how it grows past one box (issue 24).

    PYTHONPATH=. .venv/bin/python -P benchmarks/capacity.py [--instances 1|2] [--compress 2]
        [--start 20] [--step 10] [--max 150] [--settle 20] [--measure 40] [--workers 4]
        [--soak TABLES --soak-minutes 10] [--profile]

Sets up, on this machine, what the README's deploy section runs: a PostgreSQL database of
its own (``cap_<random>``, migrated with ``flask db upgrade``, dropped at the end) and the
app under gunicorn, started from ``deploy/gunicorn.conf.py`` with the environment of
``deploy/scorekeeper.env`` and ``deploy/app1.env`` (the benchmark overrides the database,
the secret key, the addresses, plain-HTTP cookies and, with one instance, leaves the shared
cache out, as the README's single-instance deploy does). ``--instances 2``: two gunicorn
masters (``deploy/app1.env``, ``deploy/app2.env``) behind HAProxy started from
``deploy/haproxy.cfg`` and ``deploy/haproxy.env``, sharing a Redis started from
``deploy/redis.conf`` on a free port (``apt-get install haproxy redis-server`` when
missing). Every instance runs deploy/gunicorn.conf.py plus the measuring hooks of
benchmarks/request_costs.py (the per-kind CPU costs).

Then it runs the table-night model (benchmarks/table_night.py) with Locust, headless, in
one process; each table's keeper sets the table up as it sits down (an account, a night
of six people with two finished games imported, the current game and both live links),
while the window settles: ``--start``
simulated tables, ``--step`` more each window, each window ``--settle`` seconds unmeasured
and ``--measure`` measured, until a window fails (a p99 over ``--p99`` ms, an error, a
stale page) or ``--max`` is reached. Time is compressed ``--compress`` times, so a
simulated table stands for that many real ones. ``--soak N``: instead of the ramp, N
simulated tables for ``--soak-minutes``, in one-minute windows, going on past failures,
with each worker's memory (RSS) at the start and the end.

Afterwards every round a keeper was told was saved is checked in the database and through
the API (stored as typed, no other, none twice, every game replays: tests/load/harness.py
``game_problems``), the database's integrity too, and with Redis its hit counts. It prints
each window's figures, the figures per request kind of the last window that held, where
the CPU went, an estimate for larger hosts from the measured costs, and each goal as met
or NOT MET.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from typing import Any  # noqa: E402

from benchmarks.http_load import children, commit, cpu_by_pid, machine  # noqa: E402

DEPLOY = ROOT / "deploy"
GOAL_TABLES = 1000  # on this 2-core machine, p99 under the limit, no error
GOAL_SCALING = 1.6  # two instances against one, each on the cores it needs
PEOPLE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
HISTORY_GAMES = 2  # finished games on each night before the run: the night's page has them


# --------------------------------------------------------------------- meter ---
def _read(path: str) -> str:
    with contextlib.suppress(OSError):
        return Path(path).read_text()
    return ""


def postgres_backends(db_name: str) -> set[int]:
    """The PostgreSQL server processes connected to ``db_name`` (by their process title)."""
    found = set()
    title = re.compile(rf"^postgres: .* {re.escape(db_name)} ")
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        text = _read(str(cmdline)).replace("\0", " ")
        if text.startswith("postgres: ") and title.match(text):
            found.add(int(cmdline.parent.name))
    return found


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot (/proc/stat)."""
    fields = [int(x) for x in _read("/proc/stat").splitlines()[0].split()[1:]]
    total = sum(fields[:8]) / os.sysconf("SC_CLK_TCK")
    idle = (fields[3] + fields[4]) / os.sysconf("SC_CLK_TCK")
    return total - idle, total


def rss_kib(pid: int) -> int:
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Meter:
    """CPU of each part between ``start`` and ``stop``: the gunicorn masters and their
    workers, the PostgreSQL backends of the benchmark's database, HAProxy, Redis, the
    whole machine; and from the workers' own hooks (request_costs.py), CPU per request
    kind. Used by the Locust file, in the load generator's process."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config

    def groups(self) -> dict[str, set[int]]:
        apps = set()
        for master in self.config["app_masters"]:
            apps |= {master, *children(master)}
        return {
            "app": apps,
            "postgres": postgres_backends(self.config["db_name"]),
            "haproxy": set(self.config.get("haproxy", [])),
            "redis": set(self.config.get("redis", [])),
        }

    def costs(self) -> dict[str, dict[str, Any]]:
        out = {}
        for path in Path(self.config["costs_dir"]).glob("*.json"):
            with contextlib.suppress(OSError, ValueError):
                out[path.stem] = json.loads(path.read_text())
        return out

    def workers(self) -> list[int]:
        return sorted(p for m in self.config["app_masters"] for p in children(m))

    def start(self) -> None:
        self.t0 = time.monotonic()
        self.pids = self.groups()
        self.cpu0 = {k: cpu_by_pid(v) for k, v in self.pids.items()}
        self.machine0 = machine_cpu()
        self.costs0 = self.costs()
        self.rss0 = {pid: rss_kib(pid) for pid in self.workers()}

    def stop(self) -> dict[str, Any]:
        seconds = time.monotonic() - self.t0
        now = self.groups()
        cpu = {}
        for name, before in self.cpu0.items():
            after = cpu_by_pid(self.pids[name] | now[name])
            cpu[name] = sum(after[p] - before.get(p, 0.0) for p in after)
        busy, total = (b - a for a, b in zip(self.machine0, machine_cpu(), strict=True))
        cores = os.cpu_count() or 1
        costs: dict[str, list[float]] = {}
        later = self.costs()
        instance = {
            str(w): i for i, m in enumerate(self.config["app_masters"], 1) for w in children(m)
        }
        per_instance: dict[str, int] = {}
        for pid, data in later.items():
            before = self.costs0.get(pid, {}).get("kinds", {})
            for kind, (n, app, db) in data["kinds"].items():
                b = before.get(kind, [0, 0.0, 0.0])
                got = costs.setdefault(kind, [0, 0.0, 0.0])
                got[0] += n - b[0]
                got[1] += app - b[1]
                got[2] += db - b[2]
                name = f"app{instance.get(pid, '?')}"
                per_instance[name] = per_instance.get(name, 0) + int(n - b[0])
        return {
            "seconds": seconds,
            "cpu": cpu,
            "machine_busy": busy / total * cores if total else 0.0,
            "machine_cores": cores,
            "loadavg": os.getloadavg(),
            "costs": {
                k: {"n": n, "app_ms": app * 1000 / n, "db_ms": db * 1000 / n}
                for k, (n, app, db) in sorted(costs.items())
                if n > 0
            },
            "requests_by_instance": per_instance,
            "rss_kib": {"start": self.rss0, "end": {p: rss_kib(p) for p in self.workers()}},
            "caches": {pid: data.get("caches", {}) for pid, data in later.items()},
        }


# -------------------------------------------------------------- the services ---
def env_file(name: str) -> dict[str, str]:
    """``KEY=value`` lines of a deploy/ environment file (systemd's EnvironmentFile)."""
    out = {}
    for line in (DEPLOY / name).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def debian(*packages: str) -> None:
    """apt-get install the Debian packages whose programs are missing."""
    missing = [p for p in packages if not shutil.which(p)]  # each package's program
    if not missing:
        return
    print(f"Installing Debian packages: {' '.join(missing)}", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True)
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def answers(port: int, path: str = "/login") -> bool:
    from tests.load.harness import Phone

    return Phone(port).get(path, timeout=2).status == 200


MEASURING_CONF = """# deploy/gunicorn.conf.py and the hooks of benchmarks/request_costs.py
exec(compile(open({deploy!r}).read(), {deploy!r}, "exec"))
from benchmarks.request_costs import post_fork, post_request, pre_request, worker_exit
"""


@contextlib.contextmanager
def stack(args: argparse.Namespace, tmp: Path) -> Iterator[dict[str, Any]]:
    """The database, Redis, the app instances and the balancer; all stopped at the end."""
    from tests.load.harness import Service, app_env, connect, free_port, migrate

    db_name = f"cap_{uuid.uuid4().hex[:10]}"
    from sqlalchemy import make_url

    base = make_url(args.database_url)
    db_url = base.set(database=db_name).render_as_string(hide_password=False)
    admin = connect(args.database_url)
    admin.execute(f'CREATE DATABASE "{db_name}"')
    started: list[Service] = []
    try:
        migrate(db_url)
        shared = args.instances > 1 or args.redis
        env = {**env_file("scorekeeper.env"), **app_env(db_url)}
        env.update(SCOREKEEPER_SECURE_COOKIES="false", CAPACITY_COSTS_DIR=str(tmp / "costs"))
        env.pop("SCOREKEEPER_ACCESS_LOG", None)
        (tmp / "costs").mkdir()
        info: dict[str, Any] = {"db_url": db_url, "db_name": db_name, "redis": [], "haproxy": []}
        if shared:
            debian("redis-server")
            port = free_port()
            redis = Service(
                "redis-server",
                [
                    "redis-server",
                    str(DEPLOY / "redis.conf"),
                    "--port",
                    str(port),
                    "--dir",
                    str(tmp),
                ],
                dict(os.environ),
                tmp / "redis.log",
            )
            redis.start(lambda: _redis_ping(port))
            started.append(redis)
            env["SCOREKEEPER_CACHE_REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
            info.update(redis=[redis.pid], redis_url=env["SCOREKEEPER_CACHE_REDIS_URL"])
        else:  # the README's single-instance deploy: each worker's own caches
            env.pop("SCOREKEEPER_CACHE_TYPE", None)
            env.pop("SCOREKEEPER_CACHE_REDIS_URL", None)
            env["SCOREKEEPER_PROXY_FIX"] = "0"
        # Every simulated table comes from 127.0.0.1 and says its own Wi-Fi's address in
        # X-Forwarded-For (benchmarks/table_night.py), as each real table comes from its
        # own: the app's limits count per client address (web/live.py RATE). Trusted one
        # hop further than the deploy does (haproxy adds its own hop when in front).
        env["SCOREKEEPER_PROXY_FIX"] = str(int(env.get("SCOREKEEPER_PROXY_FIX") or 0) + 1)
        conf = tmp / "gunicorn.conf.py"
        conf.write_text(MEASURING_CONF.format(deploy=str(DEPLOY / "gunicorn.conf.py")))
        ports = []
        for n in range(1, args.instances + 1):
            port = free_port()
            own = {**env, **env_file(f"app{n}.env"), "PYTHONPATH": str(ROOT)}
            own.update(
                SCOREKEEPER_BIND=f"127.0.0.1:{port}",
                SCOREKEEPER_WORKERS=str(args.workers),
                SCOREKEEPER_CONTROL_SOCKET=str(tmp / f"app{n}.ctl"),
            )
            app = Service(
                f"app{n}",
                [sys.executable, "-m", "gunicorn", "-c", str(conf)],
                own,
                tmp / f"app{n}.log",
            )
            app.start(lambda port=port: answers(port))
            started.append(app)
            ports.append(port)
        info["app_masters"] = [p.pid for p in started if p.name.startswith("app")]
        info["app_ports"] = ports
        if args.instances > 1:
            debian("haproxy")
            lb_port = free_port()
            lb_env = {**os.environ, **env_file("haproxy.env")}
            lb_env.update(
                SCOREKEEPER_LB_BIND=f"127.0.0.1:{lb_port}",
                SCOREKEEPER_APP1=f"127.0.0.1:{ports[0]}",
                SCOREKEEPER_APP2=f"127.0.0.1:{ports[1]}",
                SCOREKEEPER_WORKERS=str(args.workers),
            )
            lb = Service(
                "haproxy",
                ["haproxy", "-f", str(DEPLOY / "haproxy.cfg"), "-db"],
                lb_env,
                tmp / "haproxy.log",
            )
            lb.start(lambda: answers(lb_port))
            started.append(lb)
            info.update(haproxy=[lb.pid], port=lb_port)
        else:
            info["port"] = ports[0]
        info["logs"] = {p.name: p.log for p in started}
        yield info
    finally:
        for p in reversed(started):
            p.stop()
        admin.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        admin.close()


def _redis_ping(port: int) -> bool:
    import redis

    return bool(redis.Redis(port=port, socket_connect_timeout=1).ping())


# ------------------------------------------------------------------- tables ---
def finished_texas(seed: int) -> dict[str, Any]:
    """A finished Texas Rummy game of the six, as a record to import (the night so far)."""
    rounds = []
    for n in range(1, 12):
        out = PEOPLE[(n + seed) % 6]
        hands = {p: (n * 7 + i * 3 + seed) % 40 for i, p in enumerate(PEOPLE) if p != out}
        rounds.append({"went_out": out, "hands": hands})
    return {
        "format": "scorekeeper-game/1",
        "variant": "texas",
        "settings": {},
        "players": PEOPLE,
        "first_dealer": PEOPLE[seed % 6],
        "rounds": rounds,
    }


def make_table(account: Any, n: int) -> dict[str, Any]:
    """A table as its keeper sets it up (tests/load/harness.py ``Account``): sign-up, the
    night of six with two finished games imported, the current game, both live links."""
    from tests.load.harness import show_players

    account.signup()
    night = account.night(PEOPLE)
    for seed in range(HISTORY_GAMES):
        account.import_game(night, finished_texas(n + seed))
    game = account.game(night, "texas", PEOPLE)
    account.phone.get("/")  # the imports' flashes read: none left in the session
    return {
        "email": account.email,
        "cookies": account.phone.cookies,
        "night": night,
        "people": PEOPLE,
        "game": game,
        "game_live": show_players(account.phone, f"/games/{game}/live"),
        "night_live": show_players(account.phone, f"/nights/{night}/live"),
    }


# --------------------------------------------------------------------- run ---
def run_locust(
    args: argparse.Namespace,
    info: dict[str, Any],
    windows: list[dict[str, Any]],
    tmp: Path,
    stop_on_fail: bool,
) -> dict[str, Any]:
    run = {
        "compress": args.compress,
        "p99_limit_ms": args.p99,
        "windows": windows,
        "results": str(tmp / "results.jsonl"),
        "logs": str(tmp / "logs.json"),
        "stop_on_fail": stop_on_fail,
        "spawn_rate": 25,
        "meter": {
            "app_masters": info["app_masters"],
            "db_name": info["db_name"],
            "haproxy": info["haproxy"],
            "redis": info["redis"],
            "costs_dir": str(tmp / "costs"),
        },
    }
    (tmp / "run.json").write_text(json.dumps(run))
    command = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(HERE / "table_night.py"),
        "--headless",
        "--host",
        f"http://127.0.0.1:{info['port']}",
        "--only-summary",
        "--loglevel",
        "WARNING",
        "--skip-log-setup",
    ]
    env = {**os.environ, "CAPACITY_RUN": str(tmp / "run.json"), "PYTHONPATH": str(ROOT)}
    profiler = None
    with open(tmp / "locust.log", "wb") as log:
        locust = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log)
        assert locust.stdout is not None
        for raw in locust.stdout:
            line = raw.decode(errors="replace").rstrip()
            if line.startswith("["):
                print(line, flush=True)
                if args.profile and profiler is None:
                    profiler = start_profile(info, tmp, args)
            log.write(raw)
        locust.wait()
    if profiler is not None:
        profiler.wait()
    results = [json.loads(x) for x in (tmp / "results.jsonl").read_text().splitlines() if x]
    logs = json.loads((tmp / "logs.json").read_text())
    return {"windows": results, "logs": logs}


def start_profile(info: dict[str, Any], tmp: Path, args: argparse.Namespace) -> Any:
    """py-spy records one worker for a window's length (``--profile``): where its time goes."""
    workers = sorted(children(info["app_masters"][0]))
    if not workers or (
        not shutil.which("py-spy") and not (Path(sys.executable).parent / "py-spy").exists()
    ):
        return None
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    out = tmp / "profile.txt"
    print(f"py-spy: recording worker {workers[0]} into {out}", flush=True)
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(workers[0]),
            "--duration",
            str(int(args.measure)),
            "--format",
            "raw",
            "--output",
            str(out),
            "--nonblocking",
            "--gil",  # only samples holding the GIL: the worker's Python CPU, not its waits
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def profile_summary(path: Path, top: int = 40) -> str:
    """py-spy's collapsed stacks (``--format raw``) summed by function: the share of the
    worker's samples in which each function was on the stack (inclusive) and on top."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n
    lines = [f"{total} samples; inclusive share, own share, function (file), below gunicorn:"]
    ranked = [kv for kv in sorted(inclusive.items(), key=lambda kv: -kv[1]) if kv[1] < 0.9 * total]
    for frame, n in ranked[:top]:
        lines.append(f"  {n / total:6.1%} {own.get(frame, 0) / total:6.1%}  {frame}")
    lines.append("  most own time:")
    for frame, n in sorted(own.items(), key=lambda kv: -kv[1])[:12]:
        lines.append(f"  {inclusive[frame] / total:6.1%} {n / total:6.1%}  {frame}")
    return "\n".join(lines)


def check(info: dict[str, Any], logs: dict[str, Any]) -> list[str]:
    """Every acknowledged round stored as typed and no other, every game replaying (per
    keeper, through the keeper's own log-in), and the database's integrity."""
    from tests.load.harness import GameLog, Phone, game_problems, integrity_problems

    by_keeper: dict[str, tuple[dict[str, str], list[GameLog]]] = {}
    unanswered: dict[int, str] = {}
    for g in logs["games"]:
        log = GameLog(g["game_id"], g["variant"])
        log.acknowledged = {int(k): v for k, v in g["acknowledged"].items()}
        by_keeper.setdefault(g["email"], (g["cookies"], []))[1].append(log)
        if g["unanswered"]:
            unanswered[log.game_id] = g["unanswered"]
    problems = []
    port = info["port"]
    for cookies, games in by_keeper.values():
        found = game_problems(info["db_url"], Phone(port, cookies), games, exact=True)
        problems += [p for p in found if not in_flight(p, games, unanswered)]
    problems += integrity_problems(info["db_url"])
    return problems


def in_flight(problem: str, games: list[Any], unanswered: dict[int, str]) -> bool:
    """A problem explained by the save the run stopped before its answer: the next round
    of that game stored without its 302 having been read, or a correction of round n."""
    found = re.match(
        r"game (\d+)(?: round (\d+))?: (?:rounds \[(\d+)\] stored but never)?", problem
    )
    if not found or int(found.group(1)) not in unanswered:
        return False
    game, sending = int(found.group(1)), unanswered[int(found.group(1))]
    log = next(g for g in games if g.game_id == game)
    if found.group(3):  # an extra round: the one being saved
        return (
            sending.endswith("/rounds/new")
            and int(found.group(3)) == max(log.acknowledged, default=0) + 1
        )
    if found.group(2):  # a round not as typed: the correction being saved
        return sending.endswith(f"/rounds/{found.group(2)}")
    return False


def across_instances(info: dict[str, Any], logs: dict[str, Any], count: int = 20) -> str:
    """Each of ``count`` games played, asked of one instance and then of the other (their
    own ports, not the balancer's): the sheet's ETag from the first is a 304 at the second,
    the PDF the first drew comes from Redis at the second (the same bytes, a Redis hit),
    and the players' live view's ETag from the first is a 304 at the second."""
    import redis

    from tests.load.harness import Phone

    one, two = info["app_ports"]
    client = redis.Redis.from_url(info["redis_url"])
    hits0 = client.info("stats")["keyspace_hits"]
    games = [g for g in logs["games"] if g["acknowledged"]][:count]
    ok = Counter[str]()
    for g in games:
        first, second = Phone(one, g["cookies"]), Phone(two, g["cookies"])
        page = first.get(f"/games/{g['game_id']}")
        etag = page.headers.get("ETag", "")
        again = second.get(f"/games/{g['game_id']}", headers={"If-None-Match": etag})
        ok["sheet 304"] += page.status == 200 and again.status == 304
        pdf = first.get(f"/games/{g['game_id']}/sheet.pdf")
        other = second.get(f"/games/{g['game_id']}/sheet.pdf")
        ok["same PDF"] += pdf.status == other.status == 200 and pdf.text == other.text
        live = first.get(g["live"]) if g.get("live") else None
        if live is not None:
            tag = live.headers.get("ETag", "")
            ok["live 304"] += second.get(g["live"], headers={"If-None-Match": tag}).status == 304
    hits = client.info("stats")["keyspace_hits"] - hits0
    return (
        f"Across instances ({len(games)} games, each asked of app1 then app2): "
        + ", ".join(f"{k} {v}/{len(games)}" for k, v in ok.items())
        + f"; Redis hits meanwhile {hits}"
    )


def redis_stats(info: dict[str, Any]) -> str:
    if not info.get("redis_url"):
        return ""
    import redis

    client = redis.Redis.from_url(info["redis_url"])
    stats = client.info("stats")
    kinds: dict[str, int] = {}
    for key in client.scan_iter("scorekeeper:*", count=1000):
        kind = key.decode().split(":")[1]
        kinds[kind] = kinds.get(kind, 0) + 1
    return (
        f"Redis: {stats['keyspace_hits']} hits, {stats['keyspace_misses']} misses; keys "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    )


# ------------------------------------------------------------------- report ---
def report(args: argparse.Namespace, windows: list[dict[str, Any]], soak: bool) -> None:
    print()
    print(
        "window          tables  req/s  worst p99 ms  errors  busy cores  app+db CPU "
        "ms/req  load gen cores"
    )
    for w in windows:
        n = sum(k["n"] for k in w["kinds"].values())
        app_db = (w["cpu"]["app"] + w["cpu"]["postgres"]) * 1000 / max(1, n)
        print(
            f"{w['label']:<15} {w['tables_equiv']:>6.0f} {n / w['seconds']:>6.0f} "
            f"{w['worst_p99']:>13.0f} {w['errors']:>7} {w['machine_busy']:>11.2f} "
            f"{app_db:>18.2f} {w['cpu']['load generator'] / w['seconds']:>15.2f}"
            f"{'  FAILED' if w['failed'] else ''}"
        )
    held = [w for w in windows if not w["failed"]]
    if not held:
        print("No window held.")
    best = held[-1] if held and not soak else windows[-1]
    print()
    print(
        f"Per request kind, window {best['label']} ({best['tables_equiv']:.0f} tables, "
        f"{best['seconds']:.0f} s):"
    )
    print(
        f"{'kind':<34} {'req/s':>7} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>6} "
        f"{'errors':>6}  {'CPU ms/req: app':>15} {'PostgreSQL':>10}"
    )
    for name, k in best["kinds"].items():
        c = best["costs"].get(name, {})
        print(
            f"{name:<34} {k['rps']:>7.1f} {k['p50']:>6.1f} {k['p95']:>6.1f} {k['p99']:>6.1f} "
            f"{k['max']:>6.0f} {k['errors']:>6}  {c.get('app_ms', 0):>15.2f} "
            f"{c.get('db_ms', 0):>10.2f}"
        )
    n = sum(k["n"] for k in best["kinds"].values())
    cpu = best["cpu"]
    in_hooks = sum(c["n"] * c["app_ms"] for c in best["costs"].values()) / 1000
    print()
    print(
        "CPU over the window, cores (ms per request): "
        + ", ".join(f"{k} {v / best['seconds']:.2f} ({v * 1000 / n:.2f})" for k, v in cpu.items())
        + f"; whole machine busy {best['machine_busy']:.2f} of {best['machine_cores']}; "
        f"app CPU inside requests {in_hooks / max(cpu['app'], 1e-9):.0%} of the app's"
    )
    if len(best["requests_by_instance"]) > 1:
        print(
            "Requests served by each instance: "
            + ", ".join(f"{k} {v}" for k, v in sorted(best["requests_by_instance"].items()))
        )
    polls = {k: v["n"] for k, v in best["kinds"].items() if k.startswith("player: live view")}
    if polls:
        changed = polls.get("player: live view 200", 0)
        print(
            f"Players' polls answered 304: {1 - changed / max(1, sum(polls.values())):.1%} "
            f"(a page changes once a round, about every 15th poll: 200s only then)"
        )
    paper(best, windows)
    if soak:
        print_soak(windows)


#: Requests per second of one real table, by kind, as the model makes them (a page changes
#: about 1.1 times a round: the round, and a correction one round in ten; a Texas game is
#: 11 rounds, so the game's end comes once in 11 minutes).
PER_ROUND, PER_GAME = 1 / 60, 1 / 660
CHANGES = 1.1 * PER_ROUND + PER_GAME
NOMINAL = {
    "player: live view 304": 6 * (1 / 4 - CHANGES),
    "player: live view 200": 6 * CHANGES,
    "night phone: live view 304": 1 / 4 - CHANGES,
    "night phone: live view 200": CHANGES,
    "keeper: round form": PER_ROUND + PER_GAME,  # and once more to find the game over
    "keeper: save round": PER_ROUND,
    "keeper: sheet after save": 1.1 * PER_ROUND,
    "keeper: correction form": 0.1 * PER_ROUND,
    "keeper: save correction": 0.1 * PER_ROUND,
    "keeper: sheet PDF": PER_GAME,
    "keeper: new game form": PER_GAME,
    "keeper: start game": PER_GAME,
    "keeper: show players": PER_GAME,
    "keeper: live link page": PER_GAME,
}


def per_table_cpu(w: dict[str, Any], earlier: list[dict[str, Any]]) -> dict[str, float]:
    """CPU seconds per second of one real table, by part: each request kind's measured cost
    (the workers' hooks; the app's CPU outside requests, such as accepting and parsing,
    spread over them as measured in the window) times the rate the model makes it at. A
    kind the window saw none of (a game's end is rarer than a window) costs what it cost
    in the latest earlier window of the run that had it."""
    costs = {k: c for e in earlier for k, c in e["costs"].items()} | w["costs"]
    n = sum(c["n"] for c in w["costs"].values())
    in_hooks = sum(c["n"] * c["app_ms"] for c in w["costs"].values()) / 1000
    outside = w["cpu"]["app"] / in_hooks if in_hooks else 1.0
    app = sum(NOMINAL[k] * costs[k]["app_ms"] for k in NOMINAL if k in costs) / 1000 * outside
    db = sum(NOMINAL[k] * costs[k]["db_ms"] for k in NOMINAL if k in costs) / 1000
    rate = sum(NOMINAL.values())
    balancer = (w["cpu"].get("haproxy", 0) + w["cpu"].get("redis", 0)) / max(n, 1) * rate
    return {"app": app, "postgres": db, "balancer+redis": balancer, "requests": rate}


def paper(w: dict[str, Any], windows: list[dict[str, Any]]) -> None:
    """What a host of N cores holds, from the measured CPU per request of each kind and the
    rates a real table makes them at (NOMINAL)."""
    cpu = per_table_cpu(w, windows)
    app = cpu["app"] + cpu["balancer+redis"]
    pg = cpu["postgres"]
    print()
    print(
        f"On paper, from window {w['label']}'s CPU per request kind: one table makes "
        f"{cpu['requests']:.2f} requests/s and costs the app tier {app * 1000:.2f} ms of CPU "
        f"a second (balancer and Redis {cpu['balancer+redis'] * 1000:.2f} of it), "
        f"PostgreSQL {pg * 1000:.2f} ms; with 70% of each core used (headroom for bursts):"
    )
    print(
        "  cores   tables, PostgreSQL on the same host   tables, app tier only "
        "(PostgreSQL elsewhere)   PostgreSQL cores for those"
    )
    for cores in (2, 4, 8, 16, 32):
        usable = cores * 0.7
        print(
            f"  {cores:>5}   {usable / (app + pg):>36.0f}   {usable / app:>40.0f}   "
            f"{(usable / app) * pg / 0.7:>26.1f}"
        )
    held = w["tables_equiv"]
    if cpu["balancer+redis"] > 0:
        # Two instances on twice the cores: twice the app tier, each table also paying for
        # the balancer and Redis; until PostgreSQL saturates.
        alone = cpu["app"]
        ratio = 2 * alone / (alone + cpu["balancer+redis"])
        verdict = "met" if ratio >= GOAL_SCALING else "NOT MET"
        print(
            f"GOAL two instances >= {GOAL_SCALING} x one instance's tables on twice the cores: "
            f"{ratio:.2f} on paper (not measurable on {os.cpu_count()} cores): {verdict}"
        )
    print(
        "  served in the window against the model's rates: "
        + ", ".join(
            f"{k.split(': ')[1]} {w['kinds'].get(k, {}).get('rps', 0) / held / v:.2f}"
            for k, v in NOMINAL.items()
            if k.startswith("player")
        )
    )


#: What the README states each worker's caches may hold, MiB (scorekeeper/cache.py users):
#: replays 64, drawn states 32, rendered sheets 32, PDFs 32.
CACHE_BOUND_MIB = 64 + 32 + 32 + 32


def print_soak(windows: list[dict[str, Any]]) -> bool:
    """Each worker's RSS at the start and the end of the soak: the growth must stay within
    what the README says the caches may hold."""
    first, last = windows[0], windows[-1]
    start, end = first["rss_kib"]["start"], last["rss_kib"]["end"]
    print()
    print(
        f"Soak: each worker's memory (RSS), start -> end, MiB (growth bound: the caches' "
        f"{CACHE_BOUND_MIB} MiB):"
    )
    ok = bool(start)
    for pid in sorted(set(start) | set(end), key=int):
        s, e = start.get(pid, 0) / 1024, end.get(pid, 0) / 1024
        caches = last["caches"].get(str(pid), {})
        fill = ", ".join(f"{k} {v / 2**20:.1f}" for k, v in caches.items())
        within = pid in start and pid in end and e - s <= CACHE_BOUND_MIB
        ok = ok and within
        print(
            f"  worker {pid}: {s:.0f} -> {e:.0f} ({e - s:+.0f}){'' if within else ' OUT'}; "
            f"caches hold MiB: {fill}"
        )
    print(
        f"GOAL each worker's RSS growth within {CACHE_BOUND_MIB} MiB, no worker replaced: "
        f"{'met' if ok else 'NOT MET'}"
    )
    return ok


def goals(args: argparse.Namespace, held_tables: float, windows: list[dict[str, Any]]) -> None:
    failed = [w for w in windows if w["failed"]]
    verdict = "met" if held_tables >= GOAL_TABLES else "NOT MET"
    print()
    print(
        f"GOAL tables held on this {os.cpu_count()}-core machine, p99 < {args.p99:g} ms and "
        f"0 errors: {held_tables:.0f} (goal >= {GOAL_TABLES}): {verdict}"
    )
    if failed:
        w = failed[-1]
        worst = max(w["kinds"].items(), key=lambda kv: kv[1]["p99"])
        print(
            f"  the limit: at {w['tables_equiv']:.0f} tables the worst p99 was {worst[0]} "
            f"{worst[1]['p99']:.0f} ms, {w['errors']} errors {w['error_samples'][:3]}"
        )


def most_compress(workers: int) -> float:
    """The most time may be compressed before a table's seven phones (six players and the
    night's phone, behind the table's one address), polling together, pass 80% of the
    per-address limit of a worker (spread evenly over the workers)."""
    from scorekeeper.web.live import PER, POLL_SECONDS, RATE

    real_per_address = 7 / POLL_SECONDS * PER  # polls of one real table in PER seconds
    return 0.8 * RATE * workers / real_per_address


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    admin_db = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
    parser.add_argument(
        "--database-url",
        default=os.environ.get("SCOREKEEPER_TEST_DATABASE_URL") or admin_db,
        help="a PostgreSQL database to connect to for creating the benchmark's own",
    )
    parser.add_argument("--instances", type=int, choices=[1, 2], default=1)
    parser.add_argument("--redis", action="store_true", help="the shared cache with 1 instance too")
    parser.add_argument("--workers", type=int, default=4, help="sync workers per instance")
    parser.add_argument("--compress", type=float, default=2.0)
    parser.add_argument("--start", type=int, default=20, help="simulated tables, first window")
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--max", type=int, default=150)
    parser.add_argument("--settle", type=float, default=20)
    parser.add_argument("--measure", type=float, default=40)
    parser.add_argument("--p99", type=float, default=250.0, help="ms, for every request kind")
    parser.add_argument("--soak", type=int, default=0, help="simulated tables for the soak")
    parser.add_argument("--soak-minutes", type=float, default=10)
    parser.add_argument("--profile", action="store_true", help="py-spy a worker, first window")
    parser.add_argument("--keep", type=Path, help="a folder to copy the raw results into")
    args = parser.parse_args()
    if args.compress > (most := most_compress(args.workers * args.instances)):
        parser.error(
            f"--compress {args.compress:g} polls each game's live link {args.compress:g} times "
            f"as often as a real table, past the app's limit per address and worker "
            f"(web/live.py RATE): every poll over it is a 429, an error; at most {most:.1f}"
        )

    print(f"Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit()}")
    print(f"Machine: {machine()}")
    top = subprocess.run(["top", "-bn1"], capture_output=True, text=True).stdout.splitlines()
    print("\n".join(top[:3]))
    if args.soak:
        windows = [{"label": "soak 1", "tables": args.soak, "settle": args.settle, "measure": 60}]
        windows += [
            {"label": f"soak {i}", "tables": args.soak, "settle": 0, "measure": 60}
            for i in range(2, int(args.soak_minutes) + 1)
        ]
    else:
        steps = range(args.start, args.max + 1, args.step)
        windows = [
            {
                "label": f"ramp {t * args.compress:.0f}",
                "tables": t,
                "settle": args.settle,
                "measure": args.measure,
            }
            for t in steps
        ]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-capacity-") as name:
        tmp = Path(name)
        with stack(args, tmp) as info:
            where = "HAProxy -> 2 instances, Redis" if args.instances > 1 else "gunicorn directly"
            print(
                f"Serving: {args.instances} instance(s) x {args.workers} sync workers "
                f"({where}), PostgreSQL database {info['db_name']}; Locust FastHttpUser "
                f"sessions, one process; time compressed x{args.compress:g}",
                flush=True,
            )
            done = run_locust(args, info, windows, tmp, stop_on_fail=not args.soak)
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                for name in ("results.jsonl", "logs.json", "locust.log"):
                    shutil.copy(tmp / name, args.keep / name)
            problems = check(info, done["logs"])
            rounds = sum(len(g["acknowledged"]) for g in done["logs"]["games"])
            stats = redis_stats(info)
            if args.instances > 1:
                stats += "\n" + across_instances(info, done["logs"])
            degraded = [
                line
                for p in info["logs"].values()
                for line in p.read_text(errors="replace").splitlines()
                if "shared cache" in line or "Traceback" in line
            ]
            if args.profile and (tmp / "profile.txt").exists():
                print(f"py-spy, one worker for {args.measure:g} s from the first window on:")
                print(profile_summary(tmp / "profile.txt"))
        windows = done["windows"]
        report(args, windows, soak=bool(args.soak))
        print()
        print(
            f"Checked afterwards: {len(done['logs']['games'])} games, {rounds} rounds the "
            f"keepers were told were saved: {len(problems)} problems {problems[:5]}"
        )
        checks = done["logs"]["checks"]
        print(
            f"Checks while running: {checks or 'no stale page, no failed save'}; "
            f"{done['logs']['problems'][:3]}"
        )
        if stats:
            print(stats)
        if degraded:
            print(f"App log lines about the shared cache or tracebacks: {degraded[:5]}")
        held = [w for w in windows if not w["failed"]]
        if not args.soak:
            goals(args, held[-1]["tables_equiv"] if held else 0, windows)
        else:
            errors = sum(w["errors"] for w in windows)
            print(
                f"GOAL soak: {len(windows)} minutes at {windows[0]['tables_equiv']:.0f} "
                f"tables, errors {errors}: {'met' if errors == 0 and not problems else 'NOT MET'}"
            )


if __name__ == "__main__":
    main()
