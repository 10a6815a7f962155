"""Card codes and counting a hand with a round's values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: The card codes a hand may be written in (suits never change points).
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
WILD = "W"  # Vegas: the card flipped after the deal
RANK_NAMES: dict[str, str] = {
    "A": "Aces",
    "2": "Twos",
    "3": "Threes",
    "4": "Fours",
    "5": "Fives",
    "6": "Sixes",
    "7": "Sevens",
    "8": "Eights",
    "9": "Nines",
    "10": "Tens",
    "J": "Jacks",
    "Q": "Queens",
    "K": "Kings",
    "JK": "Jokers",
}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
MAX_CARDS_IN_HAND = 60


def normalise_code(code: str) -> str:
    """``" k "`` -> ``"K"``; ``"1"`` is not a card and stays as it is."""
    return code.strip().upper()


def parse_flipped_card(text: str) -> str | None:
    """Normalise a flipped Vegas wild card (``7c`` -> ``7C``, ``joker`` -> ``JK``).

    Returns None when the text is not a card: a rank and a suit letter, or a joker.
    """
    card = text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H")
    card = card.replace("♠", "S")
    if card in {"JK", "JOKER"}:
        return JOKER
    if len(card) >= 2 and card[-1] in SUITS and card[:-1] in RANKS:
        return card
    return None


def describe_flipped_card(card: str) -> str:
    """``7C`` -> ``7♣``, ``JK`` -> ``Joker``; a bare rank (Pool's wild rank) as it is."""
    if card == JOKER:
        return "Joker"
    if card in RANKS:
        return card
    return card[:-1] + SUITS[card[-1]]


def count_hand(cards: Iterable[str], values: Mapping[str, int]) -> int:
    """Sum the cards of a hand with a round's values; raises KeyError on an unknown code."""
    return sum(values[normalise_code(c)] for c in cards)
