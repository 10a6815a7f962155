"""Issue 33: the refusals of a game or night record (rules/record.py, rules/settlement.py)
are engine sentences, a message id and its parameters, whose English is word for word
what the command line, the API and the tests always read."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.rules import GameRecord, replay, settle
from scorekeeper.rules.errors import ENGLISH, RecordError, Said
from scorekeeper.rules.record import read_json
from scorekeeper.rules.said_record import RECORD
from scorekeeper.rules.settlement import fewest_by, parse_night, round_by

GAME: dict[str, Any] = {
    "format": "scorekeeper-game/1",
    "variant": "rummy",
    "settings": {"buy_in": 500, "target_score": 50},
    "players": ["Ann", "Bob"],
    "rounds": [{"went_out": "Ann", "hands": {"Bob": 30}}],
}


def changed(**keys: Any) -> dict[str, Any]:
    record = copy.deepcopy(GAME)
    record.update(keys)
    return record


def refusal(data: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(data)
    return caught.value


CASES = [
    ([], "game_record.object", "a game record must be a JSON object"),
    (changed(format="x/1"), "game_record.format",
     "format must be 'scorekeeper-game/1' (got 'x/1')"),
    (changed(color="red"), "game_record.unknown_key", "unknown key 'color' in the game record"),
    (changed(variant="poker"), "game_record.variant",
     "unknown variant 'poker': use one of vegas, texas, rummy, multiplayer, dummy, contract, "
     "gin, pool"),
    (changed(settings=[1]), "settings.object",
     "settings must be an object of setting names and values"),
    (changed(players="Ann"), "game_record.players_list",
     "players must be a list of names in seat order"),
    (changed(players=["Ann"]), "game_record.players_few",
     "a game needs at least 2 players (got 1)"),
    (changed(players=[f"P{i}" for i in range(21)]), "game_record.players_many",
     "a game takes at most 20 players (got 21)"),
    (changed(players=["Ann", {"name": "Bob", "age": 3}]), "game_record.player_key",
     "player 2: unknown key 'age'"),
    (changed(players=["Ann", "  "]), "names.blank", "player 2 is blank: give a name"),
    (changed(players=["Ann", "ann"]), "game_record.players_twice",
     "two players are called 'Ann' (names must differ, ignoring capitals)"),
    (changed(players=["Ann", {"name": "Bob", "handicap": -1}]), "game_record.handicap",
     "Bob's handicap must be a whole number of points, 0 or more (got -1)"),
    (changed(first_dealer="Cy"), "game_record.first_dealer",
     "first_dealer 'Cy' is not one of the players"),
    (changed(rounds={}), "game_record.rounds_list", "rounds must be a list"),
    (changed(variant="gin", settings={}, players=["Ann", "Bob", "Cy"], rounds=[]),
     "game_record.gin_two", "Gin Rummy is played by exactly two players (got 3)"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message_id", "text"), CASES)
def test_a_game_record_refusal_is_a_sentence_with_its_english(data, message_id, text):
    exc = refusal(data)
    assert exc.message_id == message_id
    assert str(exc) == text == exc.detail


def test_a_refusal_names_the_player_it_is_about():
    exc = refusal(changed(players=["Ann", {"name": "Bob", "handicap": "x"}]))
    assert exc.player == "Bob" and exc.params["name"] == "Bob"
    twice = refusal(changed(players=["Ann", "ann"]))
    assert twice.player == "ann" and twice.field == "players"


def test_a_name_in_a_round_list_is_said_as_a_sentence():
    rounds = [{"went_out": "Ann", "hands": {"Bob": 3}, "drops": [""]}]
    exc = refusal(changed(variant="vegas", settings={}, rounds=rounds))
    assert str(exc) == "round 1: a name in drops is blank: give a name"
    assert exc.round == 1 and isinstance(exc.params["what"], Said)


@pytest.mark.parametrize(
    ("text", "message_id", "english"),
    [
        ("  ", "game_record.empty", "paste a game record or choose a file"),
        ("[" * 100_000, "game_record.too_deep", "the record is nested too deeply"),
        ("1" * 5000, "game_record.number_long", "a number in the record is too long"),
    ],
)
def test_unreadable_text_is_said_as_a_sentence(text, message_id, english):
    with pytest.raises(RecordError) as caught:
        read_json(text)
    assert caught.value.message_id == message_id and str(caught.value) == english


def test_a_night_record_keeps_its_games_round_in_the_sentence():
    bad = changed(rounds=[{"went_out": "Ann", "hands": {}}])
    with pytest.raises(RecordError) as caught:
        parse_night({"format": "scorekeeper-night/1", "games": [GAME, bad]})
    exc = caught.value
    assert str(exc) == "game 2: round 1: no hand given for Bob"
    assert exc.message_id == "night_record.game"
    inner = exc.params["refusal"]
    assert isinstance(inner, Said) and inner.id == "game_record.in_round"


@pytest.mark.parametrize(
    ("data", "message_id", "english"),
    [
        ([], "night_record.object", "a night record must be a JSON object"),
        ({"format": "x"}, "game_record.format",
         "format must be 'scorekeeper-night/1' (got 'x')"),
        ({"format": "scorekeeper-night/1", "games": [], "x": 1}, "night_record.unknown_key",
         "unknown key 'x' in the night record"),
        ({"format": "scorekeeper-night/1", "games": {}}, "night_record.games",
         "games must be a list of game records"),
    ],
)  # fmt: skip
def test_a_night_record_refusal_is_a_sentence(data, message_id, english):
    with pytest.raises(RecordError) as caught:
        parse_night(data)
    assert caught.value.message_id == message_id and str(caught.value) == english


def test_the_settlement_refusals_are_sentences():
    unfinished = replay(GameRecord.from_json(GAME))
    with pytest.raises(RecordError) as caught:
        settle([unfinished])
    assert caught.value.message_id == "settlement.unfinished"
    assert str(caught.value) == (
        "game 1 (Rummy) is not finished: its pot of $10.00 has not been paid out"
    )
    with pytest.raises(RecordError) as caught:
        fewest_by({"Ann": 5, "Bob": -3}, str)
    assert str(caught.value) == "the balances do not settle: they add up to 2 cents, not 0"
    with pytest.raises(RecordError) as caught:
        round_by({"Ann": 5, "Bob": -3}, 100, str)
    assert str(caught.value) == "the balances do not settle: they do not add up to 0"


def test_every_sentence_is_the_engines():
    assert all(ENGLISH[key] == text for key, text in RECORD.items())
