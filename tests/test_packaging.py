"""What the built package holds, checked without building it (tests/deploy builds it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_folder_of_modules_is_a_listed_package() -> None:
    """A folder of modules missing from [tool.setuptools] packages is missing from the
    wheel: the installed app then fails at its first import."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "scorekeeper").rglob("__init__.py")
    }
    assert on_disk - listed == set()
    mapped = {"scorekeeper._templates": "templates", "scorekeeper._static": "static"}
    assert config["package-dir"] == mapped
    assert listed - on_disk == set(mapped)
