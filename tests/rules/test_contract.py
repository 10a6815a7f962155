"""Contract Rummy, worked by hand from RULES.md ("Contract Rummy").

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out; the engine is only asked to agree.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, get_variant, load_game


def contract(players: list, *rounds: dict, **settings) -> dict:
    return {
        "format": "scorekeeper-game/1",
        "variant": "contract",
        "settings": settings,
        "players": players,
        "rounds": list(rounds),
    }


def rnd(went_out: str | None, **hands) -> dict:
    return {"went_out": went_out, "hands": hands}


def totals(standings) -> dict[str, int]:
    return {p.name: p.total for p in standings.players}


# -------------------------------------------------------------------- card values ---
@pytest.mark.parametrize(
    ("cards", "settings", "points"),
    [
        (["2", "9"], {}, 2 + 9),  # 2-9 face value
        (["10", "J", "Q", "K"], {}, 10 * 4),
        (["A"], {}, 15),  # ace_points default 15
        (["JK"], {}, 25),  # joker_points default 25
        (["A", "JK", "7"], {"ace_points": 1, "joker_points": 50}, 1 + 50 + 7),
        (["A", "A", "JK"], {"ace_points": 20, "joker_points": 0}, 20 + 20 + 0),
    ],
)
def test_contract_card_values(cards, settings, points):
    s = load_game(contract(["Ann", "Bob", "Cy"], rnd("Ann", Bob=cards, Cy=0), **settings))
    assert s.rounds[0].hands == {"Bob": points, "Cy": 0}
    assert s.rounds[0].scores == {"Ann": 0, "Bob": points, "Cy": 0}


def test_seven_deals_of_ten_then_twelve_cards_with_jokers_wild():
    s = load_game(contract(["Ann", "Bob", "Cy"]))
    assert s.next_round.cards_per_player == 10
    assert s.next_round.wild == ["JK"]
    variant = get_variant("contract")
    settings = s.record.settings
    assert [variant.cards_per_player(n, 3, settings) for n in range(1, 8)] == [
        10, 10, 10, 10, 12, 12, 12
    ]  # fmt: skip
    assert [variant.contract(n) for n in range(1, 8)] == [
        "two sets",
        "one set and one run",
        "two runs",
        "three sets",
        "two sets and one run",
        "one set and two runs",
        "three runs",
    ]


# ----------------------------------------------------------------- a whole game ---
GAME = [
    # deal 1, Ann deals: Bob out; Ann K Q = 20; Cy A JK 3 = 15 + 25 + 3 = 43
    rnd("Bob", Ann=["K", "Q"], Cy=["A", "JK", "3"]),
    # deal 2: Cy out; Ann 12; Bob 7 7 = 14
    rnd("Cy", Ann=12, Bob=["7", "7"]),
    # deal 3: nobody went out: every hand counts: Ann 5, Bob 30, Cy 2
    rnd(None, Ann=5, Bob=30, Cy=2),
    # deal 4: Ann out; Bob 0; Cy 10
    rnd("Ann", Bob=0, Cy=10),
    # deal 5: Ann out; Bob JK JK = 50; Cy 4
    rnd("Ann", Bob=["JK", "JK"], Cy=4),
    # deal 6: Bob out; Ann 9; Cy 20
    rnd("Bob", Ann=9, Cy=20),
    # deal 7: Cy out; Ann 3; Bob 1
    rnd("Cy", Ann=3, Bob=1),
]


def test_a_whole_game_ends_after_the_seventh_deal_lowest_total_wins():
    s = load_game(contract(["Ann", "Bob", "Cy"], *GAME, buy_in=500, pot_split=[60, 40]))
    # Ann 20 + 12 + 5 + 0 + 0 + 9 + 3 = 49
    # Bob 0 + 14 + 30 + 0 + 50 + 0 + 1 = 95
    # Cy  43 + 0 + 2 + 10 + 4 + 20 + 0 = 79
    assert totals(s) == {"Ann": 49, "Bob": 95, "Cy": 79}
    assert s.finished and s.winners == ("Ann",)
    assert s.ranking == ["Ann", "Cy", "Bob"]
    # Pot 3 x $5 = $15: Ann 60% = $9, Cy 40% = $6.
    assert s.pot.balances == {"Ann": 900 - 500, "Bob": -500, "Cy": 600 - 500}
    assert s.next_round is None


def test_the_deal_passes_round_the_table():
    s = load_game(contract(["Ann", "Bob", "Cy"], *GAME[:4]))
    assert [r.dealer for r in s.rounds] == ["Ann", "Bob", "Cy", "Ann"]
    assert (s.next_round.dealer, s.next_round.starts) == ("Bob", "Cy")
    assert s.next_round.cards_per_player == 12  # deal 5


def test_liverpool_plays_six_deals():
    s = load_game(contract(["Ann", "Bob", "Cy"], *GAME[:6], deals=6))
    # Ann 49 - 3 = 46; Bob 95 - 1 = 94; Cy 79 - 0 = 79
    assert totals(s) == {"Ann": 46, "Bob": 94, "Cy": 79}
    assert s.finished and s.winners == ("Ann",)
    with pytest.raises(RecordError, match="round 7: the game already ended after round 6"):
        load_game(contract(["Ann", "Bob", "Cy"], *GAME, deals=6))


def test_a_tie_shares_first_place_and_the_pot():
    rounds = [rnd("Ann", Bob=10), rnd("Bob", Ann=10)]
    s = load_game(contract(["Ann", "Bob"], *rounds, deals=2, buy_in=101))
    assert s.winners == ("Ann", "Bob")
    # Pot 202 shared: 101 each.
    assert s.pot.balances == {"Ann": 0, "Bob": 0}


def test_cards_must_cover_every_deal():
    with pytest.raises(RecordError, match=r"settings\.cards gives 5 deals' cards"):
        load_game(contract(["Ann", "Bob"], cards=[10, 10, 10, 10, 12]))
    s = load_game(contract(["Ann", "Bob"], cards=[6, 7, 8], deals=3))
    assert s.next_round.cards_per_player == 6


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"deals": 8}, "settings.deals must be between 1 and 7"),
        ({"cards": []}, "settings.cards must be a list of whole numbers"),
        ({"cards": [10, 10, 10, 10, 12, 12, 30]}, "settings.cards must be between 1 and 20"),
        ({"ace_points": 1.0}, "settings.ace_points must be a whole number"),
        ({"joker_points": -1}, "settings.joker_points must be between 0 and 100"),
        ({"max_score": 100}, "settings.max_score is not a setting of contract"),
        ({"target_score": 100}, "settings.target_score is not a setting of contract"),
    ],
)
def test_bad_settings_are_refused_with_a_sentence(settings, message):
    with pytest.raises(RecordError, match=message):
        load_game(contract(["Ann", "Bob"], **settings))


def test_vegas_only_round_keys_are_refused():
    with pytest.raises(RecordError, match="round 1: drops is only recorded in vegas"):
        load_game(contract(["Ann", "Bob"], {"went_out": "Ann", "hands": {"Bob": 1},
                                            "drops": ["Bob"]}))  # fmt: skip


def test_the_banner_names_the_deal_and_its_contract():
    s = load_game(contract(["Ann", "Bob", "Cy"], *GAME[:2]))
    variant, settings = s.variant, s.record.settings
    assert variant.display.banner(s.next_round, settings) == ["Deal 3 of 7", "two runs", "10 cards"]
    assert variant.display.banner_notes(s.next_round, settings) == ["Wild: jokers"]
    assert s.next_round.dealer == "Cy" and s.next_round.starts == "Ann"


def test_the_record_round_trips_with_its_settings():
    data = contract(["Ann", "Bob"], rnd("Ann", Bob=["A"]), deals=6, ace_points=11)
    s = load_game(data)
    again = load_game(s.record.to_json())
    assert again.to_json() == s.to_json()
    assert s.record.to_json()["settings"]["deals"] == 6
