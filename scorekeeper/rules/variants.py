"""The games behind one small interface, and the registry that finds them by name.

A variant declares its defaults, card values, deal, wild cards, multipliers and money
rules, and takes part in the replay through a few hooks (``start_round``, ``score`` and
``end_round``). Each rule cites RULES.md, which settles the source texts' ambiguities.

It also declares what the layers above show of it (its settings with their labels, the
table rules, the banner, the wild cards in words, the round's extra inputs, the printed
sheet's label columns and notes, its help text), so that the web pages, the printed sheets
and the API loop over these facts and no layer above ``rules/`` compares a variant's name.
A new game is one module that subclasses :class:`Variant` and calls :func:`register`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from .cards import JOKER, RANK_NAMES, RANKS, WILD, describe_flipped_card
from .display import ChartLine, Column, Fact, pot_split_text
from .errors import RecordError
from .money import format_money
from .record import MAX_PLAYERS, Round, clean_name, name_key
from .settings import (
    BUY_IN,
    CURRENCY,
    MAX_POINTS,
    MAX_ROUNDS,
    POT_SPLIT,
    Settings,
    SettingSpec,
    parse_settings,
)
from .state import Event, GameState, PlayerState, RoundResult

if TYPE_CHECKING:
    from .replay import NextRound, PlayerStanding

Groups = list[list[str]]

#: What a round of a game asks besides who went out and the hands: the flipped wild card
#: (Vegas), going rummy (Multiplayer), who laid down their contract (Dummy), late joiners
#: and drops (Vegas).
RoundInput = Literal["flipped_card", "going_rummy", "contracts", "joins"]


def join_terms(in_contention: Iterable[tuple[int, int]], buy_in_cents: int) -> tuple[int, int]:
    """Vegas late join: what a newcomer pays (cents) and the total they start at, from the
    (expiries, total) of the players in contention.

    RULES.md: the reference player is the one in contention with the most expiries (a
    tie: the highest total among them; nobody expired: the highest total of all); the
    newcomer pays ``buy_in * max(1, E)``, E being that player's expiries, and starts at
    that player's total.
    """
    players = list(in_contention)
    most = max(expiries for expiries, _ in players)
    start = max(total for expiries, total in players if expiries == most)
    return buy_in_cents * max(1, most), start


@dataclass(frozen=True, slots=True)
class DeckAdvice:
    decks: int
    jokers: int

    def __str__(self) -> str:
        decks = "1 deck" if self.decks == 1 else f"{self.decks} decks"
        if not self.jokers:
            return f"{decks}, no jokers"
        return f"{decks} with {self.jokers} joker{'s' if self.jokers != 1 else ''}"


def _pot_fact(settings: Settings) -> Fact:
    return Fact("Pot", pot_split_text(settings.pot_split))


def _face_values(ace: int) -> dict[str, int]:
    values = {r: int(r) for r in RANKS if r.isdigit()}
    values.update({"A": ace, "J": 10, "Q": 10, "K": 10})
    return values


def group_by(players: list[PlayerState], key: Any) -> Groups:
    """Players sorted by ``key`` (seat breaks ties), equal keys sharing a group."""
    groups: Groups = []
    last: object = object()
    for p in sorted(players, key=lambda p: (key(p), p.seat)):
        k = key(p)
        if groups and k == last:
            groups[-1].append(p.name)
        else:
            groups.append([p.name])
        last = k
    return groups


class Variant:
    """The hook interface; the base class holds what most games share."""

    name: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    players_advised: ClassVar[tuple[int, int]] = (2, MAX_PLAYERS)
    #: The game's settings in the order a keeper sets them (the new-game form's order).
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (BUY_IN, POT_SPLIT, CURRENCY)
    defaults: ClassVar[Mapping[str, Any]] = {}
    low_is_good: ClassVar[bool] = True
    nobody_out_allowed: ClassVar[bool] = True
    card_codes: ClassVar[frozenset[str]] = frozenset(RANKS)

    # What the pages and printed sheets show of the game (see the module's docstring).
    takes_handicaps: ClassVar[bool] = False
    round_inputs: ClassVar[frozenset[RoundInput]] = frozenset()
    wild_rule: ClassVar[str] = "none"  # the legend's sentence on what is wild
    round_head: ClassVar[str] = "#"  # the sheet's round column
    card_hint: ClassVar[str] = "K 7 JK"  # how a hand of cards is typed
    #: How the app reads what the rules leave open (the help page, the new-game form).
    help_rules: ClassVar[tuple[str, ...]] = ()
    setup_hint: ClassVar[str] = ""

    # -- settings -------------------------------------------------------------------
    @property
    def setting_keys(self) -> frozenset[str]:
        return frozenset(s.key for s in self.settings_specs)

    @property
    def form_settings(self) -> tuple[SettingSpec, ...]:
        """The settings a keeper chooses on the new-game form, in order."""
        return tuple(s for s in self.settings_specs if s.on_form)

    def parse_settings(self, raw: Any) -> Settings:
        settings = parse_settings(
            raw, variant=self.name, specs=self.settings_specs, defaults=self.defaults
        )
        self.check_settings(settings, raw or {})
        return settings

    def check_settings(self, settings: Settings, raw: Mapping[str, Any]) -> None:
        """Checks across settings (one value against another)."""

    def json_keys(self, settings: Settings) -> frozenset[str]:
        """The settings a record of this game writes out."""
        return self.setting_keys

    def default_settings(self) -> Settings:
        return self.parse_settings({})

    def check_handicap(self, name: str, handicap: int, settings: Settings) -> None:
        if handicap > 10_000:
            raise RecordError(f"{name}'s handicap of {handicap} is too large", player=name)

    # -- the deal -----------------------------------------------------------------------
    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        return _face_values(1)

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        raise NotImplementedError

    def wild(self, number: int) -> list[str] | None:
        return None

    def multiplier(self, number: int) -> int:
        return 1

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        return DeckAdvice(1, 0)

    def round_label(self, number: int) -> str:
        return str(number)

    def warnings(self, players: int, settings: Settings) -> list[str]:
        low, high = self.players_advised
        if not low <= players <= high:
            return [f"{self.title} is best with {low} to {high} players; you have {players}."]
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
        return [Fact("Buy-in", format_money(settings.buy_in, cur)), _pot_fact(settings)]

    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        return [Fact("Cards", f"{self.cards_per_player(1, players, settings)} each")]

    def _deck(self, settings: Settings, players: int) -> Fact:
        return Fact("Deck", str(self.deck_advice(players, settings)))

    def wild_text(self, number: int) -> str:
        """What is wild in round ``number``, in words ("sevens, jokers, deuces"), or ""."""
        names = {"2": "deuces", "JK": "jokers"}
        return ", ".join(
            names.get(w, RANK_NAMES.get(w, w).lower()) for w in (self.wild(number) or [])[::-1]
        )

    def banner(self, nr: NextRound, settings: Settings) -> list[str]:
        """The round ahead in a few words: "Round 9", "Jacks wild", "11 cards", "×2"."""
        parts = [f"Round {nr.number}", f"{nr.cards_per_player} cards"]
        if nr.multiplier > 1:
            parts.append(f"×{nr.multiplier}")
        return parts

    def banner_notes(self, nr: NextRound, settings: Settings) -> list[str]:
        """Lines under the banner: what is wild, what to do after the deal."""
        wild = self.wild_text(nr.number)
        return [f"Wild: {wild}"] if wild else []

    def contract_choice(self, contract: int) -> str | None:
        """The round form's words for laying down a player's contract (Dummy), or None."""
        return None

    def standing_note(self, player: PlayerStanding) -> str:
        """A word on a player's place beyond the total (dropped out, contracts laid)."""
        if player.dropped_round is not None and not player.in_contention:
            return f"dropped out in round {player.dropped_round}"
        return ""

    def progress(self, player: PlayerStanding) -> str | None:
        """A small figure beside a player's total on the sheet (Dummy: the contract)."""
        return None

    def footers(
        self, players: Sequence[PlayerStanding], rebuys: Mapping[str, int]
    ) -> list[tuple[str, list[str]]]:
        """Rows under the printed totals besides the place (Vegas re-buys, Dummy contracts)."""
        return []

    # The printed sheet: the columns that label a round, and the blank sheet's rows.
    def sheet_columns(self, rounds: int) -> list[Column]:
        return [Column("Rd", max(3, len(str(rounds + 1)) + 1), "right")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[str, ...]:
        return (str(number),)

    def blank_columns(self) -> list[Column]:
        return [Column("Round", 6, "right", "num")]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[str, ...]] | None:
        """The rows of the blank sheet when the game fixes them (Texas: Threes ... Kings),
        or None for numbered rounds, as many as fit the page."""
        return None

    def blank_note(self, settings: Settings) -> str:
        return "Whoever goes out scores the cards left in the other hands."

    def blank_footers(self) -> list[str]:
        return ["Total"]

    def went_out_note(self, settings: Settings) -> str:
        """Added to the legend's "went out" (Texas: takes the dime)."""
        return ""

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        """Labelled horizontal lines across the score chart: the totals a game turns on
        (Vegas: the max score; Rummy: the target)."""
        return []

    # -- money ------------------------------------------------------------------------
    def pay_at_start(self, state: GameState, player: PlayerState, settings: Settings) -> None:
        state.pay_in(player.name, settings.buy_in, "buy_in", 0)

    def payout_groups(self, state: GameState, groups: Groups) -> Groups:
        """The ranking of the players who share the pot (everyone, unless a variant says)."""
        return groups

    def runner_up_to_third_cents(self, settings: Settings) -> int:
        return 0

    # -- the replay's hooks ----------------------------------------------------------------
    def start_round(self, state: GameState, rnd: Round, number: int, settings: Settings) -> None:
        """Before the round is scored (Vegas: joins)."""

    def score(
        self, went_out: str | None, hands: Mapping[str, int], rnd: Round, number: int
    ) -> dict[str, int]:
        """Penalty scoring: every hand counts against its holder (times the multiplier)."""
        m = self.multiplier(number)
        scores = {name: value * m for name, value in hands.items()}
        if went_out is not None:
            scores[went_out] = 0
        return scores

    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        """After the round's scores are added: expiries, contracts, money, the end."""

    def ranking(self, state: GameState) -> Groups:
        if self.low_is_good:
            return group_by(state.players, lambda p: p.total)
        return group_by(state.players, lambda p: -p.total)

    def finish(self, state: GameState) -> None:
        state.finished = True
        state.winners = self.ranking(state)[0]


