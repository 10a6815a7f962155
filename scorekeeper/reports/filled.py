"""The filled score sheet of a game, finished or in progress.

It is shaped for speed: WeasyPrint lays out every table cell in Python, so the players'
cells of a round are one preformatted line of a monospaced font (one text run per row,
columns lined up by character count) instead of one ``<td>`` per player. The round's score
sits small beside the running total as superscript digits in the same run. The columns
that label a round, the marks in a cell and the rows under the totals come from the
game's variant (``rules/``), so nothing here asks which game it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..rules import RoundResult, Standings, format_money
from ..rules.display import Fact, Words, cell_marks, legend
from .chart import Chart, game_chart
from .common import (
    LARGEST_FONT_PT,
    MONO_ADVANCE_EM,
    WIDEST_PLAYER_CH,
    Heading,
    Page,
    PotLine,
    PotSummary,
    check_paper,
    fit_page,
    make_heading,
    names_text,
    pot_summary,
)
from .words import SOURCE, language, ngettext, place_text, said
from .words import gettext as _

_SUPERSCRIPT = str.maketrans("0123456789+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺")


@dataclass(frozen=True, slots=True)
class LabelColumn:
    head: str
    width_ch: int
    align: Literal["left", "right", "center"] = "left"


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A row of the score grid as one preformatted line: the round's labels (number, wild,
    dealer) then each player's cell, every column a fixed number of characters."""

    text: str
    kind: Literal["round", "start", "next", "total", "footer"] = "round"
    rule: bool = False  # a rule under the row (every fifth round)

    @property
    def runs(self) -> list[tuple[str, bool]]:
        """The line as (text, fitted) runs: a run of a script the monospaced font lacks
        (Devanagari, CJK: a Hindi "Total", a name) is drawn in another font, so it is
        ``fitted`` to exactly as many character widths as it was padded for, and the
        columns after it stay in line. Most lines are one plain run."""
        if not _UNSPACED.search(self.text):
            return [(self.text, False)]
        return [(run, i % 2 == 1) for i, run in enumerate(_UNSPACED.split(self.text)) if run]


#: Scripts DejaVu Sans Mono does not draw: Indic (Devanagari and its neighbours), CJK,
#: Hangul. Their runs keep a space (a mono character) between words.
_UNSPACED = re.compile("([\u0900-\u0dff\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af]+)")


@dataclass(frozen=True, slots=True)
class Placing:
    place: str  # "1st", "=2nd"
    name: str
    total: int
    note: str  # "dropped in round 23", "on contract 7"
    money: PotLine | None  # None when the game has no money at stake


@dataclass(frozen=True, slots=True)
class GameSheet:
    heading: Heading
    page: Page
    status: str
    finished: bool
    players: tuple[str, ...]
    label_columns: tuple[LabelColumn, ...]
    player_ch: int
    width_ch: int
    rows: tuple[SheetRow, ...]
    winners: tuple[str, ...]
    ranking: tuple[Placing, ...]
    events: tuple[str, ...]
    pot: PotSummary
    chart: Chart | None = None  # the running totals drawn (None before the first round)

    @staticmethod
    def em(chars: int) -> str:
        """The CSS width of ``chars`` monospaced characters. In ``em`` rather than ``ch``:
        WeasyPrint does not measure ``ch`` on ``<col>`` with the grid's font."""
        return f"{chars * MONO_ADVANCE_EM:.4f}em"


def _status(standings: Standings) -> str:
    n = standings.rounds_played
    if standings.finished:
        return " ".join((
            ngettext("Finished after %(num)d round.", "Finished after %(num)d rounds.", n),
            ngettext("Winner: %(names)s.", "Winners: %(names)s.", len(standings.winners),
                     names=names_text(standings.winners)),
        ))  # fmt: skip
    nxt = standings.next_round
    assert nxt is not None
    parts = [said(p) for p in standings.variant.display.banner_said(nxt, standings.record.settings)]
    if language() == SOURCE:  # "Next: round 3, ..." (a German noun keeps its capital)
        parts = [parts[0][:1].lower() + parts[0][1:], *parts[1:]]
    what = ", ".join(parts)
    head = (
        _("Not started.")
        if n == 0
        else ngettext("In progress after %(num)d round.", "In progress after %(num)d rounds.", n)
    )
    following = _(
        "Next: %(what)s; %(dealer)s deals, %(starts)s starts.",
        what=what, dealer=nxt.dealer, starts=nxt.starts,
    )  # fmt: skip
    return f"{head} {following}"


def _marks(standings: Standings) -> list[Fact]:
    settings = standings.record.settings
    facts = legend(
        standings.rounds, settings, went_out=standings.variant.display.went_out_said(settings)
    )
    return [*facts, Fact("⁺ⁿ", _("the round's score, beside the running total"))]


def _resolved(rnd: RoundResult, player: str) -> bool:
    events = rnd.events_for(player)
    return any(e.kind in {"rebuy", "drop"} for e in events)


