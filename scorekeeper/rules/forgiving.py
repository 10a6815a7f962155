"""What a write-off forgives: a debt forgiven, never money moved.

A write-off records that the payee forgave what the payer owed them on a night. What it
forgives is worked out every time the night's book is, from the balances as they stand
without the night's write-offs (its games, rounded to the night's step, the debts carried
in, and its payments and carries out): at most what the payer still owes and the payee is
still to receive, never less than nothing. When the game behind the debt is later
corrected or deleted, or the carry that brought the debt is undone, the write-off forgives
less (down to nothing) and never turns into money the forgiver owes; when the debt comes
back, it forgives it again. Write-offs count in the order they were recorded. Within the
plan (:mod:`.payplan`) a write-off forgives at most what is still owed on its transfer.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def forgiven(balances: Mapping[K, int], write_offs: Sequence[tuple[K, K, int]]) -> list[int]:
    """What each write-off ``(payer, payee, amount)`` forgives, in order, given each
    person's balance before the write-offs (positive: still to receive). People are the
    same key in both (a regular's id on a night of the app)."""
    left = dict(balances)
    counted = []
    for owes, owed, amount in write_offs:
        part = max(0, min(amount, -left.get(owes, 0), left.get(owed, 0)))
        left[owes] = left.get(owes, 0) + part
        left[owed] = left.get(owed, 0) - part
        counted.append(part)
    return counted