# ---------------------------------------------------------------------------- Vegas ---
class Vegas(Variant):
    name = "vegas"
    title = "Vegas Rummy"
    description = (
        "Penalty points, low is good. Reach the max score and you expire: "
        "re-buy to stay in. Last one under the max wins the pot."
    )
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        BUY_IN,
        SettingSpec("max_score", "Max score", "whole", low=1, high=MAX_POINTS),
        SettingSpec("cards_per_player", "Cards per player", "whole", low=1, high=20),
        SettingSpec("ace_points", "Aces count", "choice", choices=(1, 11, 13)),
        POT_SPLIT,
        SettingSpec(
            "second_runner_up_buy_in", "Third place gets one buy-in from the runner-up", "flag"
        ),
        SettingSpec("meld_solidarity", "Meld solidarity (wild cards stay in melds)", "flag"),
        SettingSpec("meld_strictness", "Meld strictness (one wild card per meld)", "flag"),
        CURRENCY,
    )
    defaults: ClassVar[Mapping[str, Any]] = {"pot_split": (70, 30)}
    nobody_out_allowed = False
    card_codes = frozenset({*RANKS, JOKER, WILD})
    takes_handicaps = True
    round_inputs = frozenset({"flipped_card", "joins"})
    wild_rule = (
        "the card flipped after the deal, every copy of it (a joker flipped: only jokers); "
        "it counts 25 in hand"
    )
    card_hint = "K 7 W — W is the flipped wild card"
    setup_hint = (
        'Re-buy is the default when someone expires; you choose "drop" for them when it '
        "happens. A late joiner pays the buy-in times the most expiries of anyone still in "
        "(at least one buy-in) and starts at that player's total."
    )
    help_rules = (
        "<strong>Vegas re-buy</strong> is the default when someone expires; you mark a drop "
        "explicitly. Everyone who expires in the same round resets to the same total: the "
        "highest total among those still in who did not expire.",
        "<strong>Vegas final round:</strong> the win check comes first. When only one player "
        "is left under the max, the game is over: nobody re-buys or drops that round, and the "
        "others are ranked by their final totals.",
        "<strong>Vegas late join:</strong> a newcomer pays the buy-in times the most expiries "
        "of anyone still in, but at least one buy-in, and starts at that player's total (with "
        "no expiries yet: the highest total). A dropped player who comes back pays again as a "
        "newcomer; what they paid before stays in the pot. A newcomer takes the seat after the "
        "last; a returning player keeps their seat.",
        "<strong>Vegas flipped card:</strong> only the flipped card itself is wild (every copy "
        "of it when several decks are used); write it as <code>W</code> in a counted hand. "
        "Other cards of the same rank count their face value.",
        "<strong>Vegas ranking:</strong> the winner, then the players still in by total, then "
        "dropped players (who are not paid), the latest to drop first.",
    )

    def table_rules(self, settings: Settings, players: int) -> list[Fact]:
        cur = settings.currency
        money = settings.buy_in > 0
        facts = [Fact("Max score", str(settings.max_score))]
        if money:
            facts.append(Fact("Buy-in", format_money(settings.buy_in, cur)))
            facts.append(_pot_fact(settings))
        if money and settings.second_runner_up_buy_in:
            facts.append(Fact("3rd place", "gets a buy-in out of 2nd's share"))
        facts.append(Fact("Cards", f"{settings.cards_per_player} each"))
        if settings.ace_points != 1:
            facts.append(Fact("Aces", f"count {settings.ace_points}"))
        rebuy = "back to the highest total still under the max"
        if money:
            rebuy = f"{format_money(settings.buy_in, cur)}, {rebuy}"
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
        return [*facts, self._deck(settings, players)]

    def banner_notes(self, nr: NextRound, settings: Settings) -> list[str]:
        return ["Flip a card after the deal: it is wild this round."]

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        return [ChartLine("Max score", settings.max_score)]

    def footers(
        self, players: Sequence[PlayerStanding], rebuys: Mapping[str, int]
    ) -> list[tuple[str, list[str]]]:
        if not any(rebuys.values()):
            return []
        return [("Re-buys", [str(rebuys.get(p.name, 0)) for p in players])]

    def sheet_columns(self, rounds: int) -> list[Column]:
        return [*super().sheet_columns(rounds), Column("Wild", 6, "center")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[str, ...]:
        return (str(number), describe_flipped_card(wild) if wild else "")

    def blank_columns(self) -> list[Column]:
        return [*super().blank_columns(), Column("Wild", 5, "center", "box")]

    def blank_note(self, settings: Settings) -> str:
        rebuy = (
            f"re-buy for {format_money(settings.buy_in, settings.currency)}"
            if settings.buy_in
            else "re-buy"
        )
        return (
            f"At {settings.max_score} or more you expire: {rebuy} (back to the highest "
            "total still under the max) or drop out. Write each round's score small "
            "beside the running total, and the flipped wild card in its box."
        )

    def blank_footers(self) -> list[str]:
        return ["Total", "Re-buys"]

    def check_handicap(self, name: str, handicap: int, settings: Settings) -> None:
        if handicap >= settings.max_score:
            raise RecordError(
                f"{name}'s handicap of {handicap} must be below the max score "
                f"({settings.max_score})",
                player=name,
            )

    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        values = _face_values(settings.ace_points)
        values.update({JOKER: 25, WILD: 25})
        return values

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return settings.cards_per_player

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        # RULES.md: ceil((5 + m) * n / 54); two jokers in each deck.
        decks = max(1, math.ceil((5 + settings.cards_per_player) * players / 54))
        return DeckAdvice(decks, 2 * decks)

    def runner_up_to_third_cents(self, settings: Settings) -> int:
        return settings.buy_in if settings.second_runner_up_buy_in else 0

    def start_round(self, state: GameState, rnd: Round, number: int, settings: Settings) -> None:
        if not rnd.joins:
            return
        fee, start_total = join_terms(
            [(p.expiries, p.total) for p in state.active], settings.buy_in
        )
        for raw in rnd.joins:
            name = clean_name(raw, what="a name in joins")
            player = state.player(name)
            if player is None:
                if len(state.players) >= MAX_PLAYERS:
                    raise RecordError(
                        f"{name} cannot join: a game takes at most {MAX_PLAYERS} players",
                        round=number,
                        player=name,
                    )
                player = PlayerState(
                    name, seat=len(state.players), total=0, scores=[None] * (number - 1)
                )
                state.players.append(player)
            elif player.in_contention:
                raise RecordError(
                    f"{player.name} cannot join: {player.name} is already in the game",
                    round=number,
                    player=player.name,
                    field="joins",
                )
            player.in_contention = True
            player.dropped_round = None
            player.expiries = 0
            player.total = start_total
            player.joined_round = number
            state.pay_in(player.name, fee, "join", number)
            state.pending_events.append(Event("join", player.name, start_total, -fee))

    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        number = result.number
        active = state.active
        below = [p for p in active if p.total < settings.max_score]
        expired = [p for p in active if p.total >= settings.max_score]
        drops = {name_key(n): n for n in rnd.drops}
        for p in expired:
            result.events.append(Event("expire", p.name, p.total))
        if len(below) == 1:
            # RULES.md: the win check comes first; who expires in the final round does not
            # re-buy and is ranked by the final total.
            if drops:
                raise RecordError(
                    f"the game ended this round ({below[0].name} won), so nobody drops",
                    round=number,
                    player=next(iter(drops.values())),
                    field="drops",
                )
            state.finished = True
            state.winners = [below[0].name]
            return
        expired_keys = {name_key(p.name) for p in expired}
        for key, raw in drops.items():
            dropping = state.player(raw)
            if dropping is None or key not in expired_keys:
                who = dropping.name if dropping else raw
                why = (
                    f"{who} is not in the game"
                    if dropping is None or not dropping.in_contention
                    else f"{who} did not expire this round ({dropping.total} points, max "
                    f"{settings.max_score})"
                )
                raise RecordError(
                    f"{who} cannot drop: {why}; only a player who expires can drop",
                    round=number,
                    player=who,
                    field="drops",
                )
        # All who expire in one round reset to the same value, computed before any reset.
        reset_to = max(p.total for p in below)
        for p in expired:
            if name_key(p.name) in drops:
                p.in_contention = False
                p.dropped_round = number
                result.events.append(Event("drop", p.name, p.total))
            else:
                p.expiries += 1
                p.total = reset_to
                state.pay_in(p.name, settings.buy_in, "rebuy", number)
                result.events.append(Event("rebuy", p.name, reset_to, -settings.buy_in))
        if len(state.active) == 1:
            state.finished = True
            state.winners = [state.active[0].name]

    def ranking(self, state: GameState) -> Groups:
        winners = [p for p in state.players if p.name in state.winners]
        rest = [p for p in state.active if p.name not in state.winners]
        dropped = [p for p in state.players if not p.in_contention]
        # The winner, then players in contention by total, then dropped players (the later
        # they dropped the better, then by total): RULES.md ranks dropped players last.
        return (
            (group_by(winners, lambda p: 0) if winners else [])
            + group_by(rest, lambda p: p.total)
            + group_by(dropped, lambda p: (-(p.dropped_round or 0), p.total))
        )

    def payout_groups(self, state: GameState, groups: Groups) -> Groups:
        active = {p.name for p in state.active}
        return [g for g in groups if g[0] in active]

    def finish(self, state: GameState) -> None:  # pragma: no cover - Vegas ends itself
        raise AssertionError("Vegas decides its own end in end_round")


# ---------------------------------------------------------------------------- Texas ---
class Texas(Variant):
    name = "texas"
    title = "Texas Rummy"
    description = (
        "11 rounds of 3 to 13 cards, a new wild rank each round, the last three "
        "rounds doubled and tripled. Low total wins; going out earns a dime."
    )
    players_advised = (2, 10)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec("ante", "Ante", "money", "Paid by each player at the start."),
        SettingSpec("per_round", "Per round", "money", "Paid from the pot to whoever goes out."),
        BUY_IN,
        POT_SPLIT,
        CURRENCY,
    )
    card_codes = frozenset({*RANKS, JOKER})
    ROUNDS = 11
    wild_rule = (
        "twos, jokers and the round's rank (Threes in round 1 ... Kings in round 11); the "
        "round's rank counts 20 in hand"
    )
    round_head = "Wild"
    setup_hint = (
        "A dime is paid to whoever goes out only while the pot still holds a full one; the "
        "lowest total after round 11 takes the rest."
    )
    help_rules = (
        "<strong>Texas dimes</strong> are paid to whoever goes out only while the pot still "
        "holds a full one. Round 11's dime is paid before the lowest total takes the rest; a "
        "tie splits it.",
    )

    def table_rules(self, settings: Settings, players: int) -> list[Fact]:
        cur = settings.currency
        facts = [
            Fact("Ante", format_money(settings.ante, cur)),
            Fact("Going out", f"takes {format_money(settings.per_round, cur)} from the pot"),
        ]
        if settings.buy_in:
            facts.append(Fact("Buy-in", format_money(settings.buy_in, cur)))
        if tuple(settings.pot_split) == (100,):
            facts.append(Fact("Pot", "after round 11 the rest goes to the lowest total"))
        else:
            facts.append(_pot_fact(settings))
        facts.append(Fact("Rounds", "11, ×2 in rounds 9 and 10, ×3 in round 11"))
        return [*facts, self._deck(settings, players)]

    def banner(self, nr: NextRound, settings: Settings) -> list[str]:
        parts = [f"Round {nr.number}", f"{nr.label} wild", f"{nr.cards_per_player} cards"]
        if nr.multiplier > 1:
            parts.append(f"×{nr.multiplier}")
        return parts

    def went_out_note(self, settings: Settings) -> str:
        if not settings.per_round:
            return ""
        return f" (takes {format_money(settings.per_round, settings.currency)} from the pot)"

    def sheet_columns(self, rounds: int) -> list[Column]:
        return [Column("Round", 7), Column("Cards", 6, "right"), Column("", 3, "center")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[str, ...]:
        m = self.multiplier(number)
        return (
            self.round_label(number),
            str(self.cards_per_player(number, players, settings)),
            f"×{m}" if m > 1 else "",
        )

    def blank_columns(self) -> list[Column]:
        return [
            Column("Wild", 8, "left", "rank"),
            Column("Cards", 5, "right", "num"),
            Column("", 3, "center", "mult"),
        ]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[str, ...]] | None:
        return [self.sheet_labels(n, players, settings, None) for n in range(1, self.ROUNDS + 1)]

    def blank_note(self, settings: Settings) -> str:
        return (
            "Circle the score of whoever goes out: they take "
            f"{format_money(settings.per_round, settings.currency)} from the pot while it "
            "holds that much. In ×2 and ×3 rounds write the hand times the multiplier."
        )

    def wild_rank(self, number: int) -> str:
        return RANKS[number + 1]  # round 1: threes ... round 11: kings

    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        values = _face_values(20)
        values.update({"2": 20, JOKER: 50})
        if 1 <= number <= self.ROUNDS:
            values[self.wild_rank(number)] = 20
        return values

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return number + 2

    def wild(self, number: int) -> list[str] | None:
        return ["2", JOKER, self.wild_rank(number)]

    def multiplier(self, number: int) -> int:
        return {9: 2, 10: 2, 11: 3}.get(number, 1)

    def round_label(self, number: int) -> str:
        return RANK_NAMES[self.wild_rank(number)] if 1 <= number <= self.ROUNDS else str(number)

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        # RULES.md: 2 players one deck, 3-6 two, 7-10 three (two jokers a deck); beyond
        # ten, keep the same cards per player: three decks for every ten players.
        decks = 1 if players <= 2 else 2 if players <= 6 else max(3, math.ceil(players * 3 / 10))
        return DeckAdvice(decks, 2 * decks)

    def warnings(self, players: int, settings: Settings) -> list[str]:
        notes = super().warnings(players, settings)
        antes = players * settings.ante
        dimes = self.ROUNDS * settings.per_round
        if settings.per_round and antes < dimes:
            rounds_paid = antes // settings.per_round
            notes.append(
                f"The pot holds {antes} cents of antes but 11 rounds would pay out {dimes}: "
                f"it runs dry after {rounds_paid} dimes, and the winner may get nothing."
            )
        return notes

    def pay_at_start(self, state: GameState, player: PlayerState, settings: Settings) -> None:
        super().pay_at_start(state, player, settings)
        state.pay_in(player.name, settings.ante, "ante", 0)

    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        # RULES.md: the dime is paid only while the pot still holds a full per_round.
        if result.went_out and settings.per_round and state.pot_cents >= settings.per_round:
            state.pay_out(result.went_out, settings.per_round, "per_round", result.number)
            result.events.append(Event("dime", result.went_out, None, settings.per_round))
        if result.number == self.ROUNDS:
            self.finish(state)


