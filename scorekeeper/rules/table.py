"""Who sits at the table for a round, in the order the table counts its hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import RecordError, Said, say
from .names import name_key
from .replay import Standings
from .rounds import MAX_PLAYERS, join_name
from .state import NextRound

Waiting = Sequence[str | Mapping[str, Any]]  # late joiners waiting, as a record's joins


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """A player of a round: their seat, whether they join in it, their total before it
    (a joiner: where the replay starts them) and, where the game has them, the words for
    laying down their contract (Dummy)."""

    name: str
    seat: int
    joining: bool = False
    total_before: int = 0
    contract: str | Said | None = None  # a sentence: Said


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


# ------------------------------------------------------------------ late joiners ---
def join_candidates(s: Standings, waiting: Waiting, people: Sequence[str]) -> list[str]:
    """Who of ``people`` (the night's) could join the game next round."""
    playing = {name_key(p.name) for p in s.players if p.in_contention}
    joining = {name_key(join_name(n)) for n in waiting}
    return [n for n in people if name_key(n) not in playing | joining]


def seat_choices(s: Standings, waiting: Waiting) -> list[str]:
    """Whom a newcomer can sit after: the players at the table next round, clockwise from
    the first seat, then those joining before them."""
    at_table = sorted((p for p in s.players if p.in_contention), key=lambda p: p.seat)
    return [p.name for p in at_table] + [join_name(n) for n in waiting]


def joiners_seated(s: Standings, waiting: Waiting) -> list[tuple[str, str]]:
    """Each waiting joiner and whom they will sit after, as the engine seats them (a
    newcomer after the player named or the last seat, someone coming back in their own)."""
    seats = s.seats_after_joins(waiting)
    order = sorted(seats, key=seats.__getitem__)
    out = []
    for entry in waiting:
        name = join_name(entry)
        if name in seats and len(order) > 1:
            out.append((name, order[order.index(name) - 1]))
        else:
            after = entry.get("after", "") if isinstance(entry, Mapping) else ""
            out.append((name, str(after)))
    return out


def planned_join(
    s: Standings, waiting: Waiting, name: str, after: str = ""
) -> str | dict[str, str]:
    """``name`` joins at the start of the next round, sitting right after ``after`` (a
    newcomer; empty: after the last seat; someone coming back keeps their own seat): the
    entry to wait with the round (a record's join). RecordError with a sentence when they
    cannot."""
    key = name_key(name)
    if any(name_key(p.name) == key and p.in_contention for p in s.players):
        raise RecordError(say("join.already_in", name=name))
    if any(name_key(join_name(n)) == key for n in waiting):
        raise RecordError(say("join.already_joining", name=name))
    if len(s.players) + len(waiting) >= MAX_PLAYERS:
        raise RecordError(say("join.too_many", most=MAX_PLAYERS))
    returning = any(name_key(p.name) == key for p in s.players)
    if not after or returning:
        return name
    neighbour = next((n for n in seat_choices(s, waiting) if name_key(n) == name_key(after)), None)
    if neighbour is None:
        raise RecordError(say("join.choose_after", name=name))
    return {"name": name, "after": neighbour}


def rounds_ahead(s: Standings, count: int) -> list[NextRound]:
    """The next ``count`` rounds as their banners will say them if nobody joins, drops
    out or is dropped in between: the deal passes clockwise among the players in the game,
    and a game of a fixed number of rounds stops at its last (for the phone to show the
    round being entered while rounds typed offline wait to be sent)."""
    nr = s.next_round
    if nr is None:
        return []
    active = [p.name for p in sorted(s.players, key=lambda p: p.seat) if p.in_contention]
    if nr.dealer not in active or len(active) < 2:
        return []
    settings, variant = s.record.settings, s.variant
    first, last = active.index(nr.dealer), variant.last_round(settings)
    out = []
    for k in range(count):
        number = nr.number + k
        if last is not None and number > last:
            break  # the game ends before this one
        out.append(
            replace(
                nr,
                number=number,
                dealer=active[(first + k) % len(active)],
                starts=active[(first + k + 1) % len(active)],
                cards_per_player=variant.cards_per_player(number, len(active), settings),
                wild=variant.wild(number),
                multiplier=variant.multiplier(number),
                label=variant.round_label(number),
            )
        )
    return out
