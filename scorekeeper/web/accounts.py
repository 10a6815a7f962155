"""Take everything with you, bring it back, or leave: "Download everything" (the account
as one zip file, ``scorekeeper-account/1``), "Import" into an empty account, and "Delete
my account" (everything erased) on the account page (``scorekeeper.services.accounts``)."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required, logout_user
from werkzeug.wrappers import Response

from ..models import User, utcnow
from ..services import AlreadySent, accounts
from .auth_forms import AccountImportForm, DeleteAccountForm
from .refusals import refusal_text

bp = Blueprint("accounts", __name__)


def _user() -> User:
    user: User = current_user._get_current_object()
    return user


@bp.get("/account/export.zip")
@login_required
def export() -> Response:
    """Everything of the account as one zip file of JSON (docs/scorekeeper-account.md)."""
    response = make_response(accounts.export_account(_user()))
    response.mimetype = "application/zip"
    name = f"scorekeeper-account-{utcnow().date().isoformat()}.zip"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _import_page(form: AccountImportForm, error: str | None, status: int) -> tuple[str, int]:
    nights, regulars = accounts.holdings(_user())
    page = render_template(
        "auth/import.html", form=form, error=error, nights=nights, regulars=regulars
    )
    return page, status


@bp.route("/account/import", methods=["GET", "POST"])
@login_required
def import_account() -> Response | tuple[str, int]:
    """Restore an account file into this account, which must hold no nights and no
    regulars. The whole file is checked first; a refusal changes nothing."""
    form = AccountImportForm()
    if not form.validate_on_submit():
        error = "; ".join(e for errs in form.errors.values() for e in errs) or None
        return _import_page(form, error, 422 if error else 200)
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _import_page(form, _("Choose the account file (.zip) to import."), 422)
    try:
        done = accounts.import_account(_user(), upload.read(), submission=form.submission.data)
    except AlreadySent:
        flash(_("That file was already imported (sent twice): here it is, once."), "info")
        return redirect(url_for("home.index"))
    except accounts.ImportRefused as exc:
        refused = _("Not imported, nothing was changed: %(refusal)s.", refusal=refusal_text(exc))
        return _import_page(form, refused, 422)
    flash(_("Imported %(what)s.", what=done), "success")
    return redirect(url_for("home.index"))


@bp.route("/account/delete", methods=["GET", "POST"])
@login_required
def delete() -> Response | tuple[str, int]:
    """Erase the account and everything of it, once its email is typed."""
    form = DeleteAccountForm()
    user = _user()
    if form.validate_on_submit():
        if form.email.data.strip().lower() != user.email:
            form.email.errors.append(
                _("That is not this account's email: nothing was deleted. Type it as shown.")
            )
        else:
            accounts.delete_account(user)
            logout_user()
            flash(_("Your account and everything in it were deleted."), "success")
            return redirect(url_for("home.index"))
    status = 422 if form.errors else 200
    nights, regulars = accounts.holdings(user)
    page = render_template("auth/delete.html", form=form, nights=nights, regulars=regulars)
    return page, status
