"""The score chart of a game: each player's running total after every round, worked out as
plain data (the chart's size, polylines in its own coordinates, axis ticks, the variant's
labelled lines) that ``templates/reports/_chart.html`` draws as inline SVG on the sheet,
the live view and the filled PDF. No script and no drawing library: every number is
computed here, where the tests can check it.

The data are the totals the sheet shows, with two things only a line can show: a Vegas
player who expires and re-buys goes up to the total reached, then straight down to where
they start again (so the line crosses the max score where it happened); a player who
drops out stops there, and a late joiner starts at the round before joining, at the total
they start from. The variant declares the horizontal lines (``GameDisplay.chart_lines``:
Vegas the max score, Rummy the target), so nothing here asks which game it draws.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import Standings
from .words import gettext as _
from .words import said

#: The chart's width in its own units (SVG user units, about CSS pixels on a phone: the
#: text stays legible on a 360 px screen and the chart scales up from there).
WIDTH = 360
TICK_FONT = 10  # units; the axes' numbers
LABEL_FONT = 11  # units; the names at the lines' ends
CHAR_WIDTH = 0.62  # the average advance of a character, in em of the font (DejaVu, system)
LABEL_GAP = 12.0  # the least distance between two names at the right edge
LABEL_CHARS = 10  # a longer name is cut with "…" at the right edge
MIN_PLOT_HEIGHT = 150.0
TOP, BOTTOM_MARGIN = 10.0, 22.0

#: Colours of the lines on paper and in the light scheme (each at least 4.5:1 on white);
#: the page's CSS gives each slot its own colour in the dark scheme. Beyond eight players
#: the colours come round again with a dash pattern.
PALETTE = (
    "#1d4ed8",
    "#c2410c",
    "#15803d",
    "#7e22ce",
    "#b91c1c",
    "#0f766e",
    "#a16207",
    "#be185d",
)
DASHES = ("", "6 3", "2 2")


@dataclass(frozen=True, slots=True)
class Tick:
    """A mark on an axis: its position in chart units and its label."""

    at: float
    label: str


@dataclass(frozen=True, slots=True)
class Series:
    """One player's line."""

    name: str
    slot: int  # the palette slot (CSS class ``s<slot>``)
    colour: str  # the slot's colour on paper and in the light scheme
    dash: str  # "" (solid) or an SVG dash pattern, for players beyond the palette
    totals: tuple[tuple[int, int], ...]  # (round, total) in order; round 0 is the start
    segments: tuple[str, ...]  # SVG ``points`` of each unbroken stretch of the line
    final: int  # the total now (or when the player dropped out)
    label: str  # the name at the line's end, cut to LABEL_CHARS
    label_y: float  # where that name sits (moved apart from the others)
    leading: bool  # leading now, or won
    note: str  # "leading", "won", "out" (dropped out) or ""


@dataclass(frozen=True, slots=True)
class Rule:
    """A labelled horizontal line (the variant's ``chart_lines``)."""

    label: str
    value: int
    y: float

    @property
    def text(self) -> str:
        return f"{self.label} {self.value}"

    @property
    def text_width(self) -> float:
        """About the width of ``text`` in chart units (for the backing that keeps it
        legible where lines cross it)."""
        return round(len(self.text) * TICK_FONT * CHAR_WIDTH + 6, 1)

    @property
    def paper_text(self) -> str:
        """What paper draws on the line: WeasyPrint's SVG text does not shape an Indic
        script (its vowel signs fall apart), so a label in one is left to the list under
        the drawing, and the line says its value."""
        return str(self.value) if _SHAPED.search(self.label) else self.text

    @property
    def paper_width(self) -> float:
        return round(len(self.paper_text) * TICK_FONT * CHAR_WIDTH + 6, 1)


#: Scripts whose letters need shaping (Devanagari and the other Indic scripts).
_SHAPED = re.compile("[\u0900-\u0dff]")


@dataclass(frozen=True, slots=True)
class Chart:
    uid: str  # a prefix for the element ids, unique on the page
    width: int
    height: int
    left: float  # the plot area, in chart units
    right: float
    top: float
    bottom: float
    rounds: int
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    lines: tuple[Rule, ...]
    title: str
    desc: str

    @property
    def label_x(self) -> float:
        return self.right + 6


