"""What a keeper types for a hand, read one way: points (``12``), a sum (``10+10+7``) or the
cards left (``K 7 JK``, also ``K,7,JK``); and, on the round form, the cards tapped on the
card counter (kept in a hidden field beside the text).

The grammar is a table (:func:`hand_grammar`): the patterns and limits below and the
round's card values. The server reads hands with it here; the round form's script
(``static/js/round.js``) reads the same table from the page (``data-grammar``) to show a
hand's sum while it is typed, so the two never disagree on what a hand is worth. The
patterns are written in the part of regular expressions Python and JavaScript read alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .cards import JOKER, MAX_CARDS_IN_HAND, RANKS, WILD, normalise_code
from .errors import Said, say
from .rounds import MAX_HAND_POINTS, Hand

#: The card codes in the order they are listed (A first), whatever a game counts them.
CARD_ORDER: tuple[str, ...] = (*RANKS, JOKER, WILD)
#: Points: whole numbers of at most five digits, added with ``+``.
POINTS = r"\d{1,5}(\s*\+\s*\d{1,5})*"
#: What separates the words of a hand (cards): spaces and commas.
SEPARATORS = r"[\s,]+"
#: Text the script reads as the server does (else it shows no sum, never a different one).
PLAIN = r"[0-9A-Za-z+,\s]*"

_POINTS = re.compile(POINTS)
_SEPARATORS = re.compile(SEPARATORS)


def hand_grammar(
    values: Mapping[str, int],
    codes: frozenset[str],
    *,
    wild_rank_points: int | None = None,
    cap: int | None = None,
) -> dict[str, Any]:
    """The table the page's script reads hands by: the patterns, the limits, the cards a
    hand may hold in this game (in counter order) and what each is worth this round;
    what a card of the wild rank the keeper picks counts (Pool: 0) and the most a
    counted hand scores (Pool: the full count), where the game has them."""
    return {
        "wildRank": wild_rank_points,
        "cap": cap,
        "points": POINTS,
        "separators": SEPARATORS,
        "plain": PLAIN,
        "maxPoints": MAX_HAND_POINTS,
        "maxCards": MAX_CARDS_IN_HAND,
        "codes": [c for c in CARD_ORDER if c in codes],
        "values": {c: values[c] for c in CARD_ORDER if c in codes and c in values},
    }


def hand_tokens(text: str | None) -> list[str]:
    """The words of a hand field, split on spaces and commas, upper-cased: ``"k, 7"`` ->
    ``["K", "7"]``."""
    return [normalise_code(t) for t in _SEPARATORS.split(text or "") if t]


class HandRefused(ValueError):
    """A hand that cannot be read, as an engine sentence (``said``: a page says it in its
    reader's language, web/refusals.py); its text is the English."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.english)
        self.said = said


def parse_hand_text(text: str | None, card_codes: frozenset[str]) -> int | list[str]:
    """A hand as typed: points, a sum or the cards left. Raises HandRefused with a
    sentence to show."""
    raw = (text or "").strip()
    if not raw:
        raise HandRefused(say("typed.empty"))
    if _POINTS.fullmatch(raw):
        total = sum(int(part) for part in raw.split("+"))
        if total > MAX_HAND_POINTS:
            raise HandRefused(say("typed.too_many_points", total=total))
        return total
    if raw.startswith("-"):
        raise HandRefused(say("typed.negative"))
    if re.fullmatch(r"[\d\s+]+", raw) and re.search(r"\d{6}", raw):
        raise HandRefused(say("typed.far_too_many_points", most=MAX_HAND_POINTS))
    tokens = hand_tokens(raw)
    if tokens and all(t in card_codes for t in tokens):
        return tokens
    bad = next((t for t in tokens if t not in card_codes), raw)
    examples = " ".join(c for c in ("A", "2", "10", "J", "Q", "K", "JK", "W") if c in card_codes)
    raise HandRefused(say("typed.not_a_hand", typed=repr(bad[:12]), examples=examples))


def parse_hand_field(
    text: str | None, tapped: str | None, card_codes: frozenset[str]
) -> int | list[str]:
    """One player's hand as the round form sends it: the visible text and, in a hidden
    field, the cards tapped on the card counter (codes separated by spaces).

    While the visible text still shows exactly the tapped cards, the hand is that card
    list, read strictly: every word must be a card code of the variant, and a lone ``7``
    is the seven, never 7 points. Once the keeper has typed over it the two differ and
    the typed text wins, read by :func:`parse_hand_text` (``12``, ``10+7``, ``K 7 JK``).
    Raises HandRefused with a sentence to show."""
    cards = hand_tokens(tapped)
    if not cards or cards != hand_tokens(text):
        return parse_hand_text(text, card_codes)
    bad = next((c for c in cards if c not in card_codes), None)
    if bad is not None:
        known = " ".join(c for c in CARD_ORDER if c in card_codes)
        raise HandRefused(say("typed.not_a_card", card=repr(bad[:12]), cards=known))
    return cards


def hand_text(hand: Hand | list[str] | None) -> str:
    """A hand as the form writes it: ``12``, or the cards ``K 7 JK``."""
    if hand is None:
        return ""
    if isinstance(hand, list | tuple):
        return " ".join(hand)
    return str(hand)