# ---------------------------------------------------------------------------- Rummy ---
class Rummy(Variant):
    name = "rummy"
    title = "Rummy"
    description = (
        "Classic rummy: whoever goes out scores what is left in everyone else's "
        "hand. High total wins, first to the target or after a set number of deals."
    )
    players_advised = (2, 6)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec("target_score", "Target score", "whole", low=1, high=MAX_POINTS),
        SettingSpec(
            "deals",
            "Or a fixed number of deals",
            "whole",
            low=1,
            high=MAX_ROUNDS,
            optional=True,
            replaces="target_score",
        ),
        BUY_IN,
        POT_SPLIT,
        CURRENCY,
    )
    low_is_good = False

    def check_settings(self, settings: Settings, raw: Mapping[str, Any]) -> None:
        if raw.get("deals") is not None and "target_score" in raw:
            raise RecordError(
                "settings: give either target_score or deals, not both", field="deals"
            )

    def json_keys(self, settings: Settings) -> frozenset[str]:
        # A fixed number of deals replaces the target; without deals, say nothing of them.
        drop = {"target_score"} if settings.deals is not None else {"deals"}
        return self.setting_keys - drop

    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        if settings.deals is not None:
            end = Fact("Deals", f"{settings.deals}, highest total wins")
        else:
            end = Fact("Target", f"first to {settings.target_score}")
        return [end, *super().play_rules(settings, players)]

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 10 if players <= 2 else 7 if players <= 4 else 6

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        if settings.deals is not None:
            return []  # a fixed number of deals: no total ends the game
        return [ChartLine("Target", settings.target_score)]

    def score(
        self, went_out: str | None, hands: Mapping[str, int], rnd: Round, number: int
    ) -> dict[str, int]:
        scores = {name: 0 for name in hands}
        if went_out is not None:
            scores[went_out] = sum(hands.values()) * (2 if rnd.going_rummy else 1)
        return scores

    def ended(self, state: GameState, number: int, settings: Settings) -> bool:
        if settings.deals is not None:
            return number >= settings.deals
        return any(p.total >= settings.target_score for p in state.players)

    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        if rnd.going_rummy:
            assert result.went_out is not None
            result.events.append(Event("going_rummy", result.went_out))
        if self.ended(state, result.number, settings):
            self.finish(state)


