"""Contract Rummy (the Liverpool / Shanghai family), as RULES.md describes it.

Seven deals, each with a contract everyone must lay down before going out (two sets, then
a set and a run, ...); 10 cards in the first four deals and 12 in the last three. Penalty
points for what is left in hand, low total wins after the last deal. Tables differ, so the
number of deals (6 for Liverpool, which drops the last), the cards of each deal and the
values of aces and jokers are settings. Money: the generic buy-in and pot split.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

from ..cards import JOKER, RANKS
from ..display import Column, Fact, GameDisplay, Words
from ..errors import RecordError, say
from ..rounds import Round
from ..settings import BUY_IN, CURRENCY, POT_SPLIT, Settings, SettingSpec
from ..state import GameState, NextRound, RoundResult
from ..variant import DeckAdvice, Variant

#: Deal r's contract (RULES.md). A set is 3+ cards of one rank, a run 4+ in suit sequence.
DEAL_CONTRACTS: tuple[str, ...] = (
    "two sets",
    "one set and one run",
    "two runs",
    "three sets",
    "two sets and one run",
    "one set and two runs",
    "three runs",
)
#: The same, short enough for a column of the printed sheet.
SHORT_CONTRACTS: tuple[str, ...] = (
    "2 sets",
    "set+run",
    "2 runs",
    "3 sets",
    "2 sets+run",
    "set+2 runs",
    "3 runs",
)
MAX_DEALS = len(DEAL_CONTRACTS)


class ContractDisplay(GameDisplay["Contract"]):
    round_head = say("word.deal.head")
    round_word = "deal"
    wild_key = "jokers"
    setup_hint = (
        "Everyone plays the same deal's contract; going out needs it laid down first. In the "
        "last deal (three runs) you go out all at once, with no discard."
    )
    help_rules = ("help.contract.deals", "help.contract.scoring")

    # -- what the pages and printed sheets show -------------------------------------------
    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        deals = self.variant.deals(settings)
        cards = " ".join(str(c) for c in settings.cards[:deals])
        return [
            Fact(say("fact.deals"), say("fact.deals_lowest", deals=deals)),
            Fact(say("fact.cards"), say("fact.deal_by_deal", cards=cards)),
            Fact(say("fact.aces"), say("fact.count", points=settings.ace_points)),
            Fact(say("fact.jokers"), say("fact.wild_count", points=settings.joker_points)),
        ]

    def banner_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        return [
            say("banner.deal_of", number=nr.number, deals=self.variant.deals(settings)),
            say(f"contract.{min(nr.number, MAX_DEALS)}"),
            say("banner.cards", count=nr.cards_per_player),
        ]

    def banner_notes_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        notes = super().banner_notes_said(nr, settings)
        if nr.number == MAX_DEALS:
            notes.append(say("banner.contract_last"))
        return notes

    def sheet_columns(self, rounds: int) -> list[Column]:
        deal, contract, cards = (
            self.round_said("head"),
            say("sheet.column.contract"),
            say("sheet.column.cards"),
        )
        return [Column(deal, 5, "right"), Column(contract, 11), Column(cards, 6, "right")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[Words, ...]:
        return (
            str(number),
            say(f"sheet.short.{min(number, MAX_DEALS)}"),  # SHORT_CONTRACTS in words
            str(self.variant.cards_per_player(number, players, settings)),
        )

    def blank_columns(self) -> list[Column]:
        return [
            Column(self.round_said("head"), 4, "right", "num"),
            Column(say("sheet.column.contract"), 19, "left", "text"),
            Column(say("sheet.column.cards"), 5, "right", "num"),
        ]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[Words, ...]] | None:
        return [
            (
                str(n),
                say(f"contract.{min(n, MAX_DEALS)}"),  # DEAL_CONTRACTS in words
                str(self.variant.cards_per_player(n, players, settings)),
            )
            for n in range(1, self.variant.deals(settings) + 1)
        ]

    def blank_note(self, settings: Settings) -> Words:
        return say("sheet.note.contract", aces=settings.ace_points, jokers=settings.joker_points)


class Contract(Variant):
    name = "contract"
    title = "Contract Rummy"
    description = (
        "Seven deals, each with a contract to lay down before going out: two sets, a set "
        "and a run, ... three runs. Penalty points for what is left; low total wins."
    )
    players_advised = (3, 8)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec(
            "deals",
            "Deals",
            "whole",
            "7, or 6 for Liverpool (which leaves out the last deal, three runs).",
            low=1,
            high=MAX_DEALS,
        ),
        SettingSpec(
            "cards",
            "Cards dealt in each deal",
            "wholes",
            "One number per deal, e.g. 10 10 10 10 12 12 12.",
            low=1,
            high=20,
        ),
        SettingSpec("ace_points", "Aces count", "whole", low=1, high=50),
        SettingSpec("joker_points", "Jokers count", "whole", low=0, high=100),
        BUY_IN,
        POT_SPLIT,
        CURRENCY,
    )
    defaults: ClassVar[Mapping[str, Any]] = {
        "deals": 7,
        "ace_points": 15,
        "joker_points": 25,
        "cards": (10, 10, 10, 10, 12, 12, 12),
    }
    card_codes = frozenset({*RANKS, JOKER})

    # -- settings ---------------------------------------------------------------------
    def check_settings(self, settings: Settings, raw: Mapping[str, Any]) -> None:
        deals = settings.deals or MAX_DEALS
        if len(settings.cards) < deals:
            raise RecordError(
                say("contract.cards", given=len(settings.cards), deals=deals),
                field="cards",
            )

    def deals(self, settings: Settings) -> int:
        return settings.deals or MAX_DEALS

    def last_round(self, settings: Settings) -> int | None:
        return self.deals(settings)

    # -- the deal -----------------------------------------------------------------------
    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        values = {r: int(r) for r in RANKS if r.isdigit()}
        values.update({"10": 10, "J": 10, "Q": 10, "K": 10})
        values.update({"A": settings.ace_points, JOKER: settings.joker_points})
        return values

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        cards = settings.cards
        return cards[min(number, len(cards)) - 1]

    def wild(self, number: int) -> list[str] | None:
        return [JOKER]

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        # RULES.md: two decks with 4 jokers for 3-5 players, three with 6 for 6-8; beyond,
        # the same cards per player: three decks for every eight players.
        decks = 2 if players <= 5 else max(3, math.ceil(players * 3 / 8))
        return DeckAdvice(decks, 2 * decks)

    def contract(self, number: int) -> str:
        return DEAL_CONTRACTS[min(number, MAX_DEALS) - 1]

    # -- the replay ---------------------------------------------------------------------
    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        if result.number >= self.deals(settings):
            self.finish(state)

    display_class = ContractDisplay
