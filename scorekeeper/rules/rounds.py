"""A round as the keeper entered it, and the players as seated: parsed into typed objects
at the edge. Parsing checks the shape and what needs no game state (names, card codes, keys
of another game); the replay checks the rest."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .cards import MAX_CARDS_IN_HAND, RANKS, normalise_code, parse_flipped_card
from .errors import RecordError, Said, say
from .names import clean_name, name_key

MIN_PLAYERS = 2
MAX_PLAYERS = 20
MAX_HAND_POINTS = 9999

#: Points, the cards left, or (Pool) a hand marker such as ``"drop"`` (see HAND_MARKERS).
Hand = int | tuple[str, ...] | str

_ROUND_KEYS = {"went_out", "hands", "wild", "going_rummy", "contracts", "drops", "joins"}
_ROUND_KEYS |= {"rejoins", "split"}  # pool
_VARIANT_ROUND_KEYS = {
    "wild": "vegas or pool",
    "drops": "vegas",
    "joins": "vegas",
    "going_rummy": "multiplayer",
    "contracts": "dummy",
    "rejoins": "pool",
    "split": "pool",
}
#: Pool: what a hand may be instead of points or cards (the points come from the settings).
HAND_MARKERS: dict[str, frozenset[str]] = {
    "pool": frozenset({"drop", "middle_drop", "full_count", "wrong_show"}),
}
#: Pool: how the players still in may agree to share the pot instead of playing on.
SPLITS = ("equal", "drops")
# Gin Rummy: how the knocker went out (``went_out`` is the knocker, null for a wash).
GIN_HOWS = ("knock", "gin", "big_gin")
_ROUND_KEYS.add("how")
_VARIANT_ROUND_KEYS["how"] = "gin"


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
    #: Where a newcomer sits: (joiner, the player they sit after). A joiner not named here
    #: sits after the last seat; a returning player keeps their own seat.
    seated_after: tuple[tuple[str, str], ...] = ()
    #: Pool: players out in this round who rejoin before the next.
    rejoins: tuple[str, ...] = ()
    #: Pool: the game ended by agreement (``"equal"`` or ``"drops"``); no deal, no hands.
    split: str | None = None
    #: Gin: how the knocker went out (one of ``GIN_HOWS``), None in a wash or another game.
    how: str | None = None

    def sits_after(self, joiner: str) -> str | None:
        key = name_key(joiner)
        return next((after for name, after in self.seated_after if name_key(name) == key), None)

    def to_json(self) -> dict[str, Any]:
        if self.split is not None:
            return {"split": self.split}
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
        if self.how is not None:
            out["how"] = self.how
        if self.joins:
            out["joins"] = [
                n if (after := self.sits_after(n)) is None else {"name": n, "after": after}
                for n in self.joins
            ]
        if self.rejoins:
            out["rejoins"] = list(self.rejoins)
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
            seated_after=tuple((swap(n), swap(a)) for n, a in self.seated_after),
            rejoins=tuple(swap(n) for n in self.rejoins),
        )


def parse_hand(
    raw: Any,
    *,
    number: int,
    player: str,
    card_codes: frozenset[str],
    markers: frozenset[str] = frozenset(),
) -> Hand:
    """A hand is points (a whole number >= 0), a list of card codes or one of the game's
    ``markers`` (Pool: ``"drop"`` ...)."""
    if isinstance(raw, str) and raw in markers:
        return raw
    if isinstance(raw, bool):
        raw = repr(raw)
    if isinstance(raw, int):
        if raw < 0:
            raise RecordError(
                say("hand.negative", player=player, value=raw),
                round=number,
                player=player,
                field="hands",
            )
        if raw > MAX_HAND_POINTS:
            raise RecordError(
                say("hand.too_many_points", player=player, value=raw, most=MAX_HAND_POINTS),
                round=number,
                player=player,
                field="hands",
            )
        return raw
    if isinstance(raw, list):
        if len(raw) > MAX_CARDS_IN_HAND:
            raise RecordError(
                say("hand.too_many_cards", player=player, count=len(raw), most=MAX_CARDS_IN_HAND),
                round=number,
                player=player,
                field="hands",
            )
        cards: list[str] = []
        for code in raw:
            card = normalise_code(code) if isinstance(code, str) else None
            if card not in card_codes:
                raise RecordError(
                    say(
                        "hand.unknown_card",
                        player=player,
                        card=repr(code),
                        cards=" ".join(sorted(card_codes, key=_card_order)),
                    ),
                    round=number,
                    player=player,
                    field="hands",
                )
            cards.append(card)
        return tuple(cards)
    raise RecordError(_not_a_hand(player, raw, markers), round=number, player=player, field="hands")


def _not_a_hand(player: str, raw: Any, markers: Collection[str]) -> Said:
    if markers:
        shown = ", ".join(sorted(markers))
        return say("hand.not_a_hand_or_marker", player=player, markers=shown, value=repr(raw))
    return say("hand.not_a_hand", player=player, value=repr(raw))


def _card_order(code: str) -> int:
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W"]
    return order.index(code)


def _names(raw: Any, *, number: int, key: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise RecordError(say("record.names_list", key=key), round=number, field=key)
    names = tuple(clean_name(n, what=say("game_record.name_in", key=key)) for n in raw)
    keys = [name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        raise RecordError(say("record.names_twice", key=key), round=number, field=key)
    return names


def parse_round(raw: Any, *, number: int, variant: str, card_codes: frozenset[str]) -> Round:
    """Parse one round; every error names the round."""
    try:
        return _parse_round(raw, number=number, variant=variant, card_codes=card_codes)
    except RecordError as exc:
        if exc.round is not None:
            raise
        said = exc.said or exc.detail  # the sentence's id and parameters, kept
        raise RecordError(said, round=number, player=exc.player, field=exc.field) from None


def _parse_round(raw: Any, *, number: int, variant: str, card_codes: frozenset[str]) -> Round:
    if not isinstance(raw, Mapping):
        raise RecordError(say("record.round_object"), round=number)
    unknown = set(raw) - _ROUND_KEYS
    if unknown:
        raise RecordError(say("record.unknown_key", key=repr(sorted(unknown)[0])), round=number)
    for key, owner in _VARIANT_ROUND_KEYS.items():
        if key in raw and variant not in owner.split(" or ") and raw[key] not in (None, [], False):
            raise RecordError(
                say("record.key_of", key=key, owner=owner, variant=variant), round=number, field=key
            )
    if "split" in raw:
        return _parse_split(raw, number=number)
    if "went_out" not in raw:
        raise RecordError(
            say("record.went_out_missing"),
            round=number,
            field="went_out",
        )
    went_out = raw["went_out"]
    if went_out is not None:
        went_out = clean_name(went_out, what="went_out")
    hands = _parse_hands(raw.get("hands"), number=number, variant=variant, card_codes=card_codes)
    wild = _parse_wild(raw.get("wild"), number=number, variant=variant)
    going_rummy = raw.get("going_rummy", False)
    if not isinstance(going_rummy, bool):
        raise RecordError(say("record.going_rummy_flag"), round=number, field="going_rummy")
    if going_rummy and went_out is None:
        raise RecordError(say("record.going_rummy_out"), round=number, field="going_rummy")
    contracts = _names(raw.get("contracts", []), number=number, key="contracts")
    drops = _names(raw.get("drops", []), number=number, key="drops")
    joins, seated_after = parse_joins(raw.get("joins", []), number=number)
    rejoins = _names(raw.get("rejoins", []), number=number, key="rejoins")
    how = _parse_how(raw.get("how"), went_out, number=number)
    return Round(
        went_out,
        hands,
        wild,
        going_rummy,
        contracts,
        drops,
        joins,
        seated_after,
        rejoins,
        how=how,
    )


def _parse_hands(
    hands_raw: Any, *, number: int, variant: str, card_codes: frozenset[str]
) -> dict[str, Hand]:
    """``hands``: each player's hand, once (Pool: a hand may be a marker)."""
    if not isinstance(hands_raw, Mapping):
        raise RecordError(say("record.hands_object"), round=number, field="hands")
    hands: dict[str, Hand] = {}
    seen: set[str] = set()
    for player, hand in hands_raw.items():
        player = clean_name(player, what="a name in hands")
        if name_key(player) in seen:
            raise RecordError(say("hand.twice", player=player), round=number, player=player)
        seen.add(name_key(player))
        hands[player] = parse_hand(
            hand,
            number=number,
            player=player,
            card_codes=card_codes,
            markers=HAND_MARKERS.get(variant, frozenset()),
        )
    return hands


