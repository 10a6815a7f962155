"""The game record (``scorekeeper-game/1``): parsed into typed objects at the edge.

A record holds what the score keeper entered and nothing derived. Parsing checks its
shape and everything that does not need the game's state (names, card codes, keys of the
wrong variant); :func:`scorekeeper.rules.replay` checks the rest while it folds the rounds.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cards import MAX_CARDS_IN_HAND, normalise_code, parse_flipped_card
from .errors import NotJson, RecordError
from .registry import VARIANTS, get_variant
from .settings import MAX_POINTS, MAX_ROUNDS, Settings

if TYPE_CHECKING:
    from .variant import Variant

GAME_FORMAT = "scorekeeper-game/1"
MIN_PLAYERS = 2
MAX_PLAYERS = 20
MAX_NAME_LENGTH = 40
MAX_HAND_POINTS = 9999

Hand = int | tuple[str, ...]

_ROUND_KEYS = {"went_out", "hands", "wild", "going_rummy", "contracts", "drops", "joins"}
_VARIANT_ROUND_KEYS = {
    "wild": "vegas",
    "drops": "vegas",
    "joins": "vegas",
    "going_rummy": "multiplayer",
    "contracts": "dummy",
}


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


def clean_name(raw: Any, *, what: str) -> str:
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
        return _checked_name(raw, what="name")
    except RecordError:
        return None


def _checked_name(raw: Any, *, what: str) -> str:
    """The checks of :func:`clean_name`, made every time."""
    if not isinstance(raw, str):
        raise RecordError(f"{what} must be a name in quotes (got {raw!r})")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in raw):
        # A lone surrogate (from a JSON escape such as "\ud800") is not a character.
        raise RecordError(f"{what} contains an invalid character (a lone surrogate)")
    unseen = unseen_characters(raw)
    if unseen == CONTROL:
        raise RecordError(f"{what} {' '.join(raw.split())!r} contains {CONTROL}")
    if unseen == TEXT_DIRECTION:
        # They would make a name show as something else on the sheet.
        raise RecordError(f"{what} contains {TEXT_DIRECTION}")
    text = unicodedata.normalize("NFC", raw)
    kept = [
        ch
        for i, ch in enumerate(text)
        if not _invisible(ch) or (ch == "\u200d" and _between_symbols(text, i))
    ]
    name = " ".join("".join(kept).split())
    if not name:
        raise RecordError(f"{what} is blank: give a name")
    if len(name) > MAX_NAME_LENGTH:
        raise RecordError(
            f"{what} {name[:20]!r}... is too long ({len(name)} characters, at most "
            f"{MAX_NAME_LENGTH})"
        )
    return name


def _between_symbols(text: str, i: int) -> bool:
    """A zero-width joiner that glues two emoji (a family, a profession) is part of them."""
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    symbol = {"So", "Sk", "Mn"}
    return bool(before and after) and (
        unicodedata.category(before) in symbol and unicodedata.category(after) in symbol
    )


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    name: str
    handicap: int = 0

    def to_json(self) -> str | dict[str, Any]:
        if self.handicap:
            return {"name": self.name, "handicap": self.handicap}
        return self.name


@dataclass(frozen=True, slots=True)
class Round:
    """One round as entered: who went out, what was left in each other hand, extras."""

    went_out: str | None
    hands: Mapping[str, Hand]
    wild: str | None = None
    going_rummy: bool = False
    contracts: tuple[str, ...] = ()
    drops: tuple[str, ...] = ()
    joins: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "went_out": self.went_out,
            "hands": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.hands.items()},
        }
        if self.wild is not None:
            out["wild"] = self.wild
        if self.going_rummy:
            out["going_rummy"] = True
        if self.contracts:
            out["contracts"] = list(self.contracts)
        if self.drops:
            out["drops"] = list(self.drops)
        if self.joins:
            out["joins"] = list(self.joins)
        return out

    def renamed(self, old: str, new: str) -> Round:
        """The round with the player ``old`` called ``new`` in every place that holds a
        name (went out, hand keys, contracts, drops, joins) and nowhere else: card codes
        and keys are never names, whatever a person is called."""
        key = name_key(old)

        def swap(name: str) -> str:
            return new if name_key(name) == key else name

        return replace(
            self,
            went_out=None if self.went_out is None else swap(self.went_out),
            hands={swap(name): hand for name, hand in self.hands.items()},
            contracts=tuple(swap(n) for n in self.contracts),
            drops=tuple(swap(n) for n in self.drops),
            joins=tuple(swap(n) for n in self.joins),
        )


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
        raise RecordError("a game record must be a JSON object")
    fmt = data.get("format", GAME_FORMAT)
    if fmt != GAME_FORMAT:
        raise RecordError(f"format must be {GAME_FORMAT!r} (got {fmt!r})")
    unknown = set(data) - {"format", "variant", "settings", "players", "first_dealer", "rounds"}
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in the game record")
    variant_name = data.get("variant")
    if not isinstance(variant_name, str) or variant_name not in VARIANTS:
        raise RecordError(
            f"unknown variant {variant_name!r}: use one of {', '.join(VARIANTS)}",
            field="variant",
        )
    variant = get_variant(variant_name)
    raw_settings = data.get("settings")
    if raw_settings is None:
        raw_settings = {}
    if not isinstance(raw_settings, Mapping):
        raise RecordError(
            "settings must be an object of setting names and values", field="settings"
        )
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
        raise RecordError("players must be a list of names in seat order", field="players")
    if len(raw_players) < MIN_PLAYERS:
        raise RecordError(
            f"a game needs at least {MIN_PLAYERS} players (got {len(raw_players)})",
            field="players",
        )
    if len(raw_players) > MAX_PLAYERS:
        raise RecordError(
            f"a game takes at most {MAX_PLAYERS} players (got {len(raw_players)})",
            field="players",
        )
    players: list[PlayerSpec] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(raw_players, 1):
        handicap: Any = 0
        if isinstance(raw, Mapping):
            extra = set(raw) - {"name", "handicap"}
            if extra:
                raise RecordError(f"player {i}: unknown key {sorted(extra)[0]!r}")
            handicap = raw.get("handicap", 0)
            raw = raw.get("name")
        name = clean_name(raw, what=f"player {i}")
        if name_key(name) in seen:
            raise RecordError(
                f"two players are called {seen[name_key(name)]!r} (names must differ, "
                "ignoring capitals)",
                player=name,
                field="players",
            )
        seen[name_key(name)] = name
        if isinstance(handicap, bool) or not isinstance(handicap, int) or handicap < 0:
            raise RecordError(
                f"{name}'s handicap must be a whole number of points, 0 or more (got {handicap!r})",
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
            f"first_dealer {first_dealer!r} is not one of the players", field="first_dealer"
        )
    return seen[name_key(first_dealer)]


def _parse_rounds(raw_rounds: Any, variant: Variant) -> tuple[Round, ...]:
    if not isinstance(raw_rounds, list):
        raise RecordError("rounds must be a list", field="rounds")
    if len(raw_rounds) > MAX_ROUNDS:
        raise RecordError(f"a game holds at most {MAX_ROUNDS} rounds (got {len(raw_rounds)})")
    return tuple(
        parse_round(raw, number=i, variant=variant.name, card_codes=variant.card_codes)
        for i, raw in enumerate(raw_rounds, 1)
    )


def parse_hand(raw: Any, *, number: int, player: str, card_codes: frozenset[str]) -> Hand:
    """A hand is points (a whole number >= 0) or a list of card codes."""
    if isinstance(raw, bool):
        raw = repr(raw)
    if isinstance(raw, int):
        if raw < 0:
            raise RecordError(
                f"{player}'s hand must be 0 points or more (got {raw})",
                round=number,
                player=player,
                field="hands",
            )
        if raw > MAX_HAND_POINTS:
            raise RecordError(
                f"{player}'s hand of {raw} points is more than any hand can hold "
                f"(at most {MAX_HAND_POINTS})",
                round=number,
                player=player,
                field="hands",
            )
        return raw
    if isinstance(raw, list):
        if len(raw) > MAX_CARDS_IN_HAND:
            raise RecordError(
                f"{player}'s hand lists {len(raw)} cards (at most {MAX_CARDS_IN_HAND})",
                round=number,
                player=player,
                field="hands",
            )
        cards: list[str] = []
        for code in raw:
            card = normalise_code(code) if isinstance(code, str) else None
            if card not in card_codes:
                raise RecordError(
                    f"{player}'s hand has an unknown card {code!r} "
                    f"(use {' '.join(sorted(card_codes, key=_card_order))})",
                    round=number,
                    player=player,
                    field="hands",
                )
            cards.append(card)
        return tuple(cards)
    raise RecordError(
        f"{player}'s hand must be a whole number of points or a list of cards (got {raw!r})",
        round=number,
        player=player,
        field="hands",
    )


def _card_order(code: str) -> int:
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W"]
    return order.index(code)


def _names(raw: Any, *, number: int, key: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise RecordError(f"{key} must be a list of names", round=number, field=key)
    names = tuple(clean_name(n, what=f"a name in {key}") for n in raw)
    keys = [name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        raise RecordError(f"{key} names someone twice", round=number, field=key)
    return names


def parse_round(raw: Any, *, number: int, variant: str, card_codes: frozenset[str]) -> Round:
    """Parse one round; every error names the round."""
    try:
        return _parse_round(raw, number=number, variant=variant, card_codes=card_codes)
    except RecordError as exc:
        if exc.round is not None:
            raise
        raise RecordError(exc.detail, round=number, player=exc.player, field=exc.field) from None


def _parse_round(raw: Any, *, number: int, variant: str, card_codes: frozenset[str]) -> Round:
    if not isinstance(raw, Mapping):
        raise RecordError("a round must be an object with went_out and hands", round=number)
    unknown = set(raw) - _ROUND_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r}", round=number)
    for key, owner in _VARIANT_ROUND_KEYS.items():
        if key in raw and owner != variant and raw[key] not in (None, [], False):
            raise RecordError(
                f"{key} is only recorded in {owner}, not in {variant}", round=number, field=key
            )
    if "went_out" not in raw:
        raise RecordError(
            "went_out is missing: give the player who went out, or null if nobody did",
            round=number,
            field="went_out",
        )
    went_out = raw["went_out"]
    if went_out is not None:
        went_out = clean_name(went_out, what="went_out")
    hands_raw = raw.get("hands")
    if not isinstance(hands_raw, Mapping):
        raise RecordError(
            "hands must be an object of player names and hands", round=number, field="hands"
        )
    hands: dict[str, Hand] = {}
    seen: set[str] = set()
    for player, hand in hands_raw.items():
        player = clean_name(player, what="a name in hands")
        if name_key(player) in seen:
            raise RecordError(f"two hands are given for {player}", round=number, player=player)
        seen.add(name_key(player))
        hands[player] = parse_hand(hand, number=number, player=player, card_codes=card_codes)
    wild = raw.get("wild")
    if wild is not None:
        card = parse_flipped_card(wild) if isinstance(wild, str) else None
        if card is None:
            raise RecordError(
                f"wild {wild!r} is not a card: write the rank and suit, such as 7C or QH, "
                "or JK for a joker",
                round=number,
                field="wild",
            )
        wild = card
    going_rummy = raw.get("going_rummy", False)
    if not isinstance(going_rummy, bool):
        raise RecordError("going_rummy must be true or false", round=number, field="going_rummy")
    if going_rummy and went_out is None:
        raise RecordError(
            "going_rummy needs the player who went out", round=number, field="going_rummy"
        )
    contracts = _names(raw.get("contracts", []), number=number, key="contracts")
    drops = _names(raw.get("drops", []), number=number, key="drops")
    joins = _names(raw.get("joins", []), number=number, key="joins")
    return Round(went_out, hands, wild, going_rummy, contracts, drops, joins)


__all__ = [
    "GAME_FORMAT",
    "MAX_POINTS",
    "MAX_ROUNDS",
    "GameRecord",
    "Hand",
    "PlayerSpec",
    "Round",
    "clean_name",
    "name_key",
    "parse_game",
    "parse_round",
]


def read_json(text: str) -> Any:
    """A record's text as JSON data; every way the text can be unreadable (bad syntax,
    hostile nesting, a number of thousands of digits, nothing at all) is a RecordError
    in words (``NotJson`` for bad syntax)."""
    if not text.strip():
        raise RecordError("paste a game record or choose a file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotJson(f"{exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None
    except ValueError:  # Python refuses to read a number of thousands of digits
        raise RecordError("a number in the record is too long") from None
