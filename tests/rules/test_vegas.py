"""Vegas Rummy, worked by hand from RULES.md ("Vegas Rummy" and the general conventions).

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out; the engine is only asked to agree. Money is in cents.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, load_game


def vegas(players: list, *rounds: dict, first_dealer: str | None = None, **settings) -> dict:
    record = {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": settings,
        "players": players,
        "rounds": list(rounds),
    }
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    return record


def rnd(went_out: str | None, *, drops=(), joins=(), wild=None, **hands) -> dict:
    out: dict = {"went_out": went_out, "hands": hands}
    if drops:
        out["drops"] = list(drops)
    if joins:
        out["joins"] = list(joins)
    if wild is not None:
        out["wild"] = wild
    return out


def totals(standings) -> dict[str, int]:
    return {p.name: p.total for p in standings.players}


def expiries(standings) -> dict[str, int]:
    return {p.name: p.expiries for p in standings.players}


def events(result, kind: str) -> dict:
    """The round's events of one kind, by player: {player: (value, amount_cents)}."""
    return {e.player: (e.value, e.amount_cents) for e in result.events if e.kind == kind}


def ledger(standings) -> list[tuple[str, int, str, int]]:
    return [(e.player, e.amount, e.kind, e.round) for e in standings.pot.entries]


# --------------------------------------------------------------------- card values ---


@pytest.mark.parametrize(
    ("cards", "ace_points", "points"),
    [
        (["A"], 1, 1),
        (["A"], 13, 13),
        (["A", "A", "K"], 13, 13 + 13 + 10),
        (["2", "3", "4", "5", "6", "7", "8", "9", "10"], 1, 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10),
        (["J", "Q", "K"], 1, 10 + 10 + 10),
        (["JK"], 1, 25),
        # the flipped wild card is written W: a wild 2 of clubs is 25, not 2
        (["W"], 1, 25),
        (["W", "JK", "A", "7"], 13, 25 + 25 + 13 + 7),
        (["w", " k ", "jk"], 1, 25 + 10 + 25),  # codes are trimmed, any case
        # RULES.md: "1 or 13; an 11 is also mentioned": the engine accepts 11 as well
        (["A", "A"], 11, 11 + 11),
    ],
)
def test_vegas_card_values_ace_by_setting_wild_and_joker_25(cards, ace_points, points):
    s = load_game(vegas(["Ann", "Bob"], rnd("Ann", Bob=cards, wild="7C"), ace_points=ace_points))
    assert s.rounds[0].hands == {"Bob": points}
    assert s.rounds[0].scores == {"Ann": 0, "Bob": points}
    assert s.player("Bob").total == points


def test_vegas_keepers_number_counts_not_the_card_counter():
    # Bob counts his ace high (13) although ace_points is 1: the keeper's number is used.
    s = load_game(vegas(["Ann", "Bob"], rnd("Ann", Bob=13 + 7), ace_points=1))
    assert s.player("Bob").total == 20


def test_vegas_ace_points_other_than_1_11_13_refused():
    with pytest.raises(RecordError, match="ace_points"):
        load_game(vegas(["Ann", "Bob"], ace_points=12))


def test_vegas_wild_card_recorded_for_the_round():
    s = load_game(vegas(["Ann", "Bob"], rnd("Ann", Bob=5, wild="7c")))
    assert s.rounds[0].wild == "7C"


# ------------------------------------------------------------- penalty, handicaps ---


def test_vegas_penalty_scoring_and_handicap_is_the_starting_total():
    s = load_game(
        vegas(
            ["Ann", {"name": "Bob", "handicap": 30}, "Cy"],
            rnd("Ann", Bob=50, Cy=20),
            rnd("Cy", Ann=10, Bob=15),
        )
    )
    # Bob: 30 (handicap) + 50 + 15 = 95; Ann 0 + 10; Cy 20 + 0.
    assert totals(s) == {"Ann": 0 + 10, "Bob": 30 + 50 + 15, "Cy": 20 + 0}
    assert s.player("Bob").scores == (50, 15)
    assert s.ranking == ["Ann", "Cy", "Bob"]  # low is good


