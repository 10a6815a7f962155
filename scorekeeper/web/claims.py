"""A player's "I paid" from the night's players' page, and taking it back (issue 34,
point 4): the only changes made without an account, by whoever holds the live link.

The players' pages hold no session, so Flask-WTF's token (kept in the session) cannot
guard these forms; they carry the link's own form token instead (``form_check``: an HMAC
of the link's token under the app's secret key, the same for everyone who has the page,
which is kept rendered for all of them), and a browser that says the form came from
another site (``Sec-Fetch-Site: cross-site``) is refused. A site that does not know the
link cannot make a phone send either, and one that knows it could read the page anyway.
Each client is limited as on the live pages (``live._limited``), and each form carries a
one-time id, so a double tap claims once. The answer is the page again (303), or a page
saying in one sentence why nothing was recorded.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from .. import services
from ..extensions import csrf
from ..forms import ClaimForm
from ..models import Night
from ..rules.money import use_money_locale
from ..services import claims, live, settle
from .changes import RACE
from .live import _limited, form_check
from .refusals import refusal_text

bp = Blueprint("claims", __name__)

#: The routes anyone with a night's live link may post to (tests/web/test_route_guard.py).
PLAYERS_CHANGE = frozenset({"claims.claim", "claims.take_back"})


def _guarded(token: str) -> Night:
    """The night behind the link, once the client is within its limit and the form is
    the link's page's own; 404 for a link unknown or turned off, 400 for a form that was
    not sent from the page."""
    _limited()
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise CSRFError("sent from another site")
    sent = request.form.get("check", "")
    if not hmac.compare_digest(sent.encode(), form_check(token).encode()):
        raise CSRFError("not the page's form token")
    stamp = live.night_link_stamp(token)
    night = live.linked_night(stamp.night_id) if stamp is not None else None
    if night is None:
        abort(404)
    use_money_locale(night.locale)
    return night


def _back(token: str) -> Response:
    return redirect(url_for("live.night", token=token, _anchor="settle-h"), 303)


def _said(token: str, night: Night, sentence: str, code: int) -> tuple[str, int]:
    page = render_template(
        "live/said.html", night=night, sentence=sentence, back=url_for("live.night", token=token)
    )
    return page, code


@bp.post("/live/night/<token>/claims")
@csrf.exempt
def claim(token: str) -> Response | tuple[str, int]:
    """ "I paid" on a transfer, as the players' page showed it."""
    night = _guarded(token)
    form = ClaimForm(meta={"csrf": False})
    if not form.validate():
        return _said(token, night, _("That transfer is not one the page offered: reload it."), 422)
    payer, payee, seen = form.payer.number, form.payee.number, form.amount.number
    assert payer is not None and payee is not None and seen is not None  # validated
    try:
        claims.claim_paid(
            night, payer, payee, seen, plan=form.plan.data, submission=form.submission.data
        )
    except settle.AlreadyRecorded:
        pass  # a double tap: the first one counted
    except services.Refused as exc:
        return _said(token, night, refusal_text(exc), 409)
    except services.Conflict:
        return _said(token, night, _(RACE), 409)
    return _back(token)


@bp.post("/live/night/<token>/claims/<id:claim_id>/undo")
@csrf.exempt
def take_back(token: str, claim_id: int) -> Response | tuple[str, int]:
    """The player takes their "I paid" back; a second tap changes nothing."""
    night = _guarded(token)
    try:
        claims.take_back(night, claim_id)
    except services.Refused as exc:
        return _said(token, night, refusal_text(exc), 409)
    except services.Conflict:
        return _said(token, night, _(RACE), 409)
    return _back(token)
