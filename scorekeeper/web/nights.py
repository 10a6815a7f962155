"""Card nights: the roster of people, the games, the payout summary."""

from __future__ import annotations

from dataclasses import dataclass

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from .. import services
from ..forms import (
    ConfirmForm,
    DeleteNightForm,
    NightForm,
    PaperForm,
    PersonForm,
    RenameForm,
    locale_choices,
    options,
    preferred_locale,
)
from ..models import Game, Night, Person
from ..reports import NightSummary, book_summary
from ..reports.spreadsheets import night_csv
from ..rules import RecordError, Standings
from ..rules.errors import Said
from ..rules.money import use_money_locale
from ..services import ledger
from ..services.regulars import regulars_of
from . import night_words
from .changes import RACE
from .clock import local_today
from .keepers import keepers_section
from .refusals import refusal_text

bp = Blueprint("nights", __name__, url_prefix="/nights")
bp.add_app_template_global(night_words.said, "said")  # a service's sentence, in words
bp.add_app_template_filter(night_words.day_long, "day_long")  # a night's date, written out
bp.add_app_template_filter(night_words.day_short, "day_short")


def night_or_404(night_id: int, *, deleted: bool = False, owner_only: bool = False) -> Night:
    """A night the logged-in user keeps (owner or co-keeper; the owner alone with
    ``owner_only``), or 404: the same answer for a night that is not there."""
    night = services.owned_night(night_id, current_user, deleted=deleted, owner_only=owner_only)
    if night is None:
        abort(404)
    use_money_locale(night.locale)
    return night


def deleted_games(night: Night) -> list[Game]:
    return [g for g in night.all_games if g.deleted_at is not None]


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


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new() -> str | Response | tuple[str, int]:
    form = NightForm()
    regulars = regulars_of(current_user.id)
    form.regulars.choices = options([(str(r.id), r.name) for r in regulars])
    form.locale.choices = locale_choices()
    if not form.is_submitted():
        form.locale.data = preferred_locale(request.accept_languages)
        form.played_on.data = local_today()  # the table's date, not the server's
    if form.validate_on_submit():
        picked = {str(r.id): r.name for r in regulars}
        try:
            night = services.create_night(
                current_user,
                name=form.name.data.strip(),
                played_on=form.played_on.data,
                currency=form.currency.data,
                paper=form.paper.data,
                locale=form.locale.data,
                people=form.in_seating_order(
                    [picked[i] for i in form.regulars.data or [] if i in picked] + form.names()
                ),
                submission=form.submission.data,
            )
        except services.AlreadyCreated as done:
            flash(_("That night was already started (sent twice): here it is, once."), "info")
            return redirect(url_for("nights.show", night_id=done.target_id))
        except services.Conflict:
            form.people.errors.append(_(RACE))
        except (RecordError, services.Refused) as exc:
            form.people.errors.append(refusal_text(exc))
        else:
            return redirect(url_for("nights.show", night_id=night.id))
    return render_template("nights/new.html", form=form), 422 if form.errors else 200


@bp.get("/<id:night_id>/export.csv")
@login_required
def export_csv(night_id: int) -> Response:
    """The night as a spreadsheet: each game with its status, each person's balance, the
    ledger, what is still to pay."""
    night = night_or_404(night_id)
    deleted = [(g.title, services.standings_for(g)) for g in deleted_games(night)]
    response = make_response(night_csv(ledger.night_book(night), deleted))
    response.mimetype = "text/csv"
    name = f"{night.played_on.isoformat()}-night-{night.id}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/<id:night_id>")
@login_required
def show(night_id: int) -> str:
    night = night_or_404(night_id)
    return _render_show(night, PersonForm())


def _render_show(night: Night, person_form: PersonForm) -> str:
    owned = night.owner_id == current_user.id
    return render_template(
        "nights/show.html",
        night=night,
        owned=owned,
        **(keepers_section(night) if owned else {}),
        games=summaries(night),
        deleted=deleted_games(night),
        person_form=person_form,
        paper_form=PaperForm(paper=night.paper),
        restore_form=ConfirmForm(),
    )


