"""Records that break a rule: each is refused whole, with a message that names the problem."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GAME_FORMAT, RecordError, load_game


def game(
    variant: str = "vegas",
    *,
    players: Any = ("Ann", "Bob", "Cy"),
    rounds: Any = (),
    settings: Any = None,
    **extra: Any,
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": GAME_FORMAT,
        "variant": variant,
        "players": list(players) if isinstance(players, tuple) else players,
        "rounds": list(rounds) if isinstance(rounds, tuple) else rounds,
    }
    if settings is not None:
        record["settings"] = settings
    record.update(extra)
    return record


def rnd(went_out: Any, hands: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"went_out": went_out, "hands": hands, **extra}


OK = {"Bob": 5, "Cy": 7}  # hands for Bob and Cy when Ann went out
# Vegas, max 10: Bob expires in round 1 and drops; Ann, Cy and Dee play on.
BOB_DROPS = rnd("Ann", {"Bob": 10, "Cy": 1, "Dee": 1}, drops=["Bob"])
FOUR = ("Ann", "Bob", "Cy", "Dee")

# (id, record, substring of the message)
INVALID: list[tuple[str, Any, str]] = [
    # -- the record's shape ------------------------------------------------------------
    ("not an object", [1, 2], "must be a JSON object"),
    ("format wrong", game(format="scorekeeper-game/2"), "format must be 'scorekeeper-game/1'"),
    ("unknown top-level key", game(notes="x"), "unknown key 'notes'"),
    ("unknown variant", game("canasta"), "unknown variant 'canasta'"),
    ("variant missing", game(None), "unknown variant None"),
    ("variant a list", game([]), "unknown variant []"),
    ("variant an object", game({"name": "vegas"}), "unknown variant"),
    ("players not a list", game(players={"Ann": 1, "Bob": 2}), "players must be a list"),
    ("players missing", game(players=None), "players must be a list"),
    ("one player", game(players=("Ann",)), "at least 2 players (got 1)"),
    ("21 players", game(players=tuple(f"P{i}" for i in range(21))), "at most 20 players"),
    ("duplicate names", game(players=("Ann", "Bob", "Ann")), "two players are called 'Ann'"),
    (
        "duplicate names ignoring case and spaces",
        game(players=("Ann", " ann ")),
        "two players are called 'Ann'",
    ),
    ("blank name", game(players=("Ann", "  ")), "player 2 is blank"),
    ("name not text", game(players=("Ann", 7)), "player 2 must be a name"),
    ("first dealer unknown", game(first_dealer="Zed"), "first_dealer 'Zed'"),
    ("rounds not a list", game(rounds={"went_out": "Ann"}), "rounds must be a list"),
    # -- settings ----------------------------------------------------------------------
    ("unknown setting", game(settings={"colour": "red"}), "settings.colour is not a known"),
    ("ante in vegas", game(settings={"ante": 50}), "settings.ante is not a setting of vegas"),
    (
        "max_score in rummy",
        game("rummy", settings={"max_score": 100}),
        "settings.max_score is not a setting of rummy",
    ),
    (
        "deals in multiplayer",
        game("multiplayer", settings={"deals": 3}),
        "settings.deals is not a setting of multiplayer",
    ),
    (
        "target and deals",
        game("rummy", settings={"deals": 3, "target_score": 50}),
        "either target_score or deals",
    ),
    (
        "pot split adds to 90",
        game(settings={"pot_split": [60, 30]}),
        "settings.pot_split must add up to 100 (got 90)",
    ),
    (
        "pot split adds to 110",
        game(settings={"pot_split": [70, 40]}),
        "settings.pot_split must add up to 100 (got 110)",
    ),
    (
        "pot split of fractions",
        game(settings={"pot_split": [70.5, 29.5]}),
        "settings.pot_split must be a whole number",
    ),
    ("pot split not a list", game(settings={"pot_split": 100}), "settings.pot_split"),
    ("negative buy-in", game(settings={"buy_in": -200}), "settings.buy_in must be between"),
    ("buy-in in dollars", game(settings={"buy_in": 2.5}), "settings.buy_in must be a whole"),
    ("currency lower case", game(settings={"currency": "usd"}), "settings.currency"),
    ("settings not an object", game(settings=["max_score", 100]), "settings must be an object"),
    ("settings an empty list", game(settings=[]), "settings must be an object"),
    ("settings a number", game(settings=0), "settings must be an object"),
    (
        "handicap at max score",
        game(players=("Ann", {"name": "Bob", "handicap": 100})),
        "Bob's handicap of 100 must be below the max score (100)",
    ),
    (
        "handicap above max score",
        game(players=("Ann", {"name": "Bob", "handicap": 80}), settings={"max_score": 50}),
        "must be below the max score (50)",
    ),
    (
        "negative handicap",
        game(players=("Ann", {"name": "Bob", "handicap": -5})),
        "Bob's handicap must be a whole number",
    ),
    # -- hands -------------------------------------------------------------------------
    ("missing hand", game(rounds=[rnd("Ann", {"Bob": 5})]), "no hand given for Cy"),
    (
        "hand for a stranger",
        game(rounds=[rnd("Ann", {**OK, "Zed": 3})]),
        "a hand is given for Zed, who is not a player",
    ),
    (
        "hand for who went out",
        game(rounds=[rnd("Ann", {**OK, "Ann": 0})]),
        "Ann went out, so no hand is given for Ann",
    ),
    (
        "two hands for one player",
        game(rounds=[rnd("Ann", {**OK, "bob": 3})]),
        "two hands are given for bob",
    ),
    (
        "negative points",
        game(rounds=[rnd("Ann", {"Bob": -5, "Cy": 7})]),
        "Bob's hand must be 0 points or more (got -5)",
    ),
    (
        "fractional points",
        game(rounds=[rnd("Ann", {"Bob": 12.5, "Cy": 7})]),
        "Bob's hand must be a whole number of points or a list of cards (got 12.5)",
    ),
    (
        "points as text",
        game(rounds=[rnd("Ann", {"Bob": "12", "Cy": 7})]),
        "Bob's hand must be a whole number of points or a list of cards (got '12')",
    ),
    (
        "points as true",
        game(rounds=[rnd("Ann", {"Bob": True, "Cy": 7})]),
        "Bob's hand must be a whole number of points or a list of cards",
    ),
    (
        "points as null",
        game(rounds=[rnd("Ann", {"Bob": None, "Cy": 7})]),
        "Bob's hand must be a whole number of points or a list of cards",
    ),
    (
        "huge hand",
        game(rounds=[rnd("Ann", {"Bob": 100000, "Cy": 7})]),
        "Bob's hand of 100000 points is more than any hand can hold",
    ),
    (
        "too many cards",
        game(rounds=[rnd("Ann", {"Bob": ["K"] * 61, "Cy": 7})]),
        "Bob's hand lists 61 cards",
    ),
    (
        "unknown card X",
        game(rounds=[rnd("Ann", {"Bob": ["K", "X"], "Cy": 7})]),
        "Bob's hand has an unknown card 'X'",
    ),
    ("card 1", game(rounds=[rnd("Ann", {"Bob": ["1"], "Cy": 7})]), "unknown card '1'"),
    ("card as a number", game(rounds=[rnd("Ann", {"Bob": [7], "Cy": 7})]), "unknown card 7"),
    (
        "joker in rummy",
        game("rummy", rounds=[rnd("Ann", {"Bob": ["JK"], "Cy": 7})]),
        "Bob's hand has an unknown card 'JK'",
    ),
    (
        "joker in multiplayer",
        game("multiplayer", rounds=[rnd("Ann", {"Bob": ["JK"], "Cy": 7})]),
        "unknown card 'JK'",
    ),
    (
        "W in texas",
        game("texas", rounds=[rnd("Ann", {"Bob": ["W"], "Cy": 7})]),
        "Bob's hand has an unknown card 'W'",
    ),
    ("W in rummy", game("rummy", rounds=[rnd("Ann", {"Bob": ["W"], "Cy": 7})]), "unknown card 'W'"),
    (
        "W in dummy",
        game("dummy", rounds=[rnd("Ann", {"Bob": ["w"], "Cy": 7}, contracts=["Ann"])]),
        "unknown card 'w'",
    ),
    ("hands missing", game(rounds=[{"went_out": "Ann"}]), "hands must be an object"),
    # -- who went out --------------------------------------------------------------------
    (
        "went_out null in vegas",
        game(rounds=[rnd(None, {"Ann": 1, "Bob": 5, "Cy": 7})]),
        "someone must go out in Vegas Rummy",
    ),
    ("went_out missing", game(rounds=[{"hands": OK}]), "went_out is missing"),
    (
        "went_out unknown",
        game(rounds=[rnd("Zed", {"Ann": 1, "Bob": 5, "Cy": 7})]),
        "Zed went out but is not in the game",
    ),
    (
        "went_out dropped",
        game(
            players=FOUR,
            settings={"max_score": 10},
            rounds=[BOB_DROPS, rnd("Bob", {"Ann": 1, "Cy": 1, "Dee": 1})],
        ),
        "Bob went out but is not in the game",
    ),
    (
        "hand for a dropped player",
        game(
            players=FOUR,
            settings={"max_score": 10},
            rounds=[BOB_DROPS, rnd("Ann", {"Bob": 1, "Cy": 1, "Dee": 1})],
        ),
        "a hand is given for Bob, who dropped out in round 1",
    ),
    # -- the end of the game -----------------------------------------------------------
    (
        "texas round 12",
        game("texas", rounds=[rnd("Ann", OK)] * 12),
        "the game already ended after round 11",
    ),
    (
        "rummy after the target",
        game("rummy", rounds=[rnd("Ann", {"Bob": 60, "Cy": 40}), rnd("Bob", {"Ann": 5, "Cy": 5})]),
        "the game already ended after round 1",
    ),
    (
        "rummy after the deals",
        game("rummy", settings={"deals": 2}, rounds=[rnd("Ann", OK)] * 3),
        "the game already ended after round 2",
    ),
    (
        "multiplayer after the target",
        game(
            "multiplayer",
            rounds=[
                rnd("Ann", {"Bob": 30, "Cy": 20}, going_rummy=True),
                rnd("Bob", {"Ann": 5, "Cy": 5}),
            ],
        ),
        "the game already ended after round 1",
    ),
    (
        "vegas after the win",
        game(rounds=[rnd("Ann", {"Bob": 100, "Cy": 100}), rnd("Ann", OK)]),
        "the game already ended after round 1",
    ),
    (
        "dummy after contract 12",
        game(
            "dummy", players=("Ann", "Bob"), rounds=[rnd("Ann", {"Bob": 5}, contracts=["Ann"])] * 13
        ),
        "the game already ended after round 12",
    ),
    # -- drops and joins (vegas) ---------------------------------------------------------
    (
        "drop without expiring",
        game(rounds=[rnd("Ann", OK, drops=["Bob"])]),
        "Bob cannot drop: Bob did not expire this round",
    ),
    (
        "drop of a stranger",
        game(rounds=[rnd("Ann", OK, drops=["Zed"])]),
        "Zed cannot drop: Zed is not in the game",
    ),
    (
        "drop in the round that ends the game",
        game(rounds=[rnd("Ann", {"Bob": 100, "Cy": 100}, drops=["Bob"])]),
        "the game ended this round (Ann won), so nobody drops",
    ),
    (
        "drop named twice",
        game(rounds=[rnd("Ann", OK, drops=["Bob", "bob"])]),
        "drops names someone twice",
    ),
    (
        "join of a player in the game",
        game(rounds=[rnd("Ann", OK, joins=["cy"])]),
        "Cy cannot join: Cy is already in the game",
    ),
    (
        "join beyond 20 players",
        game(
            players=tuple(f"P{i}" for i in range(20)),
            rounds=[rnd("P0", {f"P{i}": 1 for i in range(1, 21)}, joins=["P20"])],
        ),
        "P20 cannot join: a game takes at most 20 players",
    ),
    ("wild not a card", game(rounds=[rnd("Ann", OK, wild="ZZ")]), "wild 'ZZ' is not a card"),
    # -- keys of another variant -------------------------------------------------------
    (
        "wild in texas",
        game("texas", rounds=[rnd("Ann", OK, wild="7C")]),
        "wild is only recorded in vegas or pool, not in texas",
    ),
    (
        "drops in texas",
        game("texas", rounds=[rnd("Ann", OK, drops=["Bob"])]),
        "drops is only recorded in vegas, not in texas",
    ),
    (
        "joins in texas",
        game("texas", rounds=[rnd("Ann", OK, joins=["Dee"])]),
        "joins is only recorded in vegas, not in texas",
    ),
    (
        "going_rummy in rummy",
        game("rummy", rounds=[rnd("Ann", OK, going_rummy=True)]),
        "going_rummy is only recorded in multiplayer, not in rummy",
    ),
    (
        "going_rummy in vegas",
        game(rounds=[rnd("Ann", OK, going_rummy=True)]),
        "going_rummy is only recorded in multiplayer, not in vegas",
    ),
    (
        "going_rummy with nobody out",
        game("multiplayer", rounds=[rnd(None, {"Ann": 1, **OK}, going_rummy=True)]),
        "going_rummy needs the player who went out",
    ),
    (
        "going_rummy not a flag",
        game("multiplayer", rounds=[rnd("Ann", OK, going_rummy="yes")]),
        "going_rummy must be true or false",
    ),
    (
        "contracts in rummy",
        game("rummy", rounds=[rnd("Ann", OK, contracts=["Ann"])]),
        "contracts is only recorded in dummy, not in rummy",
    ),
    ("unknown round key", game(rounds=[rnd("Ann", OK, melds=3)]), "unknown key 'melds'"),
    # -- dummy contracts -----------------------------------------------------------------
    (
        "dummy went_out not in contracts",
        game("dummy", rounds=[rnd("Ann", OK, contracts=["Bob"])]),
        "Ann went out, so Ann must have laid down the contract",
    ),
    (
        "dummy went_out without contracts",
        game("dummy", rounds=[rnd("Ann", OK)]),
        "add them to contracts",
    ),
    (
        "dummy contract by a stranger",
        game("dummy", rounds=[rnd("Ann", OK, contracts=["Ann", "Zed"])]),
        "Zed laid down a contract but is not in the game",
    ),
]


@pytest.mark.parametrize(("record", "message"), [pytest.param(r, m, id=i) for i, r, m in INVALID])
def test_invalid_record_is_refused(record: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        load_game(record)
    assert message in str(caught.value)


# (id, record, round, player): messages about one round start with "round N: " and name
# the player concerned.
ROUND_ERRORS: list[tuple[str, dict[str, Any], int, str | None]] = [
    ("missing hand", game(rounds=[rnd("Ann", OK), rnd("Cy", {"Ann": 3})]), 2, "Bob"),
    ("hand for a stranger", game(rounds=[rnd("Ann", OK), rnd("Ann", {**OK, "Zed": 1})]), 2, "Zed"),
    ("hand for who went out", game(rounds=[rnd("Ann", {**OK, "Ann": 1})]), 1, "Ann"),
    (
        "negative points",
        game(rounds=[rnd("Ann", OK), rnd("Ann", OK), rnd("Bob", {"Ann": 1, "Cy": -1})]),
        3,
        "Cy",
    ),
    ("fractional points", game(rounds=[rnd("Ann", {"Bob": 0.5, "Cy": 1})]), 1, "Bob"),
    ("huge hand", game(rounds=[rnd("Ann", {"Bob": 100000, "Cy": 1})]), 1, "Bob"),
    ("unknown card", game("rummy", rounds=[rnd("Ann", {"Bob": 1, "Cy": ["JK"]})]), 1, "Cy"),
    ("went_out unknown", game(rounds=[rnd("Ann", OK), rnd("Zed", {"Ann": 1, **OK})]), 2, "Zed"),
    ("went_out null in vegas", game(rounds=[rnd(None, {"Ann": 1, **OK})]), 1, None),
    ("drop without expiring", game(rounds=[rnd("Ann", OK, drops=["Cy"])]), 1, "Cy"),
    ("dummy contracts", game("dummy", rounds=[rnd("Bob", {"Ann": 1, "Cy": 1})]), 1, "Bob"),
    ("texas round 12", game("texas", rounds=[rnd("Ann", OK)] * 12), 12, None),
    ("going_rummy in rummy", game("rummy", rounds=[rnd("Ann", OK, going_rummy=True)]), 1, None),
    # Names that are not names, inside a round: the message should still say which round.
    ("went_out not text", game(rounds=[rnd("Ann", OK), rnd(7, {"Ann": 1, **OK})]), 2, None),
    ("went_out blank", game(rounds=[rnd("Ann", OK), rnd(" ", {"Ann": 1, **OK})]), 2, None),
    ("drops name not text", game(rounds=[rnd("Ann", OK), rnd("Ann", OK, drops=[5])]), 2, None),
    ("hands name blank", game(rounds=[rnd("Ann", {**OK, "": 1})]), 1, None),
]


@pytest.mark.parametrize(
    ("record", "number", "player"), [pytest.param(r, n, p, id=i) for i, r, n, p in ROUND_ERRORS]
)
def test_round_errors_name_the_round_and_the_player(
    record: dict[str, Any], number: int, player: str | None
) -> None:
    with pytest.raises(RecordError) as caught:
        load_game(record)
    message = str(caught.value)
    assert message.startswith(f"round {number}: "), message
    assert caught.value.round == number
    if player is not None:
        assert player in message
        assert caught.value.player == player


def test_a_record_error_is_a_value_error() -> None:
    """Callers that only know ValueError still catch a broken record."""
    with pytest.raises(ValueError, match="unknown variant"):
        load_game(game("canasta"))


# -- any damage to a valid record: it loads, or it is refused with a RecordError ------------
VALID = [
    game(
        settings={"max_score": 30, "buy_in": 100},
        rounds=[
            rnd("Ann", {"Bob": ["K", "W"], "Cy": 3}, wild="7C"),
            rnd("Bob", {"Ann": 4, "Cy": 30}, drops=["Cy"]),
            rnd("Ann", {"Bob": 2, "Dee": 5}, joins=["Dee"]),
        ],
    ),
    game(
        "texas",
        players=("Ann", {"name": "Bob", "handicap": 5}),
        rounds=[rnd("Ann", {"Bob": ["2", "3"]}), rnd(None, {"Ann": 1, "Bob": 2})],
    ),
    game("rummy", settings={"deals": 3}, rounds=[rnd("Ann", OK), rnd(None, {"Ann": 1, **OK})]),
    game(
        "multiplayer",
        settings={"target_score": 50},
        rounds=[rnd("Cy", {"Ann": 3, "Bob": ["Q"]}, going_rummy=True)],
    ),
    game(
        "dummy",
        first_dealer="Bob",
        rounds=[rnd("Ann", OK, contracts=["Ann", "Cy"]), rnd(None, {"Ann": 1, **OK})],
    ),
]

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["Ann", "bob", "Zed", "", "K", "JK", "W", "7C"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["Ann", "Bob", "name", "went_out", "x"]), inner, max_size=3
        )
    ),
    max_leaves=5,
)
ROUND_KEYS = ["went_out", "hands", "wild", "drops", "joins", "contracts", "going_rummy"]


@st.composite
def damaged_records(draw: st.DrawFn) -> Any:
    record = copy.deepcopy(draw(st.sampled_from(VALID)))
    node: Any = record
    path: list[Any] = []
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(node, dict) and node:
            key: Any = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            key = draw(st.integers(0, len(node) - 1))
        else:
            break
        path.append(key)
        node = node[key]
    parent: Any = record
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = draw(JSON)
    if draw(st.booleans()) and record.get("rounds") and isinstance(record["rounds"], list):
        target = record["rounds"][0]
        if isinstance(target, dict):
            target[draw(st.sampled_from(ROUND_KEYS))] = draw(JSON)
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=damaged_records())
def test_a_damaged_record_loads_or_is_refused_with_a_record_error(record: Any) -> None:
    with contextlib.suppress(RecordError):
        load_game(record)


@pytest.mark.parametrize("record", VALID, ids=[r["variant"] for r in VALID])
def test_the_undamaged_records_load(record: dict[str, Any]) -> None:
    load_game(record)
