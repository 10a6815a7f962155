"""How a view carries out a change a keeper asked for on a small form (mark paid, carry,
rename, ways to pay...): one service call; on success its sentence, on a refusal or a
race the reason, as a flash for the page the view redirects to. The CSRF token of every
POST is checked before any view runs (``CSRFProtect``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from flask import abort, flash, request
from flask_babel import gettext

from ..extensions import N_
from ..forms import checked_whole
from ..rules import RecordError
from ..services import Conflict, Refused
from .refusals import refusal_text

T = TypeVar("T")
RACE = N_("Something changed at the same moment: try again.")  # gettext(RACE) says it


def attempt(change: Callable[[], T], done: Callable[[T], str]) -> tuple[bool, T | None]:
    """``change()``, then flash ``done(result)``: (True, result). A refusal or a race
    flashes why: (False, None)."""
    try:
        result = change()
    except (RecordError, Refused, Conflict) as exc:
        flash(refusal_text(exc) if str(exc) else gettext(RACE), "error")
        return False, None
    flash(done(result), "success")
    return True, result


def whole(name: str) -> int:
    """An id posted in a field (ASCII digits, within an INTEGER column's range: see
    ``forms.checked_whole``); anything else is a 400."""
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
