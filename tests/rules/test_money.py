"""Pot splits, balances and settling a night, worked by hand from RULES.md and
game-record.md ("Night record and settlement").

Every expected number below was computed by hand, with the arithmetic written out.
Money is integer cents.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, fewest_transfers, load_game, settle_night, split_pot

# ------------------------------------------------------------------------ split_pot ---


@pytest.mark.parametrize(
    ("pot", "split", "groups", "expected"),
    [
        pytest.param(1000, [70, 30], [["A"], ["B"]], {"A": 700, "B": 300}, id="70-30"),
        pytest.param(
            999, [70, 30], [["A"], ["B"]],
            # 999 * 70 // 100 = 699, 999 * 30 // 100 = 299; 1 leftover cent to first.
            {"A": 699 + 1, "B": 299},
            id="flooring-leftover-to-first",
        ),
        pytest.param(
            1001, [50, 30, 20], [["A"], ["B"], ["C"]],
            # 500.5 -> 500, 300.3 -> 300, 200.2 -> 200; 1001 - 1000 = 1 to first.
            {"A": 500 + 1, "B": 300, "C": 200},
            id="flooring-three-places",
        ),
        pytest.param(
            1000, [70, 30], [["A"], ["B"], ["C"]], {"A": 700, "B": 300, "C": 0},
            id="third-outside-the-split",
        ),
        pytest.param(
            1000, [50, 30, 20], [["A"], ["B"]],
            # place 3 is held by nobody: its 200 goes to first.
            {"A": 500 + 200, "B": 300},
            id="unheld-place-to-first",
        ),
        pytest.param(1000, [70, 30], [["A"]], {"A": 700 + 300}, id="lone-player-takes-all"),
        pytest.param(
            1000, [70, 30], [["A", "B"], ["C"]],
            # A and B cover places 1 and 2: pool 700 + 300 = 1000, 500 each.
            {"A": 500, "B": 500, "C": 0},
            id="tie-for-first-pools-places-1-2",
        ),
        pytest.param(
            1010, [70, 30], [["A"], ["B", "C"]],
            # 707 / 303; B and C pool 303 + 0 = 303 -> 151 each, odd cent to B (earlier seat).
            {"A": 707, "B": 151 + 1, "C": 151},
            id="tie-for-second-odd-cent-to-earliest-seat",
        ),
        pytest.param(
            1001, [100], [["Cy", "Ann"]],
            # groups list seat order: Cy sits before Ann, so Cy gets the odd cent.
            {"Cy": 500 + 1, "Ann": 500},
            id="tie-odd-cent-by-seat-not-name",
        ),
        pytest.param(
            1000, [50, 30, 20], [["A", "B", "C"]],
            # pool 1000 / 3 = 333 r 1
            {"A": 333 + 1, "B": 333, "C": 333},
            id="three-way-tie",
        ),
        pytest.param(
            1000, [50, 30, 20], [["A"], ["B", "C", "D"]],
            # B, C, D cover places 2-4: 300 + 200 + 0 = 500 -> 166 r 2, both cents to B.
            {"A": 500, "B": 166 + 2, "C": 166, "D": 166},
            id="tie-over-a-place-outside-the-split",
        ),
        pytest.param(0, [70, 30], [["A"], ["B"]], {"A": 0, "B": 0}, id="empty-pot"),
    ],
)  # fmt: skip
def test_split_pot_floors_shares_pools_ties_and_gives_leftovers_to_first(
    pot, split, groups, expected
):
    payouts = split_pot(pot, split, groups)
    assert payouts == expected
    assert sum(payouts.values()) == pot


@pytest.mark.parametrize(
    ("pot", "buy_in", "groups", "expected"),
    [
        pytest.param(
            1000, 100, [["A"], ["B"], ["C"]],
            # runner-up share 300; third gets min(100, 300 // 2 = 150) = 100.
            {"A": 700, "B": 300 - 100, "C": 100},
            id="one-buy-in",
        ),
        pytest.param(
            1000, 200, [["A"], ["B"], ["C"]],
            # min(200, 150) = 150: never more than half of the runner-up's share.
            {"A": 700, "B": 300 - 150, "C": 150},
            id="capped-at-half",
        ),
        pytest.param(
            1001, 200, [["A"], ["B"], ["C"]],
            # 700 + 1 leftover, 300; min(200, 300 // 2) = 150.
            {"A": 701, "B": 150, "C": 150},
            id="half-of-share",
        ),
        pytest.param(
            1000, 100, [["A"], ["B"]], {"A": 700, "B": 300}, id="no-third-no-transfer"
        ),
    ],
)  # fmt: skip
def test_split_pot_second_runner_up_buy_in_out_of_the_runner_up_share(
    pot, buy_in, groups, expected
):
    payouts = split_pot(pot, [70, 30], groups, runner_up_to_third_cents=buy_in)
    assert payouts == expected
    assert sum(payouts.values()) == pot


# --------------------------------------------------------------- balances per game ---


def record(variant: str, players: list, rounds: list, **settings) -> dict:
    return {
        "format": "scorekeeper-game/1",
        "variant": variant,
        "settings": settings,
        "players": players,
        "rounds": rounds,
    }


def out(went_out, **extra):
    """A round: ``hands`` from the keyword arguments except the round's own keys."""
    keys = {"contracts", "drops", "joins", "going_rummy"}
    rnd = {"went_out": went_out, "hands": {k: v for k, v in extra.items() if k not in keys}}
    rnd.update({k: v for k, v in extra.items() if k in keys})
    return rnd


