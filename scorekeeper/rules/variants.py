"""The five games behind one small interface, and the registry that finds them by name.

A variant declares its defaults, card values, deal, wild cards, multipliers and money
rules, and takes part in the replay through a few hooks (``start_round``, ``score`` and
``end_round``). Each rule cites RULES.md, which settles the source texts' ambiguities.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import JOKER, RANK_NAMES, RANKS, WILD
from .errors import RecordError
from .record import MAX_PLAYERS, Round, clean_name, name_key
from .settings import COMMON_KEYS, Settings, parse_settings
from .state import Event, GameState, PlayerState, RoundResult

Groups = list[list[str]]


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
    own_keys: ClassVar[frozenset[str]] = frozenset()
    defaults: ClassVar[Mapping[str, Any]] = {}
    low_is_good: ClassVar[bool] = True
    nobody_out_allowed: ClassVar[bool] = True
    card_codes: ClassVar[frozenset[str]] = frozenset(RANKS)

    # -- settings -------------------------------------------------------------------
    @property
    def setting_keys(self) -> frozenset[str]:
        return COMMON_KEYS | self.own_keys

    def parse_settings(self, raw: Any) -> Settings:
        return parse_settings(
            raw, variant=self.name, keys=self.setting_keys, defaults=self.defaults
        )

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
    own_keys = frozenset(
        {
            "max_score",
            "cards_per_player",
            "ace_points",
            "second_runner_up_buy_in",
            "meld_solidarity",
            "meld_strictness",
        }
    )
    defaults: ClassVar[Mapping[str, Any]] = {"pot_split": (70, 30)}
    nobody_out_allowed = False
    card_codes = frozenset({*RANKS, JOKER, WILD})

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
            p = state.player(raw)
            if p is None or key not in expired_keys:
                who = p.name if p else raw
                why = (
                    f"{who} is not in the game"
                    if p is None or not p.in_contention
                    else f"{who} did not expire this round ({p.total} points, max "
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
    own_keys = frozenset({"ante", "per_round"})
    card_codes = frozenset({*RANKS, JOKER})
    ROUNDS = 11

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
    own_keys = frozenset({"target_score", "deals"})
    low_is_good = False

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 10 if players <= 2 else 7 if players <= 4 else 6

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
    own_keys = frozenset({"target_score"})

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 10 if players <= 2 else 7


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


VARIANTS: dict[str, Variant] = {
    v.name: v for v in (Vegas(), Texas(), Rummy(), Multiplayer(), Dummy())
}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RecordError(
            f"unknown variant {name!r}: use one of {', '.join(VARIANTS)}", field="variant"
        ) from None
