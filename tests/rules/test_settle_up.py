"""Settling up in steps, and with what the night's ledger moved (a debt carried in, a
payment, a write-off): the ledger part is exact, never rounded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import load_game, settle
from scorekeeper.rules.settlement import round_to_unit
from tests.rules.test_properties import PROPERTY_SETTINGS, zero_sum_balances


def test_whole_dollars_hand_checked() -> None:
    # Ann +12.40, Bob -7.60, Cy -4.80 round to 12, -8, -5: one dollar short of zero. The
    # nets rounded down the furthest go back up first: Ann (12.40 -> 12) and Bob (-7.60 ->
    # -8) were both rounded 40 cents down, Cy 20; the tie goes by name: Ann gets 13.
    assert round_to_unit({"Ann": 1240, "Bob": -760, "Cy": -480}, 100) == {
        "Ann": 1300,
        "Bob": -800,
        "Cy": -500,
    }


def test_to_the_cent_changes_nothing() -> None:
    people = {"Ann": 1240, "Bob": -760, "Cy": -480}
    assert round_to_unit(people, 1) == people


@PROPERTY_SETTINGS
@given(people=zero_sum_balances(), unit=st.sampled_from([5, 10, 25, 100, 500]))
def test_rounded_nets_still_balance_and_stay_within_a_unit(people, unit) -> None:
    rounded = round_to_unit(people, unit)
    assert sum(rounded.values()) == 0
    assert all(v % unit == 0 for v in rounded.values())
    assert all(abs(rounded[n] - people[n]) <= unit for n in people)


def _rummy(winner: str, loser: str, cents: int) -> dict:
    return {
        "variant": "rummy",
        "settings": {"buy_in": cents, "deals": 1},
        "players": [winner, loser],
        "rounds": [{"went_out": winner, "hands": {loser: 10}}],
    }


def test_carried_balances_join_the_settlement() -> None:
    # Tonight Ann wins $3 from Bob; from last week Bob owes Cy $5 (carried in: Bob -5, Cy +5).
    tonight = load_game(_rummy("Ann", "Bob", 300))
    s = settle([tonight], ledger={"Bob": -500, "Cy": 500})
    assert s.games == {"Ann": 300, "Bob": -300}
    assert s.ledger == {"Bob": -500, "Cy": 500}
    assert s.people == {"Ann": 300, "Bob": -800, "Cy": 500}
    assert sorted(t.sentence() for t in s.transfers) == ["Bob pays Ann $3.00", "Bob pays Cy $5.00"]


def test_a_carried_debt_is_never_rounded_away() -> None:
    # $1.00 carried into a night that settles in $5 steps, where nothing else happened:
    # the games' part is 0, the carried dollar stays a dollar (it used to round to 0).
    s = settle([], ledger={"Bob": -100, "Cy": 100}, unit=500)
    assert s.people == {"Bob": -100, "Cy": 100}
    assert [t.sentence() for t in s.transfers] == ["Bob pays Cy $1.00"]


def test_steps_round_the_games_part_only() -> None:
    # Games: Ann +3.33, Bob -3.33, rounded in $1 steps to +3 / -3 (rounding -0.33 / +0.33).
    # Then Bob paid Ann $1.17 in cash: Bob -3 + 1.17 = -1.83, Ann +3 - 1.17 = +1.83.
    game = load_game(_rummy("Ann", "Bob", 333))
    s = settle([game], ledger={"Bob": 117, "Ann": -117}, unit=100)
    assert s.rounding == {"Ann": -33, "Bob": 33}
    assert s.people == {"Ann": 183, "Bob": -183}
    assert [t.sentence() for t in s.transfers] == ["Bob pays Ann $1.83"]


def test_an_over_payment_is_owed_back() -> None:
    # Bob owed Ann $3 and paid $5: Ann owes Bob $2 back.
    game = load_game(_rummy("Ann", "Bob", 300))
    s = settle([game], ledger={"Bob": 500, "Ann": -500})
    assert s.people == {"Ann": -200, "Bob": 200}
    assert [t.sentence() for t in s.transfers] == ["Ann pays Bob $2.00"]


def test_a_ledger_that_does_not_balance_is_refused() -> None:
    with pytest.raises(Exception, match="does not balance"):
        settle([], ledger={"Bob": -500})


def test_whole_units_in_a_settlement_say_what_rounding_added() -> None:
    game = load_game(_rummy("Ann", "Bob", 333))
    s = settle([game], unit=100)
    assert s.people == {"Ann": 300, "Bob": -300}
    assert s.rounding == {"Ann": -33, "Bob": 33}
    assert [t.sentence() for t in s.transfers] == ["Bob pays Ann $3.00"]
