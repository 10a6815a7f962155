"""Which language a request reads (Flask-Babel's locale selector; README "Languages").

Who reads which (``select_locale``): a signed-in keeper the language chosen on the account
page (``User.language``; empty follows the browser); else the language chosen on this
browser (the ``lang`` cookie: the footer's switch, or the keeper's choice remembered for
when they are logged out); else the best of ``LANGUAGES`` the browser's
``Accept-Language`` asks for; else English. Money is not a word: it keeps following the
night's locale (``rules.money``), whoever reads it."""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from flask_babel import get_locale
from flask_login import current_user
from werkzeug.wrappers import Response

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


def remember_language(response: Response, language: str | None) -> None:
    """Keep ``language`` on this browser (the ``lang`` cookie), or forget it (None): a
    visitor's footer choice, and a keeper's, so the pages before logging in speak it."""
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE"))
    if language is None:
        response.delete_cookie(LANGUAGE_COOKIE, secure=secure, httponly=True, samesite="Lax")
        return
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=COOKIE_SECONDS, secure=secure,
                        httponly=True, samesite="Lax")  # fmt: skip
