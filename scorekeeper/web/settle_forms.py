"""Settling up (``settle.py``, ``claims.py``): a transfer paid or written off, a player's
"I paid", any payment, a carry, the step and the locale money is written in."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    HiddenField,
    SelectField,
)
from wtforms.validators import (
    AnyOf,
    InputRequired,
    Optional,
    Regexp,
)

from .fields import MoneyField, OneTimeForm, WholeField, options

PLAN_STAMP = r"[0-9a-f]{12}\Z"


class TransferForm(OneTimeForm):
    """Mark a transfer still to pay as paid (all of it, or ``paid`` of it), or write it
    off, as the page showed it: the pair, the plan's stamp and what was left (``amount``)."""

    payer = WholeField()
    payee = WholeField()
    amount = WholeField(high=10**15)
    plan = HiddenField(validators=[InputRequired(), Regexp(PLAN_STAMP)])
    action = HiddenField(validators=[AnyOf(("payment", "write_off"))], default="payment")
    paid = MoneyField(_l("Paid now"))
    claim = HiddenField(validators=[Optional(), Regexp(r"[1-9][0-9]{0,9}\Z")])


class ClaimForm(OneTimeForm):
    """A player's "I paid" on the players' page: the transfer as the page showed it."""

    payer = WholeField()
    payee = WholeField()
    amount = WholeField(high=10**15)
    plan = HiddenField(validators=[InputRequired(), Regexp(PLAN_STAMP)])


class PaymentForm(OneTimeForm):
    """Any payment between two of the night's people (partial, cash, or more than owed)."""

    payer = SelectField(_l("Who paid"), validate_choice=True)
    payee = SelectField(_l("Paid to"), validate_choice=True)
    amount = MoneyField(
        _l("Amount"),
        description=_l("Paid more than was owed? The difference shows as owed back."),
    )

    def setup(self, parties: list[tuple[int, str]], currency: str) -> None:
        self.currency = currency
        choices = options([(str(rid), name) for rid, name in parties])
        self.payer.choices = choices
        self.payee.choices = choices

    def ids(self) -> tuple[int, int]:
        return int(self.payer.data), int(self.payee.data)


class CarryForm(OneTimeForm):
    debt = SelectField(_l("What to carry"), validate_choice=False, validators=[Optional()])
    target = SelectField(_l("Carry it into"), validate_choice=True)
    plan = HiddenField(validators=[Optional(), Regexp(PLAN_STAMP)])


class StepForm(FlaskForm):
    unit = SelectField(_l("Settle"), validate_choice=True)


class LocaleForm(FlaskForm):
    locale = SelectField(_l("Money written as"), validate_choice=True)
