"""Vegas Rummy (seed 000_08c591a177e6cf10.txt): penalty points, expiries and re-buys,
late joiners, and the flipped wild card."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import JOKER, RANKS, WILD, describe_flipped_card
from ..display import ChartLine, Column, Fact, GameDisplay, Words, pot_fact
from ..errors import RecordError, Said, say
from ..money import format_money
from ..names import clean_name, name_key
from ..rounds import MAX_PLAYERS, Round
from ..settings import BUY_IN, CURRENCY, MAX_POINTS, POT_SPLIT, Settings, SettingSpec
from ..state import Event, GameState, NextRound, PlayerStanding, PlayerState, RoundResult
from ..variant import DeckAdvice, Groups, Variant, face_values, group_by, join_terms


class VegasDisplay(GameDisplay["Vegas"]):
    wild_key = "vegas"
    card_hint = "K 7 W"
    setup_hint = (
        'Re-buy is the default when someone expires; you choose "drop" for them when it '
        "happens. A late joiner pays the buy-in times the most expiries of anyone still in "
        "(at least one buy-in) and starts at that player's total."
    )
    help_rules = (
        "help.vegas.rebuy",
        "help.vegas.final",
        "help.vegas.join",
        "help.vegas.flipped",
        "help.vegas.ranking",
    )

    def card_hint_said(self) -> str | Said:
        return say("round.card_hint.vegas")  # W is the flipped card

    def table_rules(self, settings: Settings, players: int) -> list[Fact]:
        cur = settings.currency
        money = settings.buy_in > 0
        facts = [Fact(say("fact.max_score"), str(settings.max_score))]
        if money:
            facts.append(Fact(say("fact.buy_in"), format_money(settings.buy_in, cur)))
            facts.append(pot_fact(settings))
        if money and settings.second_runner_up_buy_in:
            facts.append(Fact(say("fact.third_place"), say("fact.third_place_gets")))
        facts.append(
            Fact(say("fact.cards"), say("fact.cards_each", count=settings.cards_per_player))
        )
        if settings.ace_points != 1:
            facts.append(Fact(say("fact.aces"), say("fact.count", points=settings.ace_points)))
        rebuy = (
            say("fact.rebuy_for", buy_in=format_money(settings.buy_in, cur))
            if money
            else say("fact.rebuy_back")
        )
        facts.append(Fact(say("fact.rebuy"), rebuy))
        solidarity = say("fact.wilds_stay" if settings.meld_solidarity else "fact.wilds_swap")
        strictness = say("fact.one_wild" if settings.meld_strictness else "fact.any_wilds")
        melds = say("fact.melds_both", first=solidarity, second=strictness)
        facts.append(Fact(say("fact.melds"), melds))
        return [*facts, self._deck(settings, players)]

    def banner_notes_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        return [say("banner.vegas_flip")]

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        return [ChartLine(say("fact.max_score"), settings.max_score)]

    def footers(
        self, players: Sequence[PlayerStanding], rebuys: Mapping[str, int]
    ) -> list[tuple[Words, list[Words]]]:
        if not any(rebuys.values()):
            return []
        return [(say("sheet.row.rebuys"), [str(rebuys.get(p.name, 0)) for p in players])]

    def sheet_columns(self, rounds: int) -> list[Column]:
        return [*super().sheet_columns(rounds), Column(say("sheet.column.wild"), 6, "center")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[str, ...]:
        return (str(number), describe_flipped_card(wild) if wild else "")

    def blank_columns(self) -> list[Column]:
        return [*super().blank_columns(), Column(say("sheet.column.wild"), 5, "center", "box")]

    def blank_note(self, settings: Settings) -> Words:
        if not settings.buy_in:
            return say("sheet.note.vegas", max_score=settings.max_score)
        buy_in = format_money(settings.buy_in, settings.currency)
        return say("sheet.note.vegas_for", max_score=settings.max_score, buy_in=buy_in)

    def blank_footers(self) -> list[Words]:
        return [say("sheet.row.total"), say("sheet.row.rebuys")]


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

    def check_handicap(self, name: str, handicap: int, settings: Settings) -> None:
        if handicap >= settings.max_score:
            raise RecordError(
                say("vegas.handicap", name=name, handicap=handicap, most=settings.max_score),
                player=name,
            )

    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        values = face_values(settings.ace_points)
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
                        say("vegas.join_too_many", name=name, most=MAX_PLAYERS),
                        round=number,
                        player=name,
                    )
                player = PlayerState(
                    name, seat=_new_seat(state, rnd, name, number), total=0,
                    scores=[None] * (number - 1),
                )  # fmt: skip
                state.players.append(player)
            elif rnd.sits_after(name) is not None:
                raise RecordError(
                    say("vegas.own_seat", name=player.name),
                    round=number,
                    player=player.name,
                    field="joins",
                )
            elif player.in_contention:
                raise RecordError(
                    say("vegas.join_already_in", name=player.name),
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
                    say("vegas.ended_no_drop", name=below[0].name),
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
                    say("vegas.not_in_game", name=who)
                    if dropping is None or not dropping.in_contention
                    else say(
                        "vegas.did_not_expire",
                        name=who,
                        total=dropping.total,
                        most=settings.max_score,
                    )
                )
                raise RecordError(
                    say("vegas.cannot_drop", name=who, why=why),
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

    display_class = VegasDisplay


def _new_seat(state: GameState, rnd: Round, name: str, number: int) -> int:
    """A newcomer's seat: right after the player the round says they sit after (who must
    be at the table now), else after the last seat."""
    after = rnd.sits_after(name)
    if after is None:
        return max((p.seat for p in state.players), default=-1) + 1
    neighbour = state.player(after)
    if neighbour is None or not neighbour.in_contention:
        raise RecordError(
            say("vegas.sit_after", name=name, after=after),
            round=number,
            player=name,
            field="joins",
        )
    return state.seat_after(neighbour)
