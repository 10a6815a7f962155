"""The README's deploy section, command for command, as an operator follows it: the
package built from the checkout, installed with its ``deploy`` extra into a virtualenv
outside the checkout, ``flask db upgrade`` run from there, gunicorn started with
``deploy/gunicorn.conf.py`` and ``deploy/scorekeeper.env``; then what a table uses, over
HTTP: sign-up, a night, a game with rounds, the sheet and its PDF (fonts embedded), the
live view, the service worker and every file it keeps, the static files."""

from __future__ import annotations

import json
import random
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ENGINES
from tests.load.harness import (
    Account,
    GameLog,
    Phone,
    Service,
    Tally,
    enter_round,
    free_port,
    local_path,
    page_text,
    show_players,
)

from .conftest import Installed, empty_database, run

pytestmark = pytest.mark.slow
PLAYERS = ["Ann", "Bob", "Cy"]
ROOT = Path(__file__).resolve().parents[2]


def env_file(path: Path) -> dict[str, str]:
    """A systemd EnvironmentFile's settings (KEY=VALUE lines, # comments)."""
    pairs = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value.strip()
    return pairs


def server_env(installed: Installed, db_url: str, redis_url: str | None) -> dict[str, str]:
    """deploy/scorekeeper.env as shipped, with this test's database, secret and Redis."""
    shipped = env_file(installed.srv / "deploy" / "scorekeeper.env")
    settings = {k.removeprefix("SCOREKEEPER_"): v for k, v in shipped.items()}
    settings.update(SQLALCHEMY_DATABASE_URI=db_url, SECRET_KEY="deploy-test-" + "0" * 52)
    if redis_url:
        settings["CACHE_REDIS_URL"] = redis_url
    else:  # no Redis on this machine: each worker keeps its own caches
        settings.pop("CACHE_TYPE", None)
        settings.pop("CACHE_REDIS_URL", None)
    return installed.env(**settings)


def gunicorn(installed: Installed, env: dict[str, str], log: Path, workers: int = 2) -> Service:
    """``gunicorn -c deploy/gunicorn.conf.py`` as scorekeeper@.service starts it, with the
    instance's address and workers (deploy/app1.env) on a free port."""
    port = free_port()
    env = {
        **env,
        "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
        "SCOREKEEPER_WORKERS": str(workers),
        "SCOREKEEPER_CONTROL_SOCKET": str(log.parent / f"gunicorn-{port}.ctl"),
    }
    config = installed.srv / "deploy" / "gunicorn.conf.py"
    command = [str(installed.bin / "gunicorn"), "-c", str(config)]
    service = Service("gunicorn", command, env, log, cwd=installed.srv)
    service.port = port  # type: ignore[attr-defined]
    return service


def test_the_package_holds_every_module_and_file(installed: Installed) -> None:
    """Every module of the checkout is in the wheel, with the templates and static files."""
    root = Path(__file__).resolve().parents[2]
    listed = run(
        [str(installed.bin / "python"), "-c",
         "import scorekeeper, pathlib, json; p = pathlib.Path(scorekeeper.__file__).parent; "
         "print(json.dumps([str(f.relative_to(p)) for f in p.rglob('*') if f.is_file() "
         "and '__pycache__' not in f.parts]))"],
        cwd=installed.srv, env=installed.env(),
    )  # fmt: skip
    shipped = set(json.loads(listed.stdout))
    source = root / "scorekeeper"
    wanted = {str(f.relative_to(source)) for f in source.rglob("*.py")}
    wanted |= {f"migrations/{f.name}" for f in (source / "migrations").iterdir() if f.is_file()}
    wanted |= {  # the catalogs and the compiled messages the app reads
        str(f.relative_to(source)) for f in (source / "translations").rglob("*") if f.is_file()
    }
    for folder in ("templates", "static"):
        wanted |= {
            f"_{folder}/{f.relative_to(root / folder)}"
            for f in (root / folder).rglob("*")
            if f.is_file()
        }
    assert sorted(wanted - shipped) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_the_readme_deploy_path(
    engine: str, installed: Installed, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    import os

    redis_url = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "").strip() or None
    with empty_database(engine, tmp_path) as db_url:
        env = server_env(installed, db_url, redis_url)
        upgraded = run(
            [str(installed.bin / "flask"), "--app", "scorekeeper", "db", "upgrade"],
            cwd=installed.srv, env=env,
        )  # fmt: skip
        assert "Traceback" not in upgraded.stderr
        server = gunicorn(installed, env, tmp_path / "gunicorn.log")
        port = server.port  # type: ignore[attr-defined]
        try:
            server.start(lambda: Phone(port).get("/login", timeout=2).status == 200)
            table = walk_a_table(port)
            operate(port, "ok" if redis_url else "off")
            before = table.pages()
        finally:
            server.stop()
        log = server.log_text()
        assert "Traceback" not in log, log[-3000:]
        # One access line per request, with its id (gunicorn's access_log_format).
        (line,) = [x for x in log.splitlines() if "id=deploy-31-healthz" in x]
        assert '"GET /healthz HTTP/1.1" 200' in line, line

        # An upgrade with the table's data in the previous release's schema: the database
        # taken back to the head migration before this release's, then upgraded as the
        # README's upgrade says; every page reads as it did.
        flask = [str(installed.bin / "flask"), "--app", "scorekeeper", "db"]
        run([*flask, "downgrade", previous_head()], cwd=installed.srv, env=env)
        run([*flask, "upgrade"], cwd=installed.srv, env=env)
        server = gunicorn(installed, env, tmp_path / "gunicorn-upgraded.log")
        table.port = server.port  # type: ignore[attr-defined]
        try:
            server.start(lambda: Phone(table.port).get("/healthz", timeout=2).status == 200)
            assert table.pages() == before
            newer_release_migrates(db_url, server)
        finally:
            server.stop()


