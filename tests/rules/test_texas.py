"""Texas Rummy, worked by hand from RULES.md ("Texas Rummy" and the card value table).

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out; the engine is only asked to agree. Money is in cents.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, get_variant, load_game


def texas(players: list, *rounds: dict, **settings) -> dict:
    return {
        "format": "scorekeeper-game/1",
        "variant": "texas",
        "settings": settings,
        "players": players,
        "rounds": list(rounds),
    }


def rnd(went_out: str | None, **hands) -> dict:
    return {"went_out": went_out, "hands": hands}


def filler(count: int) -> list[dict]:
    """``count`` rounds in which Ann goes out and Bob holds nothing."""
    return [rnd("Ann", Bob=0) for _ in range(count)]


def payouts(standings) -> dict[str, int]:
    return {e.player: e.amount for e in standings.pot.entries if e.kind == "payout"}


def dimes(standings) -> list[tuple[int, str, int]]:
    return [(e.round, e.player, e.amount) for e in standings.pot.entries if e.kind == "per_round"]


# ------------------------------------------------------------- the deal, the wilds ---

WILD_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
LABELS = ["Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
          "Queens", "Kings"]  # fmt: skip


@pytest.mark.parametrize("number", range(1, 12))
def test_texas_round_r_deals_r_plus_2_cards_wild_deuces_jokers_and_rank_r_plus_2(number):
    s = load_game(texas(["Ann", "Bob"], *filler(number - 1)))
    nxt = s.next_round
    assert nxt.number == number
    assert nxt.cards_per_player == number + 2
    assert nxt.wild == ["2", "JK", WILD_RANKS[number - 1]]
    assert nxt.label == LABELS[number - 1]
    assert nxt.multiplier == (3 if number == 11 else 2 if number in (9, 10) else 1)


@pytest.mark.parametrize(
    ("number", "cards", "points"),
    [
        (1, ["3"], 20),  # round 1: threes wild
        (2, ["3"], 3),  # ... but a plain 3 in round 2
        (2, ["4", "4"], 20 + 20),
        (5, ["7", "A", "2", "JK"], 20 + 20 + 20 + 50),  # wild rank, ace, deuce, joker
        (5, ["3", "4", "5", "6", "8", "9"], 3 + 4 + 5 + 6 + 8 + 9),
        (5, ["10", "J", "Q", "K"], 10 + 10 + 10 + 10),
        (7, ["9", "8"], 20 + 8),  # nines wild
        (8, ["10", "J"], 20 + 10),  # tens wild
        (9, ["J", "Q", "5"], 20 + 10 + 5),  # jacks wild (raw value, before x2)
        (10, ["Q", "J"], 20 + 10),  # queens wild
        (11, ["K", "Q", "A"], 20 + 10 + 20),  # kings wild
    ],
)
def test_texas_card_values_wild_rank_20_ace_20_deuce_20_joker_50(number, cards, points):
    s = load_game(texas(["Ann", "Bob"], *filler(number - 1), rnd("Ann", Bob=cards)))
    assert s.rounds[number - 1].hands == {"Bob": points}


@pytest.mark.parametrize(
    ("number", "multiplier"),
    [(1, 1), (5, 1), (8, 1), (9, 2), (10, 2), (11, 3)],
)
def test_texas_multiplier_x2_rounds_9_10_x3_round_11_applied_to_the_entered_value(
    number, multiplier
):
    earlier = [rnd("Ann", Bob=0, Cy=0)] * (number - 1)
    s = load_game(texas(["Ann", "Bob", "Cy"], *earlier, rnd("Ann", Bob=7, Cy=["J", "K"])))
    result = s.rounds[number - 1]
    # Cy's cards: J and K are 10 each unless wild (jacks in round 9, kings in round 11).
    cy_raw = (20 if number == 9 else 10) + (20 if number == 11 else 10)
    assert result.multiplier == multiplier
    assert result.hands == {"Bob": 7, "Cy": cy_raw}
    assert result.scores == {"Ann": 0, "Bob": 7 * multiplier, "Cy": cy_raw * multiplier}


def test_texas_w_is_not_a_texas_card():
    with pytest.raises(RecordError, match="unknown card 'W'"):
        load_game(texas(["Ann", "Bob"], rnd("Ann", Bob=["W"])))


# ------------------------------------------------------------- a whole worked game ---

WORKED_GAME = [
    rnd("Ann", Bob=10, Cy=5),  # 1
    rnd("Bob", Ann=8, Cy=12),  # 2
    rnd("Cy", Ann=4, Bob=9),  # 3
    rnd(None, Ann=6, Bob=3, Cy=7),  # 4: the stock ran out, nobody went out
    rnd("Ann", Bob=15, Cy=20),  # 5
    rnd("Bob", Ann=10, Cy=0),  # 6
    rnd("Ann", Bob=5, Cy=5),  # 7
    rnd("Cy", Ann=12, Bob=10),  # 8
    rnd("Bob", Ann=5, Cy=10),  # 9  (x2)
    rnd("Ann", Bob=8, Cy=4),  # 10 (x2)
    rnd("Cy", Ann=10, Bob=6),  # 11 (x3)
]


def test_texas_worked_game_eleven_rounds_totals_dimes_and_the_rest_to_the_lowest():
    s = load_game(texas(["Ann", "Bob", "Cy"], *WORKED_GAME))
    ann = 0 + 8 + 4 + 6 + 0 + 10 + 0 + 12 + 5 * 2 + 0 * 2 + 10 * 3
    bob = 10 + 0 + 9 + 3 + 15 + 0 + 5 + 10 + 0 * 2 + 8 * 2 + 6 * 3
    cy = 5 + 12 + 0 + 7 + 20 + 0 + 5 + 0 + 10 * 2 + 4 * 2 + 0 * 3
    assert (ann, bob, cy) == (80, 86, 77)
    assert {p.name: p.total for p in s.players} == {"Ann": ann, "Bob": bob, "Cy": cy}
    assert s.player("Ann").scores == (0, 8, 4, 6, 0, 10, 0, 12, 10, 0, 30)
    assert s.finished
    assert s.winners == ("Cy",)
    assert s.ranking == ["Cy", "Ann", "Bob"]
    assert s.next_round is None
    # Dealer passes left each round from Ann.
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Cy"] * 3 + ["Ann", "Bob"]
    # Dimes: a dime to whoever went out, none in round 4 (nobody out).
    assert dimes(s) == [
        (1, "Ann", 10), (2, "Bob", 10), (3, "Cy", 10), (5, "Ann", 10), (6, "Bob", 10),
        (7, "Ann", 10), (8, "Cy", 10), (9, "Bob", 10), (10, "Ann", 10), (11, "Cy", 10),
    ]  # fmt: skip
    assert [e for e in s.rounds[3].events if e.kind == "dime"] == []
    # Antes 3 * 50 = 150; 10 dimes = 100; the rest 150 - 100 = 50 to Cy.
    assert payouts(s) == {"Cy": 150 - 10 * 10}
    assert s.pot.balances == {
        "Ann": -50 + 4 * 10,
        "Bob": -50 + 3 * 10,
        "Cy": -50 + 3 * 10 + 50,
    }
    assert sum(s.pot.balances.values()) == 0
    assert s.pot.total == 0


def test_texas_nobody_out_everyone_scores_their_hand_and_no_dime():
    s = load_game(texas(["Ann", "Bob", "Cy"], *WORKED_GAME[:4]))
    r4 = s.rounds[3]
    assert r4.went_out is None
    assert r4.scores == {"Ann": 6, "Bob": 3, "Cy": 7}
    assert s.pot.total == 3 * 50 - 3 * 10  # dimes for rounds 1-3 only


def test_texas_nobody_out_in_a_multiplied_round_scores_every_hand_tripled():
    s = load_game(texas(["Ann", "Bob"], *filler(10), rnd(None, Ann=["K", "5"], Bob=4)))
    # Round 11, kings wild: Ann (20 + 5) * 3, Bob 4 * 3.
    assert s.rounds[10].scores == {"Ann": (20 + 5) * 3, "Bob": 4 * 3}


def test_texas_a_twelfth_round_is_refused():
    with pytest.raises(RecordError, match="round 12: the game already ended after round 11"):
        load_game(texas(["Ann", "Bob", "Cy"], *WORKED_GAME, rnd("Ann", Bob=1, Cy=1)))


# ------------------------------------------------------------------------- money ---


def test_texas_two_player_pot_runs_dry_after_ten_dimes():
    rounds = [rnd("Ann", Bob=5) if n % 2 else rnd("Bob", Ann=10) for n in range(1, 12)]
    s = load_game(texas(["Ann", "Bob"], *rounds))
    # Antes 2 * 50 = 100 cents = 10 dimes: rounds 1-10 pay, round 11 finds the pot empty.
    assert [r for r, _, _ in dimes(s)] == list(range(1, 11))
    assert dimes(s)[-1] == (10, "Bob", 10)
    # Bob 5 * 4 (rounds 1,3,5,7) + 5 * 2 (9) + 5 * 3 (11) = 45;
    # Ann 10 * 4 (rounds 2,4,6,8) + 10 * 2 (10) = 60. Bob wins, and the rest is 0.
    assert {p.name: p.total for p in s.players} == {"Ann": 60, "Bob": 20 + 10 + 15}
    assert s.winners == ("Bob",)
    assert payouts(s) == {}
    assert s.pot.balances == {"Ann": -50 + 5 * 10, "Bob": -50 + 5 * 10}


def test_texas_setup_warns_that_a_two_player_pot_runs_dry():
    texas_rules = get_variant("texas")
    settings = texas_rules.default_settings()
    assert any("runs dry" in w for w in texas_rules.display.warnings(2, settings))  # 100 < 110
    assert not any("runs dry" in w for w in texas_rules.display.warnings(3, settings))  # 150 >= 110


def test_texas_dime_only_while_the_pot_holds_a_full_per_round():
    rounds = [rnd("Bob", Ann=1, Cy=1) for _ in range(11)]
    s = load_game(texas(["Ann", "Bob", "Cy"], *rounds, ante=35))
    # Antes 3 * 35 = 105: ten dimes (100) leave 5 cents, less than a dime: no dime in
    # round 11 and the winner (Bob, 0 points) takes the 5 cents left.
    assert len(dimes(s)) == 10
    assert payouts(s) == {"Bob": 105 - 100}
    assert s.pot.balances == {"Ann": -35, "Bob": -35 + 100 + 5, "Cy": -35}


def test_texas_round_11_dime_paid_first_then_a_tie_for_lowest_splits_the_rest():
    # Seat order Cy, Ann, Bob: Cy sits earliest although Bob comes first alphabetically.
    rounds = [
        rnd("Bob", Ann=20, Cy=5) if n % 2 else rnd("Cy", Ann=20, Bob=5) for n in range(1, 11)
    ] + [rnd("Ann", Bob=4, Cy=4)]
    s = load_game(texas(["Cy", "Ann", "Bob"], *rounds, ante=45))
    bob = 5 * 4 + 5 * 2 + 4 * 3  # rounds 2,4,6,8; round 10 (x2); round 11 (x3)
    cy = 5 * 4 + 5 * 2 + 4 * 3  # rounds 1,3,5,7; round 9 (x2); round 11 (x3)
    ann = 20 * 8 + 20 * 2 * 2  # rounds 1-8; rounds 9 and 10 (x2)
    assert {p.name: p.total for p in s.players} == {"Cy": cy, "Ann": ann, "Bob": bob}
    assert s.winners == ("Cy", "Bob")
    assert [p.place for p in s.players] == [1, 3, 1]
    # Antes 3 * 45 = 135. Dimes: Bob 5, Cy 5 (rounds 1-10), then Ann's round-11 dime
    # before the rest: 135 - 110 = 25 split by the tied Cy and Bob, 13 + 12, the odd cent
    # to the earliest seat (Cy).
    assert dimes(s)[-1] == (11, "Ann", 10)
    assert payouts(s) == {"Cy": 13, "Bob": 12}
    assert s.pot.balances == {
        "Cy": -45 + 5 * 10 + 13,
        "Ann": -45 + 10,
        "Bob": -45 + 5 * 10 + 12,
    }
    assert sum(s.pot.balances.values()) == 0


def test_texas_ante_entries_are_paid_before_round_one():
    s = load_game(texas(["Ann", "Bob", "Cy"], ante=60, per_round=20))
    assert [(e.player, e.amount, e.kind, e.round) for e in s.pot.entries] == [
        ("Ann", -60, "ante", 0),
        ("Bob", -60, "ante", 0),
        ("Cy", -60, "ante", 0),
    ]
    assert s.pot.total == 3 * 60


@pytest.mark.parametrize(
    ("players", "decks", "jokers"),
    [(2, 1, 2), (3, 2, 4), (6, 2, 4), (7, 3, 6), (9, 3, 6), (10, 3, 6)],
)
def test_texas_deck_advice_one_two_or_three_decks_by_player_count(players, decks, jokers):
    # RULES.md: "2 players one deck + 2 jokers; 3-6 two decks + 4 jokers; 7-10 three decks
    # + 6 jokers".
    advice = get_variant("texas").deck_advice(players, get_variant("texas").default_settings())
    assert (advice.decks, advice.jokers) == (decks, jokers)
