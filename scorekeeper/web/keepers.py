"""Co-keepers: the keeper link a night's owner hands out (with its QR code), the page it
opens, and the owner's list of who keeps the night with them.

``/keep/<token>`` opened logged out says who invites to which night and asks for a login
(or a sign-up) that comes back to the link, then asks "Keep <night> with <owner>?": one POST
adds the co-keeper (idempotent) and opens the night. The owner, or a co-keeper already,
goes straight to the night. A token never made, turned off, or of a deleted night
answers the same 404. Everything else here is the owner's alone."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from .. import services
from ..extensions import N_
from ..forms import KeeperForm, OneTimeForm
from ..models import Night
from ..services import keepers, live
from .changes import RACE
from .lan import reach
from .qr import qr_data_url

bp = Blueprint("keepers", __name__)


def keepers_section(night: Night) -> dict[str, Any]:
    """What the night page's "Keepers" section shows its owner: the link in force (its
    URL and QR code), the co-keepers, the form whose CSRF token the buttons send."""
    link = keepers.link_in_force(night.id)
    # Where the other keeper's phone reaches the app, as for the live view's link (the
    # public URL when set; the network address when the owner opened it on localhost).
    url = reach().base + url_for("keepers.open_link", token=link.token) if link else None
    return {
        "keeper_url": url,
        "keeper_qr": qr_data_url(url) if url else None,
        "co_keepers": keepers.co_keepers(night.id),
        "removed_keepers": keepers.removed(night.id),
        "keeper_form": KeeperForm(),
    }


@bp.route("/keep/<token>", methods=["GET", "POST"])
def open_link(token: str) -> str | Response | tuple[str, int]:
    """The keeper link: "Keep <night> with <owner>?", then the night. Opened logged out,
    it says who invites to which night, and leads to log in or sign up and back here."""
    night = keepers.night_of_link(token) if live.plausible(token) else None
    if night is None:
        abort(404)
    if not current_user.is_authenticated:
        if request.method == "POST":
            return redirect(url_for("auth.login", next=request.path))
        return render_template("keepers/invite.html", night=night, back=request.path)
    if night.owner_id == current_user.id or keepers.is_co_keeper(night.id, current_user.id):
        return redirect(url_for("nights.show", night_id=night.id))
    if keepers.is_barred(night.id, current_user.id):
        return _barred(night)
    form = KeeperForm()
    if request.method == "POST" and form.validate_on_submit():
        try:
            keepers.join(night, current_user)
        except keepers.Barred:  # removed while the question was open
            return _barred(night)
        flash(
            _("You keep %(night)s with %(owner)s now.", night=night.name, owner=night.owner.email),
            "success",
        )
        return redirect(url_for("nights.show", night_id=night.id))
    return render_template("keepers/confirm.html", night=night, form=form)


def _barred(night: Night) -> tuple[str, int]:
    """The link, opened by someone its owner removed: said plainly, nothing of the night
    beyond what they knew (its name and owner), 403."""
    return render_template("keepers/barred.html", night=night), 403


def _own_night(night_id: int) -> Night:
    night = services.owned_night(night_id, current_user, owner_only=True)
    if night is None:
        abort(404)
    return night


def _back(night_id: int) -> Response:
    return redirect(url_for("nights.show", night_id=night_id, _anchor="keepers"))


#: What the owner is told of a change of the keeper link.
CHANGES = {
    "open": N_("Keeper link made: whoever opens it and logs in keeps the night."),
    "renew": N_("A new keeper link: the old one opens nothing any more."),
    "off": N_("The keeper link is off: it opens nothing. Co-keepers stay."),
}


@bp.post("/nights/<id:night_id>/keepers/<any(open, renew, off):change>")
@login_required
def change_link(night_id: int, change: str) -> Response:
    """Make, renew or turn off the night's keeper link (CSRF checked before the view).
    Each is idempotent: a second tap of Make finds the link, of Off finds it off, and
    of Renew (its form's one-time id) renews nothing more."""
    night = _own_night(night_id)
    try:
        if change == "renew":
            form = OneTimeForm()
            if not form.validate_on_submit():
                abort(400)
            keepers.renew(night.id, user=current_user, submission=form.submission.data)
        else:
            (keepers.open_link if change == "open" else keepers.turn_off)(night.id)
    except services.AlreadyCreated:
        flash(_("Renewed already (sent twice): the link below is the new one."), "info")
    except services.Conflict:
        flash(_(RACE), "error")
    else:
        flash(_(CHANGES[change]), "info")
    return _back(night.id)


@bp.post("/nights/<id:night_id>/keepers/<id:user_id>/remove")
@login_required
def remove(night_id: int, user_id: int) -> Response:
    """Remove a co-keeper: their access to the night ends at once and the keeper link no
    longer lets them in (until "Let back in"); with "Turn the keeper link off too"
    ticked, the link goes off for everyone (the other co-keepers stay). A second tap
    finds them removed already and says the same."""
    night = _own_night(night_id)
    found = {k.user_id: k.email for k in keepers.co_keepers(night.id)}
    link_off = KeeperForm().link_off.data
    if keepers.remove(night, user_id, link_off=link_off):
        said = _(
            "%(email)s no longer keeps %(night)s. The keeper link will not let them back in "
            "until you tap Let back in.", email=found[user_id], night=night.name,
        )  # fmt: skip
        if link_off:
            said = _(
                "%(email)s no longer keeps %(night)s. The keeper link will not let them back "
                "in until you tap Let back in. The keeper link is off too: the other "
                "co-keepers stay; make a new link for anyone still to join.",
                email=found[user_id], night=night.name,
            )  # fmt: skip
        flash(said, "success")
    else:
        flash(_("Removed already: they no longer keep this night."), "info")
    return _back(night.id)


@bp.post("/nights/<id:night_id>/keepers/<id:user_id>/let-back")
@login_required
def let_back(night_id: int, user_id: int) -> Response:
    """Lift a removed keeper's bar: the keeper link lets them in again once they open it
    and confirm (nobody is added by this tap). A second tap changes nothing more."""
    night = _own_night(night_id)
    found = {k.user_id: k.email for k in keepers.removed(night.id)}
    if keepers.let_back(night, user_id):
        flash(
            _(
                "%(email)s may keep %(night)s again: they open the keeper link and confirm.",
                email=found[user_id],
                night=night.name,
            ),
            "success",
        )
    else:
        flash(_("Let back in already: the keeper link lets them in."), "info")
    return _back(night.id)
