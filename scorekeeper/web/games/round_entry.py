"""Entering a round, correcting one, removing the last one, and late joiners.

A posted round is read, planned, asked about, saved: :class:`RoundEntry` reads the form
(what was typed, errors by field, the players in seat order); the engine plans the round
(:func:`services.plan_round`, ``rules.plan``), saying what the keeper must still be asked
("re-buy or drop?", ...) before anything is saved; the save reuses the plan's replay.
"""

from __future__ import annotations

import functools

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from ... import services
from ...models import Game
from ...rules import RecordError, Standings, format_money, get_variant
from ...rules.plan import Open
from ...rules.table import joiners_seated
from ...services.regulars import regulars_of
from .. import offline
from ..changes import attempt
from ..fields import ConfirmForm, checked_whole, new_submission, options
from ..refusals import refusal_text
from .blueprint import bp, game_or_404, with_stamp
from .forms import JoinForm
from .round_form import INCOMPLETE
from .round_page import RoundEntry
from .sheet import render_sheet


# ------------------------------------------------------------------------ routes ---
@bp.route("/games/<id:game_id>/rounds/new", methods=["GET", "POST"])
@with_stamp
def new_round(game_id: int) -> Response | tuple[str | Response, int]:
    return _round_view(game_id, None)


@bp.route("/games/<id:game_id>/rounds/<int:number>", methods=["GET", "POST"])
@with_stamp
def edit_round(game_id: int, number: int) -> Response | tuple[str | Response, int]:
    return _round_view(game_id, number)


