"""Game settings: every key of game-record.md, checked and filled with a variant's defaults."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import RecordError

MAX_MONEY_CENTS = 100_000_00  # $100,000: far beyond any card table, well inside an int
MAX_POINTS = 100_000
# The most rounds a game may hold: a five-hour night plays about a hundred, so a real table
# never meets it, and no game can make a page or a PDF expensive.
MAX_ROUNDS = 200


@dataclass(frozen=True, slots=True)
class Settings:
    """All settings of a game; a variant ignores the keys that are not its own."""

    buy_in: int = 0
    pot_split: tuple[int, ...] = (100,)
    currency: str = "USD"
    # vegas
    max_score: int = 100
    cards_per_player: int = 7
    ace_points: int = 1
    second_runner_up_buy_in: bool = False
    meld_solidarity: bool = True
    meld_strictness: bool = False
    # texas
    ante: int = 50
    per_round: int = 10
    # rummy, multiplayer
    target_score: int = 100
    deals: int | None = None

    def to_json(self, keys: frozenset[str]) -> dict[str, Any]:
        data = asdict(self)
        out: dict[str, Any] = {}
        # A fixed number of deals replaces the target; without deals, say nothing of them.
        keys = keys - ({"target_score"} if self.deals is not None else {"deals"})
        for key in sorted(keys):
            value = data[key]
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


SETTING_NAMES = frozenset(f.name for f in fields(Settings))
COMMON_KEYS = frozenset({"buy_in", "pot_split", "currency"})


def _whole(key: str, value: Any, *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"settings.{key} must be a whole number (got {value!r})", field=key)
    if not low <= value <= high:
        raise RecordError(
            f"settings.{key} must be between {low} and {high} (got {value})", field=key
        )
    return value


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"settings.{key} must be true or false (got {value!r})", field=key)
    return value


def parse_settings(
    raw: Any, *, variant: str, keys: frozenset[str], defaults: Mapping[str, Any]
) -> Settings:
    """Check ``raw`` (the record's ``settings`` object) against a variant's keys."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise RecordError("settings must be an object of setting names and values")
    values: dict[str, Any] = dict(defaults)
    for key, value in raw.items():
        if key not in keys:
            if key in SETTING_NAMES:
                raise RecordError(f"settings.{key} is not a setting of {variant}", field=key)
            raise RecordError(f"settings.{key} is not a known setting", field=key)
        values[key] = _check(key, value)
    if "deals" in raw and raw["deals"] is not None and "target_score" in raw:
        raise RecordError("settings: give either target_score or deals, not both", field="deals")
    return Settings(**values)


def _check(key: str, value: Any) -> Any:
    money = {"buy_in", "ante", "per_round"}
    if key in money:
        return _whole(key, value, low=0, high=MAX_MONEY_CENTS)
    if key == "pot_split":
        if not isinstance(value, list | tuple) or not value:
            raise RecordError(
                "settings.pot_split must be a list of whole percentages, best place first",
                field=key,
            )
        if len(value) > 20:
            raise RecordError("settings.pot_split has more places than players", field=key)
        parts = tuple(_whole(key, v, low=0, high=100) for v in value)
        if sum(parts) != 100:
            raise RecordError(
                f"settings.pot_split must add up to 100 (got {sum(parts)})", field=key
            )
        return parts
    if key == "currency":
        if not isinstance(value, str) or not re.fullmatch(r"[A-Z]{3}", value):
            raise RecordError(
                f"settings.currency must be a three-letter ISO 4217 code such as USD "
                f"(got {value!r})",
                field=key,
            )
        return value
    if key == "max_score":
        return _whole(key, value, low=1, high=MAX_POINTS)
    if key == "cards_per_player":
        return _whole(key, value, low=1, high=20)
    if key == "ace_points":
        # A whole number, not 1.0 or true (both equal 1 in Python).
        if type(value) is not int or value not in (1, 11, 13):
            raise RecordError(f"settings.ace_points must be 1, 11 or 13 (got {value!r})", field=key)
        return value
    if key == "target_score":
        return _whole(key, value, low=1, high=MAX_POINTS)
    if key == "deals":
        return None if value is None else _whole(key, value, low=1, high=MAX_ROUNDS)
    return _flag(key, value)
