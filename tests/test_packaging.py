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


def test_the_wheel_carries_every_catalog_and_its_compiled_messages() -> None:
    """scorekeeper/translations/<lang>/LC_MESSAGES/messages.po and .mo are package data
    (the app reads the .mo; the .po ship beside them): every file there matches a pattern
    of [tool.setuptools.package-data], and every language has its compiled .mo."""
    from fnmatch import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["scorekeeper"]
    package = ROOT / "scorekeeper"
    files = [f for f in (package / "translations").rglob("*") if f.is_file()]
    languages = {f.parent.parent.name for f in files}
    assert languages == {"es", "de", "fr", "pt_BR", "hi"}
    for f in files:
        assert any(fnmatch(str(f.relative_to(package)), p) for p in patterns), f
    for language in languages:
        assert (package / "translations" / language / "LC_MESSAGES" / "messages.mo").is_file()
