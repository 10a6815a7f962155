"""The table's clock: moments and dates in the keeper's time zone (their phone's, which
``static/js/app.js`` keeps in the ``tz`` cookie), UTC when the phone has not said."""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, available_timezones

from flask import has_request_context, request

#: The cookie the keeper's pages set from the phone's clock (static/js/app.js): the IANA
#: name of its time zone, so that times read as the table's, not UTC.
TIME_ZONE_COOKIE = "tz"


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def _zone(name: str) -> ZoneInfo | None:
    """The zone of that IANA name, or None: only names the system knows are looked up."""
    return ZoneInfo(name) if name in _zone_names() else None


def local_time(moment: datetime, fmt: str = "%d %b %H:%M") -> str:
    """A stored moment in the keeper's time zone (their phone's, from the ``tz`` cookie),
    with the zone's abbreviation: ``27 Nov 22:43 CET``. UTC when the phone has not said."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    raw = request.cookies.get(TIME_ZONE_COOKIE, "") if has_request_context() else ""
    zone = _zone(raw[:64]) or UTC
    shown = moment.astimezone(zone)
    return f"{shown.strftime(fmt)} {shown.tzname() or 'UTC'}"


def local_today() -> date:
    """Today's date at the keeper's table (their phone's zone, from the ``tz`` cookie; UTC
    when the phone has not said): what "tonight" and a new night's date mean."""
    raw = request.cookies.get(TIME_ZONE_COOKIE, "") if has_request_context() else ""
    return datetime.now(_zone(raw[:64]) or UTC).date()
