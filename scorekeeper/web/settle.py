"""Settling up a night: the payout page with pay links, marking transfers paid, carrying
what is unpaid into another night, writing a carried debt off, rounding to whole units."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response

from .. import settle_up
from ..extensions import db
from ..models import Carry, Night
from ..reports.pdf import render_summary_text
from ..rules import format_cents
from .changes import attempt, whole
from .nights import night_or_404

bp = Blueprint("settle", __name__, url_prefix="/nights")


def _other_nights(night: Night) -> list[Night]:
    """The keeper's other nights in the same currency, newest first: where to carry to."""
    return list(
        db.session.scalars(
            select(Night)
            .where(
                Night.owner_id == night.owner_id,
                Night.id != night.id,
                Night.deleted_at.is_(None),
                Night.currency == night.currency,
            )
            .order_by(Night.played_on.desc(), Night.id.desc())
            .limit(20)
        )
    )


@bp.get("/<id:night_id>/payout")
@login_required
def payout(night_id: int) -> str:
    """Settle up: one NightSummary (the same the PDF and the plain text render), each
    transfer with the payee's pay links and whether it is paid."""
    night = night_or_404(night_id)
    settlement = settle_up.night_money(night)
    return render_template(
        "nights/payout.html",
        night=night,
        settlement=settlement,
        summary=settlement.summary,
        summary_text=render_summary_text(settlement.summary),
        targets=_other_nights(night) if settlement.open_lines else [],
        units=[(u, settle_up.unit_label(u, night.currency)) for u in settle_up.UNITS],
        form=FlaskForm(),
    )


def _done(night_id: int) -> Response:
    return redirect(url_for("settle.payout", night_id=night_id, _anchor="settle"))


@bp.post("/<id:night_id>/transfers/mark")
@login_required
def mark(night_id: int) -> Response:
    night = night_or_404(night_id)
    paid = request.form.get("paid") == "1"
    attempt(
        lambda: settle_up.mark_transfer(
            night, whole("payer"), whole("payee"), whole("amount"), paid=paid,
            user=current_user,
        ),
        lambda line: f"{line.transfer.sentence(night.currency)}: marked "
        f"{'paid' if paid else 'not paid'}.",
    )  # fmt: skip
    return _done(night_id)


@bp.post("/<id:night_id>/carry")
@login_required
def carry(night_id: int) -> Response:
    night = night_or_404(night_id)
    target = night_or_404(whole("target"))
    attempt(
        lambda: settle_up.carry_unpaid(night, target, user=current_user),
        lambda cents: f"{format_cents(cents, night.currency)} unpaid carried into {target.name}.",
    )
    return _done(night_id)


@bp.post("/<id:night_id>/carried/<id:carry_id>/write-off")
@login_required
def write_off(night_id: int, carry_id: int) -> Response:
    night = night_or_404(night_id)
    carried = db.session.get(Carry, carry_id)
    if carried is None or carried.to_night_id != night.id:
        abort(404)
    attempt(
        lambda: settle_up.write_off(carried, user=current_user),
        lambda _: "Written off: it no longer counts in the settlement.",
    )
    return _done(night_id)


@bp.post("/<id:night_id>/unit")
@login_required
def unit(night_id: int) -> Response:
    night = night_or_404(night_id)
    attempt(
        lambda: settle_up.set_settle_unit(night, whole("unit")),
        lambda _: f"Settling {settle_up.unit_label(night.settle_unit, night.currency)}.",
    )
    return _done(night_id)
