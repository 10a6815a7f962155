"""The language of the app's words, chosen: the keeper's on the account page, a visitor's
in the footer (which one a request reads: ``web/locales.py``; README "Languages")."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import refresh
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import HiddenField, SelectField, ValidationError
from wtforms.fields.choices import SelectChoice

from ..extensions import db
from .auth import _render_account, _safe_next
from .headers import PUBLIC_PREFIX
from .locales import LANGUAGES, current_language, remember_language

bp = Blueprint("language", __name__)


class LanguageField(SelectField):
    """A language from the list; anything else refused in the reader's language (WTForms'
    own sentence has no Hindi)."""

    def pre_validate(self, form: Any) -> None:
        if self.data not in {choice.value for choice in self.iter_choices()}:
            raise ValidationError(_("Choose one from the list."))


class FooterLanguageForm(FlaskForm):
    """The footer's switch for visitors: the language, and the page to go back to."""

    language = LanguageField(
        _l("Language"), choices=[SelectChoice(*pair) for pair in LANGUAGES.items()],
        validate_choice=True,
    )  # fmt: skip
    back = HiddenField()


class AccountLanguageForm(FlaskForm):
    """The account page's choice: a language, or "" to follow the browser."""

    language = LanguageField(_l("Language of the app"), validate_choice=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pairs = [("", _("As my browser asks")), *LANGUAGES.items()]
        self.language.choices = [SelectChoice(value, label) for value, label in pairs]


@bp.app_template_global("footer_language_form")
def footer_language_form() -> FooterLanguageForm | None:
    """The footer's switch; none on the players' public pages (their errors), which hold
    no session and no form, and say nothing of the address asked for."""
    if request.path.startswith(PUBLIC_PREFIX):
        return None
    form = FooterLanguageForm(formdata=None, language=current_language())
    form.back.data = request.full_path.rstrip("?") if request.method == "GET" else request.path
    return form


@bp.app_template_global("account_language_form")
def account_language_form() -> AccountLanguageForm:
    """The account page's form: the one just refused (with its errors), else the choice."""
    refused = g.get("refused_language_form")
    if refused is not None:
        return refused
    return AccountLanguageForm(formdata=None, language=current_user.language or "")


@bp.post("/language")
def choose() -> Response | tuple[str, int]:
    """A visitor's choice from the footer: kept in the ``lang`` cookie (nothing stored on
    the server), then back to the page it was made on. Works without JavaScript."""
    form = FooterLanguageForm()
    if not form.validate_on_submit():
        title, message = _("Not changed"), _("That is not a language of the app.")
        return render_template("error.html", code=422, title=title, message=message), 422
    response = redirect(_safe_next(form.back.data))
    remember_language(response, form.language.data)
    return response


@bp.post("/account/language")
@login_required
def account_language() -> Response | tuple[str, int]:
    """The keeper's language, stored on the account: every phone they log in on reads it,
    and so do the mails sent to them."""
    form = AccountLanguageForm()
    if not form.validate_on_submit():
        g.refused_language_form = form
        return _render_account(status=422)
    current_user.language = form.language.data or None
    db.session.commit()
    refresh()  # the message below, in the language just chosen
    flash(_("Language saved."), "success")
    response = redirect(url_for("auth.account"))
    remember_language(response, current_user.language)
    return response
