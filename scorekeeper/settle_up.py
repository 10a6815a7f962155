"""Settling up for real: who pays whom, how (pay links), who has paid, and what is carried.

A night's settlement is the engine's (``rules.settle``): its finished games' balances, plus
the debts carried in from earlier nights, rounded to the night's unit. Each transfer is
between two of the keeper's regulars. The keeper marks a transfer paid (every mark is
kept, with who and when); what is still unpaid can be carried into another night, where it
joins that night's settlement; a carried debt can be written off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from . import services
from .extensions import db
from .models import Carry, Night, Regular, TransferMark, User, utcnow
from .payments import PayOption, pay_options
from .reports import NightSummary, night_summary_context
from .reports.summary import CarriedDebt
from .rules import Transfer, format_cents, name_key
from .services import Refused, _commit_plain, transaction

#: The steps a table may settle in (cents): to the cent, 5, 10, 25 or 50 cents, whole units.
UNITS = (1, 5, 10, 25, 50, 100, 500)


@dataclass
class TransferLine:
    """A transfer of the night's settlement, with the regulars behind the names."""

    transfer: Transfer
    payer: Regular | None
    payee: Regular | None
    options: list[PayOption] = field(default_factory=list)
    marks: list[TransferMark] = field(default_factory=list)  # newest first
    carried_to: Night | None = None

    @property
    def paid(self) -> bool:
        return bool(self.marks) and self.marks[0].paid

    @property
    def open(self) -> bool:
        """Still to be paid: neither marked paid nor carried into another night."""
        return not self.paid and self.carried_to is None


@dataclass
class NightMoney:
    night: Night
    summary: NightSummary
    lines: list[TransferLine]
    carried_in: list[Carry]

    @property
    def open_lines(self) -> list[TransferLine]:
        return [line for line in self.lines if line.open]


def _names(night: Night, carried: list[Carry]) -> tuple[dict[int, str], dict[str, Regular]]:
    """Each regular's name on this night (their spelling on the night's list, else their
    own) and the regular behind each name."""
    by_regular: dict[int, str] = {}
    by_key: dict[str, Regular] = {}
    for person in night.people:
        by_regular[person.regular_id] = person.name
        by_key[person.name_key] = person.regular
    for carry in carried:
        for regular in (carry.payer, carry.payee):
            if regular.id not in by_regular:
                name = regular.name
                while name_key(name) in by_key:  # another of the night's people has it
                    name += "*"
                by_regular[regular.id] = name
                by_key[name_key(name)] = regular
    return by_regular, by_key


def carried_into(night: Night) -> list[Carry]:
    return list(
        db.session.scalars(
            select(Carry)
            .where(Carry.to_night_id == night.id, Carry.written_off_at.is_(None))
            .order_by(Carry.id)
        )
    )


def _load_regulars(ids: set[int]) -> list[Regular]:
    """The night's regulars and their handles in two statements, whatever their number
    (``person.regular`` then comes from the session's identity map while the caller holds
    the list: the identity map keeps objects only as long as someone refers to them)."""
    if not ids:
        return []
    query = select(Regular).where(Regular.id.in_(ids)).options(selectinload(Regular.handles))
    return list(db.session.scalars(query))


