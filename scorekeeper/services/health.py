"""What release this is, the database schema it was built for, and whether it can serve:
read by ``/healthz`` (the balancer's and systemd's check), the start-up check
(``scorekeeper/preflight.py``) and each worker's schema guard (``web/ops.py``)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from flask import current_app
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


@functools.cache
def version() -> str:
    """The installed distribution's version (pyproject.toml's, when it was built); in a
    source checkout that was never installed, pyproject.toml's own."""
    try:
        return metadata.version("scorekeeper")
    except metadata.PackageNotFoundError:
        pyproject = MIGRATIONS.parent.parent / "pyproject.toml"
        found = re.search(r'^version = "([^"]+)"', pyproject.read_text(), re.M)
        return found.group(1) if found else "unknown"


@dataclass(frozen=True)
class Migrations:
    """The migrations this release ships: its head, and every revision it knows."""

    head: str
    known: frozenset[str]


@functools.cache
def migrations() -> Migrations:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS))
    known = frozenset(r.revision for r in script.walk_revisions())
    return Migrations(script.get_current_head() or "", known)


@dataclass(frozen=True)
class Schema:
    """Where the database is against this release: ``at_head``, ``behind`` (a migration
    to run), ``ahead`` (migrated by a release this one does not know) or ``empty``."""

    state: str
    revision: str | None
    head: str

    def sentence(self) -> str:
        """What the operator must do, in one sentence (empty at head)."""
        release = f"Scorekeeper {version()}"
        if self.state == "empty":
            return (
                "The database has no tables yet: run `flask --app scorekeeper db upgrade` "
                "with the same settings, then start again."
            )
        if self.state == "behind":
            return (
                f"The database is at migration {self.revision} but {release} needs "
                f"{self.head}: run `flask --app scorekeeper db upgrade`, then start again."
            )
        if self.state == "ahead":
            return (
                f"The database is at migration {self.revision}, which {release} does not "
                f"know (it was built for {self.head}): a newer release migrated it, so run "
                "that release here instead."
            )
        return ""


def schema() -> Schema:
    """One query: the database's revision against this release's migrations. Raises
    SQLAlchemyError when the database cannot be reached."""
    shipped = migrations()
    with db.engine.connect() as conn:
        if not db.inspect(conn).has_table("alembic_version"):
            return Schema("empty", None, shipped.head)
        rows = [r for (r,) in conn.execute(text("SELECT version_num FROM alembic_version"))]
    revision = rows[0] if len(rows) == 1 else ",".join(sorted(rows)) or None
    if revision == shipped.head:
        return Schema("at_head", revision, shipped.head)
    if revision is None:
        return Schema("empty", None, shipped.head)
    if all(r in shipped.known for r in rows):
        return Schema("behind", revision, shipped.head)
    return Schema("ahead", revision, shipped.head)


@dataclass
class Health:
    """``ok`` (200), ``degraded`` (200: serving, without its shared cache) or ``down``
    (503: the balancer sends it nothing)."""

    checks: dict[str, str] = field(default_factory=dict)

    @property
    def status(self) -> str:
        if any(v not in ("ok", "degraded", "off") for v in self.checks.values()):
            return "down"
        return "degraded" if "degraded" in self.checks.values() else "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "version": version(),
            "schema": migrations().head,
            "checks": self.checks,
        }


def health() -> Health:
    """The database (reachable, at this release's head migration) and the shared cache
    (Redis, when configured: ``degraded`` without it, since every worker then serves from
    its own caches). Why a check failed goes to the log, not to the answer."""
    found = Health()
    try:
        state = schema()
    except SQLAlchemyError as exc:
        current_app.logger.error("health: the database cannot be reached: %s", _first_line(exc))
        found.checks["database"] = "down"
        found.checks["schema"] = "unknown"
    else:
        found.checks["database"] = "ok"
        found.checks["schema"] = "ok" if state.state == "at_head" else state.state
        if state.state != "at_head":
            current_app.logger.error("health: %s", state.sentence())
    shared = current_app.extensions.get("scorekeeper_shared_cache")
    if shared is None:
        found.checks["cache"] = "off"
    else:
        answered, _ = shared.get("healthz")
        found.checks["cache"] = "ok" if answered else "degraded"
    return found


def _first_line(exc: BaseException) -> str:
    return str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:300]
