"""The package reads as floors, and no import runs downstairs-up or in a circle.

Every import statement of every module counts, wherever it stands: at the top, inside a
function (a deferred import), or under ``if TYPE_CHECKING:``. ``from .pkg import name``
names the submodule ``pkg.name`` when there is one, else the package ``pkg``.

    5  scorekeeper (the app factory), app, cli
    4  web/                            the pages and their forms
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
    if top == "web":
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


#: The confirm protocols the generic questions replaced, as form fields or strings.
PROTOCOLS = frozenset({"expiry_seen", "gone_seen"})
#: The game's rules by name: who is still in the game, who expired, dropped or joins
#: where, the limits of a game and a hand, and the machinery that planned a round before
#: the engine did (issue 35). A change to a game is planned by ``rules/plan.py``, which
#: says what the keeper must still be asked; services/ only load and save, web/ only
#: reads the form and asks. None of these names may appear there (as a name, an
#: attribute, a definition; the old protocols' fields not even in a string).
RULE_NAMES = frozenset(
    {
        "in_contention",
        "dropped_round",
        "expiries",
        "rebuys",
        "seats_after_joins",
        "MAX_HAND_POINTS",
        "MAX_CARDS_IN_HAND",
        "max_score",
        # what lived in services/rounds.py and web/games/round_form.py
        "RoundPlan",
        "Expiry",
        "later_hands_needed",
        "later_hands_gone",
        "undropped",
        "dropped_now",
        "with_drops",
        "must_ask",
        "must_confirm_gone",
        "read_later",
        "_round_players",
        *PROTOCOLS,
    }
)
#: The grammar of a hand: defined in rules/hands.py only (the page's script reads its table).
HAND_GRAMMAR = frozenset({"parse_hand_text", "parse_hand_field", "hand_tokens", "hand_grammar"})


def _names_in(source: str) -> set[tuple[str, int]]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            found.add((node.id, node.lineno))
        elif isinstance(node, ast.Attribute):
            found.add((node.attr, node.lineno))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add((node.name, node.lineno))
        elif isinstance(node, ast.alias):
            found.add((node.asname or node.name.split(".")[-1], node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update((word, node.lineno) for word in PROTOCOLS if word in node.value)
    return found


def test_no_game_rule_is_decided_in_services_or_web() -> None:
    found = sorted(
        f"{module}:{line} {name}"
        for module, (path, _) in MODULES.items()
        if floor(module) in (2, 4)  # services/, web/ (and its forms)
        for name, line in _names_in(path.read_text(encoding="utf-8"))
        if name in RULE_NAMES
    )
    assert found == []


def test_the_hand_grammar_is_defined_in_rules_only() -> None:
    defined = sorted(
        f"{module}:{node.name}"
        for module, (path, _) in MODULES.items()
        if floor(module) > 0
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name in HAND_GRAMMAR
    )
    assert defined == []


def test_a_rule_name_would_be_found() -> None:
    """The check itself: a rule's name or an old protocol's field is reported."""
    assert ("in_contention", 2) in _names_in("\nplaying = [p for p in ps if p.in_contention]")
    assert ("expiry_seen", 1) in _names_in('form.get("expiry_seen")')
    assert ("RoundPlan", 1) in _names_in("class RoundPlan: pass")


#: McCabe complexity (ruff's C901) a function may have; beyond it, a function is split
#: into named steps like a long one. The real tangles, allowed by name until they are:
MAX_COMPLEXITY = 10
TANGLES = {
    "scorekeeper/rules/display.py:cell_marks": 14,  # the marks of a sheet's cell
    "scorekeeper/rules/rounds.py:_parse_round": 14,  # a round object's every key
    "scorekeeper/rules/settings.py:check": 12,  # a setting's every kind
    "scorekeeper/services/accounts/checks.py:_unpacked": 13,  # an import's shapes
    "scorekeeper/services/accounts/checks.py:_check_edit": 12,
    "scorekeeper/services/accounts/checks.py:_check_ledger": 12,
    "scorekeeper/web/games/history.py:_describe": 13,  # a history line's every action
}


def test_no_function_is_more_tangled_than_the_limit() -> None:
    """Ruff's McCabe check (C901) over the package: nothing above the limit but the named
    tangles, and none of them more tangled than it was."""
    import json
    import re
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT), "--select", "C901", "--config",
         f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", "--output-format", "json",
         "--no-cache", "--exit-zero"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = {}
    for item in json.loads(run.stdout):
        match = re.match(r"`(.+)` is too complex \((\d+) > \d+\)", item["message"])
        assert match, item["message"]
        path = Path(item["filename"]).resolve().relative_to(ROOT.parent).as_posix()
        found[f"{path}:{match[1]}"] = int(match[2])
    over = {name: n for name, n in found.items() if n > TANGLES.get(name, MAX_COMPLEXITY)}
    assert over == {}
