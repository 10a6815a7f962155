"""Money: integer cents, pot ledger entries and the split of a pot over a ranking."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NewType

Cents = NewType("Cents", int)

EntryKind = Literal["buy_in", "rebuy", "join", "ante", "per_round", "payout"]
PAYMENTS_IN: frozenset[str] = frozenset({"buy_in", "rebuy", "join", "ante"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One money movement, seen from the player's side.

    ``amount`` is negative for a payment into the pot and positive for a payment out.
    ``round`` is 0 for what is paid before the first round.
    """

    player: str
    amount: int
    kind: EntryKind
    round: int

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "amount": self.amount,
            "kind": self.kind,
            "round": self.round,
        }


def format_cents(amount: int, currency: str = "USD") -> str:
    """``-1250`` -> ``-$12.50``; other currencies are written with their code."""
    symbols = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "$", "AUD": "$", "NZD": "$"}
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    symbol = symbols.get(currency)
    body = f"{whole:,}.{cents:02d}"
    return f"{sign}{symbol}{body}" if symbol else f"{sign}{body} {currency}"


def decimal_text(amount: int) -> str:
    """``-150`` -> ``-1.50``: cents as a plain decimal, for CSV files (no float on the way)."""
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{whole}.{cents:02d}"


def split_pot(
    pot_cents: int,
    percentages: Sequence[int],
    groups: Sequence[Sequence[str]],
    *,
    runner_up_to_third_cents: int = 0,
) -> dict[str, int]:
    """Split a pot over a ranking.

    ``groups`` is the ranking of the players who may be paid, best first, each group the
    players tied in one place (seat order inside a group). ``percentages`` are the whole
    percentages of places 1, 2, ... (adding up to 100).

    RULES.md: each place's share is floored to the cent; a share for a place nobody holds
    and the leftover cents go to first place. Tied players pool the shares of the places
    they cover and split the pool equally, floored, the leftover cents to the earliest seat
    among them. ``runner_up_to_third_cents`` is the Vegas second-runner-up option: third
    place receives up to that much out of the runner-up's share, never more than half of it.

    Returns the payout per player (every player of ``groups``, possibly 0); the payouts add
    up to ``pot_cents`` exactly.
    """
    players_paid = sum(len(g) for g in groups)
    if pot_cents <= 0 or players_paid == 0:
        return {name: 0 for g in groups for name in g}
    places = [pot_cents * pct // 100 for pct in percentages]
    places += [0] * max(0, players_paid - len(places))
    # A share for a place nobody holds goes to first place.
    for i in range(players_paid, len(places)):
        places[0] += places[i]
        places[i] = 0
    places = places[:players_paid]
    places[0] += pot_cents - sum(places)
    if runner_up_to_third_cents and players_paid >= 3:
        moved = min(runner_up_to_third_cents, places[1] // 2)
        places[1] -= moved
        places[2] += moved
    payouts: dict[str, int] = {}
    place = 0
    for group in groups:
        pool = sum(places[place : place + len(group)])
        share, leftover = divmod(pool, len(group))
        for i, name in enumerate(group):
            payouts[name] = share + (leftover if i == 0 else 0)
        place += len(group)
    return payouts
