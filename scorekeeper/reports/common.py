"""What every printed document shares: the page and its fit, the heading with the table
rules and the legend, money in words, and a game's pot.

Everything here is plain data (frozen dataclasses, formatted strings) worked out from the
rules engine's results; the facts about each game come from its display (each game's
``rules/games/`` module), so nothing here asks which game it is. No Jinja, no
WeasyPrint, no database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..rules import Settings, Standings, Variant, format_money
from ..rules.display import Fact, ordinal, pot_split_text
from ..rules.money import Entry, signed_money
from .words import gettext as _
from .words import names_text as _names_text
from .words import ngettext, said

Paper = Literal["A4", "Letter"]
PAPERS: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = (12.0, 10.0, 14.0, 10.0)  # top, right, bottom, left: the print CSS's @page margin
MM_PT = 72 / 25.4
MONO_ADVANCE_EM = 1233 / 2048  # DejaVu Sans Mono: every character is this wide
LARGEST_FONT_PT = 10.0
WIDEST_PLAYER_CH = 13
SMALLEST_PORTRAIT_FONT_PT = 6.8
SMALLEST_FONT_PT = 5.0

_CARD_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W")


def check_paper(paper: str) -> Paper:
    if paper not in PAPERS:
        raise ValueError(f"paper must be A4 or Letter (got {paper!r})")
    return paper  # type: ignore[return-value]


def names_text(names: Sequence[str]) -> str:
    """``["Ann", "Bob", "Cy"]`` -> ``"Ann, Bob and Cy"`` (in the reader's language)."""
    return _names_text(tuple(names))


# ------------------------------------------------------------------------ the page ---
@dataclass(frozen=True, slots=True)
class Page:
    paper: Paper
    landscape: bool = False
    font_pt: float = LARGEST_FONT_PT  # the score grid's monospaced font

    @property
    def size(self) -> str:
        """The ``@page`` size, e.g. ``A4 landscape``."""
        return f"{self.paper} {'landscape' if self.landscape else 'portrait'}"

    @property
    def width_pt(self) -> float:
        w, h = PAPERS[self.paper]
        return ((h if self.landscape else w) - MARGIN_MM[1] - MARGIN_MM[3]) * MM_PT

    @property
    def height_mm(self) -> float:
        w, h = PAPERS[self.paper]
        return (w if self.landscape else h) - MARGIN_MM[0] - MARGIN_MM[2]


def fit_page(paper: Paper, width_ch: int) -> Page:
    """The page and grid font size that fit ``width_ch`` monospaced characters across.

    Portrait while the font stays readable, landscape beyond that (many players).
    """
    for landscape in (False, True):
        page = Page(paper, landscape)
        font = min(LARGEST_FONT_PT, page.width_pt / (width_ch * MONO_ADVANCE_EM))
        if font >= SMALLEST_PORTRAIT_FONT_PT or landscape:
            return Page(paper, landscape, max(SMALLEST_FONT_PT, math.floor(font * 10) / 10))
    raise AssertionError("unreachable")


# ------------------------------------------------------------------- the heading ---
@dataclass(frozen=True, slots=True)
class Heading:
    title: str
    subtitle: str | None  # the variant's title when the game has a title of its own
    night_name: str | None
    date: str | None
    facts: tuple[Fact, ...]  # the table rules: buy-in, max score, pot split...
    legend: tuple[Fact, ...]  # card values, what is wild, the marks used on the sheet

    @property
    def kicker(self) -> str:
        """The small line above the title: night and date."""
        return " · ".join(x for x in (self.night_name, self.date) if x)


def make_heading(
    variant: Variant,
    settings: Settings,
    players: int,
    *,
    title: str,
    night_name: str | None,
    date: str | None,
    marks: Sequence[Fact] = (),
) -> Heading:
    name = said(variant.title_said)  # "Vegas Rummy" in the documents' language
    title = " ".join(title.split()) or name
    # "Game 2" gets the variant beside it; "Vegas Rummy" or "Vegas Rummy, table 2" does not.
    subtitle = None if name.casefold() in title.casefold() else name
    return Heading(
        title=title,
        subtitle=subtitle,
        night_name=night_name or None,
        date=date or None,
        facts=tuple(spoken(f) for f in settings_facts(variant, settings, players)),
        legend=tuple(spoken(f) for f in (*card_legend(variant, settings), *marks)),
    )


def spoken(fact: Fact) -> Fact:
    """A fact as the document says it: its words in the document's language."""
    return Fact(said(fact.label_words), said(fact.value_words))


def settings_facts(variant: Variant, settings: Settings, players: int) -> list[Fact]:
    """The table rules worth printing on a sheet, as the variant declares them."""
    return variant.display.table_rules(settings, players)


def card_values_text(variant: Variant, settings: Settings) -> str:
    """``A 1 · 2–10 face value · J Q K 10 · Joker 25 · Wild 25``, from the engine's values."""
    values = variant.card_values(0, settings)
    codes = [c for c in _CARD_ORDER if c in variant.card_codes]

    # "Face value" only where the pips count as printed (not Dummy's flat 5 for 3 to 9).
    faces = all(values[str(pips)] == pips for pips in range(3, 10))

    def face(code: str) -> bool:
        return faces and code.isdigit() and values[code] == int(code)

    groups: list[list[str]] = []
    for code in codes:
        last = groups[-1] if groups else None
        if (
            last
            and last[-1] not in {"JK", "W"}
            and code not in {"JK", "W"}
            and (
                (face(code) and face(last[-1]))
                or (not face(code) and not face(last[-1]) and values[code] == values[last[-1]])
            )
        ):
            last.append(code)
        else:
            groups.append([code])
    parts = []
    for group in groups:
        first, last_code = group[0], group[-1]
        if face(first):
            parts.append(
                _("%(first)s–%(last)s face value", first=first, last=last_code)
                if len(group) > 1
                else f"{first} {values[first]}"
            )
        elif len(group) > 2 and all(c.isdigit() for c in group):
            parts.append(f"{first}–{last_code} {values[first]}")
        else:
            parts.append(f"{' '.join(_card_name(c) for c in group)} {values[first]}")
    return " · ".join(parts)


def _card_name(code: str) -> str:
    if code == "JK":
        return _("Joker")
    return _("Wild") if code == "W" else code


def card_legend(variant: Variant, settings: Settings) -> list[Fact]:
    return [
        Fact(_("Cards"), card_values_text(variant, settings)),
        Fact(_("Wild"), said(variant.display.wild_rule_said())),
    ]


@dataclass(frozen=True, slots=True)
class PotLine:
    player: str
    paid_in: str
    paid_in_detail: str
    paid_out: str
    paid_out_detail: str
    net: str
    net_cents: int


@dataclass(frozen=True, slots=True)
class PotSummary:
    currency: str
    paid_in: str  # everything paid in
    holds: str  # what the pot holds now (0 once paid out)
    paid_out: bool  # the game is finished and the pot split
    lines: tuple[PotLine, ...]
    empty: bool  # no money at stake


_KIND_OUT = ("per_round", "payout")


def _count_phrase(kind: str, count: int, amount: int, currency: str) -> str:
    """``count`` pot entries of one kind and their sum: "2 re-buys $4.00"."""
    money = format_money(amount, currency)
    phrases = {
        "buy_in": lambda: ngettext("buy-in %(money)s", "%(num)d buy-ins %(money)s", count,
                                   money=money),
        "rebuy": lambda: ngettext("re-buy %(money)s", "%(num)d re-buys %(money)s", count,
                                  money=money),
        "join": lambda: ngettext("join %(money)s", "%(num)d joins %(money)s", count, money=money),
        "ante": lambda: ngettext("ante %(money)s", "%(num)d antes %(money)s", count, money=money),
        "rejoin": lambda: ngettext("rejoin %(money)s", "%(num)d rejoins %(money)s", count,
                                   money=money),
        "stake": lambda: ngettext(  # Gin
            "stake on the margin %(money)s", "%(num)d stakes on the margin %(money)s", count,
            money=money,
        ),
        "per_round": lambda: ngettext("going out %(money)s", "%(num)d × going out %(money)s",
                                      count, money=money),
        "payout": lambda: ngettext("payout %(money)s", "%(num)d payouts %(money)s", count,
                                   money=money),
    }  # fmt: skip
    return phrases[kind]()


def pot_summary(standings: Standings) -> PotSummary:
    pot = standings.pot
    cur = pot.currency
    by_player: dict[str, list[Entry]] = {p.name: [] for p in standings.players}
    for e in pot.entries:
        by_player.setdefault(e.player, []).append(e)
    lines = []
    for name, entries in by_player.items():
        paid_in = pot.paid_in_by(name)
        paid_out = pot.paid_out_to(name)
        details_in: list[str] = []
        details_out: list[str] = []
        for kind in ("buy_in", "ante", "rebuy", "join", "rejoin", "stake", "per_round", "payout"):
            of_kind = [e for e in entries if e.kind == kind]
            if of_kind:
                amount = abs(sum(e.amount for e in of_kind))
                phrase = _count_phrase(kind, len(of_kind), amount, cur)
                (details_out if kind in _KIND_OUT else details_in).append(phrase)
        net = pot.balances.get(name, 0)
        lines.append(
            PotLine(
                player=name,
                paid_in=format_money(paid_in, cur),
                paid_in_detail=", ".join(details_in),
                paid_out=format_money(paid_out, cur),
                paid_out_detail=", ".join(details_out),
                net=signed_money(net, cur),
                net_cents=net,
            )
        )
    return PotSummary(
        currency=cur,
        paid_in=format_money(pot.paid_in, cur),
        holds=format_money(pot.total, cur),
        paid_out=standings.finished,
        lines=tuple(lines),
        empty=pot.paid_in == 0,
    )


__all__ = [
    "PAPERS",
    "Fact",
    "Heading",
    "Page",
    "Paper",
    "PotLine",
    "PotSummary",
    "card_legend",
    "card_values_text",
    "check_paper",
    "fit_page",
    "make_heading",
    "names_text",
    "ordinal",
    "pot_split_text",
    "pot_summary",
    "settings_facts",
]
