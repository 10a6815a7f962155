"""Recording what people did with a night's money: a payment (one tap on a suggested
transfer, or any amount typed), a write-off, a carry into a later night, the undo of an
entry, and the night's rounding step.

Every change is one transaction that locks the night's row first (and the target's, for a
carry, in id order): two phones recording money on one night take turns, and each sees
what the other recorded. Every form carries a one-time id: sent twice, it counts once
(:class:`AlreadyRecorded`). What is still to pay is read from :func:`ledger.night_book`.
"""

from __future__ import annotations

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..metrics import PAYMENTS_RECORDED
from ..models import LedgerEntry, Night, User, utcnow
from ..rules import format_money
from ..rules.errors import Said, say
from ..rules.money import rounding_steps
from ..rules.settings import MAX_MONEY_CENTS
from . import ledger
from .base import Conflict, transaction
from .keepers import kept_by
from .ledger import (
    CARRY,
    CLAIM,
    PAYMENT,
    WRITE_OFF,
    EntryLine,
    NightBook,
    OpenTransfer,
    night_book,
)
from .said_night import refuse


class AlreadyRecorded(Exception):
    """This money form was sent before (a double tap or a retry): it counted once."""


def lock_nights(night_ids: list[int]) -> None:
    """Take the nights' rows, in id order, before reading what a change checks: the first
    write of the transaction (PostgreSQL locks the rows; SQLite the database), so a second
    change to the same night waits here and then reads what the first recorded. Objects
    loaded before are read again."""
    for night_id in sorted(set(night_ids)):
        db.session.execute(
            update(Night)
            .where(Night.id == night_id)
            .values(locale=Night.locale)
            .execution_options(synchronize_session=False)
        )
    db.session.expire_all()


def room(night: Night, adding: int = 1) -> None:
    """Refused when ``adding`` entries would take the night's book past its bound."""
    most = ledger.MAX_ENTRIES_PER_NIGHT
    if ledger.entry_count(night.id) + adding > most:
        raise refuse("settle.full", night=night.name, most=most)


def check_new(night: Night, submission: str | None) -> None:
    if submission and db.session.scalar(
        select(LedgerEntry.id).where(
            LedgerEntry.night_id == night.id, LedgerEntry.submission == submission
        )
    ):
        raise AlreadyRecorded


def _snapshot(book: NightBook) -> dict[str, int]:
    """The games' part of the balances as it stands, by regular id (what the plan is
    drawn from, with the debts carried in: ``ledger._basis``)."""
    return {str(rid): v for rid, v in book.games_part.items()}


def add_entry(
    book: NightBook, kind: str, payer_id: int, payee_id: int, amount: int, **extra: object
) -> None:
    db.session.add(
        LedgerEntry(
            night_id=book.night.id,
            kind=kind,
            payer_id=payer_id,
            payee_id=payee_id,
            amount=amount,
            games_part=_snapshot(book),
            plan=book.plan.stamp,
            **extra,
        )
    )


def commit(night: Night, submission: str | None) -> None:
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        check_new(night, submission)
        raise Conflict from None


def open_transfer(
    book: NightBook, payer_id: int, payee_id: int, plan: str, seen: int
) -> OpenTransfer:
    """The transfer of the plan in force from ``payer_id`` to ``payee_id``, as the page
    showed it (the plan's stamp ``plan``, ``seen`` left to pay); refused with what moved
    when it is no longer that."""
    line = next((t for t in book.transfers if t.leg and t.leg.pair == (payer_id, payee_id)), None)
    if line is not None and line.stamp == plan and line.transfer.amount == seen:
        return line
    now = {"now": line.said(book.currency)} if line else {}
    kind = "settle.stale" if line else "settle.gone"
    if book.moved:
        raise refuse(f"{kind}_moved", **now, moved=book.moved.said(book.currency, "on the page"))
    raise refuse(kind, **now)


