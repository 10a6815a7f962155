"""The rules engine is pure Python: importing it pulls in no web framework and no database.

Two checks: a fresh interpreter that imports every module of ``scorekeeper.rules`` must end
with none of the web/database packages in ``sys.modules``; and no import statement in
``scorekeeper/rules/*.py`` names one of them (or reaches outside the package).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import scorekeeper.rules

FORBIDDEN = (
    "flask",
    "flask_sqlalchemy",
    "flask_wtf",
    "flask_login",
    "flask_migrate",
    "sqlalchemy",
    "wtforms",
    "werkzeug",
    "jinja2",
    "weasyprint",
)
RULES_DIR = Path(scorekeeper.rules.__file__).resolve().parent
MODULES = sorted(
    ".".join(p.relative_to(RULES_DIR).with_suffix("").parts).removesuffix(".__init__")
    for p in RULES_DIR.rglob("*.py")
    if p.relative_to(RULES_DIR).as_posix() != "__init__.py"
)

IMPORT_EVERYTHING = """
import importlib, json, sys, types
names, bare_parent = json.loads(sys.argv[1]), sys.argv[2] == "bare"
if bare_parent:
    # scorekeeper as an empty package: its __init__ (the app factory) is not run.
    parent = types.ModuleType("scorekeeper")
    parent.__path__ = [sys.argv[3]]
    sys.modules["scorekeeper"] = parent
for name in names:
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def _imported_in_fresh_interpreter(modules: list[str], *, bare_parent: bool) -> set[str]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            IMPORT_EVERYTHING,
            json.dumps(modules),
            "bare" if bare_parent else "full",
            str(RULES_DIR.parent),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def _forbidden(modules: set[str]) -> list[str]:
    """The forbidden top-level packages among ``modules``."""
    return sorted({m.split(".")[0] for m in modules} & set(FORBIDDEN))


NAMES = ["scorekeeper.rules"] + [f"scorekeeper.rules.{m}" for m in MODULES]


def test_there_are_modules_to_check() -> None:
    expected = {"record", "rounds", "names", "replay", "variant", "settlement", "games.vegas"}
    assert expected <= set(MODULES)


def test_importing_the_rules_engine_imports_no_web_or_database_package() -> None:
    """``import scorekeeper.rules`` as any caller does (the parent package runs first)."""
    loaded = _imported_in_fresh_interpreter(NAMES, bare_parent=False)
    assert set(NAMES) <= loaded
    assert _forbidden(loaded) == [], (
        "importing scorekeeper.rules pulled these in; scorekeeper/__init__.py runs first, "
        "so a module-level `from flask import ...` there makes the engine depend on Flask"
    )


def test_the_rules_modules_themselves_import_no_web_or_database_package() -> None:
    """The same import with the app factory in scorekeeper/__init__.py left out."""
    loaded = _imported_in_fresh_interpreter(NAMES, bare_parent=True)
    assert set(NAMES) <= loaded
    assert _forbidden(loaded) == []


def _imports(path: Path) -> list[tuple[int, str, int]]:
    """(line, module named, relative level) of every import statement in a file."""
    found: list[tuple[int, str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, node.module or "", node.level))
    return found


@pytest.mark.parametrize("module", ["__init__", *MODULES])
def test_no_import_statement_names_a_web_or_database_package(module: str) -> None:
    parts = module.split(".")
    path = RULES_DIR.joinpath(*parts[:-1], f"{parts[-1]}.py")
    if not path.exists():  # a package: its __init__
        path = RULES_DIR.joinpath(*parts, "__init__.py")
    depth = len(path.relative_to(RULES_DIR).parts) - 1  # folders below rules/
    bad = []
    for line, name, level in _imports(path):
        top = name.split(".")[0]
        if level == 0 and top in FORBIDDEN:
            bad.append(f"{path.name}:{line} imports {name}")
        # The engine may import its own modules, never the app around it.
        if level >= 2 + depth or (
            level == 0 and top == "scorekeeper" and not name.startswith("scorekeeper.rules")
        ):
            bad.append(f"{path.name}:{line} imports {'.' * level}{name} from outside rules/")
    assert bad == []
