"""What the regulars care about over months: nights, games played and won, money won and
lost, best and worst nights, head to head.

Every number comes from the rules engine, through the results of each game it worked out
and stored (``results``): a regular's net for a night is the games part of that night's
settlement for the person they were that night (their finished games' balances, rounded
as ``rules.settle`` rounds them): what they won or lost that night, whatever was paid,
carried or written off afterwards. Nothing is counted a second way.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import select

from ..extensions import db
from ..models import Regular
from ..rules import format_money
from .results import GamePlayed, results_of

__all__ = ["GamePlayed", "NightLine", "RegularStats", "all_stats", "head_to_head", "money_chart"]


@dataclass
class NightLine:
    """One night of one regular: the name they played as, their games, their net."""

    night_id: int
    night_name: str
    played_on: date
    currency: str
    name: str
    games: list[GamePlayed] = field(default_factory=list)
    net: int = 0  # minor units: the games' part of the night's settlement, after rounding


@dataclass
class RegularStats:
    regular: Regular
    nights: list[NightLine]

    @property
    def games(self) -> int:
        return sum(len(n.games) for n in self.nights)

    @property
    def wins(self) -> int:
        return sum(g.won for n in self.nights for g in n.games)

    @property
    def nets(self) -> dict[str, int]:
        """Net money per currency (cents), the main currency first: nights in different
        currencies are never added together."""
        out: dict[str, int] = {self.currency: 0} if self.nights else {}
        for night in self.nights:
            out[night.currency] = out.get(night.currency, 0) + night.net
        return out

    @property
    def currency(self) -> str:
        """The currency most of this regular's nights were played in (the earliest on a
        tie): best and worst nights, the chart and sorting by net use it."""
        counts: dict[str, int] = {}
        for night in self.nights:
            counts[night.currency] = counts.get(night.currency, 0) + 1
        return max(counts, key=lambda c: counts[c], default="USD")

    @property
    def net(self) -> int:
        """Net money in the main currency (cents)."""
        return self.nets.get(self.currency, 0)

    def _main(self) -> list[NightLine]:
        return [n for n in self.nights if n.currency == self.currency]

    @property
    def by_variant(self) -> list[tuple[str, int, int]]:
        """(game, played, won), most played first."""
        played: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for night in self.nights:
            for g in night.games:
                played[g.title][0] += 1
                played[g.title][1] += g.won
        return sorted(((t, p, w) for t, (p, w) in played.items()), key=lambda x: (-x[1], x[0]))

    def _decided(self) -> list[NightLine]:
        """Nights in the main currency where the regular finished a game: a night with
        only a game still running (or none) decided nothing, so it is no best or worst."""
        return [n for n in self._main() if n.games]

    @property
    def best(self) -> NightLine | None:
        return max(self._decided(), key=lambda n: (n.net, n.played_on), default=None)

    @property
    def worst(self) -> NightLine | None:
        return min(self._decided(), key=lambda n: (n.net, n.played_on), default=None)

    def running(self) -> list[tuple[date, int]]:
        """The net over time in the main currency: after each night, the sum so far."""
        total, out = 0, []
        for night in self._main():
            total += night.net
            out.append((night.played_on, total))
        return out


def all_stats(owner_id: int) -> dict[int, RegularStats]:
    """Every regular's stats, by regular id (merged entries are already folded in: their
    people point at the regular they were merged into), from the stored results of each
    game (``results.results_of``): no replay of the keeper's history."""
    regulars = {
        r.id: r
        for r in db.session.scalars(
            select(Regular).where(Regular.owner_id == owner_id, Regular.merged_into_id.is_(None))
        )
    }
    stats = {rid: RegularStats(r, []) for rid, r in regulars.items()}
    for night, people in results_of(owner_id):
        for person in people:  # a night on the list counts, games or not
            if person.regular_id in stats:
                stats[person.regular_id].nights.append(
                    NightLine(
                        night.id,
                        night.name,
                        night.played_on,
                        night.currency,
                        person.name,
                        list(person.games),
                        person.net,
                    )
                )
    return stats


@dataclass(frozen=True)
class HeadToHead:
    games: int  # finished games both played
    ahead: int  # games the first finished ahead of the second
    behind: int
    level: int
    nights: int  # nights both played
    net_first: dict[str, int]  # cents over those nights, per currency
    net_second: dict[str, int]


