"""The one exception the rules engine raises for a record that breaks a rule, and the
sentences it says: each a message id and its parameters (``Said``), so that a page can
say it in its reader's language (``web/refusals.py`` holds their translations) while the
command line and the API keep the engine's English."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from .said_display import DISPLAY
from .said_night import ENGLISH_NIGHT
from .said_play import PLAY
from .said_questions import QUESTIONS
from .said_record import RECORD
from .said_sheets import SHEETS

#: The engine's sentences in English, by message id; ``{name}`` is a parameter. Every id
#: has its translation in the web layer's catalog (web/refusals.py, the same placeholders:
#: tests/test_catalogs.py).
ENGLISH: dict[str, str] = {
    # rules/settings.py
    "settings.choice": "settings.{key} must be {choices} (got {value})",
    "settings.flag": "settings.{key} must be true or false (got {value})",
    "settings.wholes": "settings.{key} must be a list of whole numbers",
    "settings.code": (
        "settings.{key} must be a three-letter ISO 4217 code such as USD (got {value})"
    ),
    "settings.whole": "settings.{key} must be a whole number (got {value})",
    "settings.range": "settings.{key} must be between {low} and {high} (got {value})",
    "settings.split_list": (
        "settings.pot_split must be a list of whole percentages, best place first"
    ),
    "settings.split_places": "settings.pot_split has more places than players",
    "settings.split_sum": "settings.pot_split must add up to 100 (got {total})",
    "settings.object": "settings must be an object of setting names and values",
    "settings.not_of_variant": "settings.{key} is not a setting of {variant}",
    "settings.unknown": "settings.{key} is not a known setting",
    # rules/names.py: what is named (``what``) and what is wrong with it
    "names.name": "name",
    "names.not_text": "{what} must be a name in quotes (got {value})",
    "names.surrogate": "{what} contains an invalid character (a lone surrogate)",
    "names.control": "{what} {name} contains control characters",
    "names.direction": "{what} contains text-direction control characters",
    "names.blank": "{what} is blank: give a name",
    "names.too_long": "{what} {start}... is too long ({length} characters, at most {most})",
    **ENGLISH_NIGHT,  # the night's money sentences (rules/said_night.py)
}
ENGLISH.update(PLAY)  # the words around a game (rules/said_play.py)
ENGLISH.update(SHEETS)  # the printed sheets' words (rules/said_sheets.py)
ENGLISH.update(DISPLAY)  # the round form's, notes, wild and help words (rules/said_display.py)
ENGLISH.update(RECORD)  # a record's refusals, read and settled (rules/said_record.py)
ENGLISH.update(QUESTIONS)  # what the keeper is asked before a save (rules/said_questions.py)

#: What a sentence's parameter may be: text shown as it is (a setting's key, a name as
#: typed), a whole number, a list of whole numbers ("1, 2 or 3"), or a sentence itself.
Param: TypeAlias = "str | int | tuple[int, ...] | Said"


@dataclass(frozen=True, slots=True)
class Said:
    """One of the engine's sentences: its message id (a key of ``ENGLISH``) and its
    parameters."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        wanted = {name for _, name, _, _ in string.Formatter().parse(ENGLISH[self.id]) if name}
        if wanted != set(self.params):
            raise ValueError(f"{self.id} takes {sorted(wanted)}, not {sorted(self.params)}")

    @property
    def english(self) -> str:
        return ENGLISH[self.id].format(**{k: english(v) for k, v in self.params.items()})


def english(param: Param) -> str:
    """A parameter as the English sentence says it."""
    if isinstance(param, Said):
        return param.english
    if isinstance(param, tuple):
        words = [str(n) for n in param]
        return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
    return str(param)


def say(message_id: str, **params: Param) -> Said:
    return Said(message_id, params)


class RecordError(ValueError):
    """A game or night record that breaks a rule.

    The message is a sentence a person can act on (``round 3: no hand given for Bob``).
    ``round`` (1-based) and ``player`` say where the problem is, so a form can show the
    message next to the field that caused it; ``field`` names the record key involved.
    Given as a ``Said`` (a message id and its parameters), ``said`` keeps it, so that a
    page can say it in its reader's language; ``detail`` is always the English.
    """

    def __init__(
        self,
        message: str | Said,
        *,
        round: int | None = None,
        player: str | None = None,
        field: str | None = None,
    ) -> None:
        self.said = message if isinstance(message, Said) else None
        text = message.english if isinstance(message, Said) else message
        prefix = f"round {round}: " if round is not None else ""
        super().__init__(prefix + text)
        self.detail = text
        self.round = round
        self.player = player
        self.field = field

    @property
    def message_id(self) -> str | None:
        """The sentence's message id, or None for a sentence given as English text."""
        return self.said.id if self.said is not None else None

    @property
    def params(self) -> Mapping[str, Param]:
        return self.said.params if self.said is not None else {}


class NotJson(RecordError):
    """A record text that is not JSON at all; ``detail`` says where it breaks."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"not valid JSON: {detail}")
        self.detail = detail
