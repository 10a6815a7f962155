"""What the printed documents show, worked out from the rules engine's results.

Everything here is plain data (frozen dataclasses, formatted strings), so the same context
feeds the print templates, the plain-text summary and, for the payout summary, the web
app's HTML page. No Jinja, no WeasyPrint, no database.

The filled score sheet is shaped for speed: WeasyPrint lays out every table cell in Python,
so the players' cells of a round are one preformatted line of a monospaced font (one text
run per row, columns lined up by character count) instead of one ``<td>`` per player. The
round's score sits small beside the running total as superscript digits in the same run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..rules import (
    CONTRACTS,
    RoundResult,
    Settings,
    Standings,
    Variant,
    format_cents,
    get_variant,
    settle,
)
from ..rules.cards import describe_flipped_card
from ..rules.money import Entry
from ..rules.variants import Texas

Paper = Literal["A4", "Letter"]
PAPERS: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = (12.0, 10.0, 14.0, 10.0)  # top, right, bottom, left: the print CSS's @page margin
MM_PT = 72 / 25.4
MONO_ADVANCE_EM = 1233 / 2048  # DejaVu Sans Mono: every character is this wide
LARGEST_FONT_PT = 10.0
WIDEST_PLAYER_CH = 13
SMALLEST_PORTRAIT_FONT_PT = 6.8
SMALLEST_FONT_PT = 5.0

_SUPERSCRIPT = str.maketrans("0123456789+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺")
_CARD_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W")


def check_paper(paper: str) -> Paper:
    if paper not in PAPERS:
        raise ValueError(f"paper must be A4 or Letter (got {paper!r})")
    return paper  # type: ignore[return-value]


def signed_cents(amount: int, currency: str) -> str:
    """``1000`` -> ``+$10.00``, ``-700`` -> ``-$7.00``, ``0`` -> ``$0.00``."""
    return ("+" if amount > 0 else "") + format_cents(amount, currency)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


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
class Fact:
    label: str
    value: str


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


def _heading(
    variant: Variant,
    settings: Settings,
    players: int,
    *,
    title: str,
    night_name: str | None,
    date: str | None,
    marks: Sequence[Fact] = (),
) -> Heading:
    title = " ".join(title.split()) or variant.title
    # "Game 2" gets the variant beside it; "Vegas Rummy" or "Vegas Rummy, table 2" does not.
    subtitle = None if variant.title.casefold() in title.casefold() else variant.title
    return Heading(
        title=title,
        subtitle=subtitle,
        night_name=night_name or None,
        date=date or None,
        facts=tuple(settings_facts(variant, settings, players)),
        legend=(*card_legend(variant, settings), *marks),
    )


def pot_split_text(split: Sequence[int]) -> str:
    if tuple(split) == (100,):
        return "winner takes all"
    return " / ".join(f"{ordinal(i)} {pct}%" for i, pct in enumerate(split, 1))


def settings_facts(variant: Variant, settings: Settings, players: int) -> list[Fact]:
    """The table rules worth printing on a sheet, in the order players ask about them."""
    cur = settings.currency
    name = variant.name
    money = settings.buy_in > 0
    facts: list[Fact] = []
    if name == "vegas":
        facts.append(Fact("Max score", str(settings.max_score)))
    if name == "texas":
        facts.append(Fact("Ante", format_cents(settings.ante, cur)))
        going_out = format_cents(settings.per_round, cur)
        facts.append(Fact("Going out", f"takes {going_out} from the pot"))
    if money:
        facts.append(Fact("Buy-in", format_cents(settings.buy_in, cur)))
    if name == "texas" and tuple(settings.pot_split) == (100,):
        facts.append(Fact("Pot", "after round 11 the rest goes to the lowest total"))
    elif money or name == "texas":
        facts.append(Fact("Pot", pot_split_text(settings.pot_split)))
    if name == "vegas":
        if money and settings.second_runner_up_buy_in:
            facts.append(Fact("3rd place", "gets a buy-in out of 2nd's share"))
        facts.append(Fact("Cards", f"{settings.cards_per_player} each"))
        rebuy = "back to the highest total still under the max"
        if money:
            rebuy = f"{format_cents(settings.buy_in, cur)}, {rebuy}"
        facts.append(Fact("Re-buy", rebuy))
        solidarity = (
            "wild cards stay in melds"
            if settings.meld_solidarity
            else "wild cards may be swapped out of melds"
        )
        strictness = (
            "one wild card per meld" if settings.meld_strictness else "any number of wild cards"
        )
        facts.append(Fact("Melds", f"{solidarity}; {strictness}"))
    if name in {"rummy", "multiplayer"}:
        if settings.deals is not None:
            facts.append(Fact("Deals", f"{settings.deals}, highest total wins"))
        else:
            facts.append(Fact("Target", f"first to {settings.target_score}"))
        facts.append(Fact("Cards", f"{variant.cards_per_player(1, players, settings)} each"))
    if name == "texas":
        facts.append(Fact("Rounds", "11, ×2 in rounds 9 and 10, ×3 in round 11"))
    if name == "dummy":
        facts.append(Fact("Cards", "13 each"))
    facts.append(Fact("Deck", str(variant.deck_advice(players, settings))))
    return facts


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
                f"{first}–{last_code} face value" if len(group) > 1 else f"{first} {values[first]}"
            )
        elif len(group) > 2 and all(c.isdigit() for c in group):
            parts.append(f"{first}–{last_code} {values[first]}")
        else:
            parts.append(f"{' '.join(_card_name(c) for c in group)} {values[first]}")
    return " · ".join(parts)


def _card_name(code: str) -> str:
    return {"JK": "Joker", "W": "Wild"}.get(code, code)


def wild_text(variant: Variant) -> str:
    return {
        "vegas": "the card flipped after the deal, every copy of it (a joker flipped: "
        "only jokers); it counts 25 in hand",
        "texas": "twos, jokers and the round's rank (Threes in round 1 ... Kings in "
        "round 11); the round's rank counts 20 in hand",
        "dummy": "twos and jokers",
    }.get(variant.name, "none")


def card_legend(variant: Variant, settings: Settings) -> list[Fact]:
    return [Fact("Cards", card_values_text(variant, settings)), Fact("Wild", wild_text(variant))]


# -------------------------------------------------------------------- blank sheet ---
@dataclass(frozen=True, slots=True)
class BlankColumn:
    head: str
    width_mm: float
    kind: str = ""  # a CSS class: "num", "rank", "box", "text"


@dataclass(frozen=True, slots=True)
class BlankRow:
    labels: tuple[str, ...]  # one per label column
    emphasis: bool = False  # Texas ×2 / ×3 rows


@dataclass(frozen=True, slots=True)
class BlankSheet:
    heading: Heading
    page: Page
    players: tuple[str, ...]
    label_columns: tuple[BlankColumn, ...]
    rows: tuple[BlankRow, ...]
    row_height_mm: float
    footer_rows: tuple[str, ...]  # "Total", "Re-buys"...
    footer_height_mm: float
    note: str | None


BLANK_FIXED_MM = 54  # heading, legend, table header and note, as measured on the page
BLANK_ROW_MM = 7.5  # a numbered round: room for a score and a running total
BLANK_TALL_ROW_MM = 15.0  # the largest row height when the rows are fixed (Texas, Dummy)
BLANK_FOOTER_MM = 9.0
BLANK_NAME_CHAR_MM = 2.1  # the widest average letter of a name in the header (9pt bold)
BLANK_NAME_LINE_MM = 4.2


def blank_sheet_context(
    variant_name: str,
    players: Sequence[str],
    settings: Settings | Mapping[str, Any],
    *,
    title: str,
    night_name: str | None,
    date: str | None,
    paper: str,
) -> BlankSheet:
    """A sheet to fill in by hand, on one page: Texas rows Threes ... Kings, Dummy the
    twelve contracts, the other games numbered rounds as many as fit."""
    variant = get_variant(variant_name)
    if not isinstance(settings, Settings):
        settings = variant.parse_settings(dict(settings))
    names = tuple(players)
    page = Page(check_paper(paper), landscape=len(names) > 10)
    cur = settings.currency
    footer = ["Total"]
    if variant.name == "vegas":
        footer.append("Re-buys")
    rows: list[BlankRow]
    if variant.name == "texas":
        columns = [
            BlankColumn("Wild", 19, "rank"),
            BlankColumn("Cards", 12, "num"),
            BlankColumn("", 8, "mult"),
        ]
        rows = []
        for n in range(1, Texas.ROUNDS + 1):
            m = variant.multiplier(n)
            cards = str(variant.cards_per_player(n, len(names), settings))
            rows.append(BlankRow((variant.round_label(n), cards, f"×{m}" if m > 1 else ""), m > 1))
        note = (
            "Circle the score of whoever goes out: they take "
            f"{format_cents(settings.per_round, cur)} from the pot while it holds that much. "
            "In ×2 and ×3 rounds write the hand times the multiplier."
        )
    elif variant.name == "dummy":
        columns = [BlankColumn("", 7, "num"), BlankColumn("Contract", 50, "text")]
        rows = [BlankRow((f"{i}", text)) for i, text in enumerate(CONTRACTS, 1)]
        note = (
            "Write each round's points in the row of the contract you tried, and tick it "
            "when you lay it down. You may go out only once this round's contract is down."
        )
    else:
        columns = [BlankColumn("Round", 14, "num")]
        if variant.name == "vegas":
            columns.append(BlankColumn("Wild", 12, "box"))
            rebuy = (
                f"re-buy for {format_cents(settings.buy_in, cur)}"
                if settings.buy_in
                else ("re-buy")
            )
            note = (
                f"At {settings.max_score} or more you expire: {rebuy} (back to the highest "
                "total still under the max) or drop out. Write each round's score small "
                "beside the running total, and the flipped wild card in its box."
            )
        elif variant.name == "multiplayer":
            note = (
                "Whoever goes out scores the cards left in the other hands; going rummy (out "
                "in one turn, nothing laid down or laid off before) scores double."
            )
        else:
            note = "Whoever goes out scores the cards left in the other hands."
        rows = []
    # Long names wrap in the table header: leave room for the extra lines.
    labels_mm = sum(c.width_mm for c in columns)
    column_mm = (page.width_pt / MM_PT - labels_mm) / max(1, len(names))
    chars_per_line = max(1, int((column_mm - 2) / BLANK_NAME_CHAR_MM))
    name_lines = max([1, *(math.ceil(len(n) / chars_per_line) for n in names)])
    room_mm = (
        page.height_mm
        - BLANK_FIXED_MM
        - BLANK_FOOTER_MM * len(footer)
        - BLANK_NAME_LINE_MM * (name_lines - 1)
    )
    if variant.name not in {"texas", "dummy"}:
        count = max(10, int(room_mm // BLANK_ROW_MM))
        rows = [BlankRow((str(n),) + ("",) * (len(columns) - 1)) for n in range(1, count + 1)]
    row_mm = BLANK_ROW_MM
    if variant.name in {"texas", "dummy"}:
        row_mm = min(BLANK_TALL_ROW_MM, int(room_mm / len(rows) * 2) / 2)
    heading = _heading(variant, settings, len(names), title=title, night_name=night_name, date=date)
    return BlankSheet(
        heading=heading,
        page=page,
        players=names,
        label_columns=tuple(columns),
        rows=tuple(rows),
        row_height_mm=row_mm,
        footer_rows=tuple(footer),
        footer_height_mm=BLANK_FOOTER_MM,
        note=note,
    )


# ------------------------------------------------------------------- filled sheet ---
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

    @staticmethod
    def em(chars: int) -> str:
        """The CSS width of ``chars`` monospaced characters. In ``em`` rather than ``ch``:
        WeasyPrint does not measure ``ch`` on ``<col>`` with the grid's font."""
        return f"{chars * MONO_ADVANCE_EM:.4f}em"


