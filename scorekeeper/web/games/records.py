"""Game records: export as JSON, import (one game, idempotent), delete and restore."""

from __future__ import annotations

import json

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from ... import services
from ...rules import RecordError, get_variant
from ...rules.errors import NotJson
from ...services import ledger
from ..changes import attempt
from ..fields import ConfirmForm, new_submission
from ..nights import night_or_404
from ..refusals import refusal_text, said_text
from .blueprint import bp, game_or_404
from .forms import ImportForm


@bp.get("/games/<id:game_id>/export.json")
@login_required
def export(game_id: int) -> Response:
    game = game_or_404(game_id)
    body = json.dumps(game.record_json(), indent=2, ensure_ascii=False)
    response = make_response(body)
    response.mimetype = "application/json"
    filename = f"{game.night.played_on.isoformat()}-{game.variant}-game-{game.id}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/nights/<id:night_id>/games/import", methods=["GET", "POST"])
@login_required
def import_game(night_id: int) -> Response | tuple[str, int]:
    night = night_or_404(night_id)
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        upload = request.files.get("file")
        text = upload.read().decode("utf-8", "replace") if upload and upload.filename else None
        try:
            game = services.import_game(
                night, text or form.record.data or "", user=current_user,
                submission=form.submission.data,
            )  # fmt: skip
        except services.AlreadySent as done:
            flash(_("That record was already imported (sent twice): here it is, once."), "info")
            return redirect(url_for("games.sheet", game_id=done.target_id))
        except services.Conflict:
            error = _("Something changed at the same moment: nothing was imported. Try again.")
        except NotJson as exc:
            error = _("That is not JSON: %(detail)s.", detail=exc.detail)
        except (RecordError, services.Refused) as exc:
            error = _("Not imported: %(refusal)s", refusal=refusal_text(exc))
        else:
            title = said_text(get_variant(game.variant).title_said)
            flash(_imported(title, len(game.rounds)), "success")
            return redirect(url_for("games.sheet", game_id=game.id))
    elif request.method == "POST":
        error = "; ".join(e for errs in form.errors.values() for e in errs)
    page = render_template("games/import.html", night=night, form=form, error=error)
    return page, 422 if error else 200


# ------------------------------------------------------------ delete & restore ---
@bp.route("/games/<id:game_id>/delete", methods=["GET", "POST"])
@login_required
def delete(game_id: int) -> str | Response:
    """Delete a game after a confirmation: it leaves the night and its settlement, and
    stays restorable from the night's page (and listed in the game's history)."""
    game = services.owned_game(game_id, current_user, deleted=True, owner_only=True)
    if game is None:
        abort(404)
    form = ConfirmForm()
    if not form.is_submitted():
        if game.deleted_at is not None:
            abort(404)
        form.version.data = str(game.version)
        form.submission.data = new_submission()
        s = services.standings_for(game)
        return render_template(
            "games/delete.html",
            game=game,
            s=s,
            form=form,
            money_moves=ledger.money_moves(game.night_id, s.finished),
        )
    if not form.validate_on_submit():
        abort(400)
    night_id = game.night_id
    deleted, _deleted = attempt(
        lambda: services.delete_game(
            game,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        ),
        lambda _result: _("Game deleted: it no longer counts in the settlement. Restore it below."),
        again=lambda _sent: _("That game was already deleted (sent twice)."),
        race=_("The game changed on another phone: it was not deleted. Check it first."),
    )
    if not deleted:
        return redirect(url_for("games.sheet", game_id=game_id))
    return redirect(url_for("nights.show", night_id=night_id, _anchor="deleted"))


@bp.post("/games/<id:game_id>/restore")
@login_required
def restore(game_id: int) -> Response:
    game = services.owned_game(game_id, current_user, deleted=True, owner_only=True)
    if game is None:
        abort(404)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    if game.deleted_at is None:
        flash(_("That game is not deleted."), "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    restored, _restored = attempt(
        lambda: services.restore_game(
            game,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        ),
        lambda _result: _("Game restored: it counts in the settlement again."),
        again=lambda _sent: _("That game was already restored (sent twice)."),
        race=_("The game changed at the same moment: try again."),
    )
    if not restored:
        return redirect(url_for("nights.show", night_id=game.night_id, _anchor="deleted"))
    return redirect(url_for("games.sheet", game_id=game_id))


def _imported(title: str, rounds: int) -> str:
    return ngettext(
        "Imported %(game)s with %(num)s round.",
        "Imported %(game)s with %(num)s rounds.",
        rounds,
        game=title,
    )