@transaction
def settle_transfer(
    night: Night,
    payer_id: int,
    payee_id: int,
    seen: int,
    *,
    plan: str,
    kind: str,
    user: User,
    submission: str | None,
    amount: int | None = None,
    claim_id: int | None = None,
) -> tuple[OpenTransfer, int]:
    """Record a transfer of the plan as paid (``payment``: all of what is left, or
    ``amount`` of it) or forgiven (``write_off``: all of what is left), the transfer named
    by its pair and its plan's stamp, as the page showed it (``seen`` left); refused when
    it is no longer that (another phone recorded it, or the night's games moved: the page
    shows what is to pay now). A payment may confirm a player's claim (``claim_id``).
    Returns the transfer as it was and the amount recorded."""
    if kind not in (PAYMENT, WRITE_OFF):
        raise refuse("settle.choose_kind")
    lock_nights([night.id])
    check_new(night, submission)
    room(night)
    book = night_book(night)
    line = open_transfer(book, payer_id, payee_id, plan, seen)
    if claim_id is not None:
        _confirmable(book, line, claim_id)
    paid = seen if amount is None else amount
    if not 0 < paid <= seen:
        raise refuse("settle.at_most", payer=line.transfer.payer, payee=line.transfer.payee,
                     money=format_money(seen, night.currency))  # fmt: skip
    if kind == WRITE_OFF and paid != seen:
        raise refuse("settle.write_off_all")
    add_entry(book, kind, payer_id, payee_id, paid, user_id=user.id, submission=submission,
         claim_id=claim_id)  # fmt: skip
    commit(night, submission)
    if kind == PAYMENT:
        PAYMENTS_RECORDED.inc()
    return line, paid


def _confirmable(book: NightBook, line: OpenTransfer, claim_id: int) -> None:
    """A payment confirms a player's claim on this very transfer, still open and fresh."""
    claim = next((c for c in line.claims if c.entry.id == claim_id), None)
    if claim is None:
        raise refuse("settle.claim_gone")
    if not claim.fresh:
        raise refuse("settle.claim_stale", claim=claim.said(book.currency))


@transaction
def record_payment(
    night: Night,
    payer_id: int,
    payee_id: int,
    amount: int,
    *,
    user: User,
    submission: str | None,
) -> Said:
    """Record any payment between two people of the night: a partial payment, cash, more
    than was owed (then the difference is owed back). Returns the sentence recorded."""
    lock_nights([night.id])
    check_new(night, submission)
    book = night_book(night)
    if payer_id not in book.names or payee_id not in book.names:
        raise refuse("settle.choose_people")
    if payer_id == payee_id:
        raise refuse("settle.themselves", name=book.names[payer_id])
    if not 0 < amount <= MAX_MONEY_CENTS:
        raise refuse("settle.amount_range", money=format_money(MAX_MONEY_CENTS, night.currency))
    room(night)
    add_entry(book, PAYMENT, payer_id, payee_id, amount, user_id=user.id, submission=submission)
    commit(night, submission)
    PAYMENTS_RECORDED.inc()
    money = format_money(amount, night.currency)
    return say("ledger.paid", payer=book.names[payer_id], payee=book.names[payee_id], money=money)


