"""The plan of who pays whom on a night, kept put while money is recorded against it.

People are opaque ids (a regular's, on a night of the app) with a name beside them that
orders ties. The plan is the fewest transfers of the night's balances (its finished
games, rounded to its step, and the debts carried in): its *basis*. Each entry recorded
on the night (a payment, a debt carried to a later night, a write-off) was made against
the plan in force when it was recorded, and is read against it again every time:

- an entry along a transfer of that plan, for at most what is left on it, reduces that
  transfer ("$2.25 of $4.25 left"); every other transfer stays exactly as it was shown;
- an entry that fits no transfer (between two people the plan does not pair, or for more
  than is left: a cash payment typed by hand, an overpayment) is counted as money moved,
  and the plan is drawn again over what is left;
- when the basis moved between two entries, or since the last one (a round corrected, a
  game deleted, the rounding step changed, a debt carried in or undone), the plan is drawn
  again over what is left, and says so.

A write-off forgives what :func:`.forgiving.forgiven` says it forgives now, so a game
corrected afterwards never turns it into money the forgiver owes.

A transfer's identity is the ordered pair (payer, payee) within a plan; a plan's identity
is its :attr:`PayPlan.stamp`, a digest of the balances it was drawn from, so a form that
carries the pair, the stamp and the amount it showed is refused once the plan moved.
Everything here is derived from the entries each time; nothing is stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .errors import Said, say
from .forgiving import forgiven
from .settlement import fewest_by

PAYMENT, CARRY, WRITE_OFF = "payment", "carry", "write_off"

Balances = Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Recorded:
    """One entry of the night as the plan reads it: ``payer``'s debt to ``payee`` goes
    down by ``amount`` (a payment, a carry out, a write-off: ``kind``), recorded when the
    night's balances were ``basis`` (None: unknown, as for the entry before)."""

    kind: str
    payer: int
    payee: int
    amount: int
    basis: Balances | None = None


@dataclass(frozen=True, slots=True)
class Leg:
    """A transfer of the plan: ``amount`` as the plan drew it, ``left`` still to pay."""

    payer: int
    payee: int
    amount: int
    left: int

    @property
    def pair(self) -> tuple[int, int]:
        return (self.payer, self.payee)

    @property
    def touched(self) -> bool:
        return self.left != self.amount


@dataclass(frozen=True, slots=True)
class Redrawn:
    """Why the plan in force is not the one money was last recorded against: the basis
    moved before entry ``at`` (``len(entries)``: after the last one; ``moved``: by how
    much for each person), or entry ``at`` fitted no transfer (``misfit``: why, "not one
    of its transfers" or "more than was left on it", as a sentence of rules/said_night.py)."""

    at: int
    moved: dict[int, int]
    misfit: Said | None = None


@dataclass(frozen=True, slots=True)
class PayPlan:
    """The plan in force: its transfers (settled ones too), its stamp, what each person
    still owes (negative) or is owed (their transfers' ``left`` settle it exactly), what
    each entry counts (a write-off: what it forgives now), and why the plan was drawn
    again since money was last recorded against it (None: it was not)."""

    legs: tuple[Leg, ...]
    stamp: str
    balances: dict[int, int]
    counted: tuple[int, ...]
    redrawn: Redrawn | None = None

    @property
    def open(self) -> tuple[Leg, ...]:
        return tuple(leg for leg in self.legs if leg.left)

    def leg(self, payer: int, payee: int) -> Leg | None:
        return next((leg for leg in self.legs if leg.pair == (payer, payee)), None)


def stamp_of(basis: Balances) -> str:
    """A plan's identity: a digest of the balances it was drawn from."""
    text = repr(sorted((k, v) for k, v in basis.items() if v))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _plus(a: Balances, b: Balances) -> dict[int, int]:
    out = {k: v for k, v in a.items() if v}
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
        if not out[k]:
            del out[k]
    return out


def _draw(basis: Balances, rank: Callable[[int], str]) -> list[Leg]:
    return [Leg(p, q, a, a) for p, q, a in fewest_by(basis, rank)]


def _counted(now: Balances, entries: Sequence[Recorded]) -> list[int]:
    """What each entry counts: its amount, a write-off what it forgives now."""
    before: dict[int, int] = dict(now)
    offs = []
    for e in entries:
        if e.kind == WRITE_OFF:
            offs.append((e.payer, e.payee, e.amount))
        else:
            before = _plus(before, {e.payer: e.amount, e.payee: -e.amount})
    parts = iter(forgiven(before, offs))
    return [next(parts) if e.kind == WRITE_OFF else e.amount for e in entries]


def _fit(legs: list[Leg], payer: int, payee: int, amount: int) -> Said | None:
    """Reduce the transfer from ``payer`` to ``payee`` by ``amount``; why it does not fit."""
    for i, leg in enumerate(legs):
        if leg.pair == (payer, payee):
            if amount > leg.left:
                return say("payplan.more_than_left")
            legs[i] = Leg(leg.payer, leg.payee, leg.amount, leg.left - amount)
            return None
    return say("payplan.not_a_transfer")


def keep_plan(now: Balances, entries: Sequence[Recorded], rank: Callable[[int], str]) -> PayPlan:
    """The plan in force after ``entries`` (oldest first), the night's balances being
    ``now``; ``rank`` names people (ties fall by it)."""
    counted = _counted(now, entries)
    net: dict[int, int] = {}  # what the entries so far moved
    seen: dict[int, int] | None = None  # the basis the last entry was recorded on
    drawn: dict[int, int] = _plus(now, {})
    legs: list[Leg] | None = None
    redrawn: Redrawn | None = None
    for i, (e, amount) in enumerate(zip(entries, counted, strict=True)):
        basis = _plus(e.basis, {}) if e.basis is not None else seen
        basis = _plus(now, {}) if basis is None else basis
        if legs is None or basis != seen:
            if legs is not None and seen is not None:
                redrawn = Redrawn(i, _plus(basis, {k: -v for k, v in seen.items()}))
            drawn = _plus(basis, net)
            legs = _draw(drawn, rank)
        seen = basis
        misfit = _fit(legs, e.payer, e.payee, amount) if amount else None
        net = _plus(net, {e.payer: amount, e.payee: -amount})
        if misfit is None:
            redrawn = None  # money was recorded against the plan in force
        else:
            redrawn = Redrawn(i, {}, misfit)
            drawn = _plus(basis, net)
            legs = _draw(drawn, rank)
    current = _plus(now, {})
    if legs is None or current != seen:
        if legs is not None and seen is not None:
            redrawn = Redrawn(len(entries), _plus(current, {k: -v for k, v in seen.items()}))
        drawn = _plus(current, net)
        legs = _draw(drawn, rank)
    balances = _plus(current, net)
    _check_settles(legs, balances)
    return PayPlan(tuple(legs), stamp_of(drawn), balances, tuple(counted), redrawn)


def _check_settles(legs: Sequence[Leg], balances: Balances) -> None:
    """The transfers still to pay settle each person's balance exactly."""
    by_legs: dict[int, int] = {}
    for leg in legs:
        by_legs = _plus(by_legs, {leg.payer: -leg.left, leg.payee: leg.left})
    assert by_legs == {k: v for k, v in balances.items() if v}, (by_legs, balances)
