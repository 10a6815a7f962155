"""A start that cannot work, from the installed package as an operator runs it: gunicorn
with deploy/gunicorn.conf.py, and the flask command line, each end with one sentence
saying what to do and an exit status systemd can act on (78: a setting to fix, not
restarted; 69: the database not there yet, restarted), never a traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from scorekeeper.operator_errors import EX_CONFIG, EX_UNAVAILABLE
from tests.conftest import ENGINES

from .conftest import Installed, empty_database, run
from .test_deploy import server_env

pytestmark = pytest.mark.slow
NO_DATABASE = "postgresql+psycopg://scorekeeper:hunter2@127.0.0.1:1/scorekeeper"


def started(
    installed: Installed, env: dict[str, str], tmp_path: Path
) -> subprocess.CompletedProcess:
    config = installed.srv / "deploy" / "gunicorn.conf.py"
    env = {
        **env,
        "SCOREKEEPER_BIND": "127.0.0.1:0",
        "SCOREKEEPER_WORKERS": "1",
        "SCOREKEEPER_CONTROL_SOCKET": str(tmp_path / "gunicorn.ctl"),
    }
    return subprocess.run(
        [str(installed.bin / "gunicorn"), "-c", str(config)],
        cwd=installed.srv, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def said(done: subprocess.CompletedProcess) -> str:
    """The one sentence: the last line of what it printed, after no traceback."""
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    return out.strip().splitlines()[-1]


def flask(installed: Installed, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(installed.bin / "flask"), "--app", "scorekeeper", *args],
        cwd=installed.srv, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_no_database(installed: Installed, tmp_path: Path) -> None:
    env = server_env(installed, NO_DATABASE, None)
    done = started(installed, env, tmp_path)
    assert done.returncode == EX_UNAVAILABLE
    line = said(done)
    assert line.startswith(
        "scorekeeper: Cannot reach the database at "
        "postgresql+psycopg://scorekeeper:***@127.0.0.1:1/scorekeeper ("
    ), line
    assert line.endswith("): start it, or set SCOREKEEPER_SQLALCHEMY_DATABASE_URI to where it is.")
    assert "hunter2" not in done.stdout + done.stderr
    for command in (["db", "upgrade"], ["users", "list"]):
        done = flask(installed, env, *command)
        assert done.returncode == EX_UNAVAILABLE, done.stderr
        assert said(done) == line


def test_secret_key_left_as_the_sample_or_missing(installed: Installed, tmp_path: Path) -> None:
    """Checked before the database is (the same on either engine)."""
    with empty_database("sqlite", tmp_path) as db_url:
        env = server_env(installed, db_url, None)
        assert flask(installed, env, "db", "upgrade").returncode == 0
        shipped = {**env, "SCOREKEEPER_SECRET_KEY": "change-me-to-the-output-of-python3"}
        for done in (
            started(installed, shipped, tmp_path),
            flask(installed, shipped, "users", "list"),
        ):
            assert done.returncode == EX_CONFIG
            assert said(done) == (
                "scorekeeper: SCOREKEEPER_SECRET_KEY is still the sample's placeholder: set it "
                "to the output of `python3 -c 'import secrets; print(secrets.token_hex(32))'`, "
                "the same on every instance."
            )
        missing = {k: v for k, v in env.items() if k != "SCOREKEEPER_SECRET_KEY"}
        done = started(installed, missing, tmp_path)
        assert done.returncode == EX_CONFIG
        assert said(done).startswith("scorekeeper: SCOREKEEPER_SECRET_KEY is not set: set it")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_migration_not_run(engine: str, installed: Installed, tmp_path: Path) -> None:
    from scorekeeper.services.health import migrations, version

    with empty_database(engine, tmp_path) as db_url:
        env = server_env(installed, db_url, None)
        done = started(installed, env, tmp_path)
        assert done.returncode == EX_CONFIG
        assert said(done) == (
            "scorekeeper: The database has no tables yet: run `flask --app scorekeeper db "
            "upgrade` with the same settings, then start again."
        )
        flask_bin = str(installed.bin / "flask")
        run([flask_bin, "--app", "scorekeeper", "db", "upgrade", "0011_accounts"],
            cwd=installed.srv, env=env)  # fmt: skip
        done = started(installed, env, tmp_path)
        assert done.returncode == EX_CONFIG
        assert said(done) == (
            f"scorekeeper: The database is at migration 0011_accounts but Scorekeeper "
            f"{version()} needs {migrations().head}: run `flask --app scorekeeper db upgrade`, "
            "then start again."
        )
