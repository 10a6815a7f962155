"""A player's "I paid", said on the night's players' page (no account): an entry of kind
``claim`` on a transfer of the plan, as that page showed it (the pair, the plan's stamp,
what was left). It moves no money: the keeper confirms it on the settle page, which
records a payment against that transfer (``settle.settle_transfer`` with the claim), or
says it was not paid (the claim undone). A claim whose transfer has since moved shows as
stale and never counts by itself.

Bounded: at most one open claim a transfer (a new one on a transfer whose claim went
stale replaces it), and each counts towards the night's bound of entries. Idempotent: the
page's one-time id makes a double tap claim once. The players' page is one page for the
whole table, kept (by the app and the front) while nothing changes, so its one-time id
is not one person's: a claim taken back frees its id, and the same form sent again is a
new claim, not the old one's double tap.
"""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models import LedgerEntry, Night, utcnow
from ..rules import format_money
from . import settle
from .base import transaction
from .ledger import CLAIM, night_book
from .said_night import refuse


@transaction
def claim_paid(
    night: Night, payer_id: int, payee_id: int, seen: int, *, plan: str, submission: str
) -> str:
    """Record that the payer says they paid the transfer to the payee, as the players'
    page showed it; refused in a sentence when it moved since. Returns what was said."""
    settle.lock_nights([night.id])
    earlier = db.session.scalars(
        select(LedgerEntry).where(
            LedgerEntry.night_id == night.id, LedgerEntry.submission == submission
        )
    ).first()
    if earlier is not None and earlier.undone_at is None:
        raise settle.AlreadyRecorded
    stored: str | None = None if earlier is not None else submission  # taken back: new
    settle.room(night)
    book = night_book(night)
    line = settle.open_transfer(book, payer_id, payee_id, plan, seen)
    for claim in line.claims:
        if claim.fresh:
            raise refuse("claims.said_already", payer=claim.payer, payee=claim.payee,
                         money=format_money(claim.entry.amount, night.currency))  # fmt: skip
        claim.entry.undone_at = utcnow()  # gone stale: the new claim replaces it
    settle.add_entry(book, CLAIM, payer_id, payee_id, seen, submission=stored)
    settle.commit(night, stored)
    return f"{line.transfer.payer} says they paid {line.transfer.payee}"


@transaction
def take_back(night: Night, claim_id: int) -> str:
    """The player takes their "I paid" back (from the players' page): undone, kept. A
    claim the keeper confirmed stays; the keeper undoes the payment on the settle page."""
    settle.lock_nights([night.id])
    book = night_book(night)
    claim = next((c for c in book.claims if c.id == claim_id), None)
    if claim is None:
        raise refuse("claims.not_a_claim")
    if any(x.entry.claim_id == claim_id for x in book.payments):
        raise refuse("claims.confirmed")
    if claim.undone_at is None:
        claim.undone_at = utcnow()
        settle.commit(night, None)
    return f"{book.names[claim.payer_id]}'s claim taken back"
