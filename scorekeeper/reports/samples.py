"""Sample game records built to replay: for previews, the report tests and the PDF benchmark."""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.rules import load_game

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
