"""How a view carries out a change a keeper asked for on a small form (mark paid, carry,
rename, ways to pay, a link renewed, the last round removed...): one service call; on
success its sentence, on a refusal or a race the reason, on a form sent twice
(``AlreadySent``) what the first sending did, as a flash for the page the view redirects
to. The CSRF token of every
POST is checked before any view runs (``CSRFProtect``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from flask import abort, flash, request
from flask_babel import gettext

from ..extensions import N_
from ..rules import RecordError
from ..services import AlreadySent, Conflict, Refused
from .fields import checked_whole
from .refusals import refusal_text

T = TypeVar("T")
RACE = N_("Something changed at the same moment: try again.")  # gettext(RACE) says it
RENEWED = N_("Renewed already (sent twice): the link below is the new one.")


def attempt(
    change: Callable[[], T],
    done: Callable[[T], str],
    *,
    again: Callable[[AlreadySent], str] | None = None,
    race: str = "",
    level: str = "success",
) -> tuple[bool, T | None]:
    """``change()``, then flash ``done(result)`` (as ``level``): (True, result). A refusal
    or a race flashes why (``race``: the sentence for a race, else ``RACE``): (False,
    None). A form sent twice is done (the first sending did it): ``again(sent)`` is
    flashed as news, (True, None); without ``again`` it is the caller's to answer (it
    leads to what the first sending made)."""
    try:
        result = change()
    except AlreadySent as sent:
        if again is None:
            raise
        flash(again(sent), "info")
        return True, None
    except (RecordError, Refused, Conflict) as exc:
        flash(refusal_text(exc) if str(exc) else (race or gettext(RACE)), "error")
        return False, None
    if said := done(result):
        flash(said, level)
    return True, result


def whole(name: str) -> int:
    """An id posted in a field (ASCII digits, within an INTEGER column's range: see
    ``fields.checked_whole``); anything else is a 400."""
    number = checked_whole(request.form.get(name))
    if number is None:
        abort(400)
    return number


_ONE_TIME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def one_time_id() -> str | None:
    """The one-time id a small creating form carries (``new_submission()`` in its
    template), so that a double tap finds what the first tap made; None without one."""
    raw = request.form.get("submission", "")
    return raw if _ONE_TIME_ID.fullmatch(raw) else None
