"""The score sheet: the banner of the next round, the grid, the pot; answered 304 from the
game's version alone while nothing changed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, make_response, render_template, request, session
from flask_babel import get_locale, gettext
from flask_login import current_user
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import services
from ...cache import DocumentCache
from ...models import Game
from ...reports.chart import game_chart
from ...rules import Standings, format_money, get_variant
from ...rules.cards import describe_flipped_card
from ...rules.display import Fact, GameDisplay, cell_marks, legend, rebuy_reached
from ...rules.settings import Settings
from ...rules.table import joiners_seated
from ..fields import checked_whole, new_submission
from ..headers import templates_version, unchanged
from ..refusals import said_text
from ..streams import stream_url
from .blueprint import bp, game_or_404, owned_stamp, stamp_or_404, with_stamp
from .words import words_text


def _etag(game_id: int, version: int) -> str:
    """The sheet's ETag: the game's version, the templates, and the session's CSRF token
    (the page holds it in its forms: a browser restarted with a new session must not be
    answered 304 and keep a page whose Undo and Log out would be refused), and the
    language the page is written in."""
    token = session.get("csrf_token")
    tag = hashlib.sha256(token.encode()).hexdigest()[:12] if isinstance(token, str) else "none"
    return f"g{game_id}-v{version}-t{templates_version()}-s{tag}-l{get_locale()}"


def _not_modified(stamp: services.GameStamp) -> Response | None:
    """A 304 when the phone's copy is current, from the one query that found the user
    and the game's version (``with_stamp``): no rounds loaded, nothing rendered."""
    if not request.if_none_match or session.get("_flashes"):
        return None
    return unchanged(_etag(stamp.game_id, stamp.version))


@dataclass(frozen=True, slots=True)
class SheetHead:
    """What the page around the cached parts shows: from the stamp, no game loaded."""

    game_id: int
    night_id: int
    night_name: str
    title: str
    variant: str
    round_word: str  # "round"; "deal" in Contract (in the reader's language)
    owned: bool  # the night's owner (not a co-keeper): Show players, Delete game

    @classmethod
    def of(cls, stamp: services.GameStamp) -> SheetHead:
        variant = get_variant(stamp.variant)
        return cls(
            stamp.game_id,
            stamp.night_id,
            stamp.night_name,
            said_text(variant.title_said),
            stamp.variant,
            said_text(variant.display.round_said()),
            stamp.owned,
        )


@dataclass(frozen=True, slots=True)
class SheetParts:
    """The parts of a sheet drawn from the record alone, rendered once per game version
    and kept (bounded by bytes; shared between workers when a shared cache is set up):
    the banner, the grid with its legend and the pot, the links to the game's other
    pages, the number of rounds (for Remove last round), and the game's version they
    were drawn from (what the page's forms send back). The CSRF token, flashes and Undo
    are never in here."""

    banner: str
    grid: str
    links: str
    rounds_played: int
    version: int
    exact: bool  # drawn from the very state the stamp names: only such parts are kept

    @property
    def size(self) -> int:
        return len(self.banner) + len(self.grid) + len(self.links) + 200


SHEET_CACHE = DocumentCache("sheet", max_bytes=32 * 1024 * 1024, max_entries=2_000)


def _parts(stamp: services.GameStamp, load: Callable[[], Game]) -> SheetParts:
    """The sheet's cached parts for this stored state of the game, or render them (and
    keep them only when the game as loaded is the state the stamp names)."""
    key = f"{stamp.key}:{templates_version()}:{get_locale()}"  # drawn in one language
    found: SheetParts | None = SHEET_CACHE.get(key)
    if found is not None:
        return found
    game = load()
    standings, exact = services.standings_at(game, stamp)
    view = SheetView(game, standings)
    context = {"game": game, "s": standings, "view": view}
    parts = SheetParts(
        banner=render_template("games/_sheet_banner.html", **context),
        grid=render_template("games/_sheet_grid.html", **context),
        links=render_template("games/_sheet_links.html", **context),
        rounds_played=standings.rounds_played,
        version=game.version,
        exact=exact,
    )
    if parts.exact:
        SHEET_CACHE.put(key, parts, parts.size)
    return parts


