"""The game record (``scorekeeper-game/1``): parsed into typed objects at the edge.

A record holds what the score keeper entered and nothing derived. Parsing checks its
shape and everything that does not need the game's state (names, card codes, keys of the
wrong variant); :func:`scorekeeper.rules.replay` checks the rest while it folds the rounds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import NotJson, RecordError, say
from .names import clean_name, name_key
from .rounds import MAX_PLAYERS, MIN_PLAYERS, PlayerSpec, Round, parse_round
from .settings import MAX_ROUNDS, Settings
from .variant import VARIANTS, Variant, get_variant

GAME_FORMAT = "scorekeeper-game/1"


@dataclass(frozen=True, slots=True)
class GameRecord:
    variant: str
    settings: Settings
    players: tuple[PlayerSpec, ...]
    first_dealer: str
    rounds: tuple[Round, ...] = ()

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Parse a decoded JSON record; raises :class:`RecordError` on the first problem."""
        return parse_game(data)

    def to_json(self) -> dict[str, Any]:
        keys = get_variant(self.variant).json_keys(self.settings)
        return {
            "format": GAME_FORMAT,
            "variant": self.variant,
            "settings": self.settings.to_json(keys),
            "players": [p.to_json() for p in self.players],
            "first_dealer": self.first_dealer,
            "rounds": [r.to_json() for r in self.rounds],
        }

    def with_round(self, rnd: Round) -> GameRecord:
        return replace(self, rounds=(*self.rounds, rnd))

    def with_rounds(self, rounds: Sequence[Round]) -> GameRecord:
        return replace(self, rounds=tuple(rounds))

    def renamed(self, old: str, new: str) -> GameRecord:
        """The record with the player ``old`` called ``new`` (seats, first dealer, rounds).

        Only names change; the caller replays the result to be sure it still holds."""
        key = name_key(old)
        return replace(
            self,
            players=tuple(
                replace(p, name=new) if name_key(p.name) == key else p for p in self.players
            ),
            first_dealer=new if name_key(self.first_dealer) == key else self.first_dealer,
            rounds=tuple(r.renamed(old, new) for r in self.rounds),
        )


def parse_game(data: Any) -> GameRecord:
    """A decoded JSON game record, checked in the order a person reads it: the format,
    the game and its settings, the players, the first dealer, the rounds."""
    if not isinstance(data, Mapping):
        raise RecordError(say("game_record.object"))
    fmt = data.get("format", GAME_FORMAT)
    if fmt != GAME_FORMAT:
        raise RecordError(say("game_record.format", wanted=repr(GAME_FORMAT), value=repr(fmt)))
    unknown = set(data) - {"format", "variant", "settings", "players", "first_dealer", "rounds"}
    if unknown:
        raise RecordError(say("game_record.unknown_key", key=repr(sorted(unknown)[0])))
    variant_name = data.get("variant")
    if not isinstance(variant_name, str) or variant_name not in VARIANTS:
        raise RecordError(
            say("game_record.variant", value=repr(variant_name), choices=", ".join(VARIANTS)),
            field="variant",
        )
    variant = get_variant(variant_name)
    raw_settings = data.get("settings")
    if raw_settings is None:
        raw_settings = {}
    if not isinstance(raw_settings, Mapping):
        raise RecordError(say("settings.object"), field="settings")
    settings = variant.parse_settings(raw_settings)
    players = _parse_players(data.get("players"), variant, settings)
    return GameRecord(
        variant=variant_name,
        settings=settings,
        players=players,
        first_dealer=_parse_first_dealer(data.get("first_dealer"), players),
        rounds=_parse_rounds(data.get("rounds", []), variant),
    )


def _parse_players(
    raw_players: Any, variant: Variant, settings: Settings
) -> tuple[PlayerSpec, ...]:
    """The players in seat order: names (or ``{"name", "handicap"}``), unique by name key."""
    if not isinstance(raw_players, list):
        raise RecordError(say("game_record.players_list"), field="players")
    if len(raw_players) < MIN_PLAYERS:
        raise RecordError(
            say("game_record.players_few", least=MIN_PLAYERS, count=len(raw_players)),
            field="players",
        )
    if len(raw_players) > MAX_PLAYERS:
        raise RecordError(
            say("game_record.players_many", most=MAX_PLAYERS, count=len(raw_players)),
            field="players",
        )
    refused = variant.players_refused(len(raw_players))
    if refused is not None:
        raise RecordError(refused, field="players")
    players: list[PlayerSpec] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(raw_players, 1):
        handicap: Any = 0
        if isinstance(raw, Mapping):
            extra = set(raw) - {"name", "handicap"}
            if extra:
                key = repr(sorted(extra)[0])
                raise RecordError(say("game_record.player_key", number=i, key=key))
            handicap = raw.get("handicap", 0)
            raw = raw.get("name")
        name = clean_name(raw, what=say("game_record.player", number=i))
        if name_key(name) in seen:
            raise RecordError(
                say("game_record.players_twice", name=repr(seen[name_key(name)])),
                player=name,
                field="players",
            )
        seen[name_key(name)] = name
        if isinstance(handicap, bool) or not isinstance(handicap, int) or handicap < 0:
            raise RecordError(
                say("game_record.handicap", name=name, value=repr(handicap)),
                player=name,
            )
        variant.check_handicap(name, handicap, settings)
        players.append(PlayerSpec(name, handicap))
    return tuple(players)


def _parse_first_dealer(first_dealer: Any, players: tuple[PlayerSpec, ...]) -> str:
    """The first dealer (default: the first player), as the players spell them."""
    if first_dealer is None:
        return players[0].name
    seen = {name_key(p.name): p.name for p in players}
    if not isinstance(first_dealer, str) or name_key(first_dealer) not in seen:
        raise RecordError(
            say("game_record.first_dealer", value=repr(first_dealer)), field="first_dealer"
        )
    return seen[name_key(first_dealer)]


def _parse_rounds(raw_rounds: Any, variant: Variant) -> tuple[Round, ...]:
    if not isinstance(raw_rounds, list):
        raise RecordError(say("game_record.rounds_list"), field="rounds")
    if len(raw_rounds) > MAX_ROUNDS:
        raise RecordError(say("game_record.rounds_many", most=MAX_ROUNDS, count=len(raw_rounds)))
    return tuple(
        parse_round(raw, number=i, variant=variant.name, card_codes=variant.card_codes)
        for i, raw in enumerate(raw_rounds, 1)
    )


def read_json(text: str) -> Any:
    """A record's text as JSON data; every way the text can be unreadable (bad syntax,
    hostile nesting, a number of thousands of digits, nothing at all) is a RecordError
    in words (``NotJson`` for bad syntax)."""
    if not text.strip():
        raise RecordError(say("game_record.empty"))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotJson(f"{exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise RecordError(say("game_record.too_deep")) from None
    except ValueError:  # Python refuses to read a number of thousands of digits
        raise RecordError(say("game_record.number_long")) from None