Cell = tuple[str, str, str] | None  # (marks, score, total) of a player in a round


def _grid(standings: Standings, names: tuple[str, ...]) -> list[list[Cell]]:
    """Each player's cell of each round: (marks, score, total); None when not in the game."""
    settings = standings.record.settings
    penalty = standings.variant.low_is_good
    grid: list[list[Cell]] = []
    for rnd in standings.rounds:
        cells: list[Cell] = []
        for name in names:
            total = rnd.totals.get(name)
            if total is None:
                cells.append(None)
                continue
            score = rnd.scores.get(name, 0)
            went_out = rnd.went_out == name
            shown = "" if score == 0 and (went_out or not penalty) else f"+{score}"
            marks = "".join(m.symbol for m in cell_marks(rnd, name, settings.currency))
            cells.append((marks, shown.translate(_SUPERSCRIPT), str(total)))
        grid.append(cells)
    return grid


def _footers(standings: Standings, names: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """The rows under the grid: totals, places, and the game's own (re-buys, contracts,
    Gin's tally, Pool's drops left), in the sheet's language."""
    display, settings = standings.variant.display, standings.record.settings
    rebuys = dict.fromkeys(names, 0)
    for e in standings.pot.entries:
        if e.kind == "rebuy":
            rebuys[e.player] += 1
    players, finished = standings.players, standings.finished
    own: list[tuple[Words, Sequence[Words]]] = [
        *display.footers(players, rebuys),
        *display.tally_said(standings.rounds, players, settings, finished),
        *display.figures_said(players, settings),
    ]
    return [
        (_("Total"), [str(p.total) for p in players]),
        (_("Place"), [_place(standings, p.name) for p in players]),
        *((said(label), [said(v) for v in values]) for label, values in own),
    ]


def _label_columns(standings: Standings, rounds: int) -> list[LabelColumn]:
    """The game's columns that label a round, each as wide as its head and its labels in
    the sheet's language need (a German "Sechsen" is longer than "Sixes")."""
    display, settings = standings.variant.display, standings.record.settings
    players = len(standings.players)
    played = [(r.number, r.wild) for r in standings.rounds]
    if standings.next_round is not None:
        played.append((standings.next_round.number, None))
    labels = [
        [said(x) for x in display.sheet_labels(number, players, settings, wild)]
        for number, wild in played
    ]
    return [
        LabelColumn(
            head, max(c.width, len(head) + 1, *(len(row[i]) + 1 for row in labels)), c.align
        )
        for i, c in enumerate(display.sheet_columns(rounds))
        for head in [said(c.head)]
    ]


@dataclass
class _Layout:
    """The monospaced widths of the printed grid, in characters, and its lines as text."""

    columns: list[LabelColumn]  # the round and its particulars, then the dealer
    label_ch: int
    mark_w: int
    score_w: int
    total_w: int
    player_ch: int

    @classmethod
    def fit(
        cls,
        standings: Standings,
        grid: list[list[Cell]],
        footers: list[tuple[str, list[str]]],
        handicaps: dict[str, int],
        paper: str,
    ) -> _Layout:
        names = [p.name for p in standings.players]
        dealer_ch = min(9, max(5, *(len(n) for n in names)) + 1)
        columns = _label_columns(standings, len(grid))
        columns.append(LabelColumn(_("Deals"), dealer_ch))
        label_ch = sum(c.width_ch for c in columns)
        cells = [c for row in grid for c in row if c is not None]
        mark_w = max([1, *(len(c[0]) for c in cells)])
        score_w = max([2, *(len(c[1]) for c in cells)])
        total_w = max(
            [
                3,
                *(len(c[2]) for c in cells),
                *(len(x) for _, v in footers for x in v),
                *(len(str(h)) for h in handicaps.values()),
            ]
        )
        player_ch = mark_w + score_w + 1 + total_w + 1
        # Few players: wider columns (and a larger font, see fit_page) fill the page better.
        roomy_ch = int(Page(check_paper(paper)).width_pt / (LARGEST_FONT_PT * MONO_ADVANCE_EM))
        widened = (roomy_ch - label_ch) // max(1, len(names))
        player_ch = max(player_ch, min(WIDEST_PLAYER_CH, widened))
        mark_w = player_ch - (score_w + 1 + total_w + 1)
        return cls(columns, label_ch, mark_w, score_w, total_w, player_ch)

    def cell(self, c: Cell) -> str:
        if c is None:
            return f"{'·':>{self.player_ch - 1}} "
        marks, score, total = c
        return f"{marks + score:>{self.mark_w + self.score_w}} {total:>{self.total_w}} "

    def plain(self, values: Iterable[str]) -> str:
        return "".join(f"{v:>{self.player_ch - 1}} " for v in values)

    def labels(self, values: Sequence[str]) -> str:
        out = []
        for column, value in zip(self.columns, values, strict=True):
            w = column.width_ch
            if len(value) > w - 1:
                value = value[: w - 2] + "…"
            out.append(
                f"{value:>{w - 1}} "
                if column.align == "right"
                else f"{value:^{w}}"
                if column.align == "center"
                else f"{value:<{w}}"
            )
        return "".join(out)

    def labelled(self, label: str, values: Iterable[str]) -> str:
        return f"{label:<{self.label_ch}}" + self.plain(values)


def _rows(
    standings: Standings,
    grid: list[list[Cell]],
    footers: list[tuple[str, list[str]]],
    handicaps: dict[str, int],
    layout: _Layout,
) -> list[SheetRow]:
    """The printed grid, line by line: handicaps, rounds, the next round, the footers."""
    settings = standings.record.settings
    players = len(standings.players)

    def labels(number: int, dealer: str, wild: str | None) -> str:
        own = standings.variant.display.sheet_labels(number, players, settings, wild)
        return layout.labels((*(said(x) for x in own), dealer))

    rows: list[SheetRow] = []
    if any(handicaps.values()):
        start = [str(handicaps.get(p.name, "")) for p in standings.players]
        rows.append(SheetRow(layout.labelled(_("Start"), start), "start"))
    for rnd, cells in zip(standings.rounds, grid, strict=True):
        rule = rnd.number % 5 == 0 and rnd.number != len(grid)
        text = labels(rnd.number, rnd.dealer, rnd.wild) + "".join(layout.cell(c) for c in cells)
        rows.append(SheetRow(text, "round", rule))
    nxt = standings.next_round
    if nxt is not None:
        text = (
            labels(nxt.number, nxt.dealer, None)
            + " "
            + _("next round: %(player)s starts", player=nxt.starts)
        )
        rows.append(SheetRow(text, "next"))
    for i, (label, values) in enumerate(footers):
        rows.append(SheetRow(layout.labelled(label, values), "total" if i == 0 else "footer"))
    return rows


def game_sheet_context(
    standings: Standings, *, title: str, night_name: str | None, date: str | None, paper: str
) -> GameSheet:
    """Everything the filled sheet prints: the heading, the grid as monospaced lines fitted
    to the paper, the ranking, the events in words, the pot and the chart."""
    check_paper(paper)
    record = standings.record
    names = tuple(p.name for p in standings.players)
    handicaps = {p.name: p.handicap for p in record.players}
    grid = _grid(standings, names)
    footers = _footers(standings, names)
    layout = _Layout.fit(standings, grid, footers, handicaps, paper)
    width_ch = layout.label_ch + layout.player_ch * len(names)
    heading = make_heading(
        standings.variant,
        record.settings,
        len(record.players),
        title=title,
        night_name=night_name,
        date=date,
        marks=_marks(standings),
    )
    pot = pot_summary(standings)
    return GameSheet(
        heading=heading,
        page=fit_page(check_paper(paper), width_ch),
        status=_status(standings),
        finished=standings.finished,
        players=names,
        label_columns=tuple(layout.columns),
        player_ch=layout.player_ch,
        width_ch=width_ch,
        rows=tuple(_rows(standings, grid, footers, handicaps, layout)),
        winners=standings.winners,
        ranking=tuple(_ranking(standings, pot)),
        events=tuple(_event_notes(standings)),
        pot=pot,
        chart=game_chart(standings, uid="chart"),
    )


def _place(standings: Standings, name: str) -> str:
    p = standings.player(name)
    tied = sum(1 for q in standings.players if q.place == p.place) > 1
    return ("=" if tied else "") + place_text(p.place)


def _ranking(standings: Standings, pot: PotSummary) -> list[Placing]:
    money = {line.player: line for line in pot.lines}
    out = []
    for name in standings.ranking:
        p = standings.player(name)
        out.append(
            Placing(
                _place(standings, name),
                name,
                p.total,
                said(standings.variant.display.standing_note(p)),
                None if pot.empty else money.get(name),
            )
        )
    return out


def _event_notes(standings: Standings) -> list[str]:
    """Drops, joins, rejoins and last-round expiries in words (re-buys are marked R in the
    grid)."""
    cur = standings.pot.currency
    notes = []
    for rnd in standings.rounds:
        for e in rnd.events:
            said = {"number": rnd.number, "player": e.player, "value": e.value}
            money = format_money(-(e.amount_cents or 0), cur)
            if e.kind == "join":
                notes.append(_(
                    "Round %(number)s: %(player)s joined for %(money)s, starting at %(value)s.",
                    money=money, **said,
                ))  # fmt: skip
            elif e.kind == "drop":
                notes.append(
                    _("Round %(number)s: %(player)s expired at %(value)s and dropped out.", **said)
                )
            elif e.kind == "rejoin":
                notes.append(_(
                    "Round %(number)s: %(player)s was out and rejoined for %(money)s, back at "
                    "%(value)s.",
                    money=money, **said,
                ))  # fmt: skip
            elif e.kind == "expire" and not _resolved(rnd, e.player):
                notes.append(_(
                    "Round %(number)s: %(player)s reached %(value)s in the last round (no "
                    "re-buy).",
                    **said,
                ))  # fmt: skip
    return notes
