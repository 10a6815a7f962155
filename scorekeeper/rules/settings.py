"""Game settings: every key of game-record.md, declared once with its label and kind, checked,
and filled with a variant's defaults.

A variant lists the :class:`SettingSpec` of its settings in the order a keeper sets them;
the record parser checks values with them, and the new-game form is built from them (a
field per spec, by kind), so a variant with a setting of its own needs no form code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .errors import RecordError, Said, say
from .said_play import PLAY

MAX_MONEY_CENTS = 100_000_00  # $100,000: far beyond any card table, well inside an int
MAX_POINTS = 100_000
#: A setting's label or help by its English (rules/said_play.py's ``setting`` ids).
_SETTING_IDS = {text: key for key, text in PLAY.items() if key.startswith("setting")}
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
    # contract rummy
    cards: tuple[int, ...] = (10, 10, 10, 10, 12, 12, 12)
    joker_points: int = 25
    # gin rummy (target_score above: 100)
    knock_max: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    game_bonus: int = 100
    box_bonus: int = 25
    shutout_multiplier: int = 2
    stake: int = 0
    # pool rummy (the defaults of a 101 pool; RULES.md's table gives 201's and 61's)
    pool: int = 101
    first_drop: int = 20
    middle_drop: int = 40
    full_count: int = 80
    wrong_show: int = 80
    rejoin_limit: int = 79

    def to_json(self, keys: frozenset[str]) -> dict[str, Any]:
        data = asdict(self)
        out: dict[str, Any] = {}
        for key in sorted(keys):
            value = data[key]
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


SETTING_NAMES = frozenset(f.name for f in fields(Settings))

#: How a setting is typed and checked: ``money`` whole cents (typed as 2.50), ``whole`` a
#: whole number in a range, ``choice`` one of a few whole numbers, ``flag`` true or false,
#: ``split`` whole percentages adding up to 100, ``wholes`` a list of whole numbers,
#: ``code`` a three-letter currency code.
SettingKind = Literal["money", "whole", "choice", "flag", "split", "wholes", "code"]


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One setting as a keeper sees it (label, hint) and as a record holds it (kind, range)."""

    key: str
    label: str
    kind: SettingKind
    description: str = ""
    low: int = 0
    high: int = MAX_POINTS
    choices: tuple[int, ...] = ()
    optional: bool = False  # may be left empty (null in the record)
    on_form: bool = True  # the currency is the night's, not a field of the game's form
    replaces: str | None = None  # when given, this setting replaces that one (deals: target)
    follows: str | None = None  # its default is fixed by that setting's choice (Pool: pool)

    @property
    def label_said(self) -> Said:
        """The label as a sentence a page says in its reader's language."""
        return say(_SETTING_IDS[self.label])

    @property
    def description_said(self) -> Said | None:
        return say(_SETTING_IDS[self.description]) if self.description else None

    def check(self, value: Any) -> Any:
        """The value as the record holds it, or RecordError naming the setting."""
        key = self.key
        if value is None and self.optional:
            return None
        if self.kind == "money":
            return _whole(key, value, low=0, high=MAX_MONEY_CENTS)
        if self.kind == "whole":
            return _whole(key, value, low=self.low, high=self.high)
        if self.kind == "choice":
            # A whole number, not 1.0 or true (both equal 1 in Python).
            if type(value) is not int or value not in self.choices:
                raise RecordError(
                    say("settings.choice", key=key, choices=self.choices, value=repr(value)),
                    field=key,
                )
            return value
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise RecordError(say("settings.flag", key=key, value=repr(value)), field=key)
            return value
        if self.kind == "split":
            return _pot_split(value)
        if self.kind == "wholes":
            if not isinstance(value, list | tuple) or not value or len(value) > MAX_ROUNDS:
                raise RecordError(say("settings.wholes", key=key), field=key)
            return tuple(_whole(key, v, low=self.low, high=self.high) for v in value)
        if not isinstance(value, str) or not re.fullmatch(r"[A-Z]{3}", value):
            raise RecordError(say("settings.code", key=key, value=repr(value)), field=key)
        return value


# The settings every game has (RULES.md: a generic buy-in and pot split carry stakes).
BUY_IN = SettingSpec("buy_in", "Buy-in", "money", "Paid by each player at the start.")
POT_SPLIT = SettingSpec(
    "pot_split",
    "Pot split",
    "split",
    "Percentages for 1st, 2nd, ... adding to 100, e.g. 70/30.",
)
CURRENCY = SettingSpec("currency", "Currency", "code", on_form=False)


def _whole(key: str, value: Any, *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(say("settings.whole", key=key, value=repr(value)), field=key)
    if not low <= value <= high:
        raise RecordError(
            say("settings.range", key=key, low=low, high=high, value=value), field=key
        )
    return value


def _pot_split(value: Any) -> tuple[int, ...]:
    key = "pot_split"
    if not isinstance(value, list | tuple) or not value:
        raise RecordError(say("settings.split_list"), field=key)
    if len(value) > 20:
        raise RecordError(say("settings.split_places"), field=key)
    parts = tuple(_whole(key, v, low=0, high=100) for v in value)
    if sum(parts) != 100:
        raise RecordError(say("settings.split_sum", total=sum(parts)), field=key)
    return parts


def parse_settings(
    raw: Any, *, variant: str, specs: Sequence[SettingSpec], defaults: Mapping[str, Any]
) -> Settings:
    """Check ``raw`` (the record's ``settings`` object) against a variant's specs."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise RecordError(say("settings.object"))
    by_key = {s.key: s for s in specs}
    values: dict[str, Any] = dict(defaults)
    for key, value in raw.items():
        spec = by_key.get(key)
        if spec is None:
            if key in SETTING_NAMES:
                raise RecordError(
                    say("settings.not_of_variant", key=key, variant=variant), field=key
                )
            raise RecordError(say("settings.unknown", key=key), field=key)
        values[key] = spec.check(value)
    return Settings(**values)
