"""Rummy, classic (seed 002_55790a06e07687f5.txt): whoever goes out scores the other
hands; first to the target, or the highest after a fixed number of deals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..display import ChartLine, Fact, GameDisplay
from ..errors import RecordError, say
from ..rounds import Round
from ..settings import BUY_IN, CURRENCY, MAX_POINTS, MAX_ROUNDS, POT_SPLIT, Settings, SettingSpec
from ..state import Event, GameState, RoundResult
from ..variant import Variant


class RummyDisplay(GameDisplay["Rummy"]):
    round_word = "deal"  # the table deals hands; the settings count deals

    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        if settings.deals is not None:
            end = Fact(say("fact.deals"), say("fact.deals_highest", deals=settings.deals))
        else:
            end = Fact(say("fact.target"), say("fact.first_to", target=settings.target_score))
        return [end, *super().play_rules(settings, players)]

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        if settings.deals is not None:
            return []  # a fixed number of deals: no total ends the game
        return [ChartLine(say("fact.target"), settings.target_score)]


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
            raise RecordError(say("rummy.target_or_deals"), field="deals")

    def json_keys(self, settings: Settings) -> frozenset[str]:
        # A fixed number of deals replaces the target; without deals, say nothing of them.
        drop = {"target_score"} if settings.deals is not None else {"deals"}
        return self.setting_keys - drop

    def last_round(self, settings: Settings) -> int | None:
        return int(settings.deals) if settings.deals is not None else None

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

    display_class = RummyDisplay
