"""Texas Rummy (seed 001_2615b475cdca3eb3.txt): eleven rounds with a new wild rank each,
the last three multiplied, and a dime from the pot for going out."""

from __future__ import annotations

import functools
import math
from typing import ClassVar

from ..cards import JOKER, RANK_NAMES, RANKS
from ..display import Column, Fact, GameDisplay, Words, pot_fact
from ..errors import Said, say
from ..money import format_money
from ..rounds import Round
from ..settings import CURRENCY, POT_SPLIT, Settings, SettingSpec
from ..state import Event, GameState, NextRound, PlayerState, RoundResult
from ..variant import DeckAdvice, Variant, face_values


class TexasDisplay(GameDisplay["Texas"]):
    wild_key = "texas"
    round_head = say("sheet.column.wild")
    setup_hint = (
        "A dime is paid to whoever goes out only while the pot still holds a full one; the "
        "lowest total after round 11 takes the rest."
    )
    help_rules = ("help.texas.dimes",)

    def table_rules(self, settings: Settings, players: int) -> list[Fact]:
        cur = settings.currency
        facts = [
            Fact(say("fact.ante"), format_money(settings.ante, cur)),
            Fact(
                say("fact.going_out"),
                say("fact.takes_dime", per_round=format_money(settings.per_round, cur)),
            ),
        ]
        if settings.buy_in:
            facts.append(Fact(say("fact.buy_in"), format_money(settings.buy_in, cur)))
        if tuple(settings.pot_split) == (100,):
            facts.append(Fact(say("fact.pot"), say("fact.texas_pot")))
        else:
            facts.append(pot_fact(settings))
        facts.append(Fact(say("fact.rounds"), say("fact.texas_rounds")))
        return [*facts, self._deck(settings, players)]

    def banner_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        rank = self.variant.wild_rank(nr.number) if 1 <= nr.number <= self.variant.ROUNDS else ""
        parts: list[Words] = [
            say("banner.numbered", word=self.round_said("head"), number=nr.number),
            say("banner.rank_wild", rank=say(f"rank.{rank}")) if rank else f"{nr.label} wild",
            say("banner.cards", count=nr.cards_per_player),
        ]
        if nr.multiplier > 1:
            parts.append(f"×{nr.multiplier}")
        return parts

    def went_out_note(self, settings: Settings) -> str:
        if not settings.per_round:
            return ""
        return f" (takes {format_money(settings.per_round, settings.currency)} from the pot)"

    def went_out_said(self, settings: Settings) -> Said:
        if not settings.per_round:
            return say("mark.went_out")
        dime = format_money(settings.per_round, settings.currency)
        return say("mark.went_out.dime", per_round=dime)

    def sheet_columns(self, rounds: int) -> list[Column]:
        cards = say("sheet.column.cards")
        return [
            Column(self.round_said("head"), 7),
            Column(cards, 6, "right"),
            Column("", 3, "center"),
        ]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[Words, ...]:
        m = self.variant.multiplier(number)
        return (
            self.variant.round_label_said(number),
            str(self.variant.cards_per_player(number, players, settings)),
            f"×{m}" if m > 1 else "",
        )

    def blank_columns(self) -> list[Column]:
        return [
            Column(say("sheet.column.wild"), 8, "left", "rank"),
            Column(say("sheet.column.cards"), 5, "right", "num"),
            Column("", 3, "center", "mult"),
        ]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[Words, ...]] | None:
        return [
            self.sheet_labels(n, players, settings, None) for n in range(1, self.variant.ROUNDS + 1)
        ]

    def blank_note(self, settings: Settings) -> Words:
        return say(
            "sheet.note.texas", per_round=format_money(settings.per_round, settings.currency)
        )

    def warnings_said(self, players: int, settings: Settings) -> list[Words]:
        notes = super().warnings_said(players, settings)
        antes = players * settings.ante
        rounds = self.variant.ROUNDS
        if settings.per_round and antes < rounds * settings.per_round:
            money = functools.partial(format_money, currency=settings.currency)
            notes.append(
                say(
                    "warn.texas_dry",
                    antes=money(antes),
                    players=players,
                    ante=money(settings.ante),
                    per_round=money(settings.per_round),
                    rounds=rounds,
                    paid=money(rounds * settings.per_round),
                    dry=antes // settings.per_round,
                )
            )
        return notes


class Texas(Variant):
    name = "texas"
    title = "Texas Rummy"
    description = (
        "11 rounds of 3 to 13 cards, a new wild rank each round, the last three "
        "rounds doubled and tripled. Low total wins; going out earns a dime."
    )
    players_advised = (2, 10)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec(
            "ante",
            "Ante",
            "money",
            "Each player's stake at the start: whoever goes out is paid from it each round, "
            "and what is left is paid out at the end.",
        ),
        SettingSpec("per_round", "Per round", "money", "Paid from the pot to whoever goes out."),
        SettingSpec(
            "buy_in",
            "Buy-in",
            "money",
            "Only if your table plays one besides the ante (0: none): a second stake at the "
            "start, into the same pot.",
        ),
        POT_SPLIT,
        CURRENCY,
    )
    card_codes = frozenset({*RANKS, JOKER})
    ROUNDS = 11

    def wild_rank(self, number: int) -> str:
        return RANKS[number + 1]  # round 1: threes ... round 11: kings

    def last_round(self, settings: Settings) -> int | None:
        return self.ROUNDS

    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        values = face_values(20)
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

    def round_label_said(self, number: int) -> str | Said:
        return say(f"rank.{self.wild_rank(number)}") if 1 <= number <= self.ROUNDS else str(number)

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        # RULES.md: 2 players one deck, 3-6 two, 7-10 three (two jokers a deck); beyond
        # ten, keep the same cards per player: three decks for every ten players.
        decks = 1 if players <= 2 else 2 if players <= 6 else max(3, math.ceil(players * 3 / 10))
        return DeckAdvice(decks, 2 * decks)

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

    display_class = TexasDisplay
