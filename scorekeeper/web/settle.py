"""Settling up a night: what is still to pay (with pay links), marking a transfer paid or
writing it off, recording any payment, carrying what is left into a later night, undoing
an entry, the rounding step and how money is written. Every form is one ledger change
(``ledger``); each carries a one-time id, so a double tap records once."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from .. import services
from ..models import Night
from ..reports import book_summary
from ..reports.pdf import render_summary_text
from ..rules import RecordError, format_money
from ..rules.money import rounding_steps, step_said
from ..services import ledger, settle
from .changes import RACE, attempt
from .fields import checked_whole, locale_choices, locale_name, options
from .night_words import day_short, said
from .nights import night_or_404
from .refusals import refusal_text
from .settle_forms import CarryForm, LocaleForm, PaymentForm, StepForm, TransferForm

bp = Blueprint("settle", __name__, url_prefix="/nights")


def _forms(night: Night, book: ledger.NightBook) -> dict[str, Any]:
    payment = PaymentForm(prefix="pay")
    payment.setup(book.parties, night.currency)
    carry = CarryForm(prefix="carry", plan=book.plan.stamp)
    carry.debt.choices = options([("", _("everything still to pay")), *_debts(book)])
    carry.target.choices = options(
        [
            (str(t.id), f"{t.name} · {day_short(t.played_on)}")
            for t in settle.later_nights(night, current_user)
        ]
    )
    step = StepForm(prefix="step", unit=str(night.settle_unit))
    step.unit.choices = options(
        [(str(u), said(step_said(u, night.currency))) for u in rounding_steps(night.currency)]
    )
    locale = LocaleForm(prefix="locale", locale=night.locale)
    locale.locale.choices = locale_choices()
    return {"payment": payment, "carry": carry, "step": step, "locale_form": locale}


def _settling(step: int, currency: str) -> str:
    if step <= 1:
        return _("Settling exactly (no rounding).")
    return _("Settling in steps of %(money)s.", money=format_money(step, currency))


def _debts(book: ledger.NightBook) -> list[tuple[str, str]]:
    """Each open transfer as the carry form offers it alone: ``payer-payee-left``, the
    pair of regular ids and what the page showed left on it."""
    return [
        (f"{t.key}-{t.transfer.amount}", said(t.said(book.currency)))
        for t in book.transfers
        if t.leg is not None
    ]


def _pair(raw: str) -> tuple[int, int, int] | bool | None:
    """The one debt the carry form chose: (payer, payee, left shown); None for everything
    still to pay; False for a value no page offers."""
    if not raw:
        return None
    found = re.fullmatch(r"([0-9]{1,9})-([0-9]{1,9})-([0-9]{1,15})", raw)
    return (int(found.group(1)), int(found.group(2)), int(found.group(3))) if found else False


@bp.get("/<id:night_id>/payout")
@login_required
def payout(night_id: int) -> str:
    """Settle up: what is still to pay first (with pay links, Mark paid), then what was
    paid and carried, then the summary the PDF and the plain text render too."""
    night = night_or_404(night_id)
    return _page(night)


def _page(night: Night, **forms: Any) -> str:
    book = ledger.night_book(night)
    summary = book_summary(book)
    return render_template(
        "nights/payout.html",
        night=night,
        book=book,
        summary=summary,
        summary_text=render_summary_text(summary),
        mark=TransferForm(),
        undo_form=FlaskForm(),
        **{**_forms(night, book), **forms},
    )


def _done(night_id: int) -> Response:
    return redirect(url_for("settle.payout", night_id=night_id, _anchor="settle"))


def _record(change: Any, done: Any, night_id: int) -> Response:
    """Carry out a ledger change; a repeat of a form already recorded says so."""
    attempt(change, done, again=lambda _sent: _("Already recorded (sent twice): it counts once."))
    return _done(night_id)


@bp.post("/<id:night_id>/transfers/mark")
@login_required
def mark(night_id: int) -> Response:
    """Mark a transfer of the plan as paid (all that is left, or part of it: a payment),
    or write it off; the transfer named by its pair and its plan's stamp, as shown."""
    night = night_or_404(night_id)
    form = TransferForm()
    form.currency = night.currency
    if not form.validate_on_submit():
        if form.paid.errors:
            flash(_("Paid now: %(error)s", error=form.paid.errors[0]), "error")
        else:
            flash(_("That transfer is not one the page offered: see what is to pay now."), "error")
        return _done(night_id)
    kind = form.action.data
    payer, payee, seen = form.payer.number, form.payee.number, form.amount.number
    assert payer is not None and payee is not None and seen is not None  # validated
    typed = (form.paid.data or "").strip()
    return _record(
        lambda: settle.settle_transfer(
            night, payer, payee, seen, plan=form.plan.data, kind=kind,
            user=current_user, submission=form.submission.data,
            amount=form.paid.cents if typed else None,
            claim_id=int(form.claim.data) if form.claim.data else None,
        ),
        lambda done: _marked(night, kind, *done),
        night_id,
    )  # fmt: skip


