"""Names that look alike are one person, names never touch card codes, and the limits a real
table never meets (RULES.md's spirit: a record beyond them is refused with a sentence)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import GameRecord, RecordError, load_game, name_key, replay
from scorekeeper.rules.names import BIDI_CONTROLS as RULE_BIDI
from scorekeeper.rules.names import (
    CONTROL,
    INVISIBLE,
    TEXT_DIRECTION,
    _checked_name,
    clean_name,
    unseen_characters,
)
from scorekeeper.rules.settings import MAX_ROUNDS
from tests.rules.test_properties import PROPERTY_SETTINGS, games

# --------------------------------------------------------------------------- names ---
ZOE_NFC = unicodedata.normalize("NFC", "Zoë")
ZOE_NFD = unicodedata.normalize("NFD", "Zoë")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (ZOE_NFC, ZOE_NFD),  # one letter typed two ways
        ("Ann", "Ann\u200b"),  # zero-width space
        ("Ann", "A\u200dnn"),  # zero-width joiner between letters
        ("Ann", "\ufeffAnn"),  # byte order mark
        ("Ann", "ANN  "),
        ("ﬁfi", "fifi"),  # a ligature
    ],
)
def test_look_alike_names_are_one_person(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)
    record = {"variant": "rummy", "players": [a, b]}
    with pytest.raises(RecordError, match="two players are called"):
        load_game(record)


def test_a_name_is_kept_in_one_spelling_without_invisible_characters() -> None:
    assert clean_name(ZOE_NFD, what="name") == ZOE_NFC
    assert clean_name("Ann\u200b ", what="name") == "Ann"
    assert clean_name("  Mary   Jo ", what="name") == "Mary Jo"
    # The joiner inside an emoji sequence is part of the emoji, not an invisible trick.
    family = "Jo \U0001f469\u200d\U0001f467"
    assert clean_name(family, what="name") == family


@pytest.mark.parametrize("raw", ["\u200b", "\u200b\u200c", " \ufeff "])
def test_a_name_of_invisible_characters_only_is_blank(raw: str) -> None:
    with pytest.raises(RecordError, match="is blank"):
        clean_name(raw, what="name")


# Letters, spaces, invisible and control characters, a text-direction override, a lone
# surrogate and emoji with their joiners.
TRICKY = "Ann Zoë\u200b\u200d\ufeff\x07\u202e\ud800 \U0001f468\U0001f469\U0001f467"
NAME_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.sampled_from(TRICKY), max_size=50),
    st.text(alphabet="a ", min_size=150, max_size=400),  # past the remembered length
)


@given(raw=NAME_TEXT, what=st.sampled_from(["round 3: player", "a late joiner"]))
def test_a_remembered_name_is_what_checking_it_again_gives(raw: str, what: str) -> None:
    """Good names are remembered (a record names its players in every round); the
    answer, and the sentence of a refusal (naming ``what``), is the same as checking the
    name afresh, and the same the second time it is asked."""
    try:
        expected: str | RecordError = _checked_name(raw, what=what)
    except RecordError as exc:
        expected = exc
    for _ in range(2):
        if isinstance(expected, RecordError):
            with pytest.raises(RecordError) as refused:
                clean_name(raw, what=what)
            assert str(refused.value) == str(expected) and what in str(refused.value)
        else:
            assert clean_name(raw, what=what) == expected


def test_a_lone_surrogate_is_refused_with_a_sentence() -> None:
    data = json.loads('{"variant": "rummy", "players": ["Ann", "B\\ud800ob"]}')
    with pytest.raises(RecordError, match="lone surrogate") as exc:
        load_game(data)
    str(exc.value).encode("utf-8")  # the message itself can be printed


@pytest.mark.parametrize("value", [1.0, 13.0, True])
def test_ace_points_must_be_a_whole_number(value: Any) -> None:
    with pytest.raises(RecordError, match="ace_points must be 1, 11 or 13"):
        load_game(
            {"variant": "vegas", "players": ["Ann", "Bob"], "settings": {"ace_points": value}}
        )


# -------------------------------------------------------------------------- rename ---
CARD_CODE_NAMES = ["A", "K", "Q", "J", "JK", "W", "2", "7", "10"]
KEY_NAMES = ["hands", "went_out", "players", "rounds", "drops", "joins", "contracts", "wild"]


def _vegas_with(name: str) -> dict[str, Any]:
    return {
        "variant": "vegas",
        "settings": {"max_score": 40, "buy_in": 100},
        "players": ["Ann", name, "Cy"],
        "first_dealer": name,
        "rounds": [
            {"went_out": name, "hands": {"Ann": ["A", "K", "W"], "Cy": ["JK", "2", "7", "10"]}},
            {"went_out": "Ann", "hands": {name: ["A", "Q", "J"], "Cy": 12}, "drops": ["Cy"]},
        ],
    }


@pytest.mark.parametrize("name", CARD_CODE_NAMES + KEY_NAMES)
def test_renaming_touches_names_only_never_card_codes(name: str) -> None:
    record = GameRecord.from_json(_vegas_with(name))
    before = replay(record)
    after = replay(record.renamed(name, "Bo"))
    # Ann held A K W = 1 + 10 + 25 and Cy JK 2 7 10 = 25 + 2 + 7 + 10 in round 1, whatever
    # the second player is called.
    assert after.rounds[0].hands == {"Ann": 36, "Cy": 44}
    assert [p.total for p in after.players] == [p.total for p in before.players]
    assert after.pot.balances == {
        ("Bo" if k == name else k): v for k, v in before.pot.balances.items()
    }
    data = record.renamed(name, "Bo").to_json()
    assert data["first_dealer"] == "Bo"
    assert data["rounds"][0]["hands"]["Ann"] == ["A", "K", "W"]
    assert data["rounds"][1]["hands"]["Bo"] == ["A", "Q", "J"]
    assert data["rounds"][0]["went_out"] == "Bo"


def test_renaming_a_player_to_a_card_code_keeps_the_hands() -> None:
    record = GameRecord.from_json(_vegas_with("Bob"))
    renamed = record.renamed("Bob", "K")
    assert replay(renamed).rounds[0].hands == replay(record).rounds[0].hands
    assert renamed.rounds[1].hands["K"] == ("A", "Q", "J")


def test_renaming_reaches_drops_joins_and_contracts() -> None:
    dummy = GameRecord.from_json(
        {
            "variant": "dummy",
            "players": ["Ann", "Bob"],
            "rounds": [{"went_out": "Bob", "hands": {"Ann": 5}, "contracts": ["Bob", "Ann"]}],
        }
    )
    assert dummy.renamed("bob", "Rob").rounds[0].contracts == ("Rob", "Ann")
    vegas = GameRecord.from_json(
        {
            "variant": "vegas",
            "players": ["Ann", "Bob"],
            "rounds": [{"went_out": "Ann", "hands": {"Bob": 5, "Kim": 3}, "joins": ["Kim"]}],
        }
    )
    renamed = vegas.renamed("kim", "Kimberly")
    assert renamed.rounds[0].joins == ("Kimberly",)
    # Kim joins before anyone has points: she starts at 0 (the highest total) and holds 3.
    assert replay(renamed).player("Kimberly").total == 0 + 3


@PROPERTY_SETTINGS
@given(data=st.data(), variant=st.sampled_from(["vegas", "texas", "rummy", "multiplayer", "dummy"]))
def test_renaming_there_and_back_changes_nothing(data: st.DataObject, variant: str) -> None:
    record = GameRecord.from_json(data.draw(games(variant)))
    old = record.players[0].name
    new = data.draw(st.sampled_from(CARD_CODE_NAMES + KEY_NAMES + ["Zed"]))
    if any(name_key(p.name) == name_key(new) for p in replay(record).players):
        return
    there = replay(record.renamed(old, new))
    assert [p.total for p in there.players] == [p.total for p in replay(record).players]
    assert record.renamed(old, new).renamed(new, old).to_json() == record.to_json()


# -------------------------------------------------------------------------- limits ---
def _rummy_rounds(n: int) -> dict[str, Any]:
    return {
        "variant": "rummy",
        "settings": {"target_score": 100_000},
        "players": ["Ann", "Bob"],
        "rounds": [{"went_out": "Ann", "hands": {"Bob": 0}}] * n,
    }


def test_a_game_holds_at_most_the_round_limit() -> None:
    assert load_game(_rummy_rounds(MAX_ROUNDS)).rounds_played == MAX_ROUNDS
    with pytest.raises(RecordError, match=f"at most {MAX_ROUNDS} rounds"):
        load_game(_rummy_rounds(MAX_ROUNDS + 1))


def test_the_replay_refuses_a_round_past_the_limit_added_after_parsing() -> None:
    record = GameRecord.from_json(_rummy_rounds(MAX_ROUNDS))
    longer = record.with_round(record.rounds[-1])
    with pytest.raises(RecordError, match=f"round {MAX_ROUNDS + 1}: a game holds at most"):
        replay(longer)


def test_a_fixed_number_of_deals_stays_within_the_limit() -> None:
    with pytest.raises(RecordError, match=f"deals must be between 1 and {MAX_ROUNDS}"):
        load_game({"variant": "rummy", "players": ["Ann", "Bob"], "settings": {"deals": 201}})


# Every Unicode bidirectional control (UAX #9): marks, embeddings, overrides, isolates.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("control", BIDI_CONTROLS)
def test_a_name_holding_any_text_direction_control_is_refused(control: str) -> None:
    """ "Ann" + RLO + "boB" shows as "AnnBob": one rule with the payment handles
    (``unseen_characters``), so a mark (LRM, RLM, ALM) is refused as an override is."""
    for raw in (f"Ann{control}boB", f"{control}Bob", f"Cy{control}"):
        with pytest.raises(RecordError, match="text-direction control characters"):
            clean_name(raw, what="name")


def test_one_rule_names_what_text_hides() -> None:
    assert unseen_characters("Ann Zoë \U0001f469\u200d\U0001f467") == INVISIBLE  # the joiner
    assert unseen_characters("Ann") is None
    assert unseen_characters("A\u200bn\u202en") == TEXT_DIRECTION  # the worse one is named
    assert unseen_characters("A\u202en\x07") == CONTROL
    assert "".join(sorted(RULE_BIDI)) == BIDI_CONTROLS
