"""What the layers above the engine show of a game, declared once: the marks a round's events
get in a player's cell (the same on the phone and on paper), labelled facts (the table
rules, the legend) and the columns that label a round on a printed sheet.

Plain data and strings only: the web page, the printed sheets and the API render these,
so no layer above ``rules/`` needs to know which game it is showing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeAlias, TypeVar

from .display_words import DisplayWords
from .errors import Said, say
from .money import format_money
from .said_play import WORD_FORMS
from .settings import Settings
from .state import Event, NextRound, PlayerStanding, RoundResult

#: Words on a page: a sentence in the reader's language, or text as it is (a name, money).
Words: TypeAlias = "str | Said"
Rows: TypeAlias = "list[tuple[Words, list[str]]]"  # labelled rows of one value a player


def in_english(words: Words) -> str:
    return words.english if isinstance(words, Said) else words


@dataclass(frozen=True, slots=True)
class Fact:
    """A labelled fact: ``Fact(say("fact.max_score"), "100")``; ``label`` and ``value``
    are its English (the printed sheets, the API), ``label_words`` and ``value_words``
    what a page says in its reader's language."""

    label_words: Words
    value_words: Words

    @property
    def label(self) -> str:
        return in_english(self.label_words)

    @property
    def value(self) -> str:
        return in_english(self.value_words)


@dataclass(frozen=True, slots=True)
class ChartLine:
    """A labelled horizontal line across the score chart, at ``value`` points:
    ``ChartLine(say("fact.max_score"), 100)`` (Vegas), the target (Rummy)."""

    label: Words
    value: int


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def pot_split_text(split: tuple[int, ...]) -> str:
    return pot_split_said(split).english


def pot_split_said(split: tuple[int, ...]) -> Said:
    """The pot's split in words: "winner takes all", "1st 60% / 2nd 40%"."""
    if tuple(split) == (100,):
        return say("pot.winner_takes_all")
    places = [
        (f"pot.place.{i}", {}) if i <= 3 else ("pot.place", {"place": i}) for i in range(1, 21)
    ]
    shares = [say(p, percent=f"{pct}%", **kw) for (p, kw), pct in zip(places, split, strict=False)]
    said = shares[-1]
    for share in reversed(shares[:-1]):
        said = say("pot.then", first=share, rest=said)
    return said


@dataclass(frozen=True, slots=True)
class Column:
    """A column that labels a round on the printed sheet (besides the dealer)."""

    head: Words
    width: int  # in characters of the grid's monospaced font
    align: Literal["left", "right", "center"] = "left"
    kind: str = ""  # how the blank sheet styles it: num, rank, mult, text, box


@dataclass(frozen=True, slots=True)
class Mark:
    """What a player's cell shows for something that happened to them in a round.

    ``symbol`` is printed the same on the phone and on paper; ``detail`` (formatted with
    the event's ``value`` and ``amount``) follows it where there is room, on the phone.
    ``meaning`` is the legend's line (formatted with the game's money: ``buy_in``,
    ``per_round``).
    """

    kind: str  # also the CSS class of the mark
    symbol: str
    meaning: str
    detail: str = ""