FINISHED_GAMES = {
    # Vegas: 3 buy-ins, a re-buy and a join fee.
    "vegas": record(
        "vegas",
        ["Ann", "Bob", "Cy"],
        [
            out("Ann", Bob=100, Cy=10),
            out("Ann", Bob=5, Cy=5, Dee=0, joins=["Dee"]),
            out("Ann", Bob=90, Cy=95, Dee=96),
        ],
        buy_in=200,
    ),
    "texas": record(
        "texas", ["Ann", "Bob", "Cy"], [out("Ann", Bob=3, Cy=4)] * 10 + [out("Bob", Ann=1, Cy=2)]
    ),
    "rummy": record("rummy", ["Ann", "Bob", "Cy"], [out("Ann", Bob=3, Cy=4)], deals=1, buy_in=99),
    "multiplayer": record(
        "multiplayer",
        ["Ann", "Bob", "Cy"],
        [out("Cy", Ann=40, Bob=20, going_rummy=True)],
        buy_in=333,
        pot_split=[50, 50],
    ),
    "dummy": record(
        "dummy", ["Ann", "Bob"], [out("Ann", Bob=5, contracts=["Ann"])] * 12, buy_in=150
    ),
}


@pytest.mark.parametrize("variant", FINISHED_GAMES)
def test_balances_add_up_to_zero_once_finished(variant):
    s = load_game(FINISHED_GAMES[variant])
    assert s.finished
    assert s.pot.total == 0
    assert sum(s.pot.balances.values()) == 0
    assert s.pot.balances == {
        p: sum(e.amount for e in s.pot.entries if e.player == p) for p in s.pot.balances
    }


def test_vegas_balances_worked_by_hand():
    s = load_game(FINISHED_GAMES["vegas"])
    # R1: Bob 100 expires -> reset to max(0, 10) = 10 (re-buy 200).
    # R2: Dee joins: Bob has the most expiries (1) -> fee 200 * 1, Dee starts at Bob's 10.
    #     Totals: Ann 0, Bob 15, Cy 15, Dee 10.
    # R3: Bob 105, Cy 110, Dee 106 all expire: Ann wins.
    # Pot 3 * 200 + 200 + 200 = 1000: Ann 700, Bob 300.
    assert s.ranking == ["Ann", "Bob", "Dee", "Cy"]
    assert s.pot.balances == {"Ann": -200 + 700, "Bob": -400 + 300, "Cy": -200, "Dee": -200}


def test_multiplayer_50_50_split_with_an_odd_pot():
    s = load_game(FINISHED_GAMES["multiplayer"])
    # Cy 2 * (40 + 20) = 120 >= 100 wins. Pot 3 * 333 = 999: 499 + 499, leftover 1 to Cy.
    # Ann and Bob tie on 0 for second: pool 499 + 0 -> 249 r 1, the odd cent to Ann.
    assert s.pot.balances == {"Ann": -333 + 250, "Bob": -333 + 249, "Cy": -333 + 500}


def test_unfinished_game_balances_are_what_the_pot_holds():
    s = load_game(record("rummy", ["Ann", "Bob"], [out("Ann", Bob=3)], buy_in=100))
    assert not s.finished
    assert s.pot.total == 2 * 100
    assert sum(s.pot.balances.values()) == -s.pot.total


