"""Printed documents: a game's filled and blank sheets, a night's payout summary (PDF and
plain text). Rendering is in :mod:`scorekeeper.reports`; a repeated download of an
unchanged game or night is served from the PDF cache without rendering again."""

from __future__ import annotations

from flask import Blueprint, Response, make_response
from flask_login import login_required

from .. import services
from ..reports import (
    blank_sheet_pdf,
    cached_pdf,
    game_sheet_pdf,
    night_summary_pdf,
    pdf_cache_key,
    pdf_filename,
)
from .games import game_or_404
from .nights import night_or_404, night_summary, summary_text

bp = Blueprint("printouts", __name__)


def _pdf(body: bytes, filename: str) -> Response:
    response = make_response(body)
    response.mimetype = "application/pdf"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/games/<id:game_id>/sheet.pdf")
@login_required
def game_sheet(game_id: int) -> Response:
    game = game_or_404(game_id)
    night = game.night
    record = game.record_json()
    labels = {"title": game.title, "night": night.name, "date": night.played_on.isoformat()}
    key = pdf_cache_key("sheet", record, paper=night.paper, **labels)
    body = cached_pdf(
        key,
        lambda: game_sheet_pdf(
            services.standings_for(game),
            title=game.title,
            night_name=night.name,
            date=labels["date"],
            paper=night.paper,
        ),
    )
    name = pdf_filename("sheet", variant=game.variant, night_name=night.name, date=labels["date"])
    return _pdf(body, name)


@bp.get("/games/<id:game_id>/blank.pdf")
@login_required
def blank_sheet(game_id: int) -> Response:
    game = game_or_404(game_id)
    night = game.night
    players = [s.person.name for s in game.seats]
    date = night.played_on.isoformat()
    key = pdf_cache_key(
        "blank",
        {"players": players, "settings": game.settings, "variant": game.variant},
        paper=night.paper,
        title=game.title,
        night=night.name,
        date=date,
    )
    body = cached_pdf(
        key,
        lambda: blank_sheet_pdf(
            game.variant,
            players,
            game.settings,
            title=game.title,
            night_name=night.name,
            date=date,
            paper=night.paper,
        ),
    )
    return _pdf(body, pdf_filename("blank", variant=game.variant, night_name=night.name, date=date))


@bp.get("/nights/<id:night_id>/payout.pdf")
@login_required
def payout_pdf(night_id: int) -> Response:
    night = night_or_404(night_id)
    games = services.night_games(night)
    date = night.played_on.isoformat()
    records = [s.record.to_json() for _, s in games]
    key = pdf_cache_key(
        "summary", records, paper=night.paper, night=night.name, date=date, currency=night.currency
    )
    body = cached_pdf(
        key, lambda: night_summary_pdf(night.name, date, night.currency, games, night.paper)
    )
    return _pdf(body, pdf_filename("summary", night_name=night.name, date=date))


@bp.get("/nights/<id:night_id>/payout.txt")
@login_required
def payout_text(night_id: int) -> Response:
    night = night_or_404(night_id)
    response = make_response(summary_text(night_summary(night)))
    response.mimetype = "text/plain"
    return response
