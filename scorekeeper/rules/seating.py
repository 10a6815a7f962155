"""Where each player of a game sits: the one reading of a game's seats that a game made
at the table, a game made from a record and an imported account all write."""

from __future__ import annotations

from typing import NamedTuple

from .record import GameRecord
from .replay import Standings


class Seating(NamedTuple):
    position: int  # the engine's seat: a newcomer seated after someone moves those after
    name: str
    handicap: int
    joined_round: int  # 0: at the table from the start (a player back after a drop too)


def seating(record: GameRecord, standings: Standings) -> list[Seating]:
    """Every player's seat as the engine gives it after the record's rounds and joins: the
    record's players keep their handicap and join at the start, the others join when the
    engine says. Positions are the engine's, for everyone: a joiner seated after the first
    player takes the second seat and the players after them move one on, as at the table."""
    handicaps = {p.name: p.handicap for p in record.players}
    return [
        Seating(
            position=p.seat,
            name=p.name,
            handicap=handicaps.get(p.name, 0),
            joined_round=0 if p.name in handicaps else p.joined_round,
        )
        for p in standings.players
    ]
