"""Command line: ``flask --app scorekeeper standings|settle|pdf ...``.

Each command reads a record (a file, or ``-`` for standard input), prints JSON to standard
output, and on a record that breaks a rule prints one line to standard error and exits 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from flask import Flask

from .rules import RecordError, load_game, settle_night


def _read_json(stream: Any) -> Any:
    try:
        return json.load(stream)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from exc
    except UnicodeDecodeError as exc:
        raise RecordError("not a text file: a record is JSON in UTF-8") from exc


def _fail(exc: Exception) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(1)


@click.command("standings")
@click.argument("record", type=click.File("r", encoding="utf-8"))
def standings_command(record: Any) -> None:
    """Print the standings JSON of the game RECORD (a file, or - for stdin)."""
    try:
        result = load_game(_read_json(record))
    except RecordError as exc:
        _fail(exc)
    click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))


@click.command("settle")
@click.argument("night", type=click.File("r", encoding="utf-8"))
def settle_command(night: Any) -> None:
    """Print who pays whom for the NIGHT record (a file, or - for stdin)."""
    try:
        result = settle_night(_read_json(night))
    except RecordError as exc:
        _fail(exc)
    click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))


def init_app(app: Flask) -> None:
    app.cli.add_command(standings_command)
    app.cli.add_command(settle_command)