def test_vegas_handicap_pushes_player_to_expiry_and_reset():
    s = load_game(
        vegas(
            ["Ann", {"name": "Bob", "handicap": 30}, "Cy"],
            rnd("Ann", Bob=50, Cy=20),
            rnd("Cy", Ann=10, Bob=25),
            buy_in=100,
        )
    )
    # Bob: 30 + 50 + 25 = 105 >= 100, expires; reset to max(Ann 10, Cy 20) = 20.
    assert events(s.rounds[1], "expire") == {"Bob": (30 + 50 + 25, None)}
    assert totals(s) == {"Ann": 10, "Bob": 20, "Cy": 20}
    assert expiries(s)["Bob"] == 1


@pytest.mark.parametrize("handicap", [100, 150])
def test_vegas_handicap_must_be_below_max_score(handicap):
    with pytest.raises(RecordError, match="below the max score"):
        load_game(vegas(["Ann", {"name": "Bob", "handicap": handicap}], max_score=100))


def test_vegas_handicap_just_below_max_score_accepted():
    s = load_game(vegas(["Ann", {"name": "Bob", "handicap": 99}], max_score=100))
    assert s.player("Bob").total == 99


def test_vegas_someone_must_go_out():
    with pytest.raises(RecordError, match="round 1: someone must go out"):
        load_game(vegas(["Ann", "Bob"], rnd(None, Ann=5, Bob=6)))


# --------------------------------------------------------------- expiry, re-buy ---


def test_vegas_expired_player_rebuys_reset_to_highest_total_of_those_not_expired():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy", "Dee"],
            rnd("Ann", Bob=40, Cy=60, Dee=20),
            rnd("Bob", Ann=30, Cy=45, Dee=70),
            buy_in=200,
        )
    )
    # After round 2: Ann 0+30, Bob 40+0, Cy 60+45 = 105 (expires), Dee 20+70 = 90.
    # Re-buy is the default: Cy pays 200 and resets to max(30, 40, 90) = 90.
    r2 = s.rounds[1]
    assert events(r2, "expire") == {"Cy": (60 + 45, None)}
    assert events(r2, "rebuy") == {"Cy": (90, -200)}
    assert r2.scores == {"Ann": 30, "Bob": 0, "Cy": 45, "Dee": 70}
    assert r2.totals == {"Ann": 30, "Bob": 40, "Cy": 90, "Dee": 90}
    assert expiries(s) == {"Ann": 0, "Bob": 0, "Cy": 1, "Dee": 0}
    assert s.pot.total == 4 * 200 + 200
    assert ("Cy", -200, "rebuy", 2) in ledger(s)
    assert s.pot.balances == {"Ann": -200, "Bob": -200, "Cy": -200 - 200, "Dee": -200}
    assert not s.finished


def test_vegas_exactly_max_score_expires():
    s = load_game(vegas(["Ann", "Bob", "Cy"], rnd("Ann", Bob=100, Cy=30), buy_in=100))
    # Bob reaches 100 = max_score: expired ("at or above"); reset to max(0, 30) = 30.
    assert events(s.rounds[0], "expire") == {"Bob": (100, None)}
    assert totals(s) == {"Ann": 0, "Bob": 30, "Cy": 30}


def test_vegas_simultaneous_expiries_all_reset_to_the_same_value():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy", "Dee"],
            rnd("Ann", Bob=100, Cy=100, Dee=30),
            rnd("Ann", Bob=70, Cy=75, Dee=20),
            buy_in=100,
        )
    )
    # Round 1: Bob 100 and Cy 100 expire; below: Ann 0, Dee 30 -> both reset to 30.
    assert events(s.rounds[0], "rebuy") == {"Bob": (30, -100), "Cy": (30, -100)}
    # Round 2: Bob 30+70 = 100, Cy 30+75 = 105 expire; below: Ann 0, Dee 30+20 = 50.
    # The reset value is computed before any reset: max(0, 50) = 50 for both.
    assert events(s.rounds[1], "expire") == {"Bob": (100, None), "Cy": (105, None)}
    assert events(s.rounds[1], "rebuy") == {"Bob": (50, -100), "Cy": (50, -100)}
    assert totals(s) == {"Ann": 0, "Bob": 50, "Cy": 50, "Dee": 50}
    assert expiries(s) == {"Ann": 0, "Bob": 2, "Cy": 2, "Dee": 0}
    assert s.pot.total == 4 * 100 + 4 * 100