class Multiplayer(Rummy):
    name = "multiplayer"
    title = "Multiplayer Rummy"
    description = (
        "Rummy for 2 to 4: going out scores the others' hands, double when you "
        "go rummy in one turn. First to the target wins."
    )
    players_advised = (2, 4)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec("target_score", "Target score", "whole", low=1, high=MAX_POINTS),
        BUY_IN,
        POT_SPLIT,
        CURRENCY,
    )
    round_inputs = frozenset({"going_rummy"})

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 10 if players <= 2 else 7

    def blank_note(self, settings: Settings) -> str:
        return (
            "Whoever goes out scores the cards left in the other hands; going rummy (out "
            "in one turn, nothing laid down or laid off before) scores double."
        )


# ---------------------------------------------------------------------------- Dummy ---
CONTRACTS: tuple[str, ...] = (
    "two 3-of-a-kind",
    "one 3-of-a-kind and one run of 4",
    "two 4-of-a-kind",
    "two runs of 4",
    "one 4-of-a-kind and one run of 4",
    "two 3-of-a-kind and one run of 4",
    "one 3-of-a-kind and one run of 7",
    "three 3-of-a-kind",
    "two 5-of-a-kind",
    "two runs of 5",
    "one 8-of-a-kind",
    "one run of 10",
)
ALL_CONTRACTS_DONE = len(CONTRACTS) + 1


