"""Dummy Rummy (seed 004_d2a8c6177b3c0ece.txt): twelve contracts in order, each at the
player's own pace; the game ends after someone completes the twelfth."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import JOKER, RANKS
from ..display import Column, GameDisplay, Words
from ..errors import RecordError, say
from ..names import name_key
from ..rounds import Round
from ..settings import Settings
from ..state import Event, GameState, NextRound, PlayerStanding, RoundResult
from ..variant import DeckAdvice, Groups, Variant, group_by

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


class DummyDisplay(GameDisplay["Dummy"]):
    wild_key = "dummy"
    setup_hint = (
        "The game ends after the round in which someone lays down contract 12; among those, "
        "the lowest total wins."
    )
    help_rules = ("help.dummy.end",)

    def banner_notes_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        notes = super().banner_notes_said(nr, settings)
        if nr.contracts:
            on = ", ".join(f"{name} {c}" for name, c in nr.contracts.items())
            notes.append(say("banner.contracts", on=on))
        return notes

    def contract_choice(self, contract: int) -> Words | None:
        if 1 <= contract <= len(CONTRACTS):
            return say("round.contract", contract=contract, what=say(f"sheet.dummy.{contract}"))
        return say("round.contract_laid")

    def standing_note(self, player: PlayerStanding) -> Words:
        if player.contract is None:
            return super().standing_note(player)
        if player.contract > len(CONTRACTS):
            return say("note.all_contracts")
        return say("note.on_contract", contract=player.contract)

    def progress(self, player: PlayerStanding) -> str | None:
        if player.contract is None:
            return None
        return f"C{player.contract}" if player.contract <= len(CONTRACTS) else "C✓"

    def footers(
        self, players: Sequence[PlayerStanding], rebuys: Mapping[str, int]
    ) -> list[tuple[Words, list[Words]]]:
        done = say("sheet.row.done")
        laid: list[Words] = [
            done if (p.contract or 0) > len(CONTRACTS) else str(p.contract) for p in players
        ]
        return [(say("sheet.row.contract"), laid)]

    def blank_columns(self) -> list[Column]:
        contract = say("sheet.column.contract")
        return [Column("", 3, "right", "num"), Column(contract, 21, "left", "text")]

    def blank_rows(self, players: int, settings: Settings) -> list[tuple[Words, ...]] | None:
        return [(f"{i}", say(f"sheet.dummy.{i}")) for i in range(1, len(CONTRACTS) + 1)]

    def blank_note(self, settings: Settings) -> Words:
        return say("sheet.note.dummy")


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
                say("dummy.out_contract", name=rnd.went_out),
                round=number,
                player=rnd.went_out,
                field="contracts",
            )
        for raw in rnd.contracts:
            if state.player(raw) is None:
                raise RecordError(
                    say("dummy.not_in_game", name=raw),
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

    display_class = DummyDisplay
