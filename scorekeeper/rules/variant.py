"""What every game is to the engine: the hook interface of the replay, and what most games
share.

A game declares its defaults, card values, deal, wild cards, multipliers and money rules,
and takes part in the replay through a few hooks (``start_round``, ``score`` and
``end_round``). Each rule cites RULES.md, which settles the source texts' ambiguities.
What the layers above show of a game (its table rules, banner, sheet columns, help text)
is its :class:`~scorekeeper.rules.display.GameDisplay`, ``variant.display``: no layer above
``rules/`` compares a game's name. A new game is one module in ``games/`` with a
:class:`Variant` subclass, its display and its place in ``games/__init__.py``, which
registers it (:func:`register`); the engine finds a game by the name its record gives
(:func:`get_variant`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .cards import RANKS, count_hand
from .display import GameDisplay
from .errors import RecordError, Said, say
from .money import split_pot
from .rounds import MAX_PLAYERS, Hand, Round
from .settings import BUY_IN, CURRENCY, POT_SPLIT, Settings, SettingSpec, parse_settings
from .state import GameState, PlayerState, RejoinOffer, RoundResult

Groups = list[list[str]]

#: What a round of a game asks besides who went out and the hands: the flipped wild card
#: (Vegas), going rummy (Multiplayer), who laid down their contract (Dummy), late joiners
#: and drops (Vegas), how the knocker went out (Gin: knock, gin or big gin); each
#: hand's marker and the deal's wild rank (Pool).
RoundInput = Literal[
    "flipped_card", "going_rummy", "contracts", "joins", "how", "hand_markers", "wild_rank"
]


@dataclass(frozen=True, slots=True)
class HandMarker:
    """A hand scored by what the player did instead of its cards (Pool: a drop): the
    record's word, the sheet's mark and the points it scores; the round form's button is
    ``label_said`` (``marker.<key>``)."""

    key: str
    short: str
    points: int

    @property
    def label_said(self) -> Said:
        """The round form's button in the reader's words (rules/said_display.py)."""
        return say(f"marker.{self.key}")


def join_terms(in_contention: Iterable[tuple[int, int]], buy_in_cents: int) -> tuple[int, int]:
    """Vegas late join: what a newcomer pays (minor units) and the total they start at,
    from the (expiries, total) of the players in contention.

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
        return self.said.english

    @property
    def said(self) -> Said:
        """The advice as a sentence: "1 deck with 2 jokers", "2 decks, no jokers"."""
        decks = say("deck.one") if self.decks == 1 else say("deck.many", count=self.decks)
        if not self.jokers:
            return say("deck.no_jokers", decks=decks)
        joker = "deck.with_joker" if self.jokers == 1 else "deck.with_jokers"
        return say(joker, decks=decks, count=self.jokers)