_KIND_IN = {"buy_in": "buy-in", "rebuy": "re-buy", "join": "join", "ante": "ante"}
_KIND_OUT = {"per_round": "going out", "payout": "payout"}


def _count_phrase(kind: str, count: int, amount: int, currency: str) -> str:
    money = format_cents(amount, currency)
    if kind == "per_round":
        return f"going out {money}" if count == 1 else f"{count} × going out {money}"
    label = _KIND_IN.get(kind) or _KIND_OUT[kind]
    return f"{label} {money}" if count == 1 else f"{count} {label}s {money}"


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
        for kind in ("buy_in", "ante", "rebuy", "join", "per_round", "payout"):
            of_kind = [e for e in entries if e.kind == kind]
            if of_kind:
                amount = abs(sum(e.amount for e in of_kind))
                phrase = _count_phrase(kind, len(of_kind), amount, cur)
                (details_out if kind in _KIND_OUT else details_in).append(phrase)
        net = pot.balances.get(name, 0)
        lines.append(
            PotLine(
                player=name,
                paid_in=format_cents(paid_in, cur),
                paid_in_detail=", ".join(details_in),
                paid_out=format_cents(paid_out, cur),
                paid_out_detail=", ".join(details_out),
                net=signed_cents(net, cur),
                net_cents=net,
            )
        )
    return PotSummary(
        currency=cur,
        paid_in=format_cents(pot.paid_in, cur),
        holds=format_cents(pot.total, cur),
        paid_out=standings.finished,
        lines=tuple(lines),
        empty=pot.paid_in == 0,
    )