@bp.post("/<id:night_id>/people")
@login_required
def add_person(night_id: int) -> str | Response | tuple[str, int]:
    night = night_or_404(night_id)
    form = PersonForm()
    if form.validate_on_submit():
        try:
            services.add_person(
                night, form.name.data, user=current_user, submission=form.submission.data
            )
        except services.AlreadyCreated:
            flash(_("Already added (sent twice): on the list once."), "info")
            return redirect(url_for("nights.show", night_id=night_id))
        except (RecordError, services.Refused) as exc:
            form.name.errors.append(refusal_text(exc))
        else:
            return redirect(url_for("nights.show", night_id=night_id))
    night = night_or_404(night_id)
    return _render_show(night, form), 422


def _person_or_404(night_id: int, person_id: int) -> tuple[Night, Person]:
    night = night_or_404(night_id)
    person = next((p for p in night.people if p.id == person_id), None)
    if person is None:
        abort(404)
    return night, person


@bp.route("/<id:night_id>/people/<id:person_id>", methods=["GET", "POST"])
@login_required
def rename_person(night_id: int, person_id: int) -> str | Response | tuple[str, int]:
    night, person = _person_or_404(night_id, person_id)
    form = RenameForm(name=person.name)
    if form.validate_on_submit():
        wanted = form.name.data
        try:
            services.rename_person(night, person, wanted, current_user)
        except services.Conflict:
            # A double tap (done by the first tap), or a round saved at the same moment.
            night, person = _person_or_404(night_id, person_id)
            if person.name == " ".join(wanted.split()):
                return _renamed(night_id, person)
            form.name.errors.append(
                _(
                    "A game of the night changed at the same moment, so nobody was renamed: "
                    "try again."
                )
            )
            return render_template("nights/rename.html", night=night, person=person, form=form), 409
        except (RecordError, services.Refused) as exc:
            form.name.errors.append(refusal_text(exc))
        else:
            return _renamed(night_id, person)
    return render_template(
        "nights/rename.html", night=night, person=person, form=form
    ), 422 if form.errors else 200


def _renamed(night_id: int, person: Person) -> Response:
    flash(_("Renamed to %(name)s on every sheet of the night.", name=person.name), "success")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.post("/<id:night_id>/paper")
@login_required
def paper(night_id: int) -> Response:
    night = night_or_404(night_id)
    form = PaperForm()
    if form.validate_on_submit():
        services.set_paper(night, form.paper.data)
        flash(_("Printing on %(paper)s paper.", paper=form.paper.data), "success")
    else:
        flash(_("Choose A4 or US Letter."), "error")
    return redirect(url_for("nights.show", night_id=night.id))


def night_summary(night: Night) -> NightSummary:
    """The night's payout summary: its games, its ledger, what is still to pay."""
    return book_summary(ledger.night_book(night))


@bp.route("/<id:night_id>/delete", methods=["GET", "POST"])
@login_required
def delete(night_id: int) -> str | Response:
    night = night_or_404(night_id, deleted=request.method == "POST", owner_only=True)
    form = DeleteNightForm()
    if form.validate_on_submit():
        if night.deleted_at is None:  # a second tap finds it deleted already
            services.delete_night(night, user=current_user)
        flash(
            _("%(night)s deleted. You can restore it from your list of nights.", night=night.name),
            "success",
        )
        return redirect(url_for("home.index"))
    return render_template("nights/delete.html", night=night, form=form, games=summaries(night))


@bp.post("/<id:night_id>/restore")
@login_required
def restore(night_id: int) -> Response:
    night = night_or_404(night_id, deleted=True, owner_only=True)
    if not DeleteNightForm().validate_on_submit():
        abort(400)
    kept_back: list[Said] = []
    if night.deleted_at is not None:
        kept_back = services.restore_night(night, user=current_user)
    flash(_("%(night)s restored.", night=night.name), "success")
    for sentence in kept_back:
        flash(night_words.said(sentence), "info")
    return redirect(url_for("nights.show", night_id=night_id))
