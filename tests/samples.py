"""Sample records that replay: for print previews, the report tests and the PDF benchmark.

The small games are worked by hand (the figures in the comments are what the engine must
give); :func:`long_vegas` is generated.
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.rules import CONTRACTS, load_game

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu")
WILDS = ("7C", "QH", "3S", "JK", "10D", "AS", "9H", "KC")


def long_vegas(players: int = 10, rounds: int = 60, seed: int = 7) -> dict[str, Any]:
    """A Vegas game still in progress after ``rounds`` rounds, with re-buys, one drop (the
    first player to expire from round 20 on) and that player's re-join 10 rounds later."""
    rng = random.Random(seed)
    names = list(NAMES[:players])
    record: dict[str, Any] = {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"max_score": 100, "buy_in": 200, "pot_split": [70, 30]},
        "players": names,
        "first_dealer": names[0],
        "rounds": [],
    }
    dropped: str | None = None
    dropped_round = 0
    for number in range(1, rounds + 1):
        standings = load_game(record)
        active = [p.name for p in standings.players if p.in_contention]
        joins = [dropped] if dropped and number == dropped_round + 10 else []
        playing = active + joins
        for _ in range(500):
            out = rng.choice(playing)
            hands = {
                n: rng.choice((0, 2, 3, 5, 6, 8, 10, 11, 13, 15, 20)) for n in playing if n != out
            }
            rnd: dict[str, Any] = {"went_out": out, "hands": hands, "wild": rng.choice(WILDS)}
            if joins:
                rnd["joins"] = joins
            trial = load_game({**record, "rounds": [*record["rounds"], rnd]})
            expired = [e.player for e in trial.rounds[-1].events if e.kind == "expire"]
            if dropped is None and number >= 20 and expired and not trial.finished:
                rnd["drops"] = [expired[0]]
                trial = load_game({**record, "rounds": [*record["rounds"], rnd]})
                if trial.finished:
                    continue
                dropped, dropped_round = expired[0], number
            if not trial.finished:
                break
        else:  # pragma: no cover - the seed decides
            raise AssertionError(f"no round {number} keeps the game going")
        record["rounds"].append(rnd)
    return record


def _game(
    variant: str, players: list[Any], rounds: list[dict[str, Any]], **settings: Any
) -> dict[str, Any]:
    return {
        "format": "scorekeeper-game/1",
        "variant": variant,
        "settings": settings,
        "players": players,
        "rounds": rounds,
    }


def vegas_game() -> dict[str, Any]:
    """Ann wins in round 4. Bob re-buys in round 2 (back to 50) and drops in round 3.

    Pot: 3 buy-ins + 1 re-buy of $2.00 = $8.00; Ann (1st) $5.60, Cy (2nd) $2.40, Bob
    (dropped) nothing. Balances: Ann +$3.60, Bob -$4.00, Cy +$0.40.
    """
    return _game(
        "vegas",
        ["Ann", "Bob", "Cy"],
        [
            {"went_out": "Ann", "hands": {"Bob": 60, "Cy": 30}, "wild": "7C"},
            {"went_out": "Ann", "hands": {"Bob": 45, "Cy": 20}, "wild": "QH"},
            {"went_out": "Cy", "hands": {"Ann": 40, "Bob": 55}, "wild": "JK", "drops": ["Bob"]},
            {
                "went_out": "Ann",
                "hands": {"Cy": ["K", "Q", "J", "10", "9", "5", "W"]},
                "wild": "3S",
            },
        ],
        max_score=100,
        buy_in=200,
        pot_split=[70, 30],
    )


def rummy_game() -> dict[str, Any]:
    """Ann reaches 100 in round 2 and takes the $9.00 pot: Ann +$6.00, Bob and Cy -$3.00."""
    return _game(
        "rummy",
        ["Ann", "Bob", "Cy"],
        [
            {"went_out": "Ann", "hands": {"Bob": 30, "Cy": 30}},
            {"went_out": "Ann", "hands": {"Bob": ["K", "Q"], "Cy": 20}},
        ],
        buy_in=300,
        target_score=100,
    )


def multiplayer_game() -> dict[str, Any]:
    """Dee goes rummy in round 2 (double: 2 x 45 = 90) and wins at 110 in round 3."""
    return _game(
        "multiplayer",
        ["Dee", "Eve"],
        [
            {"went_out": "Eve", "hands": {"Dee": 12}},
            {"went_out": "Dee", "hands": {"Eve": 45}, "going_rummy": True},
            {"went_out": "Dee", "hands": {"Eve": 20}},
        ],
    )


def texas_game(rounds: int = 11) -> dict[str, Any]:
    """Three players, ante $0.50 each; whoever goes out takes $0.10. Unfinished when
    ``rounds`` < 11."""
    names = ["Ann", "Bob", "Cy"]
    played = []
    for n in range(1, rounds + 1):
        out = names[n % 3]
        played.append(
            {
                "went_out": out,
                "hands": {p: (n * 3 + i) % 17 for i, p in enumerate(names) if p != out},
            }
        )
    return _game("texas", names, played)


def dummy_game() -> dict[str, Any]:
    """Ann lays down a contract every round and finishes contract 12 in round 12; Bob lays
    one every other round."""
    played = []
    for n in range(1, len(CONTRACTS) + 1):
        laid = ["Ann", "Bob"] if n % 2 else ["Ann"]
        played.append({"went_out": "Ann", "hands": {"Bob": 10 + n}, "contracts": laid})
    return _game("dummy", ["Ann", "Bob"], played)


def night() -> dict[str, Any]:
    """A night of a finished Vegas game, a finished Rummy game and a Texas game in
    progress. Nets: Ann +$9.60, Bob -$7.00, Cy -$2.60; Bob pays Ann $7.00 and Cy pays
    Ann $2.60."""
    return {
        "format": "scorekeeper-night/1",
        "currency": "USD",
        "games": [vegas_game(), rummy_game(), texas_game(5)],
    }