@transaction
def carry_open(
    night: Night,
    target: Night,
    *,
    user: User,
    submission: str | None,
    only: tuple[int, int, int] | None = None,
    plan: str | None = None,
) -> int:
    """Carry every transfer still to pay on ``night`` (or ``only`` the one from that payer
    to that payee, regular ids, with what the page showed left on it) into ``target``, a
    later night of the keeper's in the same currency: there each payer owes the payee
    that amount on top of its games. ``plan``: the stamp of the plan the page showed;
    refused when the plan was drawn again since. Returns the amount carried."""
    lock_nights([night.id, target.id])
    check_new(night, submission)
    if target.id == night.id or target.owner_id != night.owner_id or target.deleted_at:
        raise refuse("settle.choose_night")
    if target.currency != night.currency:
        raise refuse("settle.other_currency", target=target.name,
                     target_currency=target.currency, currency=night.currency)  # fmt: skip
    if not is_later(target, night):
        raise refuse("settle.forward_only", target=target.name,
                     target_day=target.played_on.isoformat(), night=night.name,
                     day=night.played_on.isoformat())  # fmt: skip
    book = night_book(night)
    lines = [t for t in book.transfers if t.leg is not None]
    if plan is not None and plan != book.plan.stamp:
        lines = []
    if only is not None:
        lines = [t for t in lines if t.leg and (*t.leg.pair, t.leg.left) == only]
        if not lines:
            raise refuse("settle.debt_gone")
    if not lines and plan is not None and book.plan is not None and plan != book.plan.stamp:
        raise refuse("settle.plan_changed")
    if not lines:
        raise refuse("settle.nothing_left")
    room(night, len(lines))
    room(target, len(lines))
    for t in lines:
        assert t.leg is not None
        add_entry(
            book, CARRY, t.leg.payer, t.leg.payee, t.leg.left,
            to_night_id=target.id, user_id=user.id, submission=submission,
        )  # fmt: skip
    commit(night, submission)
    return sum(t.transfer.amount for t in lines)


@transaction
def undo_entry(night: Night, entry_id: int, *, user: User) -> EntryLine:
    """Undo an entry recorded by mistake (kept, with who undid it and when). A payment or
    a write-off is undone on its night, a carry on either of its nights. A second tap
    finds it undone and changes nothing."""
    found = db.session.get(LedgerEntry, entry_id)
    if found is None or night.id not in (found.night_id, found.to_night_id):
        raise refuse("settle.not_an_entry")
    lock_nights([found.night_id, *([found.to_night_id] if found.to_night_id else [])])
    book = night_book(night)
    if found.kind == CLAIM:
        return _undo_claim(book, entry_id, user)
    line = next(x for x in book.recorded + book.undone if x.entry.id == entry_id)
    if line.entry.undone_at is None:
        line.entry.undone_at = utcnow()
        line.entry.undone_by = user.id
        commit(night, None)
    return line


def _undo_claim(book: NightBook, entry_id: int, user: User) -> EntryLine:
    """The keeper says a player's claim was not paid (or dismisses a stale one): undone,
    kept. A confirmed claim stays: its payment is what the keeper undoes."""
    claim = next(c for c in book.claims if c.id == entry_id)
    if any(x.entry.claim_id == entry_id for x in book.payments):
        raise refuse("settle.claim_confirmed")
    if claim.undone_at is None:
        claim.undone_at = utcnow()
        claim.undone_by = user.id
        commit(book.night, None)
    payer, payee = book.names[claim.payer_id], book.names[claim.payee_id]
    return EntryLine(claim, payer, payee, False)


@transaction
def set_settle_unit(night: Night, unit: int) -> None:
    if unit not in rounding_steps(night.currency):
        raise refuse("settle.choose_unit")
    lock_nights([night.id])
    night.settle_unit = unit
    commit(night, None)


def later_nights(night: Night, user: User) -> list[Night]:
    """Where this night's unpaid debts may be carried: the owner's nights in the same currency
    played after it that ``user`` keeps too (by date, then creation), soonest first."""
    query = (
        select(Night)
        .where(
            Night.owner_id == night.owner_id,
            kept_by(user.id),
            Night.deleted_at.is_(None),
            Night.currency == night.currency,
            or_(
                Night.played_on > night.played_on,
                (Night.played_on == night.played_on) & (Night.id > night.id),
            ),
        )
        .order_by(Night.played_on, Night.id)
        .limit(20)
    )
    return list(db.session.scalars(query))


def is_later(target: Night, night: Night) -> bool:
    return (target.played_on, target.id) > (night.played_on, night.id)
