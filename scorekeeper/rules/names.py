"""People's names as the engine takes them: checked once at the edge, compared as they
look (``name_key``), and the one rule for what typed text may hide (``unseen_characters``,
shared with payment handles)."""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

from .errors import RecordError, Said, say

MAX_NAME_LENGTH = 40
#: What a refusal calls a name it was given without saying whose (``clean_name``'s ``what``:
#: a ``Said``, which a page says in its reader's language; a plain text stays as it is).
NAME = say("names.name")


def _invisible(ch: str) -> bool:
    """Characters that show as nothing (zero-width spaces and joiners, soft hyphens, byte
    order marks, word joiners): two names differing only by them look the same."""
    return unicodedata.category(ch) == "Cf"


# The Unicode bidirectional formatting characters (UAX #9): the marks (ALM, LRM, RLM), the
# embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI,
# PDI). Each can make the text around it show in another order than it is written ("Ann",
# RLO, "boB" shows as "AnnBob"), so no name or payment handle may hold one.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
CONTROL = "control characters"
TEXT_DIRECTION = "text-direction control characters"
INVISIBLE = "invisible characters"


def unseen_characters(text: str) -> str | None:
    """The one rule for what typed text may hide, shared by names (``clean_name``) and
    payment handles (``payments.clean_handle``): the first kind of character in ``text``
    that does not show as itself, as words for a sentence, or None.

    - ``CONTROL``: C0 and C1 control codes and DEL;
    - ``TEXT_DIRECTION``: the bidirectional controls (``BIDI_CONTROLS``);
    - ``INVISIBLE``: every other format character (Unicode category Cf: zero-width spaces
      and joiners, soft hyphens, byte order marks, word joiners, invisible operators).

    A name refuses the first two and drops the third (the joiner inside an emoji sequence
    is kept); a handle, copied letter for letter into a payment, refuses all three."""
    found: str | None = None
    for ch in text:
        if ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0:
            return CONTROL
        if ch in BIDI_CONTROLS:
            found = TEXT_DIRECTION
        elif found is None and _invisible(ch):
            found = INVISIBLE
    return found


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """Names are the same when they look the same: compared after Unicode compatibility
    normalisation (NFKC: "Zoë" typed either way, "ﬁ" and "fi"), ignoring capitals, invisible
    characters and runs of spaces. Remembered for the last few thousand names: a replay
    looks up the same handful of names thousands of times."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(ch for ch in folded if not _invisible(ch)).split())


# Names longer than this as typed (spaces and invisible characters included) are checked
# every time, so that the memory of good names stays small whatever a record holds.
_REMEMBERED_LENGTH = 4 * MAX_NAME_LENGTH


def clean_name(raw: Any, *, what: str | Said) -> str:
    """Check a person's name: text, not blank, at most 40 characters, no control codes and
    no text-direction controls (``unseen_characters``).

    The name is kept as typed, in NFC form (one spelling for "ë"), with its runs of spaces
    squeezed and invisible characters removed, except the joiner inside an emoji sequence.
    A record names the same few people in every round, so good names are remembered
    (``_good_name``); a bad one is checked again, to say what (``what``) is wrong.
    """
    if isinstance(raw, str) and len(raw) <= _REMEMBERED_LENGTH:
        name = _good_name(raw)
        if name is not None:
            return name
    return _checked_name(raw, what=what)


@functools.lru_cache(maxsize=4096)
def _good_name(raw: str) -> str | None:
    """The name ``raw`` stands for, or None when it is not a good name."""
    try:
        return _checked_name(raw, what=NAME)
    except RecordError:
        return None


def _checked_name(raw: Any, *, what: str | Said) -> str:
    """The checks of :func:`clean_name`, made every time."""
    if not isinstance(raw, str):
        raise RecordError(say("names.not_text", what=what, value=repr(raw)))
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in raw):
        # A lone surrogate (from a JSON escape such as "\ud800") is not a character.
        raise RecordError(say("names.surrogate", what=what))
    unseen = unseen_characters(raw)
    if unseen == CONTROL:
        raise RecordError(say("names.control", what=what, name=repr(" ".join(raw.split()))))
    if unseen == TEXT_DIRECTION:
        # They would make a name show as something else on the sheet.
        raise RecordError(say("names.direction", what=what))
    text = unicodedata.normalize("NFC", raw)
    kept = [
        ch
        for i, ch in enumerate(text)
        if not _invisible(ch) or (ch == "\u200d" and _between_symbols(text, i))
    ]
    name = " ".join("".join(kept).split())
    if not name:
        raise RecordError(say("names.blank", what=what))
    if len(name) > MAX_NAME_LENGTH:
        raise RecordError(
            say("names.too_long", what=what, start=repr(name[:20]), length=len(name),
                most=MAX_NAME_LENGTH)
        )  # fmt: skip
    return name


def _between_symbols(text: str, i: int) -> bool:
    """A zero-width joiner that glues two emoji (a family, a profession) is part of them."""
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    symbol = {"So", "Sk", "Mn"}
    return bool(before and after) and (
        unicodedata.category(before) in symbol and unicodedata.category(after) in symbol
    )
