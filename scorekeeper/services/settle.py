"""Recording what people did with a night's money: a payment (one tap on a suggested
transfer, or any amount typed), a write-off, a carry into a later night, the undo of an
entry, and the night's rounding step.

Every change is one transaction that locks the night's row first (and the target's, for a
carry, in id order): two phones recording money on one night take turns, and each sees
what the other recorded. Every form carries a one-time id: sent twice, it counts once
(:class:`AlreadyRecorded`). What is still to pay is read from :func:`ledger.night_book`.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..metrics import PAYMENTS_RECORDED
from ..models import LedgerEntry, Night, User, utcnow
from ..rules import format_money, name_key
from ..rules.money import rounding_steps
from ..rules.settings import MAX_MONEY_CENTS
from . import ledger
from .base import Conflict, Refused, transaction
from .ledger import (
    CARRY,
    PAYMENT,
    WRITE_OFF,
    EntryLine,
    NightBook,
    OpenTransfer,
    games_part,
    is_later,
    night_book,
)


class AlreadyRecorded(Exception):
    """This money form was sent before (a double tap or a retry): it counted once."""


def _lock(night_ids: list[int]) -> None:
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


def _room(night: Night, adding: int = 1) -> None:
    """Refused when ``adding`` entries would take the night's book past its bound."""
    most = ledger.MAX_ENTRIES_PER_NIGHT
    if ledger.entry_count(night.id) + adding > most:
        raise Refused(
            f"{night.name} holds {most:,} money entries already (payments, carries and "
            "write-offs, undone ones too), the most one night keeps: nothing more can be "
            "recorded on it. Settle the rest outside the app."
        )


def _check_new(night: Night, submission: str | None) -> None:
    if submission and db.session.scalar(
        select(LedgerEntry.id).where(
            LedgerEntry.night_id == night.id, LedgerEntry.submission == submission
        )
    ):
        raise AlreadyRecorded


def _snapshot(book: NightBook) -> dict[str, int]:
    by_key = {name_key(n): rid for rid, n in book.names.items()}
    return {
        str(by_key[name_key(n)]): v
        for n, v in games_part(book.settlement).items()
        if name_key(n) in by_key
    }


def _add(
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
            **extra,
        )
    )


def _commit(night: Night, submission: str | None) -> None:
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        _check_new(night, submission)
        raise Conflict from None


def _open_transfer(book: NightBook, payer_id: int, payee_id: int, amount: int) -> OpenTransfer:
    for line in book.transfers:
        if (
            line.payer is not None
            and line.payee is not None
            and (line.payer.id, line.payee.id, line.transfer.amount) == (payer_id, payee_id, amount)
        ):
            return line
    raise Refused("That transfer is no longer what is still to pay: see the page as it is now.")


@transaction
def settle_transfer(
    night: Night,
    payer_id: int,
    payee_id: int,
    amount: int,
    *,
    kind: str,
    user: User,
    submission: str | None,
) -> OpenTransfer:
    """Record a suggested transfer as paid (``payment``) or forgiven (``write_off``), as it
    is still to pay now; refused when it no longer is (another phone recorded it, or the
    night's games moved: the page shows what is to pay now)."""
    if kind not in (PAYMENT, WRITE_OFF):
        raise Refused("Choose Mark paid or Write off.")
    _lock([night.id])
    _check_new(night, submission)
    _room(night)
    book = night_book(night)
    line = _open_transfer(book, payer_id, payee_id, amount)
    _add(book, kind, payer_id, payee_id, amount, user_id=user.id, submission=submission)
    _commit(night, submission)
    if kind == PAYMENT:
        PAYMENTS_RECORDED.inc()
    return line


