"""The package reads as floors, and no import runs downstairs-up or in a circle.

Every import statement of every module counts, wherever it stands: at the top, inside a
function (a deferred import), or under ``if TYPE_CHECKING:``. ``from .pkg import name``
names the submodule ``pkg.name`` when there is one, else the package ``pkg``.

    5  scorekeeper (the app factory), app, cli
    4  web/, forms, game_form          the pages and their forms
    3  reports/                        formats what the domain layer hands it
    2  services/                       the domain: nights, games, rounds, ledger...
    1  models, extensions, cache,      the tables and the app's shared objects
       metrics                         (and what the app counts)
    0  rules/                          the engine: pure Python
"""

from __future__ import annotations

import ast
from pathlib import Path

import scorekeeper

ROOT = Path(scorekeeper.__file__).resolve().parent


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in ROOT.rglob("*.py"):
        if "migrations" in path.relative_to(ROOT).parts:
            continue
        parts = ["scorekeeper", *path.relative_to(ROOT).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, by any import statement."""
    path, is_package = MODULES[module]
    package = module.split(".") if is_package else module.split(".")[:-1]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], base]).rstrip(".")
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                named.add(sub if sub in MODULES else base)
    return {name for name in named if name in MODULES and name != module}


GRAPH = {module: _imports(module) for module in MODULES}


def floor(module: str) -> int:
    name = module.removeprefix("scorekeeper").lstrip(".")
    top = name.split(".")[0]
    if top == "rules":
        return 0
    if top in ("models", "extensions", "cache", "metrics"):
        return 1
    if top == "services":
        return 2
    if top == "reports":
        return 3
    if top in ("web", "forms", "game_form"):
        return 4
    return 5  # the app factory, app, cli


def test_the_graph_is_read() -> None:
    assert "scorekeeper.services.ledger" in GRAPH["scorekeeper.web.settle"]
    assert "scorekeeper.rules.variant" in GRAPH["scorekeeper.rules.record"]
    assert floor("scorekeeper") == 5 and floor("scorekeeper.rules.games.vegas") == 0


def test_no_import_runs_from_a_lower_floor_to_a_higher_one() -> None:
    upward = sorted(
        f"{module} (floor {floor(module)}) imports {target} (floor {floor(target)})"
        for module, targets in GRAPH.items()
        for target in targets
        if floor(target) > floor(module)
    )
    assert upward == []


def _circles() -> list[list[str]]:
    """The strongly connected parts of the graph with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(GRAPH[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    return found


def test_there_is_no_import_circle() -> None:
    assert _circles() == []


def test_a_circle_would_be_found() -> None:
    """The check itself: a circle put into the graph is reported."""
    GRAPH["scorekeeper.rules.names"].add("scorekeeper.rules.record")
    try:
        assert any("scorekeeper.rules.names" in part for part in _circles())
    finally:
        GRAPH["scorekeeper.rules.names"].discard("scorekeeper.rules.record")


def test_no_module_is_over_500_lines() -> None:
    """A module a newcomer can read in one sitting (the restructure's bound)."""
    long = {
        module: n
        for module, (path, _) in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}


def test_no_function_is_over_60_lines() -> None:
    """Long functions are split into named steps (decorators not counted)."""
    long = {
        f"{module}:{node.name}": length
        for module, (path, _) in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > 60
    }
    assert long == {}