# ----------------------------------------------------------------- the final round ---


FINAL_ROUND_GAME = (
    ["Ann", "Bob", "Cy"],
    rnd("Ann", Bob=60, Cy=70),
    rnd("Bob", Ann=20, Cy=40),
    rnd("Ann", Bob=45, Cy=50),
)


def test_vegas_final_round_win_check_first_expired_do_not_rebuy_ranked_by_final_total():
    s = load_game(vegas(*FINAL_ROUND_GAME, buy_in=200))
    # Round 2: Cy 70 + 40 = 110 expires, resets to max(Ann 20, Bob 60) = 60, pays 200.
    assert events(s.rounds[1], "rebuy") == {"Cy": (60, -200)}
    # Round 3: Bob 60 + 45 = 105, Cy 60 + 50 = 110: only Ann (20) is below 100, so the
    # game ends; nobody re-buys in the round that ends the game.
    r3 = s.rounds[2]
    assert events(r3, "expire") == {"Bob": (105, None), "Cy": (110, None)}
    assert events(r3, "rebuy") == {}
    assert s.finished
    assert s.winners == ("Ann",)
    assert totals(s) == {"Ann": 20, "Bob": 105, "Cy": 110}
    assert expiries(s) == {"Ann": 0, "Bob": 0, "Cy": 1}
    assert s.ranking == ["Ann", "Bob", "Cy"]  # winner, then final totals 105 < 110
    assert [p.place for p in s.players] == [1, 2, 3]
    # Pot 3 * 200 + 200 = 800; 70/30: Ann 560, Bob 240; Cy nothing.
    pot = 3 * 200 + 200
    assert [(p, a) for p, a, k, _ in ledger(s) if k == "payout"] == [
        ("Ann", pot * 70 // 100),
        ("Bob", pot * 30 // 100),
    ]
    assert s.pot.balances == {"Ann": -200 + 560, "Bob": -200 + 240, "Cy": -400}
    assert sum(s.pot.balances.values()) == 0
    assert s.pot.total == 0
    assert s.next_round is None


def test_vegas_no_round_after_the_game_is_won():
    players, *rounds = FINAL_ROUND_GAME
    with pytest.raises(RecordError, match="round 4: the game already ended"):
        load_game(vegas(players, *rounds, rnd("Ann", Bob=1, Cy=1)))


def test_vegas_drops_in_the_round_that_ends_the_game_are_refused():
    # Engine reading: the win check comes first, so nobody expires into a drop in the
    # round that ends the game (they are ranked by their final totals instead).
    players, r1, r2, r3 = FINAL_ROUND_GAME
    r3 = {**r3, "drops": ["Bob"]}
    with pytest.raises(RecordError, match="round 3: the game ended this round"):
        load_game(vegas(players, r1, r2, r3))


def test_vegas_all_others_expiring_at_once_ends_with_the_70_30_split_floored():
    s = load_game(vegas(["Ann", "Bob", "Cy"], rnd("Ann", Bob=100, Cy=120), buy_in=333))
    # Bob 100 and Cy 120 expire in round 1; Ann alone below 100 wins.
    # Pot 3 * 333 = 999: 999 * 70 // 100 = 699, 999 * 30 // 100 = 299, leftover
    # 999 - 699 - 299 = 1 cent to first place.
    assert s.winners == ("Ann",)
    assert s.ranking == ["Ann", "Bob", "Cy"]
    assert s.pot.balances == {"Ann": -333 + 699 + 1, "Bob": -333 + 299, "Cy": -333}


# ----------------------------------------------------------------- the pot split ---


SECOND_RUNNER_UP_GAME = (
    ["Ann", "Bob", "Cy", "Dee"],
    rnd("Ann", Bob=100, Cy=5, Dee=10),
    rnd("Ann", Bob=5, Cy=100, Dee=10),
    rnd("Ann", Bob=10, Cy=5, Dee=100),
    rnd("Ann", Bob=75, Cy=80, Dee=85),
)


def test_vegas_worked_game_with_three_rebuys_and_three_expiring_in_the_final_round():
    s = load_game(vegas(*SECOND_RUNNER_UP_GAME, buy_in=100))
    # R1: Bob 100 expires -> max(0, 5, 10) = 10.      Totals A0 B10 C5 D10.
    # R2: Cy 5+100 = 105 -> max(0, 10+5, 10+10) = 20.  Totals A0 B15 C20 D20.
    # R3: Dee 20+100 = 120 -> max(0, 15+10, 20+5) = 25. Totals A0 B25 C25 D25.
    # R4: Bob 25+75 = 100, Cy 25+80 = 105, Dee 25+85 = 110: Ann alone below, wins.
    assert [r.totals for r in s.rounds] == [
        {"Ann": 0, "Bob": 10, "Cy": 5, "Dee": 10},
        {"Ann": 0, "Bob": 15, "Cy": 20, "Dee": 20},
        {"Ann": 0, "Bob": 25, "Cy": 25, "Dee": 25},
        {"Ann": 0, "Bob": 100, "Cy": 105, "Dee": 110},
    ]
    assert s.ranking == ["Ann", "Bob", "Cy", "Dee"]
    # Pot 4 * 100 + 3 * 100 = 700: Ann 490, Bob 210, the rest nothing (default 70/30).
    assert s.pot.balances == {"Ann": -100 + 490, "Bob": -200 + 210, "Cy": -200, "Dee": -200}


def test_vegas_second_runner_up_gets_one_buy_in_out_of_the_runner_up_share():
    s = load_game(vegas(*SECOND_RUNNER_UP_GAME, buy_in=100, second_runner_up_buy_in=True))
    # Runner-up's share 700 * 30 // 100 = 210; third gets min(100, 210 // 2 = 105) = 100.
    payouts = {p: a for p, a, k, _ in ledger(s) if k == "payout"}
    assert payouts == {"Ann": 490, "Bob": 210 - 100, "Cy": 100}
    assert s.pot.balances == {"Ann": 390, "Bob": -200 + 110, "Cy": -200 + 100, "Dee": -200}
    assert sum(s.pot.balances.values()) == 0


def test_vegas_second_runner_up_never_more_than_half_the_runner_up_share():
    s = load_game(vegas(*FINAL_ROUND_GAME, buy_in=200, second_runner_up_buy_in=True))
    # Pot 800, runner-up share 800 * 30 // 100 = 240; third gets min(200, 240 // 2) = 120.
    payouts = {p: a for p, a, k, _ in ledger(s) if k == "payout"}
    assert payouts == {"Ann": 560, "Bob": 240 - 120, "Cy": 120}


def test_vegas_dropped_players_not_paid_and_unheld_share_goes_to_first():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy"],
            rnd("Ann", Bob=10, Cy=100, drops=["Cy"]),
            rnd("Ann", Bob=95),
            buy_in=100,
            pot_split=[50, 30, 20],
        )
    )
    # R1: Cy expires at 100 and drops (Ann 0 and Bob 10 are still below: no win yet).
    # R2: Bob 10 + 95 = 105 expires; Ann alone below wins.
    # Pot 300. Two players may be paid: Ann 150 + Bob 90; place 3's 60 goes to Ann.
    assert events(s.rounds[0], "drop") == {"Cy": (100, None)}
    assert s.winners == ("Ann",)
    assert s.ranking == ["Ann", "Bob", "Cy"]  # the dropped player is ranked last
    assert s.player("Cy").in_contention is False
    assert s.pot.balances == {"Ann": -100 + 150 + 60, "Bob": -100 + 90, "Cy": -100}


