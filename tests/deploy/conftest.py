"""Fixtures of the deploy tests: the package built from the checkout the way the README's
deploy section builds it, installed with its ``deploy`` extra into a virtualenv of its own
outside the checkout, and a database on each engine for it.

Built and installed once per test session (per xdist worker): a minute at most, from pip's
cache and the package index."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import make_url

from tests.conftest import PG_URL, _admin_connect

ROOT = Path(__file__).resolve().parents[2]
# What a fresh clone does not hold: never copied into the tree the package is built from.
NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".cache", "node_modules",
    "test-artifacts", "instance", ".hypothesis", ".pytest_cache", ".ruff_cache", ".mypy_cache",
)  # fmt: skip


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 300):
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done


@dataclass(frozen=True)
class Installed:
    """A server's layout: ``srv/venv`` (the package and its deploy extra), ``srv/deploy``
    (the checkout's deploy/ files, copied), and the wheel it was installed from."""

    srv: Path
    wheel: Path

    @property
    def bin(self) -> Path:
        return self.srv / "venv" / "bin"

    def env(self, **settings: str) -> dict[str, str]:
        """The environment of a command run on the server: nothing of the checkout's
        (no PYTHONPATH, no virtualenv, no SCOREKEEPER_* of the test run), the venv's bin
        first on PATH, and ``settings`` as SCOREKEEPER_* variables."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("SCOREKEEPER_", "PYTHON", "VIRTUAL_ENV", "FLASK_"))
            and k not in ("DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR")
        }
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env.update({f"SCOREKEEPER_{k}": v for k, v in settings.items()})
        return env


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build``: the sdist, then the wheel built from that sdist (so both hold
    everything), from a copy of the checkout as a fresh clone has it."""
    base = tmp_path_factory.mktemp("build")
    tree = base / "checkout"
    shutil.copytree(ROOT, tree, ignore=NOT_IN_A_CLONE)
    run([sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(tree)], cwd=base)
    (found,) = (base / "dist").glob("scorekeeper-*.whl")
    return found


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """``python3 -m venv /srv/scorekeeper/venv`` and ``pip install 'WHEEL[deploy]'``."""
    srv = tmp_path_factory.mktemp("srv")
    assert not srv.is_relative_to(ROOT)
    run([sys.executable, "-m", "venv", str(srv / "venv")], cwd=srv)
    place = Installed(srv, wheel)
    run(
        [str(place.bin / "pip"), "install", "-q", "--disable-pip-version-check",
         f"{wheel}[deploy]"],
        cwd=srv, env=place.env(),
    )  # fmt: skip
    shutil.copytree(ROOT / "deploy", srv / "deploy")
    return place


@contextmanager
def empty_database(engine: str, where: Path) -> Iterator[str]:
    """A database with nothing in it (the deploy runs ``flask db upgrade`` itself): a
    SQLite file, or a new PostgreSQL database next to SCOREKEEPER_TEST_DATABASE_URL's."""
    if engine == "sqlite":
        yield f"sqlite:///{where / 'scorekeeper.sqlite3'}"
        return
    base = make_url(PG_URL)
    name = f"{base.database}_deploy_{uuid.uuid4().hex[:10]}"
    admin = _admin_connect(base)
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