def _status(standings: Standings) -> str:
    n = standings.rounds_played
    if standings.finished:
        return (
            f"Finished after {n} round{'s' if n != 1 else ''}. "
            f"{'Winners' if len(standings.winners) > 1 else 'Winner'}: "
            f"{_names(standings.winners)}."
        )
    nxt = standings.next_round
    assert nxt is not None
    what = [f"round {nxt.number}"]
    if standings.variant.name == "texas":
        what = [f"round {nxt.number}, {nxt.label} wild"]
    what.append(f"{nxt.cards_per_player} cards")
    if nxt.multiplier > 1:
        what.append(f"×{nxt.multiplier}")
    head = "Not started" if n == 0 else f"In progress after {n} round{'s' if n != 1 else ''}"
    return f"{head}. Next: {', '.join(what)}; {nxt.dealer} deals, {nxt.starts} starts."


def _marks(standings: Standings) -> list[Fact]:
    variant = standings.variant.name
    settings = standings.record.settings
    cur = settings.currency
    used = {e.kind for r in standings.rounds for e in r.events}
    marks = [
        Fact(
            "★",
            "went out"
            + (
                f" (takes {format_cents(settings.per_round, cur)} from the pot)"
                if variant == "texas" and settings.per_round
                else ""
            ),
        )
    ]
    if "going_rummy" in used:
        marks.append(Fact("★!", "went rummy: scores double"))
    if "rebuy" in used:
        marks.append(
            Fact(
                "R",
                "expired and re-bought"
                + (f" for {format_cents(settings.buy_in, cur)}" if settings.buy_in else "")
                + "; the total shown is where they start again",
            )
        )
    if "drop" in used:
        marks.append(Fact("✗", "expired and dropped out"))
    if "join" in used:
        marks.append(Fact("J", "joined this round (fee and starting total below)"))
    if any(
        e.kind == "expire" and not _resolved(r, e.player)
        for r in standings.rounds
        for e in r.events
    ):
        marks.append(Fact("E", "expired in the last round (no re-buy)"))
    if "contract" in used:
        marks.append(Fact("✓n", "laid down contract n this round"))
    marks.append(Fact("⁺ⁿ", "the round's score, beside the running total"))
    return marks