def test_vegas_dropped_player_ranked_last_even_below_a_contenders_final_total():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy", "Dee"],
            rnd("Ann", Bob=10, Cy=100, Dee=20, drops=["Cy"]),
            rnd("Bob", Ann=130, Dee=95),
            buy_in=100,
        )
    )
    # R2: Ann 0 + 130 = 130, Dee 20 + 95 = 115 expire; Bob (10) alone below wins.
    assert totals(s) == {"Ann": 130, "Bob": 10, "Cy": 100, "Dee": 115}
    # Cy dropped with 100, less than Ann's 130, but dropped players come last.
    assert s.ranking == ["Bob", "Dee", "Ann", "Cy"]
    assert [p.place for p in s.players] == [3, 1, 4, 2]
    # Pot 400: Bob 280, Dee 120; Ann third gets nothing under 70/30; Cy nothing.
    assert s.pot.balances == {"Ann": -100, "Bob": -100 + 280, "Cy": -100, "Dee": -100 + 120}


def test_vegas_a_drop_leaves_two_and_the_next_expiry_ends_the_game():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy"],
            rnd("Bob", Ann=20, Cy=100, drops=["Cy"]),
            rnd("Bob", Ann=90),
            buy_in=100,
        )
    )
    # After the drop Ann (20) and Bob (0) are left; Ann 20 + 90 = 110 expires; Bob wins.
    assert s.finished
    assert s.winners == ("Bob",)
    # Pot 300: Bob 210, Ann 90 (in contention, ranked by final total); Cy dropped, nothing.
    assert s.pot.balances == {"Ann": -100 + 90, "Bob": -100 + 210, "Cy": -100}


