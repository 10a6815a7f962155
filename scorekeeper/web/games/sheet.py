"""The score sheet: the banner of the next round, the grid, the pot; answered 304 from the
game's version alone while nothing changed."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import abort, current_app, make_response, render_template, request, session
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from ... import services
from ...forms import ConfirmForm, new_submission
from ...models import Game
from ...reports.files import files_digest
from ...rules import Standings, format_cents
from ...rules.display import Fact, cell_marks, legend
from .blueprint import bp, game_or_404


@cache
def _templates_version() -> str:
    """Part of the sheet's ETag: a deploy that changes any template changes every ETag,
    so no phone keeps a sheet rendered by the old templates."""
    return files_digest(Path(current_app.template_folder or "templates"))


def _etag(game_id: int, version: int) -> str:
    """The sheet's ETag: the game's version, the templates, and the session's CSRF token
    (the page holds it in its forms: a browser restarted with a new session must not be
    answered 304 and keep a page whose Undo and Log out would be refused)."""
    token = session.get("csrf_token")
    tag = hashlib.sha256(token.encode()).hexdigest()[:12] if isinstance(token, str) else "none"
    return f"g{game_id}-v{version}-t{_templates_version()}-s{tag}"


def _not_modified(game_id: int) -> Response | None:
    """A 304 when the phone's copy is current: one small query, no rounds loaded."""
    if not request.if_none_match or session.get("_flashes"):
        return None
    version = services.game_version(game_id, current_user)
    if version is None:
        abort(404)
    etag = _etag(game_id, version)
    if not request.if_none_match.contains_weak(etag):
        return None
    response = make_response("", 304)
    response.set_etag(etag, weak=True)
    return response


@bp.get("/games/<id:game_id>")
@login_required
def sheet(game_id: int) -> Response:
    saved = request.args.get("saved", type=int)
    unchanged = None if saved else _not_modified(game_id)
    if unchanged is not None:
        return unchanged
    game = game_or_404(game_id)
    response = make_response(render_sheet(game, saved=saved))
    if not saved:
        response.set_etag(_etag(game.id, game.version), weak=True)  # after the token is made
    return response


def render_sheet(game: Game, *, saved: int | None = None, conflict: str | None = None) -> str:
    """The sheet page of a game as it is stored now (also shown after a refused change)."""
    standings = services.standings_for(game)
    return render_template(
        "games/sheet.html",
        game=game,
        s=standings,
        view=SheetView(game, standings),
        saved=saved,
        conflict=conflict,
        undo_form=ConfirmForm(version=game.version, submission=new_submission()),
    )


class SheetView:
    """What the sheet template needs beyond the standings, computed once, all of it from
    the variant's declarations (the template never asks which game it shows)."""

    def __init__(self, game: Game, s: Standings) -> None:
        variant, settings = s.variant, s.record.settings
        self.currency = s.pot.currency
        self.labels = [variant.round_label(r.number) for r in s.rounds]
        self.word_labels = any(not label.isdigit() for label in self.labels)  # Texas: Threes
        self.leaders = set(s.groups[0]) if s.groups and s.rounds else set()
        self.next = s.upcoming(game.pending_joins)
        self.banner = variant.banner(self.next, settings) if self.next else []
        self.notes = variant.banner_notes(self.next, settings) if self.next else []
        self.rules: list[Fact] = variant.table_rules(settings, len(s.players))
        self.takes_joins = "joins" in variant.round_inputs and not s.finished
        self.join_terms = s.join_terms() if self.takes_joins else None
        self.progress = {p.name: variant.progress(p) for p in s.players}
        # Each cell's marks, by (round, player): the same symbols as on paper, with detail.
        self.marks = {
            (r.number, name): [(m.mark.kind, m.text) for m in cell_marks(r, name, self.currency)]
            for r in s.rounds
            for name in r.totals
        }
        self.penalty = variant.low_is_good
        used = legend(s.rounds, settings, went_out_note=variant.went_out_note(settings))
        self.legend = used if s.rounds else []  # the marks in the grid, as on paper

    def money(self, cents: int) -> str:
        return format_cents(cents, self.currency)

    def rules_line(self) -> str:
        """The table rules in one line, as printed on the sheets."""
        return " · ".join(f"{f.label}: {f.value}" for f in self.rules)