def set_revision(db_url: str, revision: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def wait_for(check: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def newer_release_migrates(db_url: str, server: Service) -> None:
    """A rolling upgrade's other half: a newer release migrates the database while this
    one's workers run. Each of them stops serving (503, /healthz down: the balancer takes
    the instance out) with one log line, and serves again when the schema is its own."""
    from scorekeeper.services.health import migrations

    port = server.port  # type: ignore[attr-defined]
    set_revision(db_url, "0099_from_a_newer_release")
    wait_for(lambda: Phone(port).get("/healthz").status == 503, "/healthz never said down")
    for _ in range(6):  # whichever worker answers
        wait_for(lambda: Phone(port).get("/login").status == 503, "a worker still serves")
    refused = Phone(port).get("/login")
    assert refused.status == 503 and refused.headers["Retry-After"] == "5"
    assert json.loads(Phone(port).get("/healthz").text)["checks"]["schema"] == "ahead"
    set_revision(db_url, migrations().head)
    for _ in range(6):
        wait_for(lambda: Phone(port).get("/login").status == 200, "a worker still refuses")
    lines = [x for x in server.log_text().splitlines() if "not serving" in x]
    assert lines and all(
        "ERROR request=" in x
        and "not serving: The database is at migration 0099_from_a_newer_release, which "
        "Scorekeeper "
        in x
        for x in lines
    ), lines
    assert len(lines) <= 2, lines  # once per worker (two), not once per request


def head() -> str:
    """The checkout's head migration, read by Alembic."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory(str(ROOT / "scorekeeper" / "migrations")).get_current_head()
    assert found
    return found


def previous_head() -> str:
    """The head migration of the release before this one (its parent)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(ROOT / "scorekeeper" / "migrations"))
    down = script.get_revision(head()).down_revision
    assert isinstance(down, str)
    return down


@dataclass
class Table:
    """What a table has after the walk: the keeper's phone, the night, the game, the link."""

    port: int
    keeper: Phone
    night: int
    game: int
    link: str

    def pages(self) -> dict[str, str]:
        """The sheet, the payout page, the live view and the PDF's text, as read."""
        self.keeper.port = self.port
        read = {}
        for path in (f"/games/{self.game}", f"/nights/{self.night}/payout"):
            page = self.keeper.get(path)
            assert page.status == 200, (path, page.status)
            read[path] = page_text(page.text)
        live = Phone(self.port).get(self.link)
        assert live.status == 200
        read[self.link] = page_text(live.text)
        read["sheet.pdf"] = pdf_fonts_and_text(
            self.keeper, f"/games/{self.game}/sheet.pdf", PLAYERS
        )
        return read


def metric(text: str, name: str, **labels: str) -> float:
    """A sample of the Prometheus text format, by name and labels (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#") or " " not in line:
            continue
        key, value = line.rsplit(" ", 1)
        found = re.fullmatch(r"(\w+)(?:\{(.*)\})?", key)
        assert found, line
        pairs = dict(re.findall(r'(\w+)="([^"]*)"', found[2] or ""))
        if found[1] == name and pairs == labels:
            return float(value)
    return 0.0


def operate(port: int, cache: str) -> None:
    """What the operator reads: /healthz with the version, the footer, the metrics of
    every worker added up, and the request id."""
    from importlib.metadata import version

    shipped = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert shipped
    health = Phone(port).get("/healthz", headers={"X-Request-ID": "deploy-31-healthz"})
    assert health.status == 200 and health.headers["X-Request-ID"] == "deploy-31-healthz"
    assert json.loads(health.text) == {
        "status": "ok",
        "version": shipped[1],
        "schema": head(),
        "checks": {"database": "ok", "schema": "ok", "cache": cache},
    }
    assert version("scorekeeper") == shipped[1]  # the checkout's own install: same number
    assert f"Scorekeeper {shipped[1]}" in Phone(port).get("/login").text
    page = Phone(port).get("/metrics")
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/plain")
    # Counted by whichever of the two workers served each request, added up here.
    assert metric(page.text, "scorekeeper_rounds_saved_total", change="new") == 3
    # (a PDF may come from Redis, drawn by an earlier run: rendered at least once)
    assert metric(page.text, "scorekeeper_pdfs_rendered_total") >= 1
    pdf_route = "/games/<id:game_id>/sheet.pdf"
    assert metric(page.text, "scorekeeper_http_requests_total", route=pdf_route, method="GET",
                  status="200") == 1  # fmt: skip
    assert metric(page.text, "scorekeeper_live_views_total", view="game", answer="page") == 1
    assert metric(page.text, "scorekeeper_http_requests_total", route="/sw.js", method="GET",
                  status="200") == 1  # fmt: skip
    assert Phone(port).get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"}).status == 403


def walk_a_table(port: int) -> Table:
    keeper = Account(port, "keeper@example.com")
    keeper.signup()
    night = keeper.night(PLAYERS)
    game = keeper.game(night, "rummy", PLAYERS, target_score="500")
    log, tally = GameLog(game, "rummy"), Tally()
    rng = random.Random(31)
    for _ in range(3):
        assert enter_round(keeper.phone, log, rng, tally), tally
    assert not (tally.server_errors or tally.unexpected or tally.network_errors), tally
    assert sorted(log.acknowledged) == [1, 2, 3]

    sheet = keeper.phone.get(f"/games/{game}")
    assert sheet.status == 200, sheet.text[:500]
    text = page_text(sheet.text)
    assert all(name in text for name in PLAYERS), text[:500]
    pdf_fonts_and_text(keeper.phone, f"/games/{game}/sheet.pdf", PLAYERS)
    pdf_fonts_and_text(keeper.phone, f"/nights/{night}/payout.pdf", ["Payout summary"])

    link = show_players(keeper.phone, f"/games/{game}/live")
    live = Phone(port).get(link)
    assert live.status == 200, live.text[:500]
    assert all(name in page_text(live.text) for name in PLAYERS)

    worker = Phone(port).get("/sw.js")
    assert worker.status == 200 and "javascript" in worker.headers["Content-Type"]
    shell = re.findall(r'"(/static/[^"]+|/manifest\.webmanifest)"', worker.text)
    assert "/static/css/app.css" in shell and "/manifest.webmanifest" in shell, worker.text[:800]
    for path in {*shell, "/static/icons/icon-192.png", "/static/js/round.js"}:
        got = Phone(port).get(local_path(path))
        assert got.status == 200, (path, got.status)
        assert got.text, path
    return Table(port, keeper.phone, night, game, link)


def pdf_fonts_and_text(phone: Phone, path: str, words: list[str]) -> str:
    """The PDF is one, its fonts are embedded (pdffonts) and its text reads (pdftotext)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=60)
    sent, _ = phone.outgoing(None, None)
    conn.request("GET", path, headers=sent)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    assert response.status == 200, (path, response.status, body[:300])
    assert response.headers["Content-Type"] == "application/pdf"
    assert body.startswith(b"%PDF-")
    fonts = subprocess.run(
        ["pdffonts", "-"], input=body, capture_output=True, check=True
    ).stdout.decode()
    rows = [line.split() for line in fonts.splitlines()[2:]]
    assert rows and any("DejaVu" in row[0] for row in rows), fonts
    # name, type..., emb sub uni object ID: "yes" in the emb column of every font
    assert all(row[-5] == "yes" for row in rows), fonts
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=body, capture_output=True, check=True
    ).stdout.decode()
    assert all(word in text for word in words), text[:500]
    return text