def _marked(night: Night, kind: str, line: ledger.OpenTransfer, paid: int) -> str:
    sentence = said(line.said(night.currency))
    if kind == ledger.WRITE_OFF:
        return _("%(transfer)s: written off.", transfer=sentence)
    if paid == line.transfer.amount:
        return _("%(transfer)s: marked paid.", transfer=sentence)
    left = format_money(line.transfer.amount - paid, night.currency)
    drawn = line.leg.amount if line.leg else line.transfer.amount
    return _(
        "%(payer)s paid %(payee)s %(money)s: %(left)s of %(drawn)s left.",
        payer=line.transfer.payer, payee=line.transfer.payee,
        money=format_money(paid, night.currency), left=left,
        drawn=format_money(drawn, night.currency),
    )  # fmt: skip


@bp.post("/<id:night_id>/payments")
@login_required
def pay(night_id: int) -> str | Response | tuple[str, int]:
    """Record a payment typed by the keeper (any amount, between any two people)."""
    night = night_or_404(night_id)
    book = ledger.night_book(night)
    form = PaymentForm(prefix="pay")
    form.setup(book.parties, night.currency)
    if form.validate_on_submit() and form.amount.cents:
        payer, payee = form.ids()
        try:
            recorded = settle.record_payment(
                night, payer, payee, form.amount.cents,
                user=current_user, submission=form.submission.data,
            )  # fmt: skip
        except services.AlreadySent:
            flash(_("Already recorded (sent twice): it counts once."), "info")
            return _done(night_id)
        except (services.Refused, RecordError) as exc:
            form.amount.errors = [refusal_text(exc)]
        except services.Conflict:
            form.amount.errors = [_(RACE)]
        else:
            flash(_("Recorded: %(payment)s.", payment=said(recorded)), "success")
            return _done(night_id)
    elif form.is_submitted() and not form.errors:
        form.amount.errors = [_("Give the amount paid.")]
    night = night_or_404(night_id)
    return _page(night, payment=form), 422


@bp.post("/<id:night_id>/carry")
@login_required
def carry(night_id: int) -> Response:
    night = night_or_404(night_id)
    form = CarryForm(prefix="carry")
    form.target.choices = options(
        [(str(t.id), t.name) for t in settle.later_nights(night, current_user)]
    )
    pair = _pair(form.debt.data or "")
    if not form.validate_on_submit() or pair is False:
        flash(
            _(
                "A debt is carried only into a later night of yours in the same currency: "
                "choose one from the list."
            ),
            "error",
        )
        return _done(night_id)
    target = night_or_404(checked_whole(form.target.data) or 0)
    return _record(
        lambda: settle.carry_open(
            night,
            target,
            user=current_user,
            submission=form.submission.data,
            only=pair if isinstance(pair, tuple) else None,
            plan=form.plan.data or None,
        ),
        lambda cents: _(
            "%(money)s still to pay carried into %(night)s.",
            money=format_money(cents, night.currency),
            night=target.name,
        ),
        night_id,
    )


@bp.post("/<id:night_id>/entries/<id:entry_id>/undo")
@login_required
def undo(night_id: int, entry_id: int) -> Response:
    night = night_or_404(night_id)
    if not FlaskForm().validate_on_submit():
        flash(_("Send the form from the page."), "error")
        return _done(night_id)
    return _record(
        lambda: settle.undo_entry(night, entry_id, user=current_user),
        lambda line: _("Undone: %(entry)s.", entry=said(line.said(night))),
        night_id,
    )


@bp.post("/<id:night_id>/unit")
@login_required
def unit(night_id: int) -> Response:
    night = night_or_404(night_id)
    form = StepForm(prefix="step")
    steps = rounding_steps(night.currency)
    form.unit.choices = options([(str(u), str(u)) for u in steps])
    if not form.validate_on_submit():
        flash(_("Choose how to round: exactly, or one of the steps offered."), "error")
        return _done(night_id)
    return _record(
        lambda: settle.set_settle_unit(night, int(form.unit.data)),
        lambda _done: _settling(night.settle_unit, night.currency),
        night_id,
    )


@bp.post("/<id:night_id>/locale")
@login_required
def locale(night_id: int) -> Response:
    night = night_or_404(night_id)
    form = LocaleForm(prefix="locale")
    form.locale.choices = locale_choices()
    if not form.validate_on_submit():
        flash(_("Choose how money is written from the list."), "error")
        return _done(night_id)
    return _record(
        lambda: services.set_locale(night, form.locale.data),
        lambda _done: _("Money is written as in %(place)s.", place=locale_name(night.locale)),
        night_id,
    )
