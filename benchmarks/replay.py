"""How the cost of replaying a game record grows with its size.

Run from the checkout: ``.venv/bin/python benchmarks/replay.py`` (``--quick`` for a smoke run).

Builds valid records of growing size (players x rounds) and times ``replay`` of the parsed
record (best of several repeats, ``time.perf_counter``), and ``GameRecord.from_json`` plus
``replay`` for comparison. Vegas games use a max score of 100000 so that nobody expires and
the game never ends; Texas is at most 11 rounds; Dummy rounds mostly have nobody going out,
so that nobody completes contract 12. For each size it prints the time per replay, per
round and per player-round, and the ratio of the cost per player-round to the smallest
size of the run (the baseline): a replay that is linear in players x rounds keeps it near 1.
The last column compares the cost per round with the fewest-rounds size of the same variant
and player count: linear in rounds keeps it near 1.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from typing import Any

from scorekeeper.rules import GAME_FORMAT, GameRecord, load_game, replay

NAMES = [f"Player {i:02d}" for i in range(20)]
VEGAS_CARDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W"]


def _hand(rng: random.Random, cards: list[str]) -> Any:
    """Half the hands as points, half as a short list of cards for the engine to count."""
    if rng.random() < 0.5:
        return rng.randint(0, 20)
    return rng.sample(cards, k=rng.randint(1, 3))


def vegas_record(players: int, rounds: int, rng: random.Random) -> dict[str, Any]:
    names = NAMES[:players]
    out_rounds = []
    for r in range(rounds):
        went_out = names[r % players]
        hands = {n: _hand(rng, VEGAS_CARDS) for n in names if n != went_out}
        out_rounds.append({"went_out": went_out, "hands": hands, "wild": "7C"})
    return {
        "format": GAME_FORMAT,
        "variant": "vegas",
        "settings": {"max_score": 100_000, "buy_in": 200},
        "players": names,
        "rounds": out_rounds,
    }


def texas_record(players: int, rounds: int, rng: random.Random) -> dict[str, Any]:
    names = NAMES[:players]
    cards = VEGAS_CARDS[:-1]
    out_rounds = []
    for r in range(rounds):
        went_out = names[r % players]
        hands = {n: _hand(rng, cards) for n in names if n != went_out}
        out_rounds.append({"went_out": went_out, "hands": hands})
    return {"format": GAME_FORMAT, "variant": "texas", "players": names, "rounds": out_rounds}


def dummy_record(players: int, rounds: int, rng: random.Random) -> dict[str, Any]:
    names = NAMES[:players]
    cards = VEGAS_CARDS[:-1]
    out_rounds = []
    for r in range(rounds):
        # One round in 50 somebody goes out (laying a contract); otherwise the stock ran out.
        went_out = names[(r // 50) % players] if r % 50 == 49 else None
        rnd: dict[str, Any] = {
            "went_out": went_out,
            "hands": {n: _hand(rng, cards) for n in names if n != went_out},
        }
        if went_out is not None:
            rnd["contracts"] = [went_out]
        out_rounds.append(rnd)
    return {"format": GAME_FORMAT, "variant": "dummy", "players": names, "rounds": out_rounds}


Builder = Callable[[int, int, random.Random], dict[str, Any]]
SIZES: list[tuple[str, Builder, int, int]] = [
    ("vegas", vegas_record, 2, 50),
    ("vegas", vegas_record, 5, 100),
    ("vegas", vegas_record, 10, 200),
    ("vegas", vegas_record, 20, 100),
    ("vegas", vegas_record, 2, 200),
    ("vegas", vegas_record, 5, 200),
    ("vegas", vegas_record, 20, 150),
    ("vegas", vegas_record, 20, 200),
    ("texas", texas_record, 10, 11),
    ("texas", texas_record, 20, 11),
    ("dummy", dummy_record, 4, 200),
    ("dummy", dummy_record, 20, 200),
]


def calibrate(fn: Callable[[], object], min_seconds: float) -> int:
    """How many calls of ``fn`` take at least ``min_seconds``."""
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        if time.perf_counter() - start >= min_seconds:
            return loops
        loops *= 2


def time_once(fn: Callable[[], object], loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        fn()
    return (time.perf_counter() - start) / loops


def best_times(jobs: list[Callable[[], object]], repeats: int, min_seconds: float) -> list[float]:
    """Best seconds per call of each job. The repeats are interleaved (every job once, then
    again), so that a burst of load from elsewhere on the machine hits every size alike."""
    loops = [calibrate(fn, min_seconds) for fn in jobs]
    best = [float("inf")] * len(jobs)
    for _ in range(repeats):
        for i, fn in enumerate(jobs):
            best[i] = min(best[i], time_once(fn, loops[i]))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--min-seconds",
        type=float,
        default=0.2,
        help="each timing runs enough replays to last this long",
    )
    parser.add_argument("--quick", action="store_true", help="3 repeats of 0.02 s")
    args = parser.parse_args()
    if args.quick:
        args.repeats, args.min_seconds = 3, 0.02

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"best of {args.repeats} interleaved repeats, >= {args.min_seconds} s each"
    )
    header = (
        f"{'variant':<8}{'players':>8}{'rounds':>8}{'replay ms':>11}{'us/round':>10}"
        f"{'us/p-round':>12}{'ratio':>7}{'parse+replay ms':>17}{'ratio same P':>14}"
    )
    print(header)
    print("-" * len(header))
    replays: list[Callable[[], object]] = []
    loads: list[Callable[[], object]] = []
    for variant, build, players, rounds in SIZES:
        data = build(players, rounds, random.Random(f"{variant}-{players}-{rounds}"))
        record = GameRecord.from_json(data)
        standings = replay(record)
        assert standings.rounds_played == rounds
        assert variant == "texas" or not standings.finished
        replays.append(lambda r=record: replay(r))
        loads.append(lambda d=data: load_game(d))
    replay_times = best_times(replays, args.repeats, args.min_seconds)
    load_times = best_times(loads, args.repeats, args.min_seconds)
    rows = [
        (variant, players, rounds, replay_s, load_s)
        for (variant, _, players, rounds), replay_s, load_s in zip(
            SIZES, replay_times, load_times, strict=True
        )
    ]

    # The baseline is the smallest size measured in this run (fewest player-rounds).
    base = min(rows, key=lambda row: row[1] * row[2])
    base_cost = base[3] / (base[1] * base[2])
    # Per round, against the fewest rounds measured with the same variant and players.
    shortest: dict[tuple[str, int], float] = {}
    for variant, players, rounds, replay_s, _ in sorted(rows, key=lambda row: -row[2]):
        shortest[variant, players] = replay_s / rounds
    for variant, players, rounds, replay_s, load_s in rows:
        per_round_us = replay_s / rounds * 1e6
        same_players = replay_s / rounds / shortest[variant, players]
        per_player_round_us = replay_s / (players * rounds) * 1e6
        ratio = per_player_round_us / (base_cost * 1e6)
        print(
            f"{variant:<8}{players:>8}{rounds:>8}{replay_s * 1e3:>11.2f}{per_round_us:>10.1f}"
            f"{per_player_round_us:>12.2f}{ratio:>7.2f}{load_s * 1e3:>17.2f}"
            f"{same_players:>14.2f}"
        )
    print(f"baseline (ratio 1.00): {base[0]} {base[1]} players x {base[2]} rounds")


if __name__ == "__main__":
    main()