def test_vegas_only_an_expired_player_can_drop():
    with pytest.raises(RecordError, match="round 1: Bob cannot drop"):
        load_game(vegas(["Ann", "Bob", "Cy"], rnd("Ann", Bob=50, Cy=100, drops=["Bob"])))


def test_vegas_dropped_player_takes_no_hand():
    with pytest.raises(RecordError, match="round 2: a hand is given for Cy"):
        load_game(
            vegas(
                ["Ann", "Bob", "Cy"],
                rnd("Ann", Bob=10, Cy=100, drops=["Cy"]),
                rnd("Ann", Bob=10, Cy=10),
            )
        )


# ---------------------------------------------------------- drop and re-join, dealer ---


DROP_AND_REJOIN = (
    ["Ann", "Bob", "Cy", "Dee"],
    rnd("Ann", Bob=30, Cy=20, Dee=100),
    rnd("Bob", Ann=50, Cy=40, Dee=75, drops=["Dee"]),
    rnd("Cy", Ann=10, Bob=20),
)


def test_vegas_dealer_rotation_skips_a_dropped_player():
    s = load_game(vegas(*DROP_AND_REJOIN, buy_in=100))
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Cy"]
    # Dee (seat 4) dropped in round 2: the deal passes from Cy to Ann.
    assert s.next_round.dealer == "Ann"
    assert s.next_round.starts == "Bob"


def test_vegas_dropped_player_rejoins_pays_again_with_expiry_count_zero_and_keeps_seat():
    players, *rounds = DROP_AND_REJOIN
    s = load_game(
        vegas(players, *rounds, rnd("Ann", Bob=5, Cy=5, Dee=12, joins=["Dee"]), buy_in=100)
    )
    # R1: Dee 100 expires, re-buys to max(0, 30, 20) = 30 (expiries 1).
    # R2: Dee 30 + 75 = 105 expires and drops.  Totals A50 B30 C60.
    # R3: Cy out: A60 B50 C60 (Dee out of the game).
    # R4: Dee re-joins: nobody in contention has expired, so the reference is the highest
    # total (60); fee 100 * max(1, 0) = 100; Dee starts at 60 with expiry count 0.
    assert events(s.rounds[3], "join") == {"Dee": (60, -100)}
    assert totals(s) == {"Ann": 60, "Bob": 50 + 5, "Cy": 60 + 5, "Dee": 60 + 12}
    assert expiries(s)["Dee"] == 0
    assert s.player("Dee").scores == (100, 75, None, 12)
    assert s.player("Dee").in_contention
    assert [p.name for p in s.players] == ["Ann", "Bob", "Cy", "Dee"]  # same seat
    # What Dee paid before (buy-in 100, re-buy 100) stays in the pot, plus the join fee.
    assert [e for e in ledger(s) if e[0] == "Dee"] == [
        ("Dee", -100, "buy_in", 0),
        ("Dee", -100, "rebuy", 1),
        ("Dee", -100, "join", 4),
    ]
    assert s.pot.total == 4 * 100 + 100 + 100
    # Dee is back in the deal: round 4 dealt by Dee (after Cy), the next by Ann.
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Cy", "Dee"]
    assert s.next_round.dealer == "Ann"


