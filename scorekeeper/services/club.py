"""A club's balance across nights: what each regular still owes or is owed over the
keeper's nights with something left to pay, and the fewest transfers that settle it all
at once (a club that settles once a month).

Nothing is added up a second way: each night's still-to-pay transfers come from its own
book (:func:`~scorekeeper.services.ledger.night_book`), so a debt carried to a later night
counts there only, and what was paid or written off counts as the night's page says.
Currencies are never added together. The cost is bounded: the latest ``MAX_NIGHTS``
nights are read, and the page says when there are more."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from ..extensions import db
from ..models import Night, Regular
from ..rules import Transfer
from ..rules.settlement import fewest_transfers
from .ledger import night_book

MAX_NIGHTS = 60


@dataclass(frozen=True, slots=True)
class Part:
    """Where part of a regular's balance comes from: a night and what it leaves them
    (positive: to receive)."""

    night: Night
    amount: int


@dataclass
class ClubBalance:
    """The club's balance in one currency."""

    currency: str
    balances: dict[str, int] = field(default_factory=dict)  # regular's name -> amount
    parts: dict[str, list[Part]] = field(default_factory=dict)
    transfers: list[Transfer] = field(default_factory=list)

    def add(self, name: str, night: Night, amount: int) -> None:
        self.balances[name] = self.balances.get(name, 0) + amount
        parts = self.parts.setdefault(name, [])
        if parts and parts[-1].night.id == night.id:
            parts[-1] = Part(night, parts[-1].amount + amount)
        else:
            parts.append(Part(night, amount))

    @property
    def people(self) -> list[tuple[str, int]]:
        """Everyone with a balance, most owed first."""
        return sorted(
            ((n, a) for n, a in self.balances.items() if a),
            key=lambda item: (-item[1], item[0].casefold()),
        )


@dataclass(frozen=True, slots=True)
class Club:
    balances: list[ClubBalance]  # one per currency, the one with most nights first
    nights_read: int
    more_nights: bool  # older nights than MAX_NIGHTS were not read


def club_balance(owner_id: int) -> Club:
    """Every currency's balance over the owner's latest nights, with the fewest transfers
    that settle each."""
    nights = list(
        db.session.scalars(
            select(Night)
            .where(Night.owner_id == owner_id, Night.deleted_at.is_(None))
            .order_by(Night.played_on.desc(), Night.id.desc())
            .limit(MAX_NIGHTS + 1)
        )
    )
    read = nights[:MAX_NIGHTS]
    by_currency: dict[str, ClubBalance] = {}
    counts: dict[str, int] = {}
    names = _regular_names(owner_id)
    for night in reversed(read):  # oldest first: each person's parts in night order
        counts[night.currency] = counts.get(night.currency, 0) + 1
        for open_transfer in night_book(night).transfers:
            payer, payee = open_transfer.payer, open_transfer.payee
            if payer is None or payee is None:
                continue
            club = by_currency.setdefault(night.currency, ClubBalance(night.currency))
            amount = open_transfer.transfer.amount
            club.add(names.get(payer.id, payer.name), night, -amount)
            club.add(names.get(payee.id, payee.name), night, amount)
    for club in by_currency.values():
        club.transfers = sorted(
            fewest_transfers(club.balances), key=lambda t: (t.payer.casefold(), t.payee.casefold())
        )
    ordered = sorted(by_currency.values(), key=lambda c: (-counts[c.currency], c.currency))
    return Club(ordered, len(read), len(nights) > MAX_NIGHTS)


def _regular_names(owner_id: int) -> dict[int, str]:
    """Each regular's name, a merged entry under the regular it was merged into."""
    regulars = db.session.scalars(select(Regular).where(Regular.owner_id == owner_id)).all()
    by_id = {r.id: r for r in regulars}
    return {
        r.id: by_id[r.merged_into_id].name if r.merged_into_id in by_id else r.name
        for r in regulars
    }
