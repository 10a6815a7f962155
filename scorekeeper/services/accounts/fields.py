"""The small readers of an account file's values (:mod:`.checks`): each a value of the
file read to the bounds a form would hold it to, or :class:`ImportRefused` saying where
and what is wrong."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from ...models import as_utc, utcnow
from ...rules import RecordError
from ...rules.errors import Said
from ...rules.names import clean_name

EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)  # no time the app stores is older


class ImportRefused(ValueError):
    """The file is not restored: the message is a sentence saying what is wrong. Given as
    a ``Said``, ``said`` keeps it for a page to say in its reader's language; ``str(exc)``
    is the English either way."""

    def __init__(self, message: str | Said) -> None:
        self.said = message if isinstance(message, Said) else None
        super().__init__(message.english if isinstance(message, Said) else message)


def _fail(where: str, what: str) -> ImportRefused:
    return ImportRefused(f"{where}: {what}")


def _object(value: Any, where: str, keys: Iterable[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, "must be an object")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise _fail(where, f"has an unknown field {unknown[0][:40]!r}")
    return value


def _list(value: Any, where: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, "must be a list")
    if len(value) > most:
        raise _fail(where, f"holds more than {most}")
    return value


def _whole(value: Any, where: str, low: int = 1, high: int = 2**31 - 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"must be a whole number from {low} to {high}")
    return value


def _text(value: Any, where: str, most: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > most:
        raise _fail(where, f"must be text of 1 to {most} characters")
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise _fail(where, "contains control characters")
    return value


def _moment(value: Any, where: str, *, optional: bool = False) -> datetime | None:
    """A time the app could have stored: from 2000 to now (and a day for a clock ahead)."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise _fail(where, "must be a date and time (ISO 8601)")
    try:
        moment = as_utc(datetime.fromisoformat(value))
    except (ValueError, OverflowError):
        raise _fail(where, f"{value[:40]!r} is not a date and time (ISO 8601)") from None
    if not EARLIEST <= moment <= utcnow() + timedelta(days=1):
        raise _fail(where, f"{value[:40]!r} is not a time this app could have stored "
                    "(from 2000 until now)")  # fmt: skip
    return moment


def _name(value: Any, where: str) -> str:
    try:
        name = clean_name(value, what="the name")
    except RecordError as exc:
        raise _fail(where, str(exc)) from None
    if name != value:
        raise _fail(where, f"{value!r} is not a name as the app stores it")
    return name


def _waiting(value: Any, where: str) -> str | dict[str, str]:
    """A late joiner waiting for the next round: a name, or a newcomer and whom they sit after."""
    if isinstance(value, dict):
        entry = _object(value, where, ("name", "after"))
        return {"name": _name(entry.get("name"), where), "after": _name(entry.get("after"), where)}
    return _name(value, where)


def _ids(rows: list[dict[str, Any]], what: str) -> set[int]:
    seen: set[int] = set()
    for i, row in enumerate(rows, 1):
        number = _whole(row.get("id"), f"{what} {i}: id")
        if number in seen:
            raise ImportRefused(f"{what} {number} is in the file twice")
        seen.add(number)
    return seen


def _ref(value: Any, known: set[int], where: str, what: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in known:
        raise _fail(where, f"names {what} {value!r}, which is not in the file")
    return value
