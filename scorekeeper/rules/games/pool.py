"""Pool Rummy (Indian Rummy, 101 / 201 / 61 pool), as RULES.md describes it.

Thirteen cards, penalty points, low is good. Each deal one player shows (goes out) and
scores 0; every other hand scores its count, capped at the full count, or a marker's
points (a first or middle drop, a full count, a wrong show). A total that reaches the pool
puts the player out; while nobody still in is over the rejoin limit, a player just out may
rejoin at the highest total still in plus one, paying the entry fee again. The last one in
takes the pot, or the players still in agree to split it (equally, or by drops left).
What the pages and sheets show of the game is :mod:`.pool_display`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..cards import JOKER, RANKS, count_hand
from ..errors import RecordError, say
from ..rounds import SPLITS, Hand, Round
from ..settings import BUY_IN, CURRENCY, Settings, SettingSpec, parse_settings
from ..state import Event, GameState, PlayerState, RejoinOffer, RoundResult
from ..variant import DeckAdvice, Groups, HandMarker, Variant, face_values, group_by
from .pool_display import PoolDisplay
from .pool_terms import (
    MARKER_EVENTS,
    POOL_DEFAULTS,
    drops_left,
    offer_for,
    pool_defaults,
    split_shares,
)


class Pool(Variant):
    name = "pool"
    title = "Pool Rummy"
    description = (
        "13 cards, low is good. Reach the pool (101, 201 or 61) and you are out; rejoin for "
        "the entry fee while nobody is close. Last one in wins the pot, or the table splits it."
    )
    players_advised = (2, 6)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec(
            "pool",
            "Pool",
            "choice",
            "101, 201 or 61: out at that total; it fixes the numbers below.",
            choices=(101, 201, 61),
        ),
        SettingSpec(
            "first_drop", "First drop", "whole", "Dropped before drawing.", low=1, follows="pool"
        ),
        SettingSpec(
            "middle_drop", "Middle drop", "whole", "Dropped after drawing.", low=1, follows="pool"
        ),
        SettingSpec(
            "full_count",
            "Full count",
            "whole",
            "Gave up with everything counted; no counted hand scores more.",
            low=1,
            follows="pool",
        ),
        SettingSpec(
            "wrong_show", "Wrong show", "whole", "Declared an invalid show.", low=1, follows="pool"
        ),
        SettingSpec(
            "rejoin_limit",
            "Rejoin limit",
            "whole",
            "A player out may rejoin only while nobody still in has more.",
            low=0,
            follows="pool",
        ),
        BUY_IN,
        CURRENCY,
    )
    defaults: ClassVar[Mapping[str, Any]] = {"pool": 101, **pool_defaults(101)}
    nobody_out_allowed = False  # someone shows, or is the last one left when all drop
    card_codes = frozenset({*RANKS, JOKER})
    round_inputs = frozenset({"hand_markers", "wild_rank"})
    wild_rank_points = 0
    split_kinds = SPLITS

    # -- settings -------------------------------------------------------------------
    def parse_settings(self, raw: Any) -> Settings:
        """The pool chosen fixes the defaults of the other numbers (RULES.md's table)."""
        pool = raw.get("pool") if isinstance(raw, Mapping) else None
        defaults = dict(self.defaults)
        if type(pool) is int and pool in POOL_DEFAULTS:
            defaults.update(pool_defaults(pool))
        settings = parse_settings(
            raw, variant=self.name, specs=self.settings_specs, defaults=defaults
        )
        self.check_settings(settings, raw or {})
        return settings

    def check_settings(self, settings: Settings, raw: Mapping[str, Any]) -> None:
        if settings.rejoin_limit >= settings.pool:
            raise RecordError(
                say("pool.rejoin_limit", pool=settings.pool, value=settings.rejoin_limit),
                field="rejoin_limit",
            )

    # -- the deal -----------------------------------------------------------------------
    def card_values(self, number: int, settings: Settings) -> dict[str, int]:
        """A K Q J 10 count 10, 2-9 face value, printed jokers 0 (the deal's wild rank
        is 0 too: :meth:`hand_points`)."""
        values = face_values(10)
        values[JOKER] = 0
        return values

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 13

    def wild(self, number: int) -> list[str] | None:
        return [JOKER]

    def deck_advice(self, players: int, settings: Settings) -> DeckAdvice:
        # RULES.md: one deck for 2 players, two for 3 or more (advice); beyond six, a
        # deck for every three players.
        decks = 1 if players <= 2 else max(2, -(-players // 3))
        return DeckAdvice(decks, 2 * decks)

    def hand_markers(self, settings: Settings) -> tuple[HandMarker, ...]:
        return (
            HandMarker("drop", "D", settings.first_drop),
            HandMarker("middle_drop", "MD", settings.middle_drop),
            HandMarker("full_count", "FC", settings.full_count),
            HandMarker("wrong_show", "WS", settings.wrong_show),
        )

    def hand_cap(self, settings: Settings) -> int | None:
        return settings.full_count

    def hand_points(
        self, rnd: Round, hands: Mapping[str, Hand], number: int, settings: Settings
    ) -> dict[str, int]:
        """A marker scores its points; a count (typed or of the cards, the deal's wild rank
        and printed jokers 0) scores at most the full count."""
        values = self.card_values(number, settings)
        if rnd.wild is not None:
            values[rnd.wild] = 0
        marked = {m.key: m.points for m in self.hand_markers(settings)}
        points: dict[str, int] = {}
        for name, hand in hands.items():
            if isinstance(hand, str):
                points[name] = marked[hand]
            else:
                counted = hand if isinstance(hand, int) else count_hand(hand, values)
                points[name] = min(counted, settings.full_count)
        return points

    # -- the replay ---------------------------------------------------------------------
    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        """The markers shown, the players who reached the pool out, the rejoins, the end."""
        number = result.number
        for name, hand in rnd.hands.items():
            player = state.player(name)
            if isinstance(hand, str) and player is not None:
                points = result.hands[player.name]
                result.events.append(Event(MARKER_EVENTS[hand], player.name, points))
        out = [p for p in state.active if p.total >= settings.pool]
        for p in out:
            p.in_contention = False
            p.dropped_round = number
            result.events.append(Event("eliminate", p.name, p.total))
        offer = offer_for(
            number,
            [(p.name, p.total) for p in out],
            [(p.name, p.total) for p in state.active],
            settings,
        )
        for raw in rnd.rejoins:
            self._rejoin(state, raw, offer, result, settings)
        if len(state.active) == 1:
            state.finished = True
            state.winners = [state.active[0].name]

    def _rejoin(
        self,
        state: GameState,
        raw: str,
        offer: RejoinOffer | None,
        result: RoundResult,
        settings: Settings,
    ) -> None:
        number = result.number
        player = state.player(raw)
        who = player.name if player is not None else raw
        if player is None or player.in_contention or player.dropped_round != number:
            raise RecordError(
                say("pool.rejoin_not_out", name=who),
                round=number,
                player=who,
                field="rejoins",
            )
        if offer is None:
            last = state.active[0].name
            raise RecordError(
                say("pool.rejoin_over", name=who, last=last),
                round=number,
                player=who,
                field="rejoins",
            )
        if offer.refusal is not None:
            raise RecordError(
                say("question.cannot_rejoin", name=who, why=offer.refusal),
                round=number,
                player=who,
                field="rejoins",
            )
        player.in_contention = True
        player.dropped_round = None
        player.total = offer.back_at
        state.pay_in(player.name, settings.buy_in, "rejoin", number)
        result.events.append(Event("rejoin", player.name, offer.back_at, -settings.buy_in))

    def rejoin_offer(self, result: RoundResult, settings: Settings) -> RejoinOffer | None:
        """Read from a deal played with nobody rejoining: who is out, at what totals."""
        out = [(e.player, e.value or 0) for e in result.events if e.kind == "eliminate"]
        gone = {name for name, _ in out}
        still_in = [(name, total) for name, total in result.totals.items() if name not in gone]
        return offer_for(result.number, out, still_in, settings)

    def agree(self, state: GameState, rnd: Round, number: int, settings: Settings) -> RoundResult:
        """RULES.md: before a deal the players still in may share the pot instead of
        playing on: equally, or by drops left; each share floored, the leftover to the
        best placed (lowest total, then the earliest seat)."""
        if not state.rounds:
            raise RecordError(say("pool.split_first"), round=number, field="split")
        still_in = sorted(state.active, key=lambda p: (p.total, p.seat))
        weights = [
            (p.name, drops_left(p.total, settings) if rnd.split == "drops" else 1) for p in still_in
        ]
        shares = split_shares(state.pot_cents, weights)
        state.finished = True
        state.winners = [p.name for p in state.active]
        for p in state.players:
            p.scores.append(0 if p.in_contention else None)
        return RoundResult(
            number=number,
            dealer=state.rounds[-1].dealer,
            went_out=None,
            scores={p.name: 0 for p in still_in},
            hands={},
            totals={p.name: p.total for p in still_in},
            events=[
                Event("split", p.name, drops_left(p.total, settings), shares[p.name])
                for p in state.active
            ],
            split=rnd.split,
        )

    def payouts(self, state: GameState, groups: Groups, settings: Settings) -> dict[str, int]:
        last = state.rounds[-1]
        if last.split is None:
            return super().payouts(state, groups, settings)
        return {e.player: e.amount_cents or 0 for e in last.events if e.kind == "split"}

    def ranking(self, state: GameState) -> Groups:
        """RULES.md: the players still in (or sharing a split) by total, lowest first; then
        the players out, the later out first (a player who rejoined: by their last time
        out), the lower total first among those out in the same deal."""
        out: list[PlayerState] = [p for p in state.players if not p.in_contention]
        return group_by(state.active, lambda p: p.total) + group_by(
            out, lambda p: (-(p.dropped_round or 0), p.total)
        )

    display_class = PoolDisplay
