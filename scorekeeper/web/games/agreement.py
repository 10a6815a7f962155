"""Ending a game by agreement (Pool's split of the pot): a page that shows, for each way
the game may be split (``variant.split_kinds``), every player's share first; the choice
confirmed is saved as the game's last entry, which Undo and "Remove last" take back like
a round."""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response

from ... import services
from ...models import Game
from ...rules import RecordError, Standings, format_money
from ...rules.plan import Planned
from ...rules.questions import Answers
from ..fields import VersionedForm, new_submission
from ..refusals import refusal_text, said_text
from .blueprint import bp, game_or_404, with_stamp
from .words import detail_text, words_text


@dataclass(frozen=True, slots=True)
class Share:
    name: str
    total: int
    figures: list[str]  # the variant's figures under the totals (Pool: drops left)
    amount: str  # the share, in the night's money


@dataclass(frozen=True, slots=True)
class Way:
    """One way to split: its key, its words and each share (or why it cannot be)."""

    kind: str
    label: str
    shares: list[Share]
    refusal: str = ""


def _ways(game: Game, s: Standings) -> list[Way]:
    variant, settings = s.variant, s.record.settings
    display = variant.display
    heads = variant.display.figures(s.players, settings)
    figures = {p.name: [row[1][i] for row in heads] for i, p in enumerate(s.players)}
    ways = []
    for kind in variant.split_kinds:
        try:
            planned = services.plan_round(
                game, {"split": kind}, number=None, answers=Answers(confirmed=True), standings=s
            )
        except RecordError as exc:
            ways.append(Way(kind, said_text(display.split_said(kind)), [], detail_text(exc)))
            continue
        if not isinstance(planned, Planned):
            refusal = detail_text(planned.refusal) if planned.refusal else _("not possible now")
            ways.append(Way(kind, said_text(display.split_said(kind)), [], refusal))
            continue
        after = planned.standings
        shares = [
            Share(
                name,
                after.player(name).total,
                figures[name],
                format_money(after.pot.paid_out_to(name), after.pot.currency),
            )
            for name in after.winners
        ]
        ways.append(Way(kind, said_text(display.split_said(kind)), shares))
    return ways


@bp.route("/games/<id:game_id>/split", methods=["GET", "POST"])
@with_stamp
def split(game_id: int) -> Response | tuple[str, int] | str:
    game = game_or_404(game_id, eager=False)
    s = services.standings_at(game, g.stamp)[0] if g.stamp else services.standings_for(game)
    if not s.variant.split_kinds:
        if request.method == "POST":
            abort(404)
        form = VersionedForm()
        said = _(
            "%(game)s has no split of the pot: the game ends by its own rules.",
            game=said_text(s.variant.title_said),
        )
        return _page(game, s, form, [], said)
    if s.finished:
        words = said_text(s.variant.display.round_said("many"))
        flash(_("This game is over: no more %(words)s.", words=words), "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    form = VersionedForm()
    ways = _ways(game, s)
    if not form.is_submitted():
        form.version.data, form.submission.data = str(game.version), new_submission()
        return _page(game, s, form, ways, "")
    if not form.validate_on_submit():
        return _page(game, s, form, ways, _("This form is incomplete: reload the page.")), 400
    kind = request.form.get("split", "")
    if kind not in {w.kind for w in ways if not w.refusal}:
        return _page(game, s, form, ways, _("Choose how to split the pot.")), 422
    try:
        services.save_round(
            game,
            {"split": kind},
            number=None,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.AlreadySent:
        flash(_("The split was already saved (sent twice): it is recorded once."), "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    except services.Conflict:
        flash(_("The game changed on another phone: nothing was split. Check the sheet."), "error")
        return redirect(url_for("games.sheet", game_id=game_id))
    except RecordError as exc:
        return _page(game, s, form, ways, refusal_text(exc)), 422
    return redirect(url_for("games.sheet", game_id=game_id, saved=s.rounds_played + 1))


def _page(game: Game, s: Standings, form: VersionedForm, ways: list[Way], error: str) -> str:
    figures = s.variant.display.figures_said(s.players, s.record.settings)
    heads = [words_text(label) for label, _ in figures]
    return render_template(
        "games/split.html",
        game=game,
        s=s,
        form=form,
        ways=ways,
        heads=heads,
        error=error,
        pot=format_money(s.pot.total, s.pot.currency),
    )