def face_values(ace: int) -> dict[str, int]:
    """2 to 10 at face value, picture cards 10, the ace as given."""
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

    #: What the pages and printed sheets show of the game (``variant.display``).
    display_class: ClassVar[type[GameDisplay[Any]]]

    def __init__(self) -> None:
        self.display = self.display_class(self)

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
    #: The player who went out has a hand too (Gin: the knocker's deadwood counts).
    out_has_hand: ClassVar[bool] = False
    #: A round nobody went out of may leave its hands out (Gin: a wash scores nothing).
    wash_without_hands: ClassVar[bool] = False

    def players_refused(self, count: int) -> Said | None:
        """Why the game cannot be played by ``count`` players (Gin: exactly two), or None
        (the record's own limits, 2 to 20, hold for every game)."""
        return None

    #: What a card of the deal's wild rank counts, when the keeper names the rank on the
    #: round form (Pool: 0); None when the game has no such rank.
    wild_rank_points: ClassVar[int | None] = None
    #: How the players may agree to end the game and share the pot (Pool: equal, drops).
    split_kinds: ClassVar[tuple[str, ...]] = ()

    # -- settings -------------------------------------------------------------------
    @property
    def title_said(self) -> Said:
        """The game's name as a sentence a page says in its reader's language."""
        return say(f"variant.{self.name}.title")

    @property
    def description_said(self) -> Said:
        return say(f"variant.{self.name}.description")

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
            raise RecordError(say("handicap.too_large", name=name, handicap=handicap), player=name)

    # -- the deal -----------------------------------------------------------------------
    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        return face_values(1)

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

    def round_label_said(self, number: int) -> str | Said:
        """``round_label`` as a page says it in its reader's language (Texas: Threes)."""
        return self.round_label(number)

    def last_round(self, settings: Settings) -> int | None:
        """The last round of a game of a fixed number of rounds; None when a score, not
        a count, ends the game."""
        return None

    def hand_markers(self, settings: Settings) -> tuple[HandMarker, ...]:
        """What a hand may be marked instead of counted (Pool: drop, middle drop, ...)."""
        return ()

    def hand_cap(self, settings: Settings) -> int | None:
        """The most a counted hand scores (Pool: the full count), or None."""
        return None

    def hand_points(
        self, rnd: Round, hands: Mapping[str, Hand], number: int, settings: Settings
    ) -> dict[str, int]:
        """Each hand's points before any multiplier: points as given, cards counted with the
        round's values (a game with hand markers or a cap says how it counts them)."""
        values = self.card_values(number, settings)
        return {
            name: hand if isinstance(hand, int) else count_hand(hand, values)
            for name, hand in hands.items()
        }

    # -- money ------------------------------------------------------------------------
    def pay_at_start(self, state: GameState, player: PlayerState, settings: Settings) -> None:
        state.pay_in(player.name, settings.buy_in, "buy_in", 0)

    def payout_groups(self, state: GameState, groups: Groups) -> Groups:
        """The ranking of the players who share the pot (everyone, unless a variant says)."""
        return groups

    def runner_up_to_third_cents(self, settings: Settings) -> int:
        return 0

    def payouts(self, state: GameState, groups: Groups, settings: Settings) -> dict[str, int]:
        """What the pot pays each player once the game is over (RULES.md's splits)."""
        return split_pot(
            state.pot_cents,
            settings.pot_split,
            self.payout_groups(state, groups),
            runner_up_to_third_cents=self.runner_up_to_third_cents(settings),
        )

    def rejoin_offer(self, result: RoundResult, settings: Settings) -> RejoinOffer | None:
        """Pool: who is out in the round just played and whether they may rejoin."""
        return None

    def agree(self, state: GameState, rnd: Round, number: int, settings: Settings) -> RoundResult:
        """Pool: the players still in end the game by agreement (``rnd.split``)."""
        raise RecordError(say("split.none", game=self.title_said), round=number, field="split")

    # -- the replay's hooks ----------------------------------------------------------------
    def score_round(
        self,
        went_out: str | None,
        hands: Mapping[str, int],
        rnd: Round,
        number: int,
        settings: Settings,
    ) -> dict[str, int]:
        """The round's scores, where the settings count (Gin's bonuses); most games
        score by :meth:`score` alone."""
        return self.score(went_out, hands, rnd, number)

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

    def end_game(self, state: GameState, settings: Settings) -> None:
        """Once the game has ended, before the ranking and the pot's payout (Gin: the
        bonuses make the final scores, and the loser pays the stake on the margin)."""

    def ranking(self, state: GameState) -> Groups:
        if self.low_is_good:
            return group_by(state.players, lambda p: p.total)
        return group_by(state.players, lambda p: -p.total)

    def finish(self, state: GameState) -> None:
        state.finished = True
        state.winners = self.ranking(state)[0]


#: The games, in the order they are shown (``games/__init__.py`` registers them).
VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a game to the registry (the order of registration is the order shown)."""
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RecordError(
            f"unknown variant {name!r}: use one of {', '.join(VARIANTS)}", field="variant"
        ) from None