def _undo_kept(stamp: services.GameStamp) -> int | None:
    """The round this browser saved last in this game, while the game is as that save
    left it (the same version): its Undo stays on the sheet until the next change."""
    kept = session.get("undo")
    if not (isinstance(kept, list) and len(kept) == 3 and isinstance(kept[1], int)):
        return None
    return kept[1] if kept[0] == stamp.game_id and kept[2] == stamp.version else None


def _keep_undo(stamp: services.GameStamp, parts: SheetParts, saved: int | None) -> int | None:
    """The round whose Undo the sheet shows: the one just saved (``?saved=``) while it is
    still the last round, remembered for this browser until the game changes; or the one
    remembered."""
    if saved and saved == parts.rounds_played and parts.version == stamp.version:
        if _undo_kept(stamp) != saved:
            session["undo"] = [stamp.game_id, saved, stamp.version]
        return saved
    return _undo_kept(stamp)


@bp.get("/games/<id:game_id>")
@with_stamp
def sheet(game_id: int) -> Response:
    saved = checked_whole(request.args.get("saved")) if request.query_string else None
    stamp = stamp_or_404(game_id)
    same = None if saved or _undo_kept(stamp) else _not_modified(stamp)
    if same is not None:
        return same
    load = lambda: game_or_404(game_id, eager=False)  # noqa: E731
    parts = _parts(stamp, load)
    undo = _keep_undo(stamp, parts, saved)
    if saved or undo or session.get("_flashes"):
        return make_response(_page(stamp, parts, saved=saved, undo=undo))
    response = make_response(_page(stamp, parts))
    response.set_etag(_etag(stamp.game_id, stamp.version), weak=True)  # after the token
    return response


def render_sheet(game: Game, *, conflict: str | None = None) -> str:
    """The sheet page of a game as it is stored now (shown after a refused change)."""
    stamp = services.game_stamp(game.id, user=current_user)
    if stamp is None:
        abort(404)
    return _page(stamp, _parts(stamp, lambda: game), conflict=conflict)


def _page(
    stamp: services.GameStamp,
    parts: SheetParts,
    *,
    saved: int | None = None,
    undo: int | None = None,
    conflict: str | None = None,
) -> str:
    """The sheet page around its kept parts, with this request's CSRF token and a new
    submission id in its forms. Its forms send back the version the parts were drawn
    from: a change made from it is checked against what it shows."""
    grid = parts.grid
    if saved:  # the round just saved stands out (and JavaScript scrolls to it)
        grid = grid.replace(f'<tr id="r{saved}">', f'<tr id="r{saved}" class="just-saved">', 1)
    token = generate_csrf()
    return render_template(
        "games/sheet.html",
        head=SheetHead.of(stamp),
        banner=Markup(parts.banner),
        grid=Markup(grid),
        links=Markup(parts.links),
        facts=parts,
        saved=saved,
        undo=undo,
        conflict=conflict,
        change_fields=_change_fields(parts.version, token, new_submission()),
        csrf_token=lambda: token,  # the page's other forms (Log out, Show players)
        stream=stream_url(f"game/{stamp.game_id}"),  # a co-keeper's rounds (app.js)
    )


@bp.get("/games/<id:game_id>/stream-auth")
def stream_auth(game_id: int) -> Response:
    """May this browser hold the game's stream (``deploy/nginx.conf``'s
    ``nchan_authorize_request``, with the subscriber's cookies): 204 for its keeper or a
    co-keeper, else 403 (never the login redirect: the engine passes the status on)."""
    stamp = owned_stamp(game_id)
    if stamp is None and current_user.is_authenticated:
        stamp = services.game_stamp(game_id, user=current_user)
    return Response(status=204 if stamp is not None else 403)


def _change_fields(version: int, csrf: str | Markup, submission: str | Markup) -> Markup:
    """The hidden fields of the page's Undo and Remove forms (what ``ConfirmForm`` reads
    back): the session's CSRF token, the game's version, a one-time submission id. Written
    out directly: building a WTForms form to print three hidden inputs costs more than the
    rest of a cached sheet."""
    return Markup(
        '<input type="hidden" name="csrf_token" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="submission" value="{}">'
    ).format(csrf, version, submission)


