"""Fixtures for the report tests: real rendering, read back with poppler's tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.rules import Standings, load_game
from tests import samples


@pytest.fixture
def pdf_file(tmp_path: Path) -> Callable[[bytes], Path]:
    """Write a PDF into the test's folder and return its path."""
    counter = iter(range(1_000_000))

    def write(pdf: bytes) -> Path:
        assert pdf.startswith(b"%PDF-")
        path = tmp_path / f"doc{next(counter)}.pdf"
        path.write_bytes(pdf)
        return path

    return write


@pytest.fixture(scope="session")
def vegas() -> Standings:
    return load_game(samples.vegas_game())


@pytest.fixture(scope="session")
def long_vegas() -> Standings:
    return load_game(samples.long_vegas(10, 60))