def test_vegas_rejoin_fee_is_buy_in_times_the_reference_players_expiries():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy", "Dee"],
            rnd("Ann", Bob=100, Cy=20, Dee=100, drops=["Dee"]),
            rnd("Cy", Ann=30, Bob=85),
            rnd("Ann", Bob=5, Cy=5, Dee=5, joins=["Dee"]),
            buy_in=100,
        )
    )
    # R1: Bob and Dee expire; Dee drops, Bob re-buys to max(0, 20) = 20 (expiries 1).
    # R2: Bob 20 + 85 = 105 expires, re-buys to max(Ann 30, Cy 20) = 30 (expiries 2).
    # R3: Dee comes back as a newcomer: reference Bob (2 expiries, 30), fee 100 * 2 = 200.
    assert events(s.rounds[2], "join") == {"Dee": (30, -200)}
    assert totals(s) == {"Ann": 30, "Bob": 30 + 5, "Cy": 20 + 5, "Dee": 30 + 5}
    assert expiries(s) == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 0}
    assert s.pot.balances == {"Ann": -100, "Bob": -300, "Cy": -100, "Dee": -100 - 200}
    assert s.pot.total == 4 * 100 + 2 * 100 + 200


def test_vegas_first_dealer_and_rotation_wrap_around():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy"],
            rnd("Ann", Bob=1, Cy=1),
            rnd("Ann", Bob=1, Cy=1),
            first_dealer="Bob",
        )
    )
    assert [r.dealer for r in s.rounds] == ["Bob", "Cy"]
    assert (s.next_round.dealer, s.next_round.starts) == ("Ann", "Bob")
    assert s.next_round.cards_per_player == 7


# -------------------------------------------------------------------- late joiners ---


def test_vegas_late_join_before_any_expiry_pays_one_buy_in_and_starts_at_highest_total():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy"],
            rnd("Ann", Bob=25, Cy=40),
            rnd("Bob", Ann=10, Cy=5, Eve=30, joins=["Eve"]),
            buy_in=150,
        )
    )
    # Nobody has expired: reference = highest total (Cy 40); fee 150 * max(1, 0) = 150.
    assert events(s.rounds[1], "join") == {"Eve": (40, -150)}
    assert totals(s) == {"Ann": 10, "Bob": 25, "Cy": 40 + 5, "Eve": 40 + 30}
    assert s.player("Eve").scores == (None, 30)
    assert [p.name for p in s.players] == ["Ann", "Bob", "Cy", "Eve"]  # seat after the last
    assert s.pot.total == 3 * 150 + 150


def test_vegas_several_joiners_in_one_round_pay_the_same_and_start_equal():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy"],
            rnd("Ann", Bob=25, Cy=40),
            rnd("Bob", Ann=10, Cy=5, Eve=30, Fay=0, joins=["Eve", "Fay"]),
            buy_in=150,
        )
    )
    # Both join against the same reference: fee 150 each, both start at 40.
    assert events(s.rounds[1], "join") == {"Eve": (40, -150), "Fay": (40, -150)}
    assert totals(s)["Eve"] == 40 + 30
    assert totals(s)["Fay"] == 40 + 0
    assert [p.name for p in s.players] == ["Ann", "Bob", "Cy", "Eve", "Fay"]


LATE_JOIN_AFTER_EXPIRIES = (
    ["Ann", "Bob", "Cy", "Dee"],
    rnd("Ann", Bob=100, Cy=100, Dee=30),
    rnd("Ann", Bob=70, Cy=70, Dee=20),
    rnd("Dee", Ann=80, Bob=5, Cy=15),
)


def test_vegas_late_join_after_expiries_pays_buy_in_times_most_expiries():
    players, *rounds = LATE_JOIN_AFTER_EXPIRIES
    s = load_game(
        vegas(players, *rounds, rnd("Bob", Ann=5, Cy=5, Dee=5, Eve=5, joins=["Eve"]), buy_in=100)
    )
    # R1: Bob, Cy 100 expire -> max(0, 30) = 30 each (expiries 1).
    # R2: Bob, Cy 30 + 70 = 100 expire -> max(0, 30 + 20) = 50 each (expiries 2).
    # R3: Dee out: Ann 80, Bob 55, Cy 65, Dee 50.
    # R4: reference = most expiries (Bob and Cy, 2); tie -> highest total among them,
    # Cy's 65 (not Ann's 80, the highest total of all). Fee 100 * 2 = 200.
    assert s.rounds[2].totals == {"Ann": 80, "Bob": 55, "Cy": 65, "Dee": 50}
    assert events(s.rounds[3], "join") == {"Eve": (65, -2 * 100)}
    assert totals(s) == {"Ann": 85, "Bob": 55, "Cy": 70, "Dee": 55, "Eve": 65 + 5}
    assert expiries(s) == {"Ann": 0, "Bob": 2, "Cy": 2, "Dee": 0, "Eve": 0}
    assert s.pot.total == 4 * 100 + 4 * 100 + 200