def _resolved(rnd: RoundResult, player: str) -> bool:
    events = rnd.events_for(player)
    return any(e.kind in {"rebuy", "drop"} for e in events)


def _round_marks(rnd: RoundResult, name: str) -> str:
    events = rnd.events_for(name)
    kinds = {e.kind for e in events}
    marks = ""
    if "join" in kinds:
        marks += "J"
    if rnd.went_out == name:
        marks += "★!" if "going_rummy" in kinds else "★"
    if "rebuy" in kinds:
        marks += "R"
    elif "drop" in kinds:
        marks += "✗"
    elif "expire" in kinds:
        marks += "E"
    for e in events:
        if e.kind == "contract":
            marks += f"✓{e.value}"
    return marks


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
            cells.append((_round_marks(rnd, name), shown.translate(_SUPERSCRIPT), str(total)))
        grid.append(cells)

    handicaps = {p.name: p.handicap for p in record.players}
    footers: list[tuple[str, list[str]]] = [
        ("Total", [str(p.total) for p in standings.players]),
        ("Place", [_place(standings, p.name) for p in standings.players]),
    ]
    rebuys = dict.fromkeys(names, 0)
    for e in standings.pot.entries:
        if e.kind == "rebuy":
            rebuys[e.player] += 1
    if variant.name == "vegas" and any(rebuys.values()):
        footers.append(("Re-buys", [str(rebuys[n]) for n in names]))
    if variant.name == "dummy":
        done = len(CONTRACTS) + 1
        footers.append(
            (
                "Contract",
                ["done" if p.contract == done else str(p.contract) for p in standings.players],
            )
        )

    # The label columns: the round (Texas: its wild rank), its particulars, the dealer.
    number_ch = max(3, len(str(len(grid) + 1)) + 1)
    dealer_ch = min(9, max(5, *(len(n) for n in names)) + 1)
    columns = {
        "texas": [
            LabelColumn("Round", 7),
            LabelColumn("Cards", 6, "right"),
            LabelColumn("", 3, "center"),
        ],
        "vegas": [LabelColumn("Rd", number_ch, "right"), LabelColumn("Wild", 6, "center")],
    }.get(variant.name, [LabelColumn("Rd", number_ch, "right")])
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
        if variant.name == "texas":
            m = variant.multiplier(number)
            cards = variant.cards_per_player(number, len(names), record.settings)
            return label_text(
                (variant.round_label(number), str(cards), f"×{m}" if m > 1 else "", dealer)
            )
        if variant.name == "vegas":
            return label_text((str(number), describe_flipped_card(wild) if wild else "", dealer))
        return label_text((str(number), dealer))

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
    heading = _heading(
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
        note = ""
        if p.dropped_round is not None and not p.in_contention:
            note = f"dropped out in round {p.dropped_round}"
        elif p.contract is not None:
            note = (
                "all twelve contracts laid"
                if p.contract > len(CONTRACTS)
                else f"on contract {p.contract}"
            )
        out.append(
            Placing(
                _place(standings, name), name, p.total, note, None if pot.empty else money.get(name)
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
                    f"{format_cents(-(e.amount_cents or 0), cur)}, starting at "
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


# ------------------------------------------------------------------ night summary ---
@dataclass(frozen=True, slots=True)
class GameMoney:
    number: int
    title: str
    variant_title: str
    finished: bool
    status: str
    pot: PotSummary

    @property
    def heading(self) -> str:
        """The title, with the variant unless the title names it already."""
        if self.variant_title.casefold() in self.title.casefold():
            return self.title
        return f"{self.title} · {self.variant_title}"


@dataclass(frozen=True, slots=True)
class PersonNet:
    name: str
    net_cents: int
    net: str  # "+$10.00", "-$7.00", "$0.00"
    words: str  # "receives $10.00", "pays $7.00", "is even"


@dataclass(frozen=True, slots=True)
class NightSummary:
    """The payout summary of a night; the web app renders it with
    ``templates/reports/_summary.html`` (plain data and Jinja built-ins only)."""

    night_name: str
    date: str | None
    currency: str
    games: tuple[GameMoney, ...]
    people: tuple[PersonNet, ...]  # best net first
    transfers: tuple[str, ...]  # "Bob pays Ann $7.00"
    unsettled: tuple[str, ...]  # the games left out of the settlement, in words
    settled_games: int

    @property
    def title(self) -> str:
        return "Payout summary"

    @property
    def kicker(self) -> str:
        return " · ".join(x for x in (self.night_name, self.date) if x)


def night_summary_context(
    night_name: str, date: str | None, currency: str, games: Sequence[tuple[str, Standings]]
) -> NightSummary:
    """Each game's pot, each person's net and the fewest transfers; unfinished games are
    listed as not settled and left out. Raises RecordError when a finished game is played
    in another currency than the night."""
    money = []
    unsettled = []
    for i, (title, s) in enumerate(games, 1):
        cur = s.pot.currency
        if s.finished:
            status = (
                f"{'Winners' if len(s.winners) > 1 else 'Winner'}: "
                f"{_names(s.winners)}. Pot {format_cents(s.pot.paid_in, cur)}."
            )
        else:
            rounds = f"{s.rounds_played} round{'s' if s.rounds_played != 1 else ''}"
            status = (
                f"In progress after {rounds}: not settled. The pot holds "
                f"{format_cents(s.pot.total, cur)}."
            )
            unsettled.append(
                f"{title or s.variant.title}, in progress after {rounds} (its pot of "
                f"{format_cents(s.pot.total, cur)} is left out)"
            )
        money.append(
            GameMoney(
                i, title or s.variant.title, s.variant.title, s.finished, status, pot_summary(s)
            )
        )
    finished = [s for _, s in games if s.finished]
    settlement = settle(finished, currency)
    people = sorted(settlement.people.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    nets = []
    for name, net in people:
        words = (
            f"receives {format_cents(net, currency)}"
            if net > 0
            else f"pays {format_cents(-net, currency)}"
            if net < 0
            else "is even"
        )
        nets.append(PersonNet(name, net, signed_cents(net, currency), words))
    return NightSummary(
        night_name=night_name,
        date=date or None,
        currency=currency,
        games=tuple(money),
        people=tuple(nets),
        transfers=tuple(t.sentence(currency) for t in settlement.transfers),
        unsettled=tuple(unsettled),
        settled_games=len(finished),
    )


__all__ = [
    "PAPERS",
    "BlankRow",
    "BlankSheet",
    "Fact",
    "GameMoney",
    "GameSheet",
    "Heading",
    "LabelColumn",
    "NightSummary",
    "Page",
    "Paper",
    "PersonNet",
    "Placing",
    "PotLine",
    "PotSummary",
    "SheetRow",
    "blank_sheet_context",
    "card_legend",
    "card_values_text",
    "check_paper",
    "fit_page",
    "game_sheet_context",
    "night_summary_context",
    "ordinal",
    "pot_summary",
    "settings_facts",
    "signed_cents",
]