def nice_step(span: float, ticks: int = 5) -> int:
    """A whole step of 1, 2 or 5 times a power of ten giving at most about ``ticks``
    intervals over ``span``."""
    if span <= ticks:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return int(m * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def player_totals(s: Standings) -> dict[str, list[list[tuple[int, int]]]]:
    """Each player's (round, total) points in stretches: a stretch ends when the player
    drops out; a join starts one at the round before, at the starting total; an expiry
    with a re-buy puts the total reached before the total they start again from."""
    starts = {p.name: p.handicap for p in s.record.players}
    lines: dict[str, list[list[tuple[int, int]]]] = {p.name: [] for p in s.players}
    for name, start in starts.items():
        lines[name].append([(0, start)])
    playing = set(starts)
    for rnd in s.rounds:
        n = rnd.number
        for event in rnd.events:
            if event.kind == "join" and event.value is not None:
                lines[event.player].append([(n - 1, event.value)])
                playing.add(event.player)
        reached = {
            e.player: e.value for e in rnd.events if e.kind == "expire" and e.value is not None
        }
        rebought = {e.player for e in rnd.events if e.kind == "rebuy"}
        for name, total in rnd.totals.items():
            if name not in playing:  # pragma: no cover - a player plays after a join
                lines[name].append([])
                playing.add(name)
            stretch = lines[name][-1]
            if name in rebought and name in reached:
                stretch.append((n, reached[name]))
            stretch.append((n, total))
        for e in rnd.events:
            if e.kind == "drop":
                playing.discard(e.player)
    return lines


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _cut(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "…"


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as close as possible to ``wanted`` (in the same order), at least ``gap``
    apart and within [low, high] when they fit: pushed down from the top, then back up
    from the bottom."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed = [min(max(wanted[i], low), high) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if placed and placed[-1] > high:
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    out = [0.0] * len(wanted)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where values land: rounds across from ``left`` to ``right``, totals from ``lo`` at
    the ``bottom`` to ``hi`` at the ``top``."""

    rounds: int
    lo: int
    hi: int
    step: int
    left: float
    right: float
    top: float
    bottom: float

    def x(self, r: int) -> float:
        return round(self.left + (self.right - self.left) * r / self.rounds, 1)

    def y(self, v: int) -> float:
        return round(
            self.bottom - (self.bottom - self.top) * (v - self.lo) / (self.hi - self.lo), 1
        )


def _frame(values: list[int], rounds: int, label_width: float, players: int) -> _Frame:
    """The axes: a nice step over the values (0 included), room for the tick labels on
    the left and the players' labels on the right, a row of height per player."""
    values = [*values, 0]  # the axis starts at 0 (or below, with negative totals)
    step = nice_step(max(values) - min(values))
    lo = math.floor(min(values) / step) * step
    hi = math.ceil(max(values) / step) * step
    if hi == lo:
        hi = lo + step
    y_labels = [str(v) for v in range(lo, hi + 1, step)]
    left = 6 + max(len(t) for t in y_labels) * TICK_FONT * CHAR_WIDTH
    plot_height = max(MIN_PLOT_HEIGHT, LABEL_GAP * players)
    return _Frame(rounds, lo, hi, step, left, WIDTH - 8 - label_width, TOP, TOP + plot_height)


def game_chart(s: Standings, *, uid: str = "chart") -> Chart | None:
    """The chart of a game's running totals, or None before the first round."""
    if not s.rounds:
        return None
    stretches = player_totals(s)
    lines = s.variant.display.chart_lines(s.record.settings)
    names = [p.name for p in s.players]
    finals = {name: parts[-1][-1][1] for name, parts in stretches.items() if parts}
    label_text = {name: f"{_cut(name)} {finals[name]}" for name in finals}
    label_width = max(len(t) for t in label_text.values()) * LABEL_FONT * CHAR_WIDTH
    values = [v for parts in stretches.values() for part in parts for _, v in part]
    f = _frame([*values, *(line.value for line in lines)], len(s.rounds), label_width, len(names))
    leaders = set(s.groups[0]) if s.groups else set()
    notes = _notes(s, leaders)
    label_ys = spread(
        [f.y(finals[name]) + LABEL_FONT * 0.35 for name in names],
        LABEL_GAP,
        f.top + LABEL_FONT * 0.35,
        f.bottom + LABEL_FONT * 0.35,
    )
    series = []
    for i, name in enumerate(names):
        parts = stretches[name]
        slot = i % len(PALETTE)
        series.append(
            Series(
                name=name,
                slot=slot,
                colour=PALETTE[slot],
                dash=DASHES[(i // len(PALETTE)) % len(DASHES)],
                totals=tuple(point for part in parts for point in part),
                segments=tuple(
                    " ".join(f"{_fmt(f.x(r))},{_fmt(f.y(v))}" for r, v in part)
                    for part in parts
                    if part
                ),
                final=finals[name],
                label=label_text[name],
                label_y=round(label_ys[i], 1),
                leading=name in leaders,
                note=notes[name],
            )
        )
    rules = tuple(Rule(said(line.label), line.value, f.y(line.value)) for line in lines)
    return Chart(
        uid=uid,
        width=WIDTH,
        height=math.ceil(f.bottom + BOTTOM_MARGIN),
        left=round(f.left, 1),
        right=round(f.right, 1),
        top=f.top,
        bottom=f.bottom,
        rounds=f.rounds,
        x_ticks=tuple(Tick(f.x(r), str(r)) for r in range(0, f.rounds + 1, nice_step(f.rounds, 6))),
        y_ticks=tuple(Tick(f.y(v), str(v)) for v in range(f.lo, f.hi + 1, f.step)),
        series=tuple(series),
        lines=rules,
        title=_chart_title(s.variant.display.round_word),
        desc=_describe(s, finals, notes, rules),
    )


def _notes(s: Standings, leaders: set[str]) -> dict[str, str]:
    out = {p.name for p in s.players if not p.in_contention}
    lead = _("won") if s.finished else _("leading")
    gone = _("out of the game")
    return {p.name: lead if p.name in leaders else gone if p.name in out else "" for p in s.players}


def _chart_title(word: str) -> str:
    """The chart's title, by the table's word for a round."""
    if word == "deal":
        return _("Score chart: running totals by deal")
    if word == "hand":
        return _("Score chart: running totals by hand")
    return _("Score chart: running totals by round")


def _drawn(word: str, n: int) -> str:
    """What the chart draws, by the table's word for a round, up to the ``n``-th."""
    if word == "deal":
        return _("Each player's total after every deal, from the start to deal %(number)s.",
                 number=n)  # fmt: skip
    if word == "hand":
        return _("Each player's total after every hand, from the start to hand %(number)s.",
                 number=n)  # fmt: skip
    return _("Each player's total after every round, from the start to round %(number)s.",
             number=n)  # fmt: skip


def _describe(
    s: Standings, finals: dict[str, int], notes: dict[str, str], rules: Sequence[Rule]
) -> str:
    """The chart in words (its SVG ``<desc>``): what is drawn and where everyone is now."""
    n, word = len(s.rounds), s.variant.display.round_word
    parts = [_drawn(word, n)]
    parts += [f"{rule.label}: {rule.value}." for rule in rules]
    standing = {p.name: p.total for p in s.players}
    now = ", ".join(_where(name, standing.get(name, finals[name]), finals[name], notes.get(name))
                    for name in finals)  # fmt: skip
    parts.append(
        _("Final: %(totals)s.", totals=now) if s.finished else _("Now: %(totals)s.", totals=now)
    )
    return " ".join(parts)


def _where(name: str, total: int, drawn: int, note: str | None) -> str:
    """A player's total as the game stands; where their line ends beside it when the
    game adds something after the last round (Gin's bonuses), so the words never give
    the line's end as the final score."""
    said = [note] if note else []
    if drawn != total:
        said.append(_("the line ends at %(total)s", total=drawn))
    return f"{name} {total}" + (f" ({'; '.join(said)})" if said else "")
