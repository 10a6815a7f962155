"""The night's money sentences as the services say them (issue 33): a ``Said`` (a message
id of ``rules/said_night.py`` and its parameters), not text, so that a page says it in its
reader's language (``web/refusals.py`` ``said_text``) while the command line, the CSV and
the PDFs keep its English (``Said.english``).

Why ids and not Flask-Babel's lazy strings: these services also run from the command line
and in the CLI's imports and exports, where there is no request to pick a language from
(Flask-Babel's locale selector reads the request), and a sentence built here is often
stored in a refusal or compared in a test long before anything renders it. A ``Said`` is
plain data: it needs no app, no request and no catalog until a page says it."""

from __future__ import annotations

from datetime import date

from ..rules.errors import Param, Said, say
from .base import Refused


class Refusal(Refused):
    """A service's refusal said as a message id and its parameters (``said``); its text
    (``str(exc)``) is the English, as before."""

    def __init__(self, message_id: str, **params: Param) -> None:
        self.said = say(message_id, **params)
        super().__init__(self.said.english)


def refuse(message_id: str, **params: Param) -> Refusal:
    return Refusal(message_id, **params)


def night_where(name: str | None, day: date | None, *, players: bool) -> Said | str:
    """A carry's other night as a sentence names it: its name and date for the keeper
    ("Saturday (2026-11-21)"), its date only for the players' page."""
    if day is None:
        return say("ledger.another_night")
    if players:
        return say("ledger.night_of", day=day.isoformat())
    return f"{name} ({day.isoformat()})"


def joined(parts: list[Said | str]) -> Said | str:
    """Sentences one after another, "; " between them (``moved.and``)."""
    if not parts:
        return ""
    first = parts[0]
    for part in parts[1:]:
        first = say("moved.and", first=first, rest=part)
    return first
