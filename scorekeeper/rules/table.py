"""Who sits at the table for a round, in the order the table counts its hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .names import name_key
from .replay import Standings
from .rounds import join_name


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """A player of a round: their seat, whether they join in it, their total before it
    (a joiner: where the replay starts them) and, where the game has them, the words for
    laying down their contract (Dummy)."""

    name: str
    seat: int
    joining: bool = False
    total_before: int = 0
    contract: str | None = None


def round_seats(
    s: Standings, number: int, waiting: Sequence[str | Mapping[str, Any]] = ()
) -> list[RoundSeat]:
    """Who plays round ``number`` (one played, or the next with the late joiners
    ``waiting`` for it), in seat order."""
    if number <= s.rounds_played:
        return _played(s, number)
    variant = s.variant
    takes_contracts = "contracts" in variant.round_inputs
    players = [
        RoundSeat(
            p.name,
            p.seat,
            total_before=p.total,
            contract=variant.display.contract_choice(p.contract or 0) if takes_contracts else None,
        )
        for p in s.players
        if p.in_contention
    ]
    if waiting:
        # Seats as the engine gives them once the joiners sat down (a newcomer may sit
        # between two players: the seats after theirs move on).
        _, start = s.join_terms()
        seats = {name_key(n): seat for n, seat in s.seats_after_joins(waiting).items()}
        players = [replace(p, seat=seats.get(name_key(p.name), p.seat)) for p in players]
        for name in map(join_name, waiting):
            seat = seats.get(name_key(name))
            known = next((p.name for p in s.players if name_key(p.name) == name_key(name)), name)
            if seat is not None:
                players.append(RoundSeat(known, seat, True, start))
        players.sort(key=lambda p: p.seat)
    return players


def _played(s: Standings, number: int) -> list[RoundSeat]:
    variant = s.variant
    result = s.rounds[number - 1]
    in_round = set(result.scores) | ({result.went_out} if result.went_out else set())
    before = s.rounds[number - 2].totals if number > 1 else {}
    starts = {e.player: e.value for e in result.events if e.kind == "join"}
    handicaps = {p.name: p.handicap for p in s.record.players}
    contract = variant.display.contract_choice(0) if "contracts" in variant.round_inputs else None
    return [
        RoundSeat(
            p.name,
            p.seat,
            joining=p.name in starts,
            total_before=(
                starts[p.name] or 0
                if p.name in starts
                else before.get(p.name, handicaps.get(p.name, 0))
            ),
            contract=contract,
        )
        for p in s.players
        if p.name in in_round
    ]


def counting_order(
    s: Standings,
    number: int,
    players: Sequence[RoundSeat],
    waiting: Sequence[str | Mapping[str, Any]] = (),
) -> list[RoundSeat]:
    """``players`` (in seat order) in the order the table counts its hands: from the
    player who starts the round (the seat after the dealer's)."""
    if number <= s.rounds_played:
        dealer = s.rounds[number - 1].dealer
    else:
        upcoming = s.upcoming(waiting)
        dealer = upcoming.dealer if upcoming else ""
    seats = {name_key(p.name): p.seat for p in s.players}
    seats.update({name_key(p.name): p.seat for p in players})
    dealer_seat = seats.get(name_key(dealer))
    if dealer_seat is None:
        return list(players)
    first = next((i for i, p in enumerate(players) if p.seat > dealer_seat), 0)
    return [*players[first:], *players[:first]]
