"""What the night's pages need to speak the reader's language (issue 33): ``said`` says
a sentence the services built as a ``Said`` (or gives text as it is), and the days of a
night as the reader's language writes them (Babel's formats: "Saturday, 28 November
2026", "Samstag, 28. November 2026"). Money is not a word: amounts inside a sentence
arrive already written in the night's locale. Registered for the templates by
web/nights.py."""

from __future__ import annotations

from datetime import date

from babel.dates import format_date
from markupsafe import Markup

from ..rules.errors import Said
from .locales import current_language
from .refusals import said_text


def said(value: Said | str | None) -> str:
    """A service's sentence in the reader's language; text (a name, a number) as it is."""
    if isinstance(value, Said):
        return said_text(value)
    return "" if value is None else value if isinstance(value, Markup) else str(value)


def day_long(day: date) -> str:
    """A night's date written out ("Saturday, November 28, 2026")."""
    return format_date(day, "full", locale=current_language())


def day_short(day: date) -> str:
    """A night's date in a line ("Nov 28, 2026", "28.11.2026")."""
    return format_date(day, "medium", locale=current_language())
