"""The filled score sheet of a game, finished or in progress.

It is shaped for speed: WeasyPrint lays out every table cell in Python, so the players'
cells of a round are one preformatted line of a monospaced font (one text run per row,
columns lined up by character count) instead of one ``<td>`` per player. The round's score
sits small beside the running total as superscript digits in the same run. The columns
that label a round, the marks in a cell and the rows under the totals come from the
game's variant (``rules/``), so nothing here asks which game it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..rules import RoundResult, Standings, format_money
from ..rules.display import Fact, cell_marks, legend
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
    ordinal,
    pot_summary,
)

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
        return (
            f"Finished after {n} round{'s' if n != 1 else ''}. "
            f"{'Winners' if len(standings.winners) > 1 else 'Winner'}: "
            f"{names_text(standings.winners)}."
        )
    nxt = standings.next_round
    assert nxt is not None
    parts = standings.variant.display.banner(nxt, standings.record.settings)
    what = ", ".join([parts[0][:1].lower() + parts[0][1:], *parts[1:]])
    head = "Not started" if n == 0 else f"In progress after {n} round{'s' if n != 1 else ''}"
    return f"{head}. Next: {what}; {nxt.dealer} deals, {nxt.starts} starts."


def _marks(standings: Standings) -> list[Fact]:
    settings = standings.record.settings
    facts = legend(
        standings.rounds, settings, went_out_note=standings.variant.display.went_out_note(settings)
    )
    return [*facts, Fact("⁺ⁿ", "the round's score, beside the running total")]


def _resolved(rnd: RoundResult, player: str) -> bool:
    events = rnd.events_for(player)
    return any(e.kind in {"rebuy", "drop"} for e in events)


def game_sheet_context(
    standings: Standings, *, title: str, night_name: str | None, date: str | None, paper: str
) -> GameSheet:
    check_paper(paper)
    variant = standings.variant
    record = standings.record
    names = tuple(p.name for p in standings.players)
    penalty = variant.low_is_good

    # Each player's cell of each round: (marks, score, total); None when not in the game.
    grid: list[list[tuple[str, str, str] | None]] = []
    for rnd in standings.rounds:
        cells: list[tuple[str, str, str] | None] = []
        for name in names:
            total = rnd.totals.get(name)
            if total is None:
                cells.append(None)
                continue
            score = rnd.scores.get(name, 0)
            went_out = rnd.went_out == name
            shown = "" if score == 0 and (went_out or not penalty) else f"+{score}"
            marks = "".join(m.symbol for m in cell_marks(rnd, name, record.settings.currency))
            cells.append((marks, shown.translate(_SUPERSCRIPT), str(total)))
        grid.append(cells)

    handicaps = {p.name: p.handicap for p in record.players}
    rebuys = dict.fromkeys(names, 0)
    for e in standings.pot.entries:
        if e.kind == "rebuy":
            rebuys[e.player] += 1
    footers: list[tuple[str, list[str]]] = [
        ("Total", [str(p.total) for p in standings.players]),
        ("Place", [_place(standings, p.name) for p in standings.players]),
        *variant.display.footers(standings.players, rebuys),
    ]

    # The label columns: the round and its particulars (from the variant), the dealer.
    dealer_ch = min(9, max(5, *(len(n) for n in names)) + 1)
    own_columns = variant.display.sheet_columns(len(grid))
    columns = [LabelColumn(c.head, c.width, c.align) for c in own_columns]
    columns.append(LabelColumn("Deals", dealer_ch))
    label_ch = sum(c.width_ch for c in columns)

    cells_all = [c for row in grid for c in row if c is not None]
    mark_w = max([1, *(len(c[0]) for c in cells_all)])
    score_w = max([2, *(len(c[1]) for c in cells_all)])
    total_w = max(
        [
            3,
            *(len(c[2]) for c in cells_all),
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

    def cell(c: tuple[str, str, str] | None) -> str:
        if c is None:
            return f"{'·':>{player_ch - 1}} "
        marks, score, total = c
        return f"{marks + score:>{mark_w + score_w}} {total:>{total_w}} "

    def plain(values: Iterable[str]) -> str:
        return "".join(f"{v:>{player_ch - 1}} " for v in values)

    def label_text(values: Sequence[str]) -> str:
        out = []
        for column, value in zip(columns, values, strict=True):
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

    def labels(number: int, dealer: str, wild: str | None) -> str:
        own = variant.display.sheet_labels(number, len(names), record.settings, wild)
        return label_text((*own, dealer))

    rows: list[SheetRow] = []
    if any(handicaps.values()):
        start = [str(handicaps[n]) if n in handicaps else "" for n in names]
        rows.append(SheetRow(f"{'Start':<{label_ch}}" + plain(start), "start"))
    for rnd, cells_ in zip(standings.rounds, grid, strict=True):
        rule = rnd.number % 5 == 0 and rnd.number != len(grid)
        text = labels(rnd.number, rnd.dealer, rnd.wild) + "".join(cell(c) for c in cells_)
        rows.append(SheetRow(text, "round", rule))
    nxt = standings.next_round
    if nxt is not None:
        rows.append(
            SheetRow(
                labels(nxt.number, nxt.dealer, None) + f" next round: {nxt.starts} starts",
                "next",
            )
        )
    for i, (label, values) in enumerate(footers):
        rows.append(
            SheetRow(f"{label:<{label_ch}}" + plain(values), "total" if i == 0 else "footer")
        )

    width_ch = label_ch + player_ch * len(names)
    page = fit_page(check_paper(paper), width_ch)
    heading = make_heading(
        variant,
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
        page=page,
        status=_status(standings),
        finished=standings.finished,
        players=names,
        label_columns=tuple(columns),
        player_ch=player_ch,
        width_ch=width_ch,
        rows=tuple(rows),
        winners=standings.winners,
        ranking=tuple(_ranking(standings, pot)),
        events=tuple(_event_notes(standings)),
        pot=pot,
        chart=game_chart(standings, uid="chart"),
    )


def _place(standings: Standings, name: str) -> str:
    p = standings.player(name)
    tied = sum(1 for q in standings.players if q.place == p.place) > 1
    return ("=" if tied else "") + ordinal(p.place)


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
                standings.variant.display.standing_note(p),
                None if pot.empty else money.get(name),
            )
        )
    return out


def _event_notes(standings: Standings) -> list[str]:
    """Drops, joins and last-round expiries in words (re-buys are marked R in the grid)."""
    cur = standings.pot.currency
    notes = []
    for rnd in standings.rounds:
        for e in rnd.events:
            if e.kind == "join":
                notes.append(
                    f"Round {rnd.number}: {e.player} joined for "
                    f"{format_money(-(e.amount_cents or 0), cur)}, starting at "
                    f"{e.value}."
                )
            elif e.kind == "drop":
                notes.append(
                    f"Round {rnd.number}: {e.player} expired at {e.value} and dropped out."
                )
            elif e.kind == "expire" and not _resolved(rnd, e.player):
                notes.append(
                    f"Round {rnd.number}: {e.player} reached {e.value} in the "
                    "last round (no re-buy)."
                )
    return notes
