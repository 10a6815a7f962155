"""The printed documents' words in their reader's language (README "Languages").

A sheet or a summary speaks the keeper's language: on a page of the app, the request's
(Flask-Babel's locale: the account's choice, else the browser's); from the command line,
the one given with ``--language`` (:func:`speaking`), else English. The sentences are in
the app's catalogs (``scorekeeper/translations``, kept by scripts/i18n), read here with
Babel alone, so rendering a document still needs no Flask app or request.

``gettext``/``ngettext`` take ``%(name)s`` parameters like Flask-Babel's; the reports'
Jinja environment calls them for ``_()`` in the templates (:func:`install`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import jinja2
from babel.support import NullTranslations, Translations

from ..rules.display import ordinal
from ..rules.errors import ENGLISH, Param, Said, english

CATALOGS = Path(__file__).resolve().parent.parent / "translations"
SOURCE = "en"
_CHOSEN: ContextVar[str | None] = ContextVar("report_language", default=None)


@functools.cache
def catalog(language: str) -> NullTranslations:
    """The compiled catalog of ``language`` (English, or a language with none: the
    English itself)."""
    if language == SOURCE:
        return NullTranslations()
    return Translations.load(str(CATALOGS), [language], domain="messages")


def language() -> str:
    """The language the documents being made now speak: the one chosen with
    :func:`speaking`, else the page's reader's (in a request), else English."""
    chosen = _CHOSEN.get()
    if chosen:
        return chosen
    from flask import has_request_context  # the web's reader; absent on the command line

    if has_request_context():
        from flask_babel import get_locale

        return str(get_locale() or SOURCE)
    return SOURCE


@contextmanager
def speaking(chosen: str | None) -> Iterator[None]:
    """Make the documents rendered inside speak ``chosen`` (None: as they would anyway,
    the language chosen around this, else the reader's)."""
    if chosen is None:
        yield
        return
    token = _CHOSEN.set(chosen)
    try:
        yield
    finally:
        _CHOSEN.reset(token)


def gettext(sentence: str, **params: Any) -> str:
    said = catalog(language()).ugettext(sentence)
    return said % params if params else said


def ngettext(one: str, many: str, num: int, **params: Any) -> str:
    params.setdefault("num", num)
    return catalog(language()).ungettext(one, many, num) % params


def install(environment: jinja2.Environment) -> None:
    """``_``, ``gettext`` and ``ngettext`` in ``environment``'s templates, as Flask-Babel
    gives them to the app's (new style: ``_("... %(name)s", name=...)``)."""
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        lambda s: catalog(language()).ugettext(s),
        lambda s, p, n: catalog(language()).ungettext(s, p, n),
        newstyle=True,
    )


#: The engine's sentences the catalog keeps under a context (web/refusals*.py ``pgettext``).
CONTEXTS = {
    "fact.deals": "number of deals",
    "setting.deals.2": "number of deals",
    "sheet.column.wild": "sheet column",  # web/refusals_sheets.py
    "sheet.column.how": "sheet column",
    "round.nobody.went_out": "round form choice",  # web/refusals_display.py
    **{
        f"marker.{key}": "Pool hand marker"
        for key in ("drop", "middle_drop", "full_count", "wrong_show")
    },
}


def said(words: str | Said) -> str:
    """An engine sentence (``rules.errors.Said``) in the documents' language, as a page
    says it (web/refusals.py ``said_text`` is this; its ``ENGINE`` lists the catalog
    sentences, the engine's English with ``%(name)s`` placeholders, for extraction and
    tests/test_catalogs.py); text (a name, money) as it is. English is the engine's
    own (``Said.english``), so the command line's documents stay word for word."""
    if not isinstance(words, Said):
        return words
    said_in = language()
    if said_in == SOURCE:
        return words.english
    sentence, context = _catalog_sentence(words.id)
    books = catalog(said_in)
    template = books.upgettext(context, sentence) if context else books.ugettext(sentence)
    return template % {name: _param(value, said_in) for name, value in words.params.items()}


@functools.cache
def _catalog_sentence(message_id: str) -> tuple[str, str | None]:
    """An engine sentence as the catalogs keep it: its English with ``%(name)s`` for
    ``{name}``, and its context, if any."""
    english_ = ENGLISH[message_id].replace("%", "%%")
    return re.sub(r"\{(\w+)\}", r"%(\1)s", english_), CONTEXTS.get(message_id)


def _param(value: Param, said_in: str) -> str:
    if isinstance(value, Said):
        return said(value)
    if isinstance(value, tuple):  # "1, 2 or 3" as the language lists them
        from babel.lists import format_list

        return format_list([str(n) for n in value], style="or", locale=said_in)
    return english(value)


def place_text(place: int) -> str:
    """A place in the ranking as the language writes it: "1st", "1.", "1er", "पहला"."""
    if language() == SOURCE:
        return ordinal(place)
    if place == 1:
        return gettext("1st")
    if place == 2:
        return gettext("2nd")
    return gettext("3rd") if place == 3 else gettext("%(place)sth", place=place)


def names_text(names: list[str] | tuple[str, ...]) -> str:
    """``["Ann", "Bob", "Cy"]`` -> ``"Ann, Bob and Cy"``, as the language lists names."""
    if len(names) <= 1:
        return "".join(names)
    said_in = language()
    if said_in == SOURCE:
        return ", ".join(names[:-1]) + " and " + names[-1]
    from babel.lists import format_list

    return format_list(list(names), locale=said_in)


def count_of(word: str, n: int) -> str:
    """``n`` of the table's ``word`` for a round (the variant's ``round_word``: round,
    deal or hand) in words: "3 deals"."""
    if word == "deal":
        return ngettext("%(num)d deal", "%(num)d deals", n)
    if word == "hand":
        return ngettext("%(num)d hand", "%(num)d hands", n)
    return ngettext("%(num)d round", "%(num)d rounds", n)