def test_vegas_late_join_starts_at_the_most_expired_players_total_not_the_highest():
    s = load_game(
        vegas(
            ["Ann", "Bob", "Cy"],
            rnd("Ann", Bob=100, Cy=60),
            rnd("Cy", Ann=70, Bob=5),
            rnd("Ann", Bob=10, Cy=20, Eve=0, joins=["Eve"]),
            buy_in=100,
        )
    )
    # R1: Bob expires -> max(0, 60) = 60 (expiries 1).  R2: Ann 70, Bob 65, Cy 60.
    # R3: reference Bob (1 expiry, total 65), not Ann (highest, 70): fee 100 * 1.
    assert s.rounds[1].totals == {"Ann": 70, "Bob": 65, "Cy": 60}
    assert events(s.rounds[2], "join") == {"Eve": (65, -100)}
    assert totals(s)["Eve"] == 65 + 0


def test_vegas_join_of_a_player_already_in_the_game_refused():
    with pytest.raises(RecordError, match="round 2: Bob cannot join"):
        load_game(vegas(["Ann", "Bob"], rnd("Ann", Bob=1), rnd("Ann", Bob=1, joins=["bob"])))


# ------------------------------------------------------------------ standings JSON ---


def test_vegas_standings_json_shows_null_scores_when_out_of_the_game():
    players, *rounds = DROP_AND_REJOIN
    data = load_game(vegas(players, *rounds, buy_in=100)).to_json()
    assert data["variant"] == "vegas"
    assert data["finished"] is False
    assert data["winners"] == []
    assert data["rounds_played"] == 3
    dee = next(p for p in data["players"] if p["name"] == "Dee")
    assert dee == {
        "name": "Dee",
        "total": 105,
        "scores": [100, 75, None],
        "in_contention": False,
        "expiries": 1,
        "contract": None,
        "place": 4,
    }
    # Totals A60 B50 C60: Bob, then Ann and Cy tied, then the dropped Dee.
    assert data["ranking"] == ["Bob", "Ann", "Cy", "Dee"]
    assert data["next_round"] == {
        "number": 4,
        "dealer": "Ann",
        "starts": "Bob",
        "cards_per_player": 7,
        "wild": None,
        "multiplier": 1,
        "contracts": None,
    }
    assert data["pot"]["total"] == 4 * 100 + 100
    assert data["pot"]["balances"] == {"Ann": -100, "Bob": -100, "Cy": -100, "Dee": -200}


# -------------------------------------------------------------------- deck advice ---


@pytest.mark.parametrize(
    ("players", "cards", "decks"),
    [
        (2, 7, 1),  # ceil(12 * 2 / 54) = ceil(0.44) = 1
        (4, 7, 1),  # ceil(48 / 54) = 1
        (5, 7, 2),  # ceil(60 / 54) = 2
        (9, 7, 2),  # ceil(108 / 54) = 2 exactly
        (10, 7, 3),  # ceil(120 / 54) = 3
        (2, 11, 1),  # ceil(16 * 2 / 54) = 1
        (4, 11, 2),  # ceil(64 / 54) = 2
    ],
)
def test_vegas_deck_advice_is_ceil_of_5_plus_m_times_n_over_54(players, cards, decks):
    names = [f"P{i}" for i in range(players)]
    s = load_game(vegas(names, cards_per_player=cards))
    assert s.deck_advice.decks == decks
    assert s.next_round.cards_per_player == cards


