"""The rules engine: pure Python, no Flask, no database, no I/O.

A game is its record of rounds; everything else is derived by :func:`replay`::

    record = GameRecord.from_json(data)      # RecordError on a malformed record
    standings = replay(record)               # RecordError on a broken rule
    standings.to_json()                      # the standings of game-record.md
"""

from . import games  # noqa: F401  (registers the games, in the order they are shown)
from .cards import count_hand
from .errors import RecordError
from .games.dummy import CONTRACTS
from .money import Entry, format_money, parse_money, signed_money, split_pot
from .names import name_key
from .record import GAME_FORMAT, GameRecord
from .replay import Pot, Standings, extend, replay
from .rounds import PlayerSpec, Round, parse_round
from .settings import Settings
from .settlement import (
    NIGHT_FORMAT,
    Settlement,
    Transfer,
    fewest_transfers,
    parse_night,
    settle,
    settle_night,
)
from .state import Event, NextRound, PlayerStanding, RoundResult
from .variant import VARIANTS, DeckAdvice, Variant, get_variant, register


def load_game(data: object) -> Standings:
    """Parse and replay a decoded JSON game record in one step."""
    return replay(GameRecord.from_json(data))


__all__ = [
    "CONTRACTS",
    "GAME_FORMAT",
    "NIGHT_FORMAT",
    "VARIANTS",
    "DeckAdvice",
    "Entry",
    "Event",
    "GameRecord",
    "NextRound",
    "PlayerSpec",
    "PlayerStanding",
    "Pot",
    "RecordError",
    "Round",
    "RoundResult",
    "Settings",
    "Settlement",
    "Standings",
    "Transfer",
    "Variant",
    "count_hand",
    "extend",
    "fewest_transfers",
    "format_money",
    "get_variant",
    "load_game",
    "name_key",
    "parse_money",
    "parse_night",
    "parse_round",
    "register",
    "replay",
    "settle",
    "settle_night",
    "signed_money",
    "split_pot",
]
