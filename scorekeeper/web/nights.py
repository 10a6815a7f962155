"""Card nights: the roster of people, the games, the payout summary."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from .. import services
from ..extensions import db
from ..forms import NightForm, PaperForm, PersonForm
from ..models import Game, Night
from ..reports import night_summary_text
from ..rules import RecordError, Settlement, Standings, settle

bp = Blueprint("nights", __name__, url_prefix="/nights")


# Ids are INTEGER columns: a larger one cannot exist, and would overflow the query.
MAX_ID = 2**31 - 1


def night_or_404(night_id: int) -> Night:
    night = services.load_night(night_id, current_user) if night_id <= MAX_ID else None
    if night is None:
        abort(404)
    return night


@dataclass
class GameSummary:
    game: Game
    standings: Standings | None
    error: str | None = None


def summaries(night: Night) -> list[GameSummary]:
    out = []
    for game in night.games:
        try:
            out.append(GameSummary(game, services.standings_for(game)))
        except RecordError as exc:  # pragma: no cover - stored games always replay
            out.append(GameSummary(game, None, str(exc)))
    return out


def night_settlement(night: Night, games: list[GameSummary]) -> Settlement:
    finished = [g.standings for g in games if g.standings and g.standings.finished]
    return settle(finished, night.currency)


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new() -> str | Response | tuple[str, int]:
    form = NightForm()
    if form.validate_on_submit():
        try:
            night = services.create_night(
                current_user,
                name=form.name.data.strip(),
                played_on=form.played_on.data,
                currency=form.currency.data,
                paper=form.paper.data,
                people=form.names(),
            )
        except RecordError as exc:
            db.session.rollback()
            form.people.errors.append(str(exc))
        else:
            return redirect(url_for("nights.show", night_id=night.id))
    return render_template("nights/new.html", form=form), 422 if form.errors else 200


@bp.get("/<int:night_id>")
@login_required
def show(night_id: int) -> str:
    night = night_or_404(night_id)
    return render_template(
        "nights/show.html",
        night=night,
        games=summaries(night),
        person_form=PersonForm(),
        paper_form=PaperForm(paper=night.paper),
    )


@bp.post("/<int:night_id>/people")
@login_required
def add_person(night_id: int) -> str | Response | tuple[str, int]:
    night = night_or_404(night_id)
    form = PersonForm()
    if form.validate_on_submit():
        try:
            services.add_person(night, form.name.data)
        except RecordError as exc:
            db.session.rollback()
            form.name.errors.append(str(exc))
        else:
            return redirect(url_for("nights.show", night_id=night.id))
    return render_template(
        "nights/show.html",
        night=night,
        games=summaries(night),
        person_form=form,
        paper_form=PaperForm(paper=night.paper),
    ), 422


@bp.route("/<int:night_id>/people/<int:person_id>", methods=["GET", "POST"])
@login_required
def rename_person(night_id: int, person_id: int) -> str | Response | tuple[str, int]:
    night = night_or_404(night_id)
    person = next((p for p in night.people if p.id == person_id), None)
    if person is None:
        abort(404)
    form = PersonForm(name=person.name)
    if form.validate_on_submit():
        try:
            services.rename_person(night, person, form.name.data, current_user)
        except RecordError as exc:
            db.session.rollback()
            form.name.errors.append(str(exc))
        else:
            flash(f"Renamed to {person.name} on every sheet of the night.", "success")
            return redirect(url_for("nights.show", night_id=night.id))
    return render_template(
        "nights/rename.html", night=night, person=person, form=form
    ), 422 if form.errors else 200


@bp.post("/<int:night_id>/paper")
@login_required
def paper(night_id: int) -> Response:
    night = night_or_404(night_id)
    form = PaperForm()
    if form.validate_on_submit():
        night.paper = form.paper.data
        db.session.commit()
        flash(f"Printing on {form.paper.data} paper.", "success")
    else:
        flash("Choose A4 or US Letter.", "error")
    return redirect(url_for("nights.show", night_id=night.id))


@bp.get("/<int:night_id>/payout")
@login_required
def payout(night_id: int) -> str:
    night = night_or_404(night_id)
    games = summaries(night)
    text = night_summary_text(
        night.name,
        night.played_on.isoformat(),
        night.currency,
        [(g.game.title, g.standings) for g in games if g.standings],
    )
    return render_template(
        "nights/payout.html",
        night=night,
        games=games,
        settlement=night_settlement(night, games),
        summary_text=text,
    )