class SheetView:
    """What the sheet template needs beyond the standings, computed once, all of it from
    the variant's declarations (the template never asks which game it shows)."""

    def __init__(self, game: Game, s: Standings, *, chart_uid: str = "chart") -> None:
        variant, settings = s.variant, s.record.settings
        self.currency = s.pot.currency
        self.labels = [words_text(variant.round_label_said(r.number)) for r in s.rounds]
        self.word_labels = any(not label.isdigit() for label in self.labels)  # Texas: Threes
        self.leaders = set(s.groups[0]) if s.groups and s.rounds else set()
        self.next = s.upcoming(game.pending_joins)
        #: The card flipped wild in each round that had one (Vegas), as paper writes it.
        self.wilds = {r.number: describe_flipped_card(r.wild) for r in s.rounds if r.wild}
        #: The total a player reached in a round where they expired and re-bought.
        self.reached = {
            (r.number, name): reached
            for r in s.rounds
            for name in r.totals
            if (reached := rebuy_reached(r, name)) is not None
        }
        #: Who joins next round, and whom each sits after ("Dee after Bob").
        self.joining = [
            gettext("%(name)s after %(after)s", name=name, after=after)
            for name, after in joiners_seated(s, game.pending_joins)
        ]
        self._banner(variant.display, settings)
        self.rules: list[Fact] = variant.display.table_rules(settings, len(s.players))
        self.takes_joins = "joins" in variant.round_inputs and not s.finished
        self.join_terms = s.join_terms() if self.takes_joins else None
        self.progress = {p.name: variant.display.progress(p) for p in s.players}
        #: Rows under the totals (Pool: drops left), a note under a name (Pool: out in
        #: deal 5), the words of a split and of a player no longer in.
        display = variant.display
        self.figures = [
            (words_text(label), values)
            for label, values in display.figures_said(s.players, settings)
        ]
        self.head_notes = {p.name: words_text(display.head_note_said(p)) for p in s.players}
        self.split_words = {
            kind: said_text(display.split_said(kind)) for kind in display.split_labels
        }
        self.out_word = said_text(display.out_said())
        #: A game ended by agreement: how the pot was split; the rounds dealt before it.
        last = s.rounds[-1] if s.rounds else None
        self.agreed = self.split_words.get(last.split, last.split) if last and last.split else ""
        self.played = s.rounds_played - (1 if self.agreed else 0)
        # Each cell's marks, by (round, player): (kind, the symbol paper prints, the symbol
        # with its detail), the detail shown where there is room.
        self.marks = {
            (r.number, name): [
                (m.mark.kind, m.symbol, m.text) for m in cell_marks(r, name, self.currency)
            ]
            for r in s.rounds
            for name in r.totals
        }
        #: Rows under the grid worked out from the rounds (Gin: boxes, bonus lines, final).
        tally = display.tally_said(s.rounds, s.players, settings, s.finished)
        self.tally = [(words_text(label), values) for label, values in tally]
        self.penalty = variant.low_is_good
        used = legend(s.rounds, settings, went_out=display.went_out_said(settings))
        self.legend = used if s.rounds else []  # the marks in the grid, as on paper
        self.chart = game_chart(s, uid=chart_uid)  # running totals, drawn (reports/_chart.html)

    def _banner(self, display: GameDisplay[Any], settings: Settings) -> None:
        """The next round's banner and the lines under it, in the reader's language."""
        nr = self.next
        self.banner = [words_text(w) for w in display.banner_said(nr, settings)] if nr else []
        self.notes = [words_text(w) for w in display.banner_notes_said(nr, settings)] if nr else []

    def money(self, cents: int) -> str:
        return format_money(cents, self.currency)

    def rules_line(self) -> str:
        """The table rules in one line, as printed on the sheets (in the reader's language)."""
        return " · ".join(
            gettext(
                "%(label)s: %(value)s",
                label=words_text(f.label_words),
                value=words_text(f.value_words),
            )
            for f in self.rules
        )