def head_to_head(first: RegularStats, second: RegularStats) -> HeadToHead:
    by_night = {n.night_id: n for n in second.nights}
    games = ahead = behind = level = nights = 0
    net_first: dict[str, int] = {}
    net_second: dict[str, int] = {}
    for mine in first.nights:
        theirs = by_night.get(mine.night_id)
        if theirs is None:
            continue
        nights += 1
        net_first[mine.currency] = net_first.get(mine.currency, 0) + mine.net
        net_second[mine.currency] = net_second.get(mine.currency, 0) + theirs.net
        their_games = {g.game_id: g for g in theirs.games}
        for g in mine.games:
            other = their_games.get(g.game_id)
            if other is None:
                continue
            games += 1
            if g.place < other.place:
                ahead += 1
            elif g.place > other.place:
                behind += 1
            else:
                level += 1
    return HeadToHead(games, ahead, behind, level, nights, net_first, net_second)


# The money chart's layout, in the SVG's own units (its viewBox): the picture scales to the
# page's width (320 units across a 360 px phone's column, 11-unit text about 11 px there).
CHART_FONT = 11  # the labels' font size
CHART_CHAR = 6.6  # what one character of a label takes across (digits are tabular)
LABEL_GAP = CHART_FONT + 2  # y labels closer than this are moved apart (never overlapping)


@dataclass(frozen=True)
class ChartLabel:
    """A value on the y axis: its text, where it is drawn (``y``) and where its value is
    (``at``: the tick; the text may sit a little away so that labels never overlap)."""

    text: str
    y: float
    at: float


@dataclass(frozen=True)
class ChartMark:
    """One night on the chart: a dot, and what it says on hover and to a screen reader."""

    x: float
    y: float
    title: str


@dataclass(frozen=True)
class MoneyChart:
    """A regular's net over time as an SVG polyline (viewBox 0 0 width height), with its
    values on the y axis (highest, 0, lowest), a dot for each night and the first and last
    dates under the x axis."""

    width: int
    height: int
    zero_y: float  # where the line for 0 is
    first: str  # the first and last dates, for the axis
    last: str
    left: float  # the plot's left and right edges (the y labels are left of it)
    right: float
    date_y: float  # the baseline of the dates under the x axis
    labels: tuple[ChartLabel, ...]
    marks: tuple[ChartMark, ...]

    @property
    def points(self) -> str:
        """The line through the nights' dots, as an SVG polyline's points."""
        return " ".join(f"{m.x},{m.y}" for m in self.marks)


def _spread(wanted: list[float], low: float, high: float) -> list[float]:
    """Label positions (sorted, top first) moved apart to at least LABEL_GAP, kept within
    [low, high]: pushed down from the top, then back up from the bottom if they ran over."""
    out: list[float] = []
    for y in wanted:
        out.append(max(y, out[-1] + LABEL_GAP) if out else max(y, low))
    for i in range(len(out) - 1, -1, -1):
        limit = high if i == len(out) - 1 else out[i + 1] - LABEL_GAP
        out[i] = min(out[i], limit)
    return out


def money_chart(
    running: list[tuple[date, int]], currency: str = "USD", width: int = 320, height: int = 150
) -> MoneyChart:
    """The chart of ``running`` (the net after each night, in ``currency``'s minor unit)."""
    values = [v for _, v in running] or [0]
    top, bottom = max(0, *values), min(0, *values)
    span = (top - bottom) or 1
    ends = sorted({top, 0, bottom}, reverse=True)
    texts = [format_money(v, currency) for v in ends]
    pad, plot_top, plot_bottom = 6, 8.0, height - 24.0
    left = round(pad + max(len(t) for t in texts) * CHART_CHAR + 4, 1)
    right = width - pad

    def y(v: int) -> float:
        return round(plot_top + (top - v) * (plot_bottom - plot_top) / span, 1)

    n = max(1, len(running) - 1)
    xs = [round(left + i * (right - left) / n, 1) for i in range(len(running))]
    # Text is drawn from its baseline: a third of the font below the value's line.
    placed = _spread([y(v) + CHART_FONT / 3 for v in ends], CHART_FONT, plot_bottom + 4)
    labels = tuple(
        ChartLabel(t, round(at, 1), y(v)) for t, at, v in zip(texts, placed, ends, strict=True)
    )
    marks = tuple(
        ChartMark(x, y(v), f"{day.isoformat()}: {format_money(v, currency)}")
        for x, (day, v) in zip(xs, running, strict=True)
    )
    first = running[0][0].isoformat() if running else ""
    last = running[-1][0].isoformat() if running else ""
    return MoneyChart(width, height, y(0), first, last, left, right, height - 6, labels, marks)