def _parse_wild(wild: Any, *, number: int, variant: str) -> str | None:
    """Vegas: the card flipped after the deal (``7C``); Pool: the deal's wild rank (``7``)."""
    if wild is None:
        return None
    if variant == "pool":
        rank = normalise_code(wild) if isinstance(wild, str) else None
        if rank not in RANKS:
            raise RecordError(
                say("record.wild_rank", wild=repr(wild)),
                round=number,
                field="wild",
            )
        return rank
    card = parse_flipped_card(wild) if isinstance(wild, str) else None
    if card is None:
        raise RecordError(
            say("record.wild_card", wild=repr(wild)),
            round=number,
            field="wild",
        )
    return card


def _parse_split(raw: Mapping[str, Any], *, number: int) -> Round:
    """Pool: ``{"split": "equal"}`` or ``{"split": "drops"}``, and nothing else."""
    if set(raw) != {"split"}:
        other = sorted(set(raw) - {"split"})[0]
        raise RecordError(
            say("record.split_alone", key=repr(other)),
            round=number,
            field="split",
        )
    kind = raw["split"]
    if kind not in SPLITS:
        raise RecordError(say("record.split_kind", value=repr(kind)), round=number, field="split")
    return Round(None, {}, split=kind)


def _parse_how(raw: Any, went_out: str | None, *, number: int) -> str | None:
    """Gin's ``how``: knock, gin or big_gin, given with the knocker (a wash has none)."""
    if raw is None:
        return None
    if raw not in GIN_HOWS:
        raise RecordError(say("record.how", value=repr(raw)), round=number, field="how")
    if went_out is None:
        raise RecordError(
            say("record.how_wash", how=str(raw)),
            round=number,
            field="how",
        )
    return str(raw)


def parse_joins(raw: Any, *, number: int) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``joins``: names, or ``{"name": ..., "after": ...}`` for a newcomer who sits right
    after another player (clockwise) instead of after the last seat."""
    if not isinstance(raw, list):
        raise RecordError(say("record.names_list", key="joins"), round=number, field="joins")
    names, seated_after = [], []
    for entry in raw:
        if isinstance(entry, Mapping):
            if set(entry) - {"name", "after"} or "name" not in entry:
                raise RecordError(
                    'a join is a name or {"name": ..., "after": ...}', round=number, field="joins"
                )
            name = clean_name(entry["name"], what="a name in joins")
            if entry.get("after") is not None:
                after = clean_name(entry["after"], what="the player a joiner sits after")
                if name_key(after) == name_key(name):
                    raise RecordError(
                        say("record.sit_after_self", name=name), round=number, player=name
                    )
                seated_after.append((name, after))
            names.append(name)
        else:
            names.append(entry)
    return _names(names, number=number, key="joins"), tuple(seated_after)


def join_name(entry: str | Mapping[str, Any]) -> str:
    """The name of a ``joins`` entry (a name, or ``{"name": ..., "after": ...}``)."""
    return str(entry["name"]) if isinstance(entry, Mapping) else entry