def night_money(night: Night) -> NightMoney:
    """The night's settlement with the regulars, pay options, marks and carries."""
    carried = carried_into(night)
    loaded = _load_regulars(
        {p.regular_id for p in night.people}
        | {c.payer_id for c in carried}
        | {c.payee_id for c in carried}
    )
    names, regulars = _names(night, carried)
    debts = [
        CarriedDebt(
            names[c.payer_id],
            names[c.payee_id],
            c.amount,
            f"{c.from_night.name}, {c.from_night.played_on.isoformat()}",
        )
        for c in carried
    ]
    summary = night_summary_context(
        night.name,
        night.played_on.isoformat(),
        night.currency,
        services.night_games(night),
        carried=debts,
        unit=night.settle_unit or 1,
    )
    marks = list(
        db.session.scalars(
            select(TransferMark)
            .where(TransferMark.night_id == night.id)
            .order_by(TransferMark.id.desc())
        )
    )
    carried_out = list(db.session.scalars(select(Carry).where(Carry.from_night_id == night.id)))
    lines = []
    for t in summary.settlement.transfers:
        payer, payee = regulars.get(name_key(t.payer)), regulars.get(name_key(t.payee))
        line = TransferLine(t, payer, payee)
        if payer is not None and payee is not None:
            line.marks = [
                m
                for m in marks
                if (m.payer_id, m.payee_id, m.amount) == (payer.id, payee.id, t.amount)
            ]
            line.carried_to = next(
                (
                    db.session.get(Night, c.to_night_id)
                    for c in carried_out
                    if (c.payer_id, c.payee_id, c.amount) == (payer.id, payee.id, t.amount)
                ),
                None,
            )
            handles = [(h.kind, h.value) for h in payee.handles]
            note = f"{night.name} {night.played_on.isoformat()}"
            line.options = pay_options(handles, t.amount, night.currency, note)
        lines.append(line)
    del loaded  # held until here so the loops above found every regular loaded
    return NightMoney(night, summary, lines, carried)


def _find_line(money: NightMoney, payer_id: int, payee_id: int, amount: int) -> TransferLine:
    for line in money.lines:
        if (
            line.payer is not None
            and line.payee is not None
            and (line.payer.id, line.payee.id, line.transfer.amount) == (payer_id, payee_id, amount)
        ):
            return line
    raise Refused("That transfer is no longer part of the settlement: reload the page.")


# ----------------------------------------------------------------------- changes ---
@transaction
def mark_transfer(
    night: Night, payer_id: int, payee_id: int, amount: int, *, paid: bool, user: User
) -> TransferLine:
    """Mark a transfer of the night's settlement paid (or unpaid again); kept with who and
    when. A second tap of the same mark changes nothing."""
    line = _find_line(night_money(night), payer_id, payee_id, amount)
    if line.carried_to is not None:
        raise Refused(
            f"{line.transfer.sentence(night.currency)} was carried into "
            f"{line.carried_to.name}: settle it there."
        )
    if line.paid != paid:
        db.session.add(
            TransferMark(
                night_id=night.id,
                payer_id=payer_id,
                payee_id=payee_id,
                amount=amount,
                paid=paid,
                user_id=user.id,
            )
        )
        _commit_plain()
    return line


@transaction
def carry_unpaid(night: Night, target: Night, *, user: User) -> int:
    """Carry every transfer still open on ``night`` into ``target``: there, each payer
    owes the payee the amount on top of the games. Returns the cents carried."""
    if target.id == night.id or target.owner_id != night.owner_id:
        raise Refused("Choose another of your nights to carry into.")
    if target.currency != night.currency:
        raise Refused(
            f"{target.name} is settled in {target.currency}, this night in {night.currency}."
        )
    lines = [line for line in night_money(night).open_lines if line.payer and line.payee]
    if not lines:
        raise Refused("Nothing is left unpaid to carry.")
    for line in lines:
        assert line.payer is not None and line.payee is not None
        db.session.add(
            Carry(
                from_night_id=night.id,
                to_night_id=target.id,
                payer_id=line.payer.id,
                payee_id=line.payee.id,
                amount=line.transfer.amount,
                user_id=user.id,
            )
        )
    _commit_plain()
    return sum(line.transfer.amount for line in lines)


@transaction
def write_off(carry: Carry, *, user: User) -> None:
    """Forgive a carried debt: it leaves the settlement (kept, with who and when)."""
    if carry.written_off_at is None:
        carry.written_off_at = utcnow()
        carry.written_off_by = user.id
        _commit_plain()


@transaction
def set_settle_unit(night: Night, unit: int) -> None:
    if unit not in UNITS:
        raise Refused("Choose how to round: to the cent, or one of the steps offered.")
    night.settle_unit = unit
    _commit_plain()


def unit_label(unit: int, currency: str) -> str:
    if unit == 1:
        return "to the cent"
    return f"in steps of {format_cents(unit, currency)}"