#: One table, event kind -> mark, for every game. "went_out" and "going_rummy" mark the
#: player who went out; "expire" is an expiry nobody re-bought (the game ended that round).
MARKS: dict[str, Mark] = {
    "went_out": Mark("out", "★", "went out"),
    "going_rummy": Mark("rummy", "★!", "went rummy: scores double"),
    "join": Mark("join", "J", "joined this round (fee and starting total below)", "@{value}"),
    "rebuy": Mark(
        "rebuy",
        "R",
        "expired and re-bought{for_buy_in}; the total shown is where they start again "
        "(on screen, after the total reached and an arrow)",
    ),
    "drop": Mark("drop", "✗", "expired and dropped out"),
    "expire": Mark("expire", "E", "expired in the last round (no re-buy)"),
    "contract": Mark("contract", "✓", "laid down contract n this round", "{value}"),
    "dime": Mark("dime", "", "took {per_round} from the pot for going out", "+{amount}"),
    # Gin: the hand's winner and how, a wash, and each player's deadwood
    "knock": Mark("knock", "K", "knocked and won the hand"),
    "undercut": Mark("undercut", "U", "undercut the knocker (equal or lower deadwood)"),
    "gin": Mark("gin", "G", "went gin (no deadwood)"),
    "big_gin": Mark("big_gin", "BG", "went big gin (all 11 cards melded)"),
    "wash": Mark("wash", "—", "a wash: nobody knocked, nobody scores"),
    "deadwood": Mark("deadwood", "", "deadwood left in hand", "({value})"),
    # pool
    "first_drop": Mark("first-drop", "D", "first drop (before drawing)"),
    "middle_drop": Mark("middle-drop", "MD", "middle drop (after drawing)"),
    "full_count": Mark("full-count", "FC", "full count (gave up, everything counted)"),
    "wrong_show": Mark("wrong-show", "WS", "wrong show (an invalid show)"),
    "eliminate": Mark("eliminated", "✗", "reached the pool: out"),
    "rejoin": Mark(
        "rejoin",
        "RJ",
        "out, then rejoined{for_buy_in}; the total shown is where they came back "
        "(on screen, after the total reached and an arrow)",
    ),
    "split": Mark("split", "÷", "shared the pot by agreement (their share beside it)", "{amount}"),
}
#: Gin's marks, in the order a cell shows them (the hand's outcome, then the deadwood).
_GIN_KINDS = ("knock", "undercut", "gin", "big_gin", "wash", "deadwood")
#: Marks that follow the others in a cell, in this order, each with its detail.
_TRAILING = (
    "contract", "dime", *_GIN_KINDS,
    "first_drop", "middle_drop", "full_count", "wrong_show", "split",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CellMark:
    mark: Mark
    detail: str  # the formatted detail ("→30", "@30", "3", "+$0.10")

    @property
    def symbol(self) -> str:
        """What paper prints: the symbol, and a contract's number (✓3)."""
        shown = self.mark.kind in {"contract", "deadwood"}
        return self.mark.symbol + (self.detail if shown else "")

    @property
    def text(self) -> str:
        """What the phone shows: the symbol and its detail (R→30, J@30, ✓3, +$0.10)."""
        return self.mark.symbol + self.detail


def _mark(
    kind: str, currency: str, value: int | None = None, amount: int | None = None
) -> CellMark:
    mark = MARKS[kind]
    detail = mark.detail.format(
        value="" if value is None else value, amount=format_money(amount or 0, currency)
    )
    return CellMark(mark, detail)


def cell_marks(rnd: RoundResult, player: str, currency: str = "USD") -> list[CellMark]:
    """The marks of one player's cell in one round, in the order they are shown: join,
    went out (or went rummy), re-buy or rejoin / drop / out / unresolved expiry, then
    contracts, dime, a hand's marker (Pool) and a share of a split pot."""
    events = rnd.events_for(player)
    kinds = {e.kind for e in events}
    out = [_mark("join", currency, e.value) for e in events if e.kind == "join"]
    if rnd.went_out == player:
        out.append(_mark("going_rummy" if "going_rummy" in kinds else "went_out", currency))
    out += _fate(events, kinds, currency)
    out += [
        _mark(kind, currency, e.value, e.amount_cents)
        for kind in _TRAILING
        for e in events
        if e.kind == kind
    ]
    return out


def _fate(events: list[Event], kinds: Set[str], currency: str) -> list[CellMark]:
    """Back in (re-bought, rejoined), else dropped out, out at the pool, or an expiry
    nobody re-bought."""
    back = [_mark(e.kind, currency, e.value) for e in events if e.kind in _BACK_IN]
    if back:
        return back
    gone = next((kind for kind in ("drop", "eliminate", "expire") if kind in kinds), None)
    return [_mark(gone, currency)] if gone else []


_BACK_IN = frozenset({"rebuy", "rejoin"})


def rebuy_reached(rnd: RoundResult, player: str) -> int | None:
    """The total a player reached in a round where they expired and re-bought (the cell
    shows it before where they start again: 105→77, as paper would), else None."""
    events = rnd.events_for(player)
    if not any(e.kind in _BACK_IN for e in events):
        return None
    return next((e.value for e in events if e.kind in {"expire", "eliminate"}), None)


def legend(
    rounds: tuple[RoundResult, ...],
    settings: Settings,
    *,
    went_out_note: str = "",
    went_out: Said | None = None,
) -> list[Fact]:
    """The marks used on a sheet, with their meanings (sentences): the legend under the
    grid. ``went_out``: going out's (``went_out_said``), else English + ``went_out_note``."""
    used = {
        m.mark.kind
        for r in rounds
        for name in {*(p for p in r.totals), *([r.went_out] if r.went_out else [])}
        for m in cell_marks(r, name, settings.currency)
    }
    money: Callable[[int], str] = lambda cents: format_money(cents, settings.currency)  # noqa: E731
    out: Words = went_out or (MARKS["went_out"].meaning + went_out_note if went_out_note else "")
    out = out or say("mark.went_out")
    facts = [Fact(MARKS["went_out"].symbol, out)]
    for kind in (
        "going_rummy",
        "rebuy",
        "drop",
        "join",
        "expire",
        "contract",
        *_GIN_KINDS,
        *_POOL_MARKS,
    ):
        mark = MARKS[kind]
        if mark.kind not in used:
            continue
        symbol = mark.symbol + {"contract": "n", "deadwood": "(n)"}.get(kind, "")
        facts.append(Fact(symbol, _meaning(kind, settings, money)))
    return facts


def _meaning(kind: str, settings: Settings, money: Callable[[int], str]) -> Said:
    """A mark's line in the legend (its English is ``MARKS[kind].meaning``)."""
    if kind in {"rebuy", "rejoin"} and settings.buy_in:
        return say(f"mark.{kind}.for", buy_in=money(settings.buy_in))
    if kind == "dime":
        return say("mark.dime", per_round=money(settings.per_round))
    return say(f"mark.{kind}")


_POOL_MARKS = (
    "first_drop", "middle_drop", "full_count", "wrong_show", "eliminate", "rejoin", "split",
)  # fmt: skip


class Shown(Protocol):
    """What a display reads of its game (a :class:`~.variant.Variant` is one)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def players_advised(self) -> tuple[int, int]: ...
    def cards_per_player(self, number: int, players: int, settings: Settings) -> int: ...
    def deck_advice(self, players: int, settings: Settings) -> object: ...
    def wild(self, number: int) -> list[str] | None: ...


V = TypeVar("V", bound=Shown)


def pot_fact(settings: Settings) -> Fact:
    return Fact(say("fact.pot"), pot_split_said(settings.pot_split))


class GameDisplay(DisplayWords, Generic[V]):
    """What the pages and the printed sheets show of a game (``variant.display``): its
    table rules, the banner of a round, the sheet's label columns and notes, its help
    text. The replay never asks for any of it."""

    def __init__(self, variant: V) -> None:
        self.variant = variant

    # The round form's words, what is wild, the help page: ``DisplayWords``.
    round_head: ClassVar[Words] = "#"  # the sheet's round column ("Deal": a sentence)
    round_word: ClassVar[str] = "round"  # what the table calls a round ("deal": Contract, Rummy)
    #: The words for each way the players may agree to split the pot (Pool).
    split_labels: ClassVar[Mapping[str, str]] = {}
    setup_hint: ClassVar[str] = ""

    def round_said(self, form: str = "one") -> Said:
        """The game's word for a round as a sentence's word: ``form`` is one of
        ``said_play.WORD_FORMS`` ("round", "rounds", "Round")."""
        if form not in WORD_FORMS:
            raise ValueError(f"a round's word has no form {form!r}")
        return say(f"word.{self.round_word}.{form}")

    def warnings(self, players: int, settings: Settings) -> list[str]:
        return [in_english(w) for w in self.warnings_said(players, settings)]

    def warnings_said(self, players: int, settings: Settings) -> list[Words]:
        """What the rules advise against for these seats and settings (the new-game page)."""
        low, high = self.variant.players_advised
        if not low <= players <= high:
            title = say(f"variant.{self.variant.name}.title")
            return [say("warn.players", game=title, low=low, high=high, players=players)]
        return []

    # -- what the pages and the printed sheets show ------------------------------------
    def table_rules(self, settings: Settings, players: int) -> list[Fact]:
        """The table rules worth knowing before play, in the order players ask about them:
        shown under the banner and printed on every sheet."""
        return [
            *self.money_rules(settings),
            *self.play_rules(settings, players),
            self._deck(settings, players),
        ]

    def money_rules(self, settings: Settings) -> list[Fact]:
        if not settings.buy_in:
            return []
        cur = settings.currency
        return [Fact(say("fact.buy_in"), format_money(settings.buy_in, cur)), pot_fact(settings)]

    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        cards = self.variant.cards_per_player(1, players, settings)
        return [Fact(say("fact.cards"), say("fact.cards_each", count=cards))]

    def _deck(self, settings: Settings, players: int) -> Fact:
        advice = self.variant.deck_advice(players, settings)
        said = getattr(advice, "said", None)
        return Fact(say("fact.deck"), said if isinstance(said, Said) else str(advice))

    def wild_text(self, number: int) -> str:
        """What is wild in round ``number``, in words ("sevens, jokers, deuces"), or ""."""
        said = self.wild_said(number)
        return said.english if said is not None else ""

    def wild_said(self, number: int) -> Said | None:
        """What is wild in round ``number`` as a sentence ("sevens, jokers, deuces")."""
        wilds = [say(f"wild.{w}") for w in (self.variant.wild(number) or [])[::-1]]
        if not wilds:
            return None
        said = wilds[-1]
        for wild in reversed(wilds[:-1]):
            said = say("wild.and", first=wild, rest=said)
        return said

    def banner(self, nr: NextRound, settings: Settings) -> list[str]:
        """The round ahead in a few words: "Round 9", "Jacks wild", "11 cards", "×2"."""
        return [in_english(part) for part in self.banner_said(nr, settings)]

    def banner_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        """The banner's parts as a page says them in its reader's language."""
        parts: list[Words] = [
            say("banner.numbered", word=self.round_said("head"), number=nr.number),
            say("banner.cards", count=nr.cards_per_player),
        ]
        if nr.multiplier > 1:
            parts.append(f"×{nr.multiplier}")
        return parts

    def banner_notes(self, nr: NextRound, settings: Settings) -> list[str]:
        """Lines under the banner: what is wild, what to do after the deal."""
        return [in_english(note) for note in self.banner_notes_said(nr, settings)]

    def banner_notes_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        wild = self.wild_said(nr.number)
        return [say("banner.wild", wilds=wild)] if wild else []

    def went_out_said(self, settings: Settings) -> Said:
        """The legend's line for going out (Gin: knocked; Texas: takes the dime)."""
        return say("mark.went_out")

    def contract_choice(self, contract: int) -> Words | None:
        """The round form's words for laying down a player's contract (Dummy), or None."""
        return None

    def standing_note(self, player: PlayerStanding) -> Words:
        """A word on a player's place beyond the total (dropped out, contracts laid)."""
        if player.dropped_round is not None and not player.in_contention:
            number = player.dropped_round
            return say("note.dropped_in", word=self.round_said("one"), number=number)
        return ""

    @property
    def setup_hint_said(self) -> Said | None:
        """The new-game page's hint (``setup_hint``) as a sentence."""
        return say(f"hint.{self.variant.name}") if self.setup_hint else None

    # What a page says in its reader's language of ``split_labels``, ``out_word``,
    # ``head_note``, ``figures`` and ``tally`` (their English stays the printed sheets').
    def split_said(self, kind: str) -> Said:
        return say(f"split.{kind}")

    def out_said(self) -> Said:
        return say(f"out.{self.out_word}")

    def head_note_said(self, player: PlayerStanding) -> Words:
        return self.head_note(player)

    def figures_said(self, players: Sequence[PlayerStanding], settings: Settings) -> Rows:
        return list(self.figures(players, settings))

    def tally_said(self, *args: Any, **kwargs: Any) -> Rows:
        return list(self.tally(*args, **kwargs))

    #: How the pot table says a player is no longer in the game.
    out_word: ClassVar[str] = "dropped"

    def head_note(self, player: PlayerStanding) -> str:
        """A word under a player's name at the head of the grid (Pool: out in deal 5)."""
        return ""

    def progress(self, player: PlayerStanding) -> str | None:
        """A small figure beside a player's total on the sheet (Dummy: the contract)."""
        return None

    def footers(
        self, players: Sequence[PlayerStanding], rebuys: Mapping[str, int]
    ) -> list[tuple[Words, list[Words]]]:
        """Rows under the printed totals besides the place (Vegas re-buys, Dummy contracts)."""
        return []

    def figures(
        self, players: Sequence[PlayerStanding], settings: Settings
    ) -> list[tuple[str, list[str]]]:
        """Rows under the totals on the sheet, the live view and paper, worked out from the
        settings (Pool: drops left), one value a player."""
        return []

    # The printed sheet: the columns that label a round, and the blank sheet's rows.

    def sheet_columns(self, rounds: int) -> list[Column]:
        return [Column(say("sheet.column.round"), max(3, len(str(rounds + 1)) + 1), "right")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[Words, ...]:
        return (str(number),)

    def blank_columns(self) -> list[Column]:
        return [Column(self.round_said("head"), 6, "right", "num")]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[Words, ...]] | None:
        """The rows of the blank sheet when the game fixes them (Texas: Threes ... Kings),
        or None for numbered rounds, as many as fit the page."""
        return None

    def blank_note(self, settings: Settings) -> Words:
        return say("sheet.note.rummy")

    def blank_footers(self) -> list[Words]:
        return [say("sheet.row.total")]

    def went_out_note(self, settings: Settings) -> str:
        """Added to the legend's "went out" (Texas: takes the dime)."""
        return ""

    def tally(
        self,
        rounds: Sequence[RoundResult],
        players: Sequence[PlayerStanding],
        settings: Settings,
        finished: bool,
    ) -> list[tuple[str, list[str]]]:
        """Rows under the grid worked out from the rounds, one value a player in the
        order of ``players`` (Gin: the boxes; at the end the bonus lines, the final
        scores, the margin and the money), on the sheet, the live view and paper."""
        return []

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        """Labelled horizontal lines across the score chart: the totals a game turns on
        (Vegas: the max score; Rummy: the target)."""
        return []
