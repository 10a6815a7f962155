"""Starting a game: the tiles to choose it, then the new-game form (seats, first dealer,
the game's settings, built from what its variant declares)."""

from __future__ import annotations

import hashlib
import re

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from ... import services
from ...models import Night
from ...rules import VARIANTS, RecordError, Variant
from ..nights import night_or_404
from ..refusals import refusal_text, said_text
from .blueprint import bp
from .new_game_form import NewGameForm, new_game_form
from .words import words_text


@bp.route("/nights/<id:night_id>/games/new", methods=["GET", "POST"])
@login_required
def new(night_id: int) -> str | Response | tuple[str, int]:
    night = night_or_404(night_id)
    variant = VARIANTS.get(request.values.get("variant", ""))
    from_id = request.args.get("from", "")
    if variant is None:
        return render_template(
            "games/choose.html", night=night, variants=VARIANTS.values(), from_game=from_id
        )
    source = (
        services.owned_game(int(from_id), current_user)
        if re.fullmatch(r"[0-9]{1,9}", from_id)
        else None
    )
    form = new_game_form(variant, night.people, source, night.currency)
    warned = ""
    if form.validate_on_submit():
        # Warnings come from the seats taken and the rules as typed; the game starts once
        # the keeper has seen these very warnings ("Start anyway").
        warnings = _warnings(variant, len(form.seating.players), form, night.currency)
        warned = _digest(warnings)
        if not warnings or request.form.get("warned") == warned:
            if (started := _start(night, variant, form)) is not None:
                return started
            warned = ""
    else:
        warnings = _warnings(variant, form.seating.seated, form, night.currency)
    return render_template(
        "games/new.html",
        night=night,
        form=form,
        variant=variant,
        advice=_deck_advice(variant, form.seating.seated, len(form.seating.rows)),
        warnings=warnings,
        warned=warned,
        from_game=source,
    ), 422 if form.all_errors else 200


def _deck_advice(variant: Variant, seated: int, rows: int) -> tuple[str, dict[int, str]]:
    """The cards for the players seated now, and for every count the seats can reach
    (the page's script shows the one for the seats as they are typed)."""

    settings = variant.default_settings()

    def said(players: int) -> str:
        advice = said_text(variant.deck_advice(players, settings).said)
        return ngettext(
            "Cards for %(num)s player: %(deck)s.",
            "Cards for %(num)s players: %(deck)s.",
            players,
            deck=advice,
        )

    counts = range(2, max(rows, seated, 2) + 2)  # + 1: a player added on the form
    return said(max(seated, 2)), {n: said(n) for n in counts}


def _warnings(variant: Variant, players: int, form: NewGameForm, currency: str) -> list[str]:
    """What the rules advise against for these seats and these rules (RULES.md: player
    counts are advice; a Texas pot that cannot pay its rounds is warned at setup)."""
    if players < 2:
        return []  # the form refuses fewer than two players on its own
    try:
        settings = variant.parse_settings({**form.settings(), "currency": currency})
    except RecordError:
        settings = variant.parse_settings({"currency": currency})  # refused when started
    return [words_text(w) for w in variant.display.warnings_said(players, settings)]


def _digest(warnings: list[str]) -> str:
    return hashlib.sha256("\n".join(warnings).encode()).hexdigest()[:16] if warnings else ""


def _start(night: Night, variant: Variant, form: NewGameForm) -> Response | None:
    """Start the game the form describes: the sheet to go to, or None with the refusal
    on the form."""
    try:
        game = services.create_game(
            night,
            variant=variant.name,
            players=form.seating.players,
            first_dealer=form.first_dealer.data,
            settings={**form.settings(), "currency": night.currency},
            user=current_user,
            submission=form.submission.data,
        )
    except services.AlreadySent as done:
        flash(_("That game was already started (sent twice): here it is, once."), "info")
        return redirect(url_for("games.sheet", game_id=done.target_id))
    except services.Conflict:
        form.general.append(_("Something changed at the same moment: try again."))
    except RecordError as exc:
        form.refuse(exc)
    except services.Refused as exc:
        form.general.append(refusal_text(exc))
    else:
        title = said_text(variant.title_said)
        flash(
            _("%(game)s started: %(name)s deals first.", game=title, name=game.first_dealer),
            "success",
        )
        return redirect(url_for("games.sheet", game_id=game.id))
    return None
