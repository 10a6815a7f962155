"""The language of the app's words (Flask-Babel; README "Languages"): which one a request
reads, the keeper's choice on the account page, and the footer's switch for visitors.

Who reads which (``select_locale``): a signed-in keeper the language chosen on the account
page (``User.language``; empty follows the browser); else the language a visitor chose in
the footer (the ``lang`` cookie); else the best of ``LANGUAGES`` the browser's
``Accept-Language`` asks for; else English. Money is not a word: it keeps following the
night's locale (``rules.money``), whoever reads it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import get_locale, refresh
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import HiddenField, SelectField
from wtforms.fields.choices import SelectChoice

from ..extensions import db
from .auth import _render_account, _safe_next
from .headers import PUBLIC_PREFIX

#: The languages of the app's words, each by its name in itself (how a reader finds
#: theirs in a list). English is the source language; the others are the catalogs in
#: scorekeeper/translations/ (scripts/i18n keeps them complete).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "de": "Deutsch",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
    "hi": "हिन्दी",
}
DEFAULT = "en"
#: The footer switch's cookie: a visitor's (not signed-in) chosen language, for a year.
LANGUAGE_COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 60 * 60

bp = Blueprint("language", __name__)


def browser_language(accepted: Any) -> str:
    """The language of ``LANGUAGES`` a browser's ``Accept-Language`` prefers (werkzeug's
    ``request.accept_languages``: ``pt-PT`` finds Brazilian Portuguese, ``hi-IN`` Hindi),
    else English."""
    tags = {code.replace("_", "-"): code for code in LANGUAGES}
    best = accepted.best_match(list(tags), default=DEFAULT)
    return tags.get(best, DEFAULT)


def select_locale() -> str:
    """The language of this request's words (Flask-Babel's locale selector)."""
    if current_user.is_authenticated and current_user.language in LANGUAGES:
        return str(current_user.language)
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return browser_language(request.accept_languages)


def current_language() -> str:
    """The code of the language this request reads (``en`` outside a request)."""
    return str(get_locale() or DEFAULT)


def html_lang() -> str:
    """``<html lang>``: the request's language as a BCP 47 tag (``pt-BR``)."""
    return current_language().replace("_", "-")


class FooterLanguageForm(FlaskForm):
    """The footer's switch for visitors: the language, and the page to go back to."""

    language = SelectField(
        _l("Language"), choices=[SelectChoice(*pair) for pair in LANGUAGES.items()],
        validate_choice=True,
    )  # fmt: skip
    back = HiddenField()


class AccountLanguageForm(FlaskForm):
    """The account page's choice: a language, or "" to follow the browser."""

    language = SelectField(_l("Language of the app"), validate_choice=True)

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
    response.set_cookie(
        LANGUAGE_COOKIE,
        form.language.data,
        max_age=COOKIE_SECONDS,
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        httponly=True,
        samesite="Lax",
    )
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
    return redirect(url_for("auth.account"))
