"""Command line: ``flask --app scorekeeper standings|settle|pdf ...``, and
``prune-logins`` (old log-in attempts).

Each command reads a record (a file, or ``-`` for standard input), prints JSON to standard
output, and on a record that breaks a rule prints one line to standard error and exits 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from .rules import RecordError, load_game, settle_night
from .rules.record import read_json


def _read_json(stream: Any) -> Any:
    try:
        text = stream.read()
    except UnicodeDecodeError as exc:
        raise RecordError("not a text file: a record is JSON in UTF-8") from exc
    return read_json(text)


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


@click.command("pdf")
@click.argument("record", type=click.File("r", encoding="utf-8"))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Where to write the PDF (- for standard output); default: a name made "
    "of the night, date and game in the current folder.",
)
@click.option(
    "--blank",
    is_flag=True,
    help="The blank sheet for the game's variant, players and settings, to fill in by hand.",
)
@click.option(
    "--paper",
    type=click.Choice(["A4", "Letter"], case_sensitive=False),
    default="A4",
    show_default=True,
)
@click.option("--title", help="The title printed on a game sheet (default: the variant).")
@click.option("--night", "night_name", help="The night's name (default: the night record's).")
@click.option("--date", help="The date printed on it (default: the night record's).")
def pdf_command(
    record: Any,
    output: str | None,
    blank: bool,
    paper: str,
    title: str | None,
    night_name: str | None,
    date: str | None,
) -> None:
    """Print the game RECORD's sheet, or the payout summary of a NIGHT record, as a PDF."""
    from .reports import (
        blank_sheet_pdf,
        game_sheet_pdf,
        night_summary_pdf,
        pdf_filename,
    )
    from .rules import NIGHT_FORMAT, GameRecord, parse_night, replay

    paper = "Letter" if paper.lower() == "letter" else "A4"
    try:
        data = _read_json(record)
        if isinstance(data, dict) and data.get("format") == NIGHT_FORMAT:
            if blank:
                raise RecordError("--blank takes a game record, not a night record")
            currency, games = parse_night(data)
            night_name = night_name or data.get("name") or "Card night"
            date = date or data.get("date")
            titled = [(f"Game {i}: {s.variant.title}", s) for i, s in enumerate(games, 1)]
            pdf = night_summary_pdf(night_name, date, currency, titled, paper)
            name = pdf_filename("summary", night_name=night_name, date=date)
        else:
            game = GameRecord.from_json(data)
            if blank:
                pdf = blank_sheet_pdf(
                    game.variant,
                    [p.name for p in game.players],
                    game.settings,
                    title=title or "",
                    night_name=night_name,
                    date=date,
                    paper=paper,
                )
            else:
                pdf = game_sheet_pdf(
                    replay(game), title=title or "", night_name=night_name, date=date, paper=paper
                )
            name = pdf_filename(
                "blank" if blank else "sheet",
                variant=game.variant,
                night_name=night_name,
                date=date,
            )
        with click.open_file(output or name, "wb") as fh:  # "-": standard output
            fh.write(pdf)
    except (RecordError, OSError) as exc:
        _fail(exc)


@click.command("prune-logins")
@with_appcontext
def prune_logins_command() -> None:
    """Delete log-in attempts past their time: failures older than 15 minutes, successful
    log-ins older than KNOWN_LOGIN_DURATION (every log-in attempt does this too)."""
    from .extensions import db
    from .logins import prune

    gone = prune()
    db.session.commit()
    click.echo(f"{gone} old log-in attempt{'' if gone == 1 else 's'} deleted.")


def init_app(app: Flask) -> None:
    app.cli.add_command(prune_logins_command)
    app.cli.add_command(standings_command)
    app.cli.add_command(settle_command)
    app.cli.add_command(pdf_command)