def _round_view(game_id: int, number: int | None) -> Response | tuple[str | Response, int]:
    # The login, the owner and the game's version came in one query (``with_stamp``);
    # the standings of that version are usually kept by it, and then no round is loaded.
    game = game_or_404(game_id, eager=False)
    s = services.standings_at(game, g.stamp)[0] if g.stamp else services.standings_for(game)
    # A new round the phone queued offline and sends now: the same checks, answered in
    # JSON (what became of it, and the version the next queued round goes on top of).
    queued = number is None and request.method == "POST" and offline.wants_json()
    if queued and (done := offline.saved(game_id, request.form.get("submission", ""))):
        return done
    if number is None and s.finished:
        words = s.variant.display.round_word + "s"
        over = _("This game is over: no more %(words)s.", words=words)
        if queued:
            return offline.refused(over)
        flash(over, "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    entry = RoundEntry.open(game, s, number)
    entry.queued = queued
    if not entry.form.is_submitted():  # GET and HEAD
        entry.form.version.data, entry.form.submission.data = str(game.version), new_submission()
        if entry.editing:
            entry.load_stored()
        return entry.render()
    return _post_round(game, entry)


def _post_round(game: Game, entry: RoundEntry) -> Response | tuple[str | Response, int]:
    """Read the posted round, plan it, ask what the plan still asks, save; the form again
    with what was wrong or what to answer."""
    form, game_id = entry.form, game.id  # the id read now: after the save, game is expired
    try:
        typed = entry.read()
        if typed is None:
            return entry.render(entry.status)
        answers = form.answers()
        planned = services.plan_round(
            game, typed, number=entry.target, answers=answers, standings=entry.s
        )
        if isinstance(planned, Open):
            return entry.render(entry.ask(planned))
        entry.ask(planned)  # answered: shown again if the save refuses
        services.save_planned_round(
            game,
            planned,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.AlreadySent as dup:
        return _sent_twice(game_id, entry, dup.round_number)
    except services.Conflict:
        return offline.changed_meanwhile() if entry.queued else _conflict(game_id, entry)
    except RecordError as exc:
        entry.refuse(exc)
        return entry.render(422)
    return _saved(game_id, entry, form.submission.data)


def _sent_twice(
    game_id: int, entry: RoundEntry, number: int | None
) -> Response | tuple[Response, int]:
    """The same round sent twice at once: the first saved it; the second says so."""
    if entry.queued and (done := offline.saved(game_id, entry.form.submission.data)):
        return done  # stored a moment ago by the same round sent twice at once
    flash(
        _(
            "%(Word)s %(number)s was already saved (sent twice): it is recorded once.",
            Word=entry.s.variant.display.round_word.capitalize(),
            number=number or entry.number,
        ),
        "info",
    )
    return redirect(url_for("games.sheet", game_id=game_id))


def _saved(game_id: int, entry: RoundEntry, submission: str) -> Response | tuple[Response, int]:
    """Where a saved round leads. The round is committed: the answer is built from plain
    values, not from the session's (expired) objects, so nothing here needs the database."""
    if entry.queued:
        done = offline.saved(game_id, submission)
        assert done is not None  # the save recorded its submission, in its commit
        return done
    if entry.editing:
        word = entry.s.variant.display.round_word.capitalize()
        flash(
            _(
                "%(Word)s %(number)s corrected; everything after it is recomputed.",
                Word=word,
                number=entry.number,
            ),
            "success",
        )
        return redirect(url_for("games.sheet", game_id=game_id, _anchor=f"r{entry.number}"))
    # No anchor: the sheet opens at its banner (who deals next), Undo and the new row; the
    # script scrolls the grid box to the row (an anchor would scroll the banner away).
    return redirect(url_for("games.sheet", game_id=game_id, saved=entry.number))


def _conflict(game_id: int, entry: RoundEntry) -> tuple[str, int]:
    """Another phone changed the game first: show the current sheet, save nothing."""
    number = checked_whole(request.form.get("round_number"), high=9_999) or entry.number
    went_out = entry.values.get("went_out")
    hands = ", ".join(
        _("%(name)s went out", name=p.name)
        if went_out and str(p.seat) == went_out
        else _("%(name)s %(hand)s", name=p.name, hand=typed)
        if (typed := entry.values.get(f"hand-{p.seat}", ""))
        else _("%(name)s no hand", name=p.name)
        for p in entry.players
    )
    message = _(
        "This game was changed on another phone while you were typing, so your %(word)s "
        "%(number)s was not saved. Here is the sheet as it is now. What you typed: %(hands)s.",
        word=entry.s.variant.display.round_word,
        number=number,
        hands=hands,
    )
    return render_sheet(game_or_404(game_id), conflict=message), 409


@bp.post("/games/<id:game_id>/rounds/last/delete")
@login_required
def remove_last(game_id: int) -> Response:
    game = game_or_404(game_id)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    word = get_variant(game.variant).display.round_word
    attempt(
        lambda: services.remove_last_round(
            game,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        ),
        lambda number: _(
            "%(Word)s %(number)s removed (it stays in the history).",
            Word=word.capitalize(),
            number=number,
        ),
        again=lambda _sent: _("That %(word)s was already removed.", word=word),
        race=_("The game changed on another phone: nothing was removed. Check the sheet."),
    )
    return redirect(url_for("games.sheet", game_id=game_id))


# --------------------------------------------------------------------- late joiners ---
@bp.route("/games/<id:game_id>/join", methods=["GET", "POST"])
@login_required
def join(game_id: int) -> Response | tuple[str, int]:
    game = game_or_404(game_id)
    s = services.standings_for(game)
    if "joins" not in s.variant.round_inputs:
        abort(404)
    if s.finished:
        flash(_("This game is over."), "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    form = JoinForm()
    form.person.choices = _joiner_choices(game, s)
    seats = services.seat_choices(game, s)
    form.after.choices = options(
        [("", _("%(name)s (the last seat)", name=seats[-1]) if seats else _("the last seat"))]
        + [(n, n) for n in seats[:-1]]
    )
    status = 200
    if not form.is_submitted():
        form.version.data, form.submission.data = str(game.version), new_submission()
    elif not form.validate_on_submit():
        status = 400 if form.version.errors or form.submission.errors else 422
        form.new_name.errors.append(str(INCOMPLETE))
    elif _joined(game, s, form):
        return redirect(url_for("games.sheet", game_id=game_id))
    else:
        status = 422 if form.new_name.errors else 200
    fee, start = s.join_terms()
    money = functools.partial(format_money, currency=s.pot.currency)
    waiting = joiners_seated(s, game.pending_joins)  # whom each sits after, always said
    return render_template(
        "games/join.html",
        game=game,
        s=s,
        form=form,
        fee=fee,
        start=start,
        money=money,
        waiting=waiting,
    ), status


def _joiner_choices(game: Game, s: Standings) -> list[SelectChoice]:
    """Who can join: tonight's people not at the table, then (for the night's owner alone:
    a co-keeper sees nothing of the owner's other regulars) the owner's regulars who are
    not on tonight's list; one of them joining is added to it."""
    tonight = services.join_candidates(game, s)
    choices = [SelectChoice("", _("Choose..."))]
    choices += [SelectChoice(n, n, optgroup=_("Tonight")) for n in tonight]
    if game.night.owner_id == current_user.id:
        here = {p.name_key for p in game.night.people}
        others = [r.name for r in regulars_of(current_user.id) if r.name_key not in here]
        choices += [SelectChoice(n, n, optgroup=_("Your other regulars")) for n in others]
    return choices


def _joined(game: Game, s: Standings, form: JoinForm) -> bool:
    """Add (or cancel) a waiting late joiner as the form says; False with the refusal on
    the form, or a message flashed when the game changed meanwhile."""
    version, who = form.version_number(), (form.new_name.data or "").strip()
    try:
        if request.form.get("action") == "cancel":
            cancel = request.form.get("name", "")
            services.cancel_joiner(game, cancel, expected_version=version, user=current_user)
        else:
            name = services.add_joiner(
                game,
                who or form.person.data or "",
                after=form.after.data or "",
                expected_version=version,
                user=current_user,
            )
            fee, start = s.join_terms()
            flash(
                _(
                    "%(name)s joins at the start of round %(number)s, pays %(fee)s and starts "
                    "at %(start)s.",
                    name=name,
                    number=s.rounds_played + 1,
                    fee=format_money(fee, s.pot.currency),
                    start=start,
                ),
                "success",
            )
    except services.Conflict:
        flash(_("The game changed on another phone; check and try again."), "error")
        return False
    except (RecordError, services.Refused) as exc:
        form.new_name.errors.append(refusal_text(exc))
        return False
    return True
