"""Printed documents: a game's filled and blank sheets, a night's payout summary (PDF and
plain text). Rendering is in :mod:`scorekeeper.reports`; a repeated download of an
unchanged game or night is served from the PDF cache without rendering again."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, make_response
from flask_login import login_required

from .. import services
from ..reports import (
    blank_sheet_pdf,
    cached_pdf,
    cached_state_pdf,
    game_sheet_pdf,
    pdf_cache_key,
    pdf_filename,
    summary_pdf,
)
from ..reports.pdf import render_summary_text as summary_text
from .games import game_or_404
from .games.blueprint import stamp_or_404, with_stamp
from .nights import night_or_404, night_summary

bp = Blueprint("printouts", __name__)


def _pdf(body: bytes, filename: str) -> Response:
    """A PDF download (private and asked again each time, like every page: web.headers)."""
    disposition = f'attachment; filename="{filename}"'
    return Response(body, mimetype="application/pdf", headers={"Content-Disposition": disposition})


def _labels(stamp: services.GameStamp) -> dict[str, Any]:
    return {
        "title": "",  # the game's name, in the keeper's language (reports.common.make_heading)
        "night_name": stamp.night_name,
        "date": stamp.played_on.isoformat(),
    }


@bp.get("/games/<id:game_id>/sheet.pdf")
@with_stamp
def game_sheet(game_id: int) -> Response:
    """The filled sheet. Cached by the game's state (``GameStamp.key``) and what is printed
    beside it, read in the one query that checks the owner: a cached download loads no
    rounds and hashes no record."""
    stamp = stamp_or_404(game_id)
    labels = _labels(stamp)
    key = pdf_cache_key("sheet", stamp.key, paper=stamp.paper, **labels)

    def render() -> tuple[bytes, bool]:
        game = game_or_404(game_id, eager=False)
        standings, exact = services.standings_at(game, stamp)
        return game_sheet_pdf(standings, paper=stamp.paper, **labels), exact

    body = cached_state_pdf(key, render)
    name = pdf_filename(
        "sheet", variant=stamp.variant, night_name=stamp.night_name, date=labels["date"]
    )
    return _pdf(body, name)


@bp.get("/games/<id:game_id>/blank.pdf")
@with_stamp
def blank_sheet(game_id: int) -> Response:
    """A blank sheet for the game's players and table rules (cached like the filled one)."""
    stamp = stamp_or_404(game_id)
    labels = _labels(stamp)
    key = pdf_cache_key("blank", stamp.key, paper=stamp.paper, **labels)

    def render() -> tuple[bytes, bool]:
        game = game_or_404(game_id, eager=False)
        players = [s.person.name for s in game.seats]
        exact = services.still_at(game, stamp)
        pdf = blank_sheet_pdf(game.variant, players, game.settings, paper=stamp.paper, **labels)
        return pdf, exact

    body = cached_state_pdf(key, render)
    name = pdf_filename(
        "blank", variant=stamp.variant, night_name=stamp.night_name, date=labels["date"]
    )
    return _pdf(body, name)


@bp.get("/nights/<id:night_id>/payout.pdf")
@login_required
def payout_pdf(night_id: int) -> Response:
    night = night_or_404(night_id)
    summary = night_summary(night)
    date = night.played_on.isoformat()
    # The key is what the page prints: every game, what was carried in, the rounding.
    key = pdf_cache_key("summary", repr(summary), paper=night.paper)
    body = cached_pdf(key, lambda: summary_pdf(summary, night.paper))
    return _pdf(body, pdf_filename("summary", night_name=night.name, date=date))


@bp.get("/nights/<id:night_id>/payout.txt")
@login_required
def payout_text(night_id: int) -> Response:
    night = night_or_404(night_id)
    response = make_response(summary_text(night_summary(night)))
    response.mimetype = "text/plain"
    return response
