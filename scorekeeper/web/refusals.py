"""The engine's refusals in the reader's language: ``refusal_text(exc)`` says a
``RecordError`` (or a service's refusal) as the page should show it.

The engine says each sentence as a message id and its parameters (``rules.errors.Said``,
its English in ``rules.errors.ENGLISH``); ``ENGINE`` below is the catalog's side of each
id: the same sentence with ``%(name)s`` placeholders, which scripts/i18n extracts and the
translations follow (tests/test_catalogs.py checks every id is here, with the same
placeholders). A refusal given as English text only (the modules not moved yet) is shown
as it is."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..reports.words import said as said_words
from ..rules.errors import RecordError, Said
from .refusals_display import DISPLAY
from .refusals_night import ENGINE_NIGHT
from .refusals_play import PLAY
from .refusals_questions import QUESTIONS
from .refusals_record import RECORD
from .refusals_sheets import SHEETS

ENGINE = {
    "settings.choice": _l("settings.%(key)s must be %(choices)s (got %(value)s)"),
    "settings.flag": _l("settings.%(key)s must be true or false (got %(value)s)"),
    "settings.wholes": _l("settings.%(key)s must be a list of whole numbers"),
    "settings.code": _l(
        "settings.%(key)s must be a three-letter ISO 4217 code such as USD (got %(value)s)"
    ),
    "settings.whole": _l("settings.%(key)s must be a whole number (got %(value)s)"),
    "settings.range": _l("settings.%(key)s must be between %(low)s and %(high)s (got %(value)s)"),
    "settings.split_list": _l(
        "settings.pot_split must be a list of whole percentages, best place first"
    ),
    "settings.split_places": _l("settings.pot_split has more places than players"),
    "settings.split_sum": _l("settings.pot_split must add up to 100 (got %(total)s)"),
    "settings.object": _l("settings must be an object of setting names and values"),
    "settings.not_of_variant": _l("settings.%(key)s is not a setting of %(variant)s"),
    "settings.unknown": _l("settings.%(key)s is not a known setting"),
    "names.name": _l("name"),
    "names.not_text": _l("%(what)s must be a name in quotes (got %(value)s)"),
    "names.surrogate": _l("%(what)s contains an invalid character (a lone surrogate)"),
    "names.control": _l("%(what)s %(name)s contains control characters"),
    "names.direction": _l("%(what)s contains text-direction control characters"),
    "names.blank": _l("%(what)s is blank: give a name"),
    "names.too_long": _l(
        "%(what)s %(start)s... is too long (%(length)s characters, at most %(most)s)"
    ),
    **ENGINE_NIGHT,  # the night's money sentences (web/refusals_night.py)
}
ENGINE.update(PLAY)  # the words around a game (web/refusals_play.py)
ENGINE.update(SHEETS)  # the printed sheets' words (web/refusals_sheets.py)
ENGINE.update(DISPLAY)  # the round form's, notes, wild and help words (web/refusals_display.py)
ENGINE.update(RECORD)  # a record's refusals, read and settled (web/refusals_record.py)
ENGINE.update(QUESTIONS)  # what the keeper is asked before a save (web/refusals_questions.py)


def said_text(said: Said) -> str:
    """One of the engine's sentences in the reader's language: the documents' renderer
    (``reports.words.said``), which reads the request's language; one renderer for both,
    so a page and a PDF never say a sentence two ways."""
    return said_words(said)


def refusal_text(exc: Exception) -> str:
    """What a page shows of a refusal: an engine sentence in the reader's language (with
    its round, when it names one), else the exception's own text."""
    said = getattr(exc, "said", None)  # a RecordError's, or a service's Refusal's
    if not isinstance(said, Said):
        return str(exc)
    sentence = said_text(said)
    if not isinstance(exc, RecordError) or exc.round is None:
        return sentence
    return _("round %(number)s: %(refusal)s", number=exc.round, refusal=sentence)
