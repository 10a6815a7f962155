"""Pool Rummy's numbers, shared by its engine (:mod:`.pool`) and what its pages show
(:mod:`.pool_display`): the defaults each pool fixes, drops left, the rejoin offer and the
split of the pot. Pure functions of totals and settings."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import say
from ..questions import spoken_list
from ..settings import Settings
from ..state import EventKind, RejoinOffer

#: RULES.md: the pool fixes the defaults of the other numbers.
POOL_KEYS = ("first_drop", "middle_drop", "full_count", "wrong_show", "rejoin_limit")
POOL_DEFAULTS: dict[int, tuple[int, ...]] = {
    101: (20, 40, 80, 80, 79),
    201: (25, 50, 80, 80, 174),
    61: (15, 30, 60, 60, 44),
}
#: A marked hand's event on the sheet (the record's word for a first drop is "drop").
MARKER_EVENTS: dict[str, EventKind] = {
    "drop": "first_drop",
    "middle_drop": "middle_drop",
    "full_count": "full_count",
    "wrong_show": "wrong_show",
}


def pool_defaults(pool: int) -> dict[str, int]:
    """The numbers a pool of 101, 201 or 61 fixes (RULES.md's table)."""
    return dict(zip(POOL_KEYS, POOL_DEFAULTS[pool], strict=True))


def drops_left(total: int, settings: Settings) -> int:
    """RULES.md: the first drops a player could still take and stay in,
    ``floor((pool - 1 - total) / first_drop)`` (never below 0)."""
    return max(0, (settings.pool - 1 - total) // settings.first_drop)


def split_shares(pot_cents: int, players: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The pot split by weights: ``players`` as (name, weight), best placed first. Each
    share is floored to the minor unit and the leftover goes to the best placed; weights
    that are all 0 split equally (RULES.md's interpretation)."""
    weights = [w for _, w in players]
    if not any(weights):
        weights = [1] * len(players)
    whole = sum(weights)
    shares = {name: pot_cents * w // whole for (name, _), w in zip(players, weights, strict=True)}
    shares[players[0][0]] += pot_cents - sum(shares.values())
    return shares


def offer_for(
    number: int,
    out: Sequence[tuple[str, int]],
    still_in: Sequence[tuple[str, int]],
    settings: Settings,
) -> RejoinOffer | None:
    """Whether the players ``out`` in deal ``number`` may rejoin, given the totals of the
    players ``still_in`` (both as (name, total)); None when nobody went out, or when one
    player is left in (the game is over: the last one in wins)."""
    if not out or len(still_in) < 2:
        return None
    limit = settings.rejoin_limit
    over = [say("question.has_total", name=n, total=t) for n, t in still_in if t > limit]
    return RejoinOffer(
        round=number,
        players=tuple(out),
        back_at=max(total for _, total in still_in) + 1,
        fee=settings.buy_in,
        refusal=say("question.above_limit", who=spoken_list(over), limit=limit) if over else None,
    )
