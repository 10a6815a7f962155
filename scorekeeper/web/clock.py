"""The table's clock: moments and dates in the keeper's time zone (their phone's, which
``static/js/app.js`` keeps in the ``tz`` cookie), UTC when the phone has not said."""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import format_date, format_skeleton, format_time, get_datetime_format
from flask import has_request_context, request
from flask_babel import get_locale

#: The cookie the keeper's pages set from the phone's clock (static/js/app.js): the IANA
#: name of its time zone, so that times read as the table's, not UTC.
TIME_ZONE_COOKIE = "tz"


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def _zone(name: str) -> ZoneInfo | None:
    """The zone of that IANA name, or None: only names the system knows are looked up."""
    return ZoneInfo(name) if name in _zone_names() else None


def local_time(moment: datetime, seconds: bool = False) -> str:
    """A stored moment in the keeper's time zone (their phone's, from the ``tz`` cookie),
    the day and month as the reader's language writes them, with the zone's abbreviation:
    ``27 Nov 22:43 CET``, ``27. Nov. 22:43 CET``; ``seconds``: ``22:43:05``. UTC when
    the phone has not said."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    raw = request.cookies.get(TIME_ZONE_COOKIE, "") if has_request_context() else ""
    zone = _zone(raw[:64]) or UTC
    shown = moment.astimezone(zone)
    language = str(get_locale() or "en")
    day = (  # English as it always read ("27 Nov"); others by their own order and dots
        format_date(shown, "dd MMM", locale="en")
        if language == "en"
        else format_skeleton("MMMd", shown, tzinfo=shown.tzinfo, locale=language)
    )
    pattern = "HH:mm:ss" if seconds else "HH:mm"
    hour = format_time(shown, pattern, tzinfo=shown.tzinfo, locale=language)
    return f"{day} {hour} {shown.tzname() or 'UTC'}"


def local_moment(moment: datetime) -> str:
    """A stored moment in the keeper's time zone, as the reader's language writes a date
    and a time (``28 Nov 2026, 22:43 CET``, ``28.11.2026, 22:43 CET``), with the zone's
    abbreviation. UTC when the phone has not said."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    raw = request.cookies.get(TIME_ZONE_COOKIE, "") if has_request_context() else ""
    shown = moment.astimezone(_zone(raw[:64]) or UTC)
    language = str(get_locale() or "en")
    day = format_date(shown, "medium", locale=language)
    hour = format_time(shown, "short", tzinfo=shown.tzinfo, locale=language)
    pattern = str(get_datetime_format("medium", locale=language))
    words = pattern.replace("{1}", day).replace("{0}", hour)
    return f"{words} {shown.tzname() or 'UTC'}"


def local_today() -> date:
    """Today's date at the keeper's table (their phone's zone, from the ``tz`` cookie; UTC
    when the phone has not said): what "tonight" and a new night's date mean."""
    raw = request.cookies.get(TIME_ZONE_COOKIE, "") if has_request_context() else ""
    return datetime.now(_zone(raw[:64]) or UTC).date()
