"""A local deployed stack on free ports of this machine: ``deploy/stack up|down|front``.

    deploy/stack up [--dir DIR] [--workers 4]   # prints the base URL as its last line
    deploy/stack down [--dir DIR]               # stops all of it, drops the database
    deploy/stack front stop|start [--dir DIR]   # the front alone (the stream engine)

``up`` starts what the README's deploy section runs, from the files in deploy/: nginx
with nchan (``deploy/nginx.conf``, its @NAMES@ filled in), the app under gunicorn
(``deploy/gunicorn.conf.py``, the environment of ``deploy/scorekeeper.env`` with this
stack's addresses), Redis (``deploy/redis.conf``, on its own port, as the shared cache),
and a fresh PostgreSQL database of its own (``stack_<random>``, on the server
``SCOREKEEPER_STACK_PG`` names, by default the host's at 127.0.0.1:5432 as ``postgres``;
migrated with ``flask db upgrade``). Debian packages that are missing are installed with
apt-get, as scripts/test does. The app is told to publish to the front's publisher
address and that the streams are at the front (an absolute URL: a page asked of the app
itself, as the browser test does while the front is stopped, still streams from the
front when it is back). What it started is written to DIR/stack.json (default
``$TMPDIR/scorekeeper-stack-<uid>``): ``down`` reads it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import psycopg

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
VENV = ROOT / ".venv" / "bin"
NCHAN = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
PG = os.environ.get("SCOREKEEPER_STACK_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_packages() -> None:
    """nginx with nchan and Redis from Debian, when missing (as scripts/test installs)."""
    missing = []
    if not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists():
        missing.append("nginx")
    if not NCHAN.exists():
        missing.append("libnginx-mod-nchan")
    if not shutil.which("redis-server"):
        missing.append("redis-server")
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    wait = ["-o", "DPkg::Lock::Timeout=600"]
    print(f"Installing Debian packages: {' '.join(missing)}", file=sys.stderr)
    subprocess.run([*sudo, "apt-get", *wait, "update", "-qq"], check=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(
        [*sudo, "apt-get", *wait, "install", "-y", "-qq", "--no-install-recommends", *missing],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )


def _env_file(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
    return out


def _wait(check: Any, what: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise SystemExit(f"stack: {what} did not start in {seconds:.0f} s")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return bool(r.status < 500)
    except OSError:
        return False


def nginx_conf(run: Path, state: dict[str, Any]) -> Path:
    text = (DEPLOY / "nginx.conf").read_text()
    access = str(run / "access.log") if state.get("access_log") else "off"
    values = {
        "@RUN@": str(run),
        "@LISTEN@": f"127.0.0.1:{state['front_port']}",
        "@PUBLISH_PORT@": str(state["publish_port"]),
        "@APP@": f"127.0.0.1:{state['app_port']}",
        "@ACCESS_LOG@": access,
        "@USER@": pwd.getpwuid(os.getuid()).pw_name,  # the cache is written by the workers
        "@NOFILE@": str(resource.getrlimit(resource.RLIMIT_NOFILE)[1]),  # as many as allowed
    }
    for name, value in values.items():
        text = text.replace(name, value)
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (run / "tmp" / sub).mkdir(parents=True, exist_ok=True)
    conf = run / "nginx.conf"
    conf.write_text(text)
    return conf


def front_start(run: Path, state: dict[str, Any]) -> None:
    conf = nginx_conf(run, state)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    subprocess.run([nginx, "-p", str(run), "-c", str(conf), "-e", str(run / "error.log")],
                   check=True)  # fmt: skip
    base = f"http://127.0.0.1:{state['front_port']}"
    _wait(lambda: _answers(base + "/manifest.webmanifest"), "nginx")


def front_stop(run: Path) -> None:
    pid = _pid(run / "nginx.pid")
    if pid is None:
        return
    _signal(pid, signal.SIGTERM)
    _wait(lambda: not _alive(pid), "nginx's stop", 15)


def _pid(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie of ours (started by this process) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _pg(dbname: str | None = None) -> psycopg.Connection[Any]:
    info = psycopg.conninfo.conninfo_to_dict(PG)
    if dbname:
        info["dbname"] = dbname
    return psycopg.connect(**info, autocommit=True, connect_timeout=10)  # type: ignore[arg-type]


def up(run: Path, workers: int, access_log: bool) -> dict[str, Any]:
    ensure_packages()
    if (run / "stack.json").exists():
        raise SystemExit(f"stack: one is up already in {run} (deploy/stack down --dir {run})")
    run.mkdir(parents=True, exist_ok=True)
    state: dict[str, Any] = {
        "dir": str(run),
        "front_port": free_port(),
        "publish_port": free_port(),
        "app_port": free_port(),
        "redis_port": free_port(),
        "database": f"stack_{secrets.token_hex(5)}",
        "access_log": access_log,
        "pids": {},
    }
    (run / "stack.json").write_text(json.dumps(state))
    with _pg() as conn:
        conn.execute(f'CREATE DATABASE "{state["database"]}"')
    info = psycopg.conninfo.conninfo_to_dict(PG)
    db_url = (
        f"postgresql+psycopg://{info.get('user', 'postgres')}@{info.get('host', '127.0.0.1')}:"
        f"{info.get('port', 5432)}/{state['database']}"
    )
    state["database_url"] = db_url
    # Redis: deploy/redis.conf, on this stack's port.
    redis = subprocess.Popen(
        ["redis-server", str(DEPLOY / "redis.conf"), "--port", str(state["redis_port"]),
         "--dir", str(run), "--daemonize", "no"],
        stdout=(run / "redis.log").open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    state["pids"]["redis"] = redis.pid
    (run / "stack.json").write_text(json.dumps(state))
    front = f"http://127.0.0.1:{state['front_port']}"
    env = {
        **os.environ,
        **_env_file(DEPLOY / "scorekeeper.env"),
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": db_url,
        "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32),
        "SCOREKEEPER_SECURE_COOKIES": "false",  # plain HTTP on the loopback
        "SCOREKEEPER_CACHE_REDIS_URL": f"redis://127.0.0.1:{state['redis_port']}/0",
        "SCOREKEEPER_STREAMS_PUBLISH": f"http://127.0.0.1:{state['publish_port']}/pub",
        "SCOREKEEPER_STREAMS_SUBSCRIBE": f"{front}/streams",
        "SCOREKEEPER_BIND": f"127.0.0.1:{state['app_port']}",
        "SCOREKEEPER_WORKERS": str(workers),
        "SCOREKEEPER_ACCESS_LOG": str(run / "gunicorn-access.log") if access_log else "/dev/null",
        "SCOREKEEPER_CONTROL_SOCKET": str(run / "gunicorn.ctl"),
    }
    env.pop("DATABASE_URL", None)
    migrate = [str(VENV / "flask"), "--app", "scorekeeper", "db", "upgrade"]
    subprocess.run(migrate, env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    app = subprocess.Popen(
        [str(VENV / "gunicorn"), "-c", str(DEPLOY / "gunicorn.conf.py")],
        env=env, cwd=ROOT, stdout=(run / "gunicorn.log").open("w"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    state["pids"]["gunicorn"] = app.pid
    (run / "stack.json").write_text(json.dumps(state))
    app_url = f"http://127.0.0.1:{state['app_port']}"
    _wait(lambda: _answers(app_url + "/manifest.webmanifest"), "gunicorn", 60)
    front_start(run, state)
    state["base_url"], state["app_url"] = front, app_url
    (run / "stack.json").write_text(json.dumps(state))
    return state


def down(run: Path) -> None:
    path = run / "stack.json"
    if not path.exists():
        print(f"stack: nothing up in {run}", file=sys.stderr)
        return
    state = json.loads(path.read_text())
    front_stop(run)
    for name in ("gunicorn", "redis"):
        pid = state["pids"].get(name)
        if pid:
            _signal(pid, signal.SIGTERM)
            try:
                _wait(lambda pid=pid: not _alive(pid), f"{name}'s stop", 40)
            except SystemExit:
                _signal(pid, signal.SIGKILL)
    with _pg() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{state["database"]}" WITH (FORCE)')
    shutil.rmtree(run, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="deploy/stack", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["up", "down", "front"])
    parser.add_argument("action", nargs="?", choices=["stop", "start"])
    default = Path(tempfile.gettempdir()) / f"scorekeeper-stack-{os.getuid()}"
    parser.add_argument("--dir", type=Path, default=default)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--access-log", action="store_true")
    args = parser.parse_args()
    run = args.dir.resolve()
    if args.command == "up":
        try:
            state = up(run, args.workers, args.access_log)
        except BaseException:
            down(run)
            raise
        print(f"app (gunicorn, {args.workers} workers): {state['app_url']}")
        print(f"database: {state['database_url']}")
        print(f"stack: {run}/stack.json")
        print(state["base_url"])
    elif args.command == "down":
        down(run)
    else:
        state = json.loads((run / "stack.json").read_text())
        if args.action == "stop":
            front_stop(run)
        else:
            front_start(run, state)


if __name__ == "__main__":
    main()