class Dummy(Variant):
    name = "dummy"
    title = "Dummy Rummy"
    description = (
        "Twelve contracts to lay down in order, each at your own pace; penalty "
        "points for what is left. First through contract 12 with the lowest total wins."
    )
    players_advised = (2, 4)
    card_codes = frozenset({*RANKS, JOKER})
    round_inputs = frozenset({"contracts"})
    wild_rule = "twos and jokers"
    setup_hint = (
        "The game ends after the round in which someone lays down contract 12; among those, "
        "the lowest total wins."
    )
    help_rules = (
        "<strong>Dummy end:</strong> the game ends after the round in which someone lays down "
        "contract 12; among those, the lowest total wins. Whoever goes out has laid down their "
        "contract that round: the app ticks it for them.",
    )

    def banner_notes(self, nr: NextRound, settings: Settings) -> list[str]:
        notes = super().banner_notes(nr, settings)
        if nr.contracts:
            on = ", ".join(f"{name} {c}" for name, c in nr.contracts.items())
            notes.append(f"Contracts: {on}")
        return notes

    def contract_choice(self, contract: int) -> str | None:
        if 1 <= contract <= len(CONTRACTS):
            return f"Laid down contract {contract}: {CONTRACTS[contract - 1]}"
        return "Laid down contract"

    def standing_note(self, player: PlayerStanding) -> str:
        if player.contract is None:
            return super().standing_note(player)
        if player.contract > len(CONTRACTS):
            return "all twelve contracts laid"
        return f"on contract {player.contract}"

    def progress(self, player: PlayerStanding) -> str | None:
        if player.contract is None:
            return None
        return f"C{player.contract}" if player.contract <= len(CONTRACTS) else "C✓"

    def footers(
        self, players: Sequence[PlayerStanding], rebuys: Mapping[str, int]
    ) -> list[tuple[str, list[str]]]:
        return [
            (
                "Contract",
                [
                    "done" if (p.contract or 0) > len(CONTRACTS) else str(p.contract)
                    for p in players
                ],
            )
        ]

    def blank_columns(self) -> list[Column]:
        return [Column("", 3, "right", "num"), Column("Contract", 21, "left", "text")]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[str, ...]] | None:
        return [(f"{i}", text) for i, text in enumerate(CONTRACTS, 1)]

    def blank_note(self, settings: Settings) -> str:
        return (
            "Write each round's points in the row of the contract you tried, and tick it "
            "when you lay it down. You may go out only once this round's contract is down."
        )

    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        values = {r: 5 for r in ("3", "4", "5", "6", "7", "8", "9")}
        values.update({"10": 10, "J": 10, "Q": 10, "K": 10, "A": 15, "2": 50, JOKER: 50})
        return values

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 13

    def wild(self, number: int) -> list[str] | None:
        return ["2", JOKER]

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        return DeckAdvice(2, 4)

    def start_round(self, state: GameState, rnd: Round, number: int, settings: Settings) -> None:
        keys = {name_key(n) for n in rnd.contracts}
        if rnd.went_out is not None and name_key(rnd.went_out) not in keys:
            raise RecordError(
                f"{rnd.went_out} went out, so {rnd.went_out} must have laid down the "
                "contract this round: add them to contracts",
                round=number,
                player=rnd.went_out,
                field="contracts",
            )
        for raw in rnd.contracts:
            if state.player(raw) is None:
                raise RecordError(
                    f"{raw} laid down a contract but is not in the game",
                    round=number,
                    player=raw,
                    field="contracts",
                )

    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        for raw in rnd.contracts:
            p = state.player(raw)
            assert p is not None
            result.events.append(Event("contract", p.name, p.contract))
            p.contract += 1
        # RULES.md: the game ends after the round in which someone completes contract 12.
        if any(p.contract == ALL_CONTRACTS_DONE for p in state.players):
            self.finish(state)

    def ranking(self, state: GameState) -> Groups:
        # Finishers by total, then the others by contracts completed (more first), then total.
        return group_by(
            state.players,
            lambda p: (p.contract != ALL_CONTRACTS_DONE, -p.contract, p.total),
        )


VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a game to the registry (the order of registration is the order shown)."""
    VARIANTS[variant.name] = variant
    return variant


for _variant in (Vegas(), Texas(), Rummy(), Multiplayer(), Dummy()):
    register(_variant)


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RecordError(
            f"unknown variant {name!r}: use one of {', '.join(VARIANTS)}", field="variant"
        ) from None
