"""The banners of the rounds after the next (``rules.table.rounds_ahead``), which a phone
shows while rounds typed offline wait to be sent: the deal passes clockwise, and a game of
a fixed number of rounds stops at its last, whichever game says how many that is."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import load_game
from scorekeeper.rules.table import rounds_ahead

PLAYERS = ["Ann", "Bob", "Cy"]


def game(variant: str, rounds: int, **settings: Any) -> Any:
    played = [{"went_out": "Ann", "hands": {"Bob": 5, "Cy": 5}} for _ in range(rounds)]
    return load_game(
        {
            "format": "scorekeeper-game/1",
            "variant": variant,
            "settings": settings,
            "players": PLAYERS,
            "rounds": played,
        }
    )


@pytest.mark.parametrize(
    ("variant", "settings", "played", "numbers"),
    [
        ("texas", {}, 9, [10, 11]),  # eleven rounds, threes to kings
        ("contract", {}, 5, [6, 7]),  # seven deals
        ("contract", {"deals": 6}, 4, [5, 6]),  # Liverpool: six
        ("rummy", {"deals": 3}, 1, [2, 3]),  # a fixed number of deals
        ("rummy", {"target_score": 500}, 1, [2, 3, 4, 5]),  # a target: no last deal
        ("vegas", {}, 1, [2, 3, 4, 5]),
    ],
)
def test_the_rounds_ahead_stop_at_the_games_last(
    variant: str, settings: dict[str, Any], played: int, numbers: list[int]
) -> None:
    ahead = rounds_ahead(game(variant, played, **settings), 4)
    assert [nr.number for nr in ahead] == numbers
    # The deal passes clockwise from the next round's dealer: round n is dealt by the
    # (n-1)th player after the first dealer (Ann).
    assert [nr.dealer for nr in ahead] == [PLAYERS[(n - 1) % 3] for n in numbers]