# -- a late joiner sits where they sit (issue 22) ----------------------------------------
def _seated(after: str | None) -> dict:
    """Ann, Bob, Cy; Ann deals first. Dee joins at round 3, after ``after`` (None: the
    last seat). Round 4 is the first after the join that has a dealer from round 3's."""
    join = "Dee" if after is None else {"name": "Dee", "after": after}
    return vegas(
        ["Ann", "Bob", "Cy"],
        rnd("Ann", Bob=5, Cy=5),
        rnd("Bob", Ann=5, Cy=5),
        {"went_out": "Cy", "hands": {"Ann": 5, "Bob": 5, "Dee": 5}, "joins": [join]},
        first_dealer="Ann",
        buy_in=100,
    )


def test_a_late_joiner_seated_after_ann_changes_who_deals_and_starts():
    """Seats Ann, Dee, Bob, Cy. Round 2 was Bob's deal; round 3 passes to Cy (Ann starts,
    clockwise after Cy), round 4 to Ann, and Dee starts it, sitting after Ann."""
    s = load_game(_seated("Ann"))
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Cy"]
    assert (s.next_round.dealer, s.next_round.starts) == ("Ann", "Dee")
    assert {p.name: p.seat for p in s.players} == {"Ann": 0, "Dee": 1, "Bob": 2, "Cy": 3}
    assert [p.name for p in s.players] == ["Ann", "Bob", "Cy", "Dee"]  # the new column last


def test_a_late_joiner_without_a_seat_sits_after_the_last():
    """Seats Ann, Bob, Cy, Dee: round 3 is Cy's deal and Dee starts; round 4 is Dee's."""
    s = load_game(_seated(None))
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Cy"]
    assert (s.next_round.dealer, s.next_round.starts) == ("Dee", "Ann")


def test_a_joiner_seated_after_the_last_dealer_deals_next():
    """Dee sits after Bob, who dealt round 2: the deal passes to Dee in round 3."""
    s = load_game(_seated("Bob"))
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Dee"]
    assert (s.next_round.dealer, s.next_round.starts) == ("Cy", "Ann")


def test_the_preview_of_a_seated_join_is_what_the_replay_does():
    before = load_game({**_seated("Ann"), "rounds": _seated("Ann")["rounds"][:2]})
    nr = before.upcoming([{"name": "Dee", "after": "Ann"}])
    assert (nr.dealer, nr.starts) == ("Cy", "Ann")
    assert before.seats_after_joins([{"name": "Dee", "after": "Ann"}]) == {
        "Ann": 0, "Dee": 1, "Bob": 2, "Cy": 3,
    }  # fmt: skip


def test_a_seated_join_survives_the_record_round_trip_and_a_rename():
    s = load_game(_seated("Ann"))
    assert s.record.to_json()["rounds"][2]["joins"] == [{"name": "Dee", "after": "Ann"}]
    renamed = load_game(s.record.renamed("Ann", "Annie").to_json())
    assert renamed.record.to_json()["rounds"][2]["joins"] == [{"name": "Dee", "after": "Annie"}]
    assert renamed.next_round.starts == "Dee"


@pytest.mark.parametrize(
    ("join", "message"),
    [
        ({"name": "Dee", "after": "Zed"}, "Dee cannot sit after Zed: Zed is not at the table"),
        ({"name": "Dee", "after": "Dee"}, "Dee cannot sit after themselves"),
        ({"name": "Dee", "seat": 2}, 'a join is a name or {"name": ..., "after": ...}'),
    ],
)
def test_a_seat_for_a_joiner_must_be_beside_someone_at_the_table(join, message):
    record = _seated("Ann")
    record["rounds"][2]["joins"] = [join]
    with pytest.raises(RecordError, match="round 3") as exc:
        load_game(record)
    assert message in str(exc.value)


def test_a_player_coming_back_keeps_their_seat_and_takes_no_other():
    """Cy drops in round 1 and comes back in round 2: the seat named for Cy is refused."""
    record = vegas(
        ["Ann", "Bob", "Cy"],
        rnd("Ann", drops=["Cy"], Bob=5, Cy=100),
        {
            "went_out": "Ann",
            "hands": {"Bob": 5, "Cy": 5},
            "joins": [{"name": "Cy", "after": "Ann"}],
        },
        buy_in=100,
    )
    with pytest.raises(RecordError, match="Cy comes back to their own seat"):
        load_game(record)