@transaction
def record_payment(
    night: Night,
    payer_id: int,
    payee_id: int,
    amount: int,
    *,
    user: User,
    submission: str | None,
) -> str:
    """Record any payment between two people of the night: a partial payment, cash, more
    than was owed (then the difference is owed back). Returns the sentence recorded."""
    _lock([night.id])
    _check_new(night, submission)
    book = night_book(night)
    if payer_id not in book.names or payee_id not in book.names:
        raise Refused("Choose who paid and who was paid from tonight's people.")
    if payer_id == payee_id:
        raise Refused(f"{book.names[payer_id]} cannot pay themselves: choose two people.")
    if not 0 < amount <= MAX_MONEY_CENTS:
        raise Refused(
            f"The amount must be more than 0 and at most "
            f"{format_money(MAX_MONEY_CENTS, night.currency)}."
        )
    _room(night)
    _add(book, PAYMENT, payer_id, payee_id, amount, user_id=user.id, submission=submission)
    _commit(night, submission)
    PAYMENTS_RECORDED.inc()
    return (
        f"{book.names[payer_id]} paid {book.names[payee_id]} {format_money(amount, night.currency)}"
    )


@transaction
def carry_open(
    night: Night,
    target: Night,
    *,
    user: User,
    submission: str | None,
    only: tuple[int, int] | None = None,
) -> int:
    """Carry every transfer still to pay on ``night`` (or ``only`` the one from that payer
    to that payee, regular ids: its amount as the book has it now) into ``target``, a
    later night of the keeper's in the same currency: there each payer owes the payee
    that amount on top of its games. Returns the amount carried."""
    _lock([night.id, target.id])
    _check_new(night, submission)
    if target.id == night.id or target.owner_id != night.owner_id or target.deleted_at:
        raise Refused("Choose another of your nights to carry into.")
    if target.currency != night.currency:
        raise Refused(
            f"{target.name} is settled in {target.currency}, this night in {night.currency}."
        )
    if not is_later(target, night):
        raise Refused(
            f"A debt is carried only forward: {target.name} ({target.played_on.isoformat()}) "
            f"was played before {night.name} ({night.played_on.isoformat()}). Carry it into "
            "a later night, or settle it here."
        )
    book = night_book(night)
    lines = [t for t in book.transfers if t.payer is not None and t.payee is not None]
    if only is not None:
        lines = [t for t in lines if t.payer and t.payee and (t.payer.id, t.payee.id) == only]
        if not lines:
            raise Refused(
                "That debt is no longer to pay on this night (paid, carried or changed "
                "meanwhile): nothing was carried. Check what is still to pay and try again."
            )
    if not lines:
        raise Refused("Nothing is left to pay, so nothing is carried.")
    _room(night, len(lines))
    _room(target, len(lines))
    for t in lines:
        assert t.payer is not None and t.payee is not None
        _add(
            book, CARRY, t.payer.id, t.payee.id, t.transfer.amount,
            to_night_id=target.id, user_id=user.id, submission=submission,
        )  # fmt: skip
    _commit(night, submission)
    return sum(t.transfer.amount for t in lines)


@transaction
def undo_entry(night: Night, entry_id: int, *, user: User) -> EntryLine:
    """Undo an entry recorded by mistake (kept, with who undid it and when). A payment or
    a write-off is undone on its night, a carry on either of its nights. A second tap
    finds it undone and changes nothing."""
    found = db.session.get(LedgerEntry, entry_id)
    if found is None or night.id not in (found.night_id, found.to_night_id):
        raise Refused("That entry is not one of this night's.")
    _lock([found.night_id, *([found.to_night_id] if found.to_night_id else [])])
    book = night_book(night)
    line = next(x for x in book.recorded + book.undone if x.entry.id == entry_id)
    if line.entry.undone_at is None:
        line.entry.undone_at = utcnow()
        line.entry.undone_by = user.id
        _commit(night, None)
    return line


@transaction
def set_settle_unit(night: Night, unit: int) -> None:
    if unit not in rounding_steps(night.currency):
        raise Refused("Choose how to round: exactly, or one of the steps offered.")
    _lock([night.id])
    night.settle_unit = unit
    _commit(night, None)