# ---------------------------------------------------------------------- settlement ---


def apply(people: dict[str, int], transfers) -> dict[str, int]:
    left = dict(people)
    for t in transfers:
        assert t.amount > 0
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


@pytest.mark.parametrize(
    ("people", "expected"),
    [
        pytest.param({}, set(), id="nobody"),
        pytest.param({"A": 500, "B": -500}, {("B", "A", 500)}, id="one-pair"),
        pytest.param({"A": 0, "B": 100, "C": -100}, {("C", "B", 100)}, id="zero-balance-idle"),
        pytest.param(
            {"A": 500, "B": -300, "C": -200}, {("B", "A", 300), ("C", "A", 200)}, id="two-pay-one"
        ),
        pytest.param(
            {"A": 500, "B": -500, "C": 300, "D": -300},
            {("B", "A", 500), ("D", "C", 300)},
            id="two-exact-pairs",
        ),
        pytest.param(
            # Largest-first matching would take 4 transfers (C->A 300, D->B 200, E->A 100,
            # E->B 100); splitting into {B, C} and {A, D, E} needs 1 + 2 = 3.
            {"A": 400, "B": 300, "C": -300, "D": -200, "E": -200},
            {("C", "B", 300), ("D", "A", 200), ("E", "A", 200)},
            id="exact-pair-beats-largest-first",
        ),
    ],
)
def test_fewest_transfers_settle_every_balance_with_exact_pairs(people, expected):
    transfers = fewest_transfers(people)
    assert {(t.payer, t.payee, t.amount) for t in transfers} == expected
    assert len(transfers) <= max(0, len(people) - 1)
    assert all(v == 0 for v in apply(people, transfers).values())


def test_fewest_transfers_never_more_than_people_minus_one():
    people = {"A": 1234, "B": -1, "C": -567, "D": 89, "E": -755, "F": 300, "G": -300}
    transfers = fewest_transfers(people)
    # {F, G} is the only zero-sum pair: 1 transfer, and the other 5 need 4: 5 in all.
    assert len(transfers) == 1 + 4
    assert all(v == 0 for v in apply(people, transfers).values())


def test_fewest_transfers_exact_pairs_with_many_people():
    # 18 people (beyond the exact search): 9 pairs settle in 9 transfers.
    people = {}
    for i in range(1, 10):
        people[f"W{i}"] = i * 100
        people[f"L{i}"] = -i * 100
    transfers = fewest_transfers(people)
    assert {(t.payer, t.payee, t.amount) for t in transfers} == {
        (f"L{i}", f"W{i}", i * 100) for i in range(1, 10)
    }


def test_fewest_transfers_refuses_balances_that_do_not_add_up_to_zero():
    with pytest.raises(RecordError, match="add up to 5 cents"):
        fewest_transfers({"A": 105, "B": -100})


def night(*games: dict) -> dict:
    return {"format": "scorekeeper-night/1", "currency": "USD", "games": list(games)}


VEGAS_GAME = record("vegas", ["Ann", "Bob", "Cy"], [out("Ann", Bob=100, Cy=120)], buy_in=333)
RUMMY_GAME = record("rummy", ["ann", "BOB", "Cy"], [out("Cy", ann=10, BOB=5)], deals=1, buy_in=100)


def test_settle_night_nets_each_person_over_games_matching_names_case_insensitively():
    settlement = settle_night(night(VEGAS_GAME, RUMMY_GAME))
    # Vegas: pot 999 -> Ann 699 + 1, Bob 299: Ann +367, Bob -34, Cy -333.
    # Rummy: Cy scores 15 and takes the 300 pot: Cy +200, ann -100, BOB -100.
    assert settlement.people == {
        "Ann": (-333 + 700) - 100,
        "Bob": (-333 + 299) - 100,
        "Cy": -333 + 200,
    }
    assert {(t.payer, t.payee, t.amount) for t in settlement.transfers} == {
        ("Bob", "Ann", 134),
        ("Cy", "Ann", 133),
    }
    assert settlement.to_json()["transfers"][0].keys() == {"from", "to", "amount"}


def test_settle_night_refuses_an_unfinished_game():
    unfinished = record("rummy", ["Ann", "Bob"], [out("Ann", Bob=3)], buy_in=100)
    with pytest.raises(RecordError, match=r"game 2 \(Rummy\) is not finished"):
        settle_night(night(VEGAS_GAME, unfinished))
