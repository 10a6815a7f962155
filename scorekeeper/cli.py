"""Command line: ``flask --app scorekeeper standings|settle|pdf ...``, ``prune-logins``
(old log-in attempts), and the operator's ``users list|disable|enable|reset-link`` and
``account export|import``.

Each command reads a record (a file, or ``-`` for standard input), prints JSON to standard
output, and on a record that breaks a rule prints one line to standard error and exits 1.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from .rules import RecordError, load_game, settle_night
from .rules.record import read_json
from .web.locales import LANGUAGES


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
@click.option(
    "--language",
    type=click.Choice(list(LANGUAGES)),
    default="en",
    show_default=True,
    help='The language of its words (the app\'s languages; README "Languages").',
)
def pdf_command(
    record: Any,
    output: str | None,
    blank: bool,
    paper: str,
    title: str | None,
    night_name: str | None,
    date: str | None,
    language: str,
) -> None:
    """Print the game RECORD's sheet, or the payout summary of a NIGHT record, as a PDF."""
    from .reports.words import speaking

    with speaking(language):
        _print_pdf(record, output, blank, paper, title, night_name, date)


def _print_pdf(
    record: Any,
    output: str | None,
    blank: bool,
    paper: str,
    title: str | None,
    night_name: str | None,
    date: str | None,
) -> None:
    from .reports import (
        blank_sheet_pdf,
        game_sheet_pdf,
        night_summary_pdf,
        pdf_filename,
    )
    from .reports.words import gettext as _
    from .rules import NIGHT_FORMAT, GameRecord, parse_night, replay

    paper = "Letter" if paper.lower() == "letter" else "A4"
    try:
        data = _read_json(record)
        if isinstance(data, dict) and data.get("format") == NIGHT_FORMAT:
            if blank:
                raise RecordError("--blank takes a game record, not a night record")
            currency, games = parse_night(data)
            night_name = night_name or data.get("name") or _("Card night")
            date = date or data.get("date")
            titled = [
                (_("Game %(number)s: %(variant)s", number=i, variant=s.variant.title), s)
                for i, s in enumerate(games, 1)
            ]
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
    from .services.logins import prune

    gone = prune()
    db.session.commit()
    click.echo(f"{gone} old log-in attempt{'' if gone == 1 else 's'} deleted.")


users_group = AppGroup("users", help="Accounts: list, disable, enable, reset links.")
account_group = AppGroup("account", help="A whole account as one file: export, import.")


def _user_or_fail(email: str) -> Any:
    from .services.accounts import find_user

    user = find_user(email)
    if user is None:
        _fail(ValueError(f"no account has the email {email.strip().lower()!r}"))
    return user


@users_group.command("list")
def users_list_command() -> None:
    """Every account: email, when it signed up, nights, live logins, disabled or not."""
    from .services.accounts import accounts

    lines = accounts()
    for line in lines:
        state = f"disabled {line.disabled_at:%Y-%m-%d}" if line.disabled_at else "active"
        click.echo(
            f"{line.email}\tsince {line.created_at:%Y-%m-%d}\t{line.nights} nights\t"
            f"{line.logins} logins\t{state}"
        )
    click.echo(f"{len(lines)} account{'' if len(lines) == 1 else 's'}.", err=True)


@users_group.command("disable")
@click.argument("email")
def users_disable_command(email: str) -> None:
    """EMAIL's account cannot log in, and every login of it ends (its data stays)."""
    _set_disabled(email, True, "is disabled: it cannot log in, and its logins ended.")


@users_group.command("enable")
@click.argument("email")
def users_enable_command(email: str) -> None:
    """EMAIL's account can log in again."""
    _set_disabled(email, False, "is enabled: it can log in again.")


def _set_disabled(email: str, disabled: bool, said: str) -> None:
    from .services.accounts import set_disabled

    user = _user_or_fail(email)
    set_disabled(user, disabled)
    click.echo(f"{user.email} {said}")


@users_group.command("reset-link")
@click.argument("email")
def users_reset_link_command(email: str) -> None:
    """Print a password-reset link for EMAIL (works once, for an hour): for a host that
    sends no mail. Give it to the account's owner only."""
    from .services.mail import public_url
    from .services.resets import make_link

    user = _user_or_fail(email)
    if user.disabled_at is not None:
        _fail(ValueError(f"{user.email} is disabled: enable it first"))
    click.echo(make_link(user))
    if not public_url():
        click.echo(
            "note: SCOREKEEPER_PUBLIC_URL is not set, so this is the link's path: put the "
            "address the app is reached at in front of it (https://cards.example.org/...).",
            err=True,
        )


@account_group.command("export")
@click.option("--email", required=True, help="The account's email.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    required=True,
    help="Where to write the zip file (- for standard output).",
)
def account_export_command(email: str, output: str) -> None:
    """Write everything of the account as one zip file (scorekeeper-account/1)."""
    from .services.accounts import export_account

    data = export_account(_user_or_fail(email))
    with click.open_file(output, "wb") as fh:
        fh.write(data)


@account_group.command("import")
@click.argument("file", type=click.File("rb"))
@click.option("--email", required=True, help="The account to import into (signed up, empty).")
def account_import_command(file: Any, email: str) -> None:
    """Restore the account FILE (a zip made by Download everything or account export)
    into the account of --email, which must have no nights and no regulars."""
    from flask import current_app

    from .services.accounts import ImportRefused, import_account

    user = _user_or_fail(email)
    limit = int(current_app.config["ACCOUNT_IMPORT_MAX_BYTES"])
    try:
        done = import_account(user, file.read(limit + 1))
    except ImportRefused as exc:
        _fail(ValueError(f"not imported, nothing was changed: {exc}"))
    click.echo(f"Imported {done} into {user.email}.")


def init_app(app: Flask) -> None:
    app.cli.add_command(users_group)
    app.cli.add_command(account_group)
    app.cli.add_command(prune_logins_command)
    app.cli.add_command(standings_command)
    app.cli.add_command(settle_command)
    app.cli.add_command(pdf_command)
