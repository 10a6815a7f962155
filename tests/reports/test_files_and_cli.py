"""Download names, the PDF cache, and ``flask --app scorekeeper pdf``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.reports import (
    cached_pdf,
    pdf_cache_key,
    pdf_filename,
    slugify,
    template_version,
)
from scorekeeper.reports.files import PdfCache
from tests import samples

from .pdftools import PAGE_SIZES, page_size, squash, text_of


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("sheet", "vegas", "Friday Night", "2026-11-22"),
            "2026-11-22-friday-night-vegas-sheet.pdf",
        ),
        (
            ("blank", "texas", "Friday night", "2026-11-22"),
            "2026-11-22-friday-night-blank-texas-sheet.pdf",
        ),
        (
            ("summary", None, "Friday night", "2026-11-22"),
            "2026-11-22-friday-night-payout-summary.pdf",
        ),
        (
            ("summary", None, "Zoë's   Place / Ünïcode ☃", None),
            "zoes-place-unicode-payout-summary.pdf",
        ),
        (("sheet", "dummy", None, None), "dummy-sheet.pdf"),
        (("summary", None, "", ""), "payout-summary.pdf"),
    ],
)
def test_pdf_filename(args: tuple[Any, ...], expected: str) -> None:
    kind, variant, night_name, date = args
    name = pdf_filename(kind, variant=variant, night_name=night_name, date=date)
    assert name == expected
    assert name.isascii()


def test_slugify_keeps_it_short_and_plain() -> None:
    assert slugify("  --Hello,   World!--  ") == "hello-world"
    assert slugify("x" * 100) == "x" * 60
    assert slugify("日本語") == ""


def test_cached_pdf_renders_once_per_key() -> None:
    calls: list[str] = []

    def render(tag: str) -> bytes:
        calls.append(tag)
        return b"%PDF-" + tag.encode()

    record = samples.vegas_game()
    key = pdf_cache_key("sheet", record, paper="A4", title="Game 1")
    assert cached_pdf(key, lambda: render("a")) == b"%PDF-a"
    assert cached_pdf(key, lambda: render("b")) == b"%PDF-a"
    assert calls == ["a"]
    # Another paper, label or round is another document.
    assert pdf_cache_key("sheet", record, paper="Letter", title="Game 1") != key
    assert pdf_cache_key("sheet", record, paper="A4", title="Game 2") != key
    longer = {**record, "rounds": record["rounds"][:3]}
    assert pdf_cache_key("sheet", longer, paper="A4", title="Game 1") != key
    assert template_version() in key


def test_pdf_cache_is_bounded_and_least_recently_used_goes_first() -> None:
    cache = PdfCache(max_entries=2, max_bytes=10)
    cache.get("a", lambda: b"aaa")
    cache.get("b", lambda: b"bbb")
    cache.get("a", lambda: b"never")  # a is now the most recent
    cache.get("c", lambda: b"ccc")
    assert "a" in cache and "c" in cache and "b" not in cache
    cache.get("d", lambda: b"dddddd")  # 3 + 6 bytes: c and d fit, a goes
    assert len(cache) == 2 and "a" not in cache
    assert cache.get("big", lambda: b"x" * 11) == b"x" * 11
    assert "big" not in cache  # larger than the whole cache: served, not kept
    assert (cache.hits, cache.misses) == (1, 5)


@pytest.fixture
def runner() -> FlaskCliRunner:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    return app.test_cli_runner()


def write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cli_pdf_of_a_game_record(runner: FlaskCliRunner, tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    result = runner.invoke(
        args=[
            "pdf",
            write(tmp_path, samples.vegas_game()),
            "-o",
            str(out),
            "--night",
            "Friday night",
            "--date",
            "2026-11-22",
        ]
    )
    assert result.exit_code == 0, result.output
    flat = squash(text_of(out))
    assert "Vegas Rummy" in flat and "Winner: Ann" in flat and "Total 40 105 129" in flat
    assert "FRIDAY NIGHT · 2026-11-22" in flat
    assert page_size(out) == PAGE_SIZES["A4"]


def test_cli_pdf_blank_on_letter(runner: FlaskCliRunner, tmp_path: Path) -> None:
    out = tmp_path / "blank.pdf"
    result = runner.invoke(
        args=[
            "pdf",
            write(tmp_path, samples.texas_game()),
            "--blank",
            "--paper",
            "Letter",
            "-o",
            str(out),
        ]
    )
    assert result.exit_code == 0, result.output
    assert page_size(out) == PAGE_SIZES["Letter"]
    flat = squash(text_of(out))
    assert "Threes 3" in flat and "Kings 13 ×3" in flat
    assert "Ann Bob Cy" in flat
    assert "Winner" not in flat


def test_cli_pdf_of_a_night_record(
    runner: FlaskCliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    night = {**samples.night(), "name": "Friday night", "date": "2026-11-22"}
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(args=["pdf", write(tmp_path, night)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "2026-11-22-friday-night-payout-summary.pdf"  # the default name
    flat = squash(text_of(out))
    assert "Bob pays Ann $7.00" in flat and "Cy pays Ann $2.60" in flat
    assert "Not settled: Game 3: Texas Rummy" in flat


def test_cli_pdf_to_standard_output(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["pdf", write(tmp_path, samples.rummy_game()), "-o", "-"])
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"%PDF-")


@pytest.mark.parametrize(
    ("record", "args", "message"),
    [
        ({"variant": "poker", "players": ["A", "B"]}, [], "unknown variant 'poker'"),
        ({**samples.night()}, ["--blank"], "--blank takes a game record"),
        (
            {"format": "scorekeeper-night/1", "games": [{"variant": "vegas"}]},
            [],
            "game 1: players must be a list",
        ),
        ("not json", [], "not valid JSON"),
    ],
)
def test_cli_pdf_errors(
    runner: FlaskCliRunner, tmp_path: Path, record: Any, args: list[str], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), "utf-8")
    out = tmp_path / "out.pdf"
    result = runner.invoke(args=["pdf", str(path), "-o", str(out), *args])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert not out.exists()


@pytest.mark.slow
def test_cli_pdf_as_a_real_command(tmp_path: Path) -> None:
    flask = Path(sys.executable).with_name("flask")
    record = write(tmp_path, samples.dummy_game())
    ok = subprocess.run(
        [str(flask), "--app", "scorekeeper", "pdf", record, "-o", str(tmp_path / "d.pdf")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert ok.returncode == 0, ok.stderr
    assert "one run of 10" not in text_of(tmp_path / "d.pdf")  # a filled sheet, not a blank
    bad = subprocess.run(
        [
            str(flask),
            "--app",
            "scorekeeper",
            "pdf",
            record,
            "--paper",
            "Letter",
            "-o",
            str(tmp_path / "no" / "such" / "dir.pdf"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert bad.returncode == 1
    assert bad.stderr.startswith("error: ") and len(bad.stderr.splitlines()) == 1
