"""Rummy (classic) and Multiplayer Rummy, worked by hand from RULES.md.

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out; the engine is only asked to agree. Money is in cents.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, get_variant, load_game


def game(
    variant: str, players: list, *rounds: dict, first_dealer: str | None = None, **settings
) -> dict:
    record = {
        "format": "scorekeeper-game/1",
        "variant": variant,
        "settings": settings,
        "players": players,
        "rounds": list(rounds),
    }
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    return record


def rummy(players: list, *rounds: dict, **options) -> dict:
    return game("rummy", players, *rounds, **options)


def multiplayer(players: list, *rounds: dict, **options) -> dict:
    return game("multiplayer", players, *rounds, **options)


def rnd(went_out: str | None, *, going_rummy: bool = False, **hands) -> dict:
    out: dict = {"went_out": went_out, "hands": hands}
    if going_rummy:
        out["going_rummy"] = True
    return out


def totals(standings) -> dict[str, int]:
    return {p.name: p.total for p in standings.players}


PLAYERS = ["Ann", "Bob", "Cy"]

# ----------------------------------------------------------------- classic rummy ---


@pytest.mark.parametrize(
    ("bob", "cy", "ann_scores"),
    [
        (16, 20, 16 + 20),
        (["K", "5", "A"], ["Q", "J", "10", "9"], (10 + 5 + 1) + (10 + 10 + 10 + 9)),
        (["A", "2", "3", "4", "5", "6", "7", "8"], 0, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8),
        (0, 0, 0),
    ],
)
def test_rummy_goer_out_scores_the_sum_of_the_other_hands_others_score_0(bob, cy, ann_scores):
    s = load_game(rummy(PLAYERS, rnd("Ann", Bob=bob, Cy=cy)))
    assert s.rounds[0].scores == {"Ann": ann_scores, "Bob": 0, "Cy": 0}
    assert totals(s) == {"Ann": ann_scores, "Bob": 0, "Cy": 0}


def test_rummy_joker_is_not_a_rummy_card():
    with pytest.raises(RecordError, match="unknown card 'JK'"):
        load_game(rummy(PLAYERS, rnd("Ann", Bob=["JK"], Cy=0)))


TARGET_GAME = [
    rnd("Ann", Bob=30, Cy=25),
    rnd("Bob", Ann=20, Cy=22),
    rnd("Ann", Bob=25, Cy=20),
]


def test_rummy_by_target_not_ended_before_anyone_reaches_it():
    s = load_game(rummy(PLAYERS, *TARGET_GAME[:2]))
    # Ann 30 + 25 = 55, Bob 20 + 22 = 42: nobody at 100 yet.
    assert totals(s) == {"Ann": 55, "Bob": 42, "Cy": 0}
    assert not s.finished
    assert s.ranking == ["Ann", "Bob", "Cy"]  # high is good
    assert s.next_round.number == 3


def test_rummy_by_target_ends_after_the_round_someone_reaches_it_highest_wins():
    s = load_game(rummy(PLAYERS, *TARGET_GAME))
    # Ann 55 + 25 + 20 = 100 reaches the default target of 100 exactly.
    assert totals(s) == {"Ann": 55 + 45, "Bob": 42, "Cy": 0}
    assert s.finished
    assert s.winners == ("Ann",)
    assert s.ranking == ["Ann", "Bob", "Cy"]
    assert s.next_round is None
    with pytest.raises(RecordError, match="round 4: the game already ended after round 3"):
        load_game(rummy(PLAYERS, *TARGET_GAME, rnd("Bob", Ann=1, Cy=1)))


def test_rummy_target_score_setting():
    rounds = [rnd("Ann", Bob=10, Cy=5), rnd("Bob", Ann=20, Cy=22)]
    assert not load_game(rummy(PLAYERS, *rounds)).finished  # Bob's 42 < default 100
    s = load_game(rummy(PLAYERS, *rounds, target_score=40))
    # Ann 10 + 5 = 15; Bob 20 + 22 = 42 >= 40 ends the game in round 2.
    assert totals(s) == {"Ann": 15, "Bob": 42, "Cy": 0}
    assert s.finished
    assert s.winners == ("Bob",)


def test_rummy_by_deals_ends_after_the_fixed_number_of_rounds():
    s = load_game(
        rummy(
            PLAYERS,
            rnd("Ann", Bob=10, Cy=20),
            rnd("Cy", Ann=15, Bob=25),
            rnd(None, Ann=5, Bob=5, Cy=5),
            deals=3,
        )
    )
    # Ann 10 + 20 = 30, Cy 15 + 25 = 40; round 3 nobody out still counts as a deal.
    assert totals(s) == {"Ann": 30, "Bob": 0, "Cy": 40}
    assert s.finished
    assert s.winners == ("Cy",)
    assert s.ranking == ["Cy", "Ann", "Bob"]


def test_rummy_deals_replace_the_target():
    s = load_game(rummy(["Ann", "Bob"], rnd("Ann", Bob=150), deals=2))
    # Ann's 150 is past the default target 100, but two deals were agreed.
    assert totals(s) == {"Ann": 150, "Bob": 0}
    assert not s.finished


def test_rummy_target_and_deals_together_refused():
    with pytest.raises(RecordError, match="either target_score or deals"):
        load_game(rummy(PLAYERS, target_score=100, deals=3))


def test_rummy_tie_for_highest_total_both_win():
    s = load_game(rummy(PLAYERS, rnd("Ann", Bob=20, Cy=10), rnd("Bob", Ann=10, Cy=20), deals=2))
    # Ann 20 + 10 = 30, Bob 10 + 20 = 30.
    assert s.winners == ("Ann", "Bob")
    assert [p.place for p in s.players] == [1, 1, 3]


def test_rummy_nobody_out_scores_nothing():
    s = load_game(rummy(PLAYERS, rnd("Ann", Bob=7, Cy=3), rnd(None, Ann=40, Bob=30, Cy=20)))
    assert s.rounds[1].went_out is None
    assert s.rounds[1].scores == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert totals(s) == {"Ann": 7 + 3, "Bob": 0, "Cy": 0}


@pytest.mark.parametrize(
    ("players", "cards"),
    [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)],
)
def test_rummy_cards_per_player_10_for_two_7_for_three_four_6_for_five_six(players, cards):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:players]
    assert load_game(rummy(names)).next_round.cards_per_player == cards


def test_rummy_dealer_passes_left_and_the_seat_left_of_the_dealer_starts():
    s = load_game(rummy(PLAYERS, rnd("Ann", Bob=1, Cy=1), first_dealer="Cy"))
    assert s.rounds[0].dealer == "Cy"
    assert (s.next_round.dealer, s.next_round.starts) == ("Ann", "Bob")


def test_rummy_generic_buy_in_and_pot_split_over_the_ranking():
    s = load_game(rummy(PLAYERS, *TARGET_GAME, buy_in=100, pot_split=[60, 40]))
    # Pot 3 * 100 = 300: Ann (100 points) 180, Bob (42) 120, Cy nothing.
    assert s.pot.balances == {"Ann": -100 + 180, "Bob": -100 + 120, "Cy": -100}
    assert sum(s.pot.balances.values()) == 0


@pytest.mark.parametrize(
    ("count", "accepted"),
    [(1, False), (2, True), (7, True), (20, True), (21, False)],
)
def test_rummy_player_counts_are_advice_2_to_20_accepted(count, accepted):
    names = [f"P{i}" for i in range(count)]
    if accepted:
        assert load_game(rummy(names)).next_round.number == 1
    else:
        with pytest.raises(RecordError, match="players"):
            load_game(rummy(names))


def test_rummy_warns_outside_two_to_six_players():
    rules = get_variant("rummy")
    assert rules.display.warnings(6, rules.default_settings()) == []
    assert rules.display.warnings(7, rules.default_settings()) != []


# ------------------------------------------------------------- multiplayer rummy ---


def test_multiplayer_going_rummy_doubles_the_score():
    s = load_game(multiplayer(PLAYERS, rnd("Ann", going_rummy=True, Bob=12, Cy=["K", "A"])))
    # 2 * (12 + (10 + 1)) = 46
    assert s.rounds[0].scores == {"Ann": 2 * (12 + 10 + 1), "Bob": 0, "Cy": 0}
    assert [(e.kind, e.player) for e in s.rounds[0].events] == [("going_rummy", "Ann")]


def test_multiplayer_without_going_rummy_scores_single():
    s = load_game(multiplayer(PLAYERS, rnd("Ann", Bob=12, Cy=8)))
    assert s.rounds[0].scores == {"Ann": 12 + 8, "Bob": 0, "Cy": 0}


def test_multiplayer_first_to_target_wins():
    rounds = [
        rnd("Ann", going_rummy=True, Bob=12, Cy=8),
        rnd("Bob", Ann=30, Cy=35),
        rnd("Ann", going_rummy=True, Bob=5, Cy=25),
    ]
    s = load_game(multiplayer(PLAYERS, *rounds[:2]))
    # Ann 2 * (12 + 8) = 40, Bob 30 + 35 = 65: nobody at 100.
    assert totals(s) == {"Ann": 40, "Bob": 65, "Cy": 0}
    assert not s.finished
    s = load_game(multiplayer(PLAYERS, *rounds))
    # Ann 40 + 2 * (5 + 25) = 100 reaches 100 first.
    assert totals(s) == {"Ann": 40 + 60, "Bob": 65, "Cy": 0}
    assert s.finished
    assert s.winners == ("Ann",)
    assert s.ranking == ["Ann", "Bob", "Cy"]


def test_multiplayer_target_score_setting():
    s = load_game(multiplayer(["Ann", "Bob"], rnd("Ann", Bob=50), target_score=50))
    assert s.finished
    assert s.winners == ("Ann",)


def test_multiplayer_nobody_out_scores_nothing():
    s = load_game(multiplayer(PLAYERS, rnd(None, Ann=9, Bob=8, Cy=7)))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": 0, "Cy": 0}


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 7), (4, 7)])
def test_multiplayer_cards_per_player_10_for_two_7_for_three_four(players, cards):
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    assert load_game(multiplayer(names)).next_round.cards_per_player == cards


def test_going_rummy_is_multiplayer_only():
    with pytest.raises(RecordError, match="going_rummy is only recorded in multiplayer"):
        load_game(rummy(PLAYERS, rnd("Ann", going_rummy=True, Bob=1, Cy=1)))


def test_going_rummy_needs_a_player_who_went_out():
    with pytest.raises(RecordError, match="going_rummy needs the player who went out"):
        load_game(multiplayer(PLAYERS, rnd(None, going_rummy=True, Ann=1, Bob=1, Cy=1)))


def test_deals_is_not_a_multiplayer_setting():
    with pytest.raises(RecordError, match=r"settings\.deals is not a setting of multiplayer"):
        load_game(multiplayer(PLAYERS, deals=3))
