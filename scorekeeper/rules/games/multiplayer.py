"""Multiplayer Rummy (seed 003_1f3fe2b61cdb1ea7.txt): Rummy for 2 to 4 where going rummy
scores double."""

from __future__ import annotations

from typing import ClassVar

from ..display import Words
from ..errors import say
from ..settings import BUY_IN, CURRENCY, MAX_POINTS, POT_SPLIT, Settings, SettingSpec
from .rummy import Rummy, RummyDisplay


class MultiplayerDisplay(RummyDisplay):
    round_word = "round"  # a round, as Multiplayer tables say (Rummy says "deal")

    def blank_note(self, settings: Settings) -> Words:
        return say("sheet.note.multiplayer")


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

    display_class = MultiplayerDisplay
