"""Dummy Rummy, worked by hand from RULES.md ("Dummy Rummy" and the card value table).

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out; the engine is only asked to agree.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, load_game


def dummy(players: list, *rounds: dict, **settings) -> dict:
    return {
        "format": "scorekeeper-game/1",
        "variant": "dummy",
        "settings": settings,
        "players": players,
        "rounds": list(rounds),
    }


def rnd(went_out: str | None, contracts: list[str], **hands) -> dict:
    return {"went_out": went_out, "hands": hands, "contracts": contracts}


def totals(standings) -> dict[str, int]:
    return {p.name: p.total for p in standings.players}


def contracts(standings) -> dict[str, int]:
    return {p.name: p.contract for p in standings.players}


# -------------------------------------------------------------------- card values ---


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["A"], 15),
        (["2"], 50),
        (["JK"], 50),
        (["3", "4", "5", "6", "7", "8", "9"], 5 * 7),
        (["10", "J", "Q", "K"], 10 * 4),
        (["A", "2", "JK", "9", "K"], 15 + 50 + 50 + 5 + 10),
    ],
)
def test_dummy_card_values_a15_two50_three_to_nine5_ten_to_king10_joker50(cards, points):
    s = load_game(dummy(["Ann", "Bob"], rnd("Ann", ["Ann"], Bob=cards)))
    assert s.rounds[0].hands == {"Bob": points}
    assert s.rounds[0].scores == {"Ann": 0, "Bob": points}


def test_dummy_deal_is_13_cards_with_twos_and_jokers_wild():
    nxt = load_game(dummy(["Ann", "Bob", "Cy"])).next_round
    assert nxt.cards_per_player == 13
    assert nxt.wild == ["2", "JK"]
    assert nxt.contracts == {"Ann": 1, "Bob": 1, "Cy": 1}


# ------------------------------------------------------------------------ contracts ---


def test_dummy_contracts_advance_only_when_laid_down():
    s = load_game(
        dummy(
            ["Ann", "Bob", "Cy"],
            rnd("Ann", ["Ann", "Bob"], Bob=10, Cy=25),
            rnd("Bob", ["Bob"], Ann=20, Cy=5),
            rnd("Ann", ["Ann", "Cy"], Bob=15, Cy=0),
        )
    )
    # Ann laid 1 and 2 (rounds 1, 3); Bob laid 1 and 2 (rounds 1, 2); Cy laid 1 (round 3).
    assert contracts(s) == {"Ann": 3, "Bob": 3, "Cy": 2}
    assert s.next_round.contracts == {"Ann": 3, "Bob": 3, "Cy": 2}
    assert [(e.kind, e.player, e.value) for e in s.rounds[2].events] == [
        ("contract", "Ann", 2),
        ("contract", "Cy", 1),
    ]
    # Penalty scoring, low is good: Ann 20, Bob 10 + 15 = 25, Cy 25 + 5 + 0 = 30.
    assert totals(s) == {"Ann": 20, "Bob": 10 + 15, "Cy": 25 + 5 + 0}
    assert s.ranking == ["Ann", "Bob", "Cy"]
    assert not s.finished


def test_dummy_going_out_requires_the_contract_laid_that_round():
    with pytest.raises(RecordError, match="round 1: Ann went out, so Ann must have laid down"):
        load_game(dummy(["Ann", "Bob"], rnd("Ann", ["Bob"], Bob=10)))


def test_dummy_contracts_only_for_players_in_the_game():
    with pytest.raises(RecordError, match="round 1: Zed laid down a contract"):
        load_game(dummy(["Ann", "Bob"], rnd("Ann", ["Ann", "Zed"], Bob=10)))


def test_dummy_nobody_out_everyone_scores_and_laid_contracts_still_count():
    s = load_game(dummy(["Ann", "Bob"], rnd(None, ["Bob"], Ann=["A", "2"], Bob=["K"])))
    assert s.rounds[0].scores == {"Ann": 15 + 50, "Bob": 10}
    assert contracts(s) == {"Ann": 1, "Bob": 2}


# -------------------------------------------------------------------- the end ---


def four_player_game(rounds: int) -> list[dict]:
    """Ann and Bob lay every round; Cy from round 2 (11 contracts), Dee from round 3 (10).

    Ann goes out in odd rounds (Bob 10, Cy 30, Dee 4), Bob in even rounds (Ann 15, Cy 30,
    Dee 4).
    """
    out = []
    for n in range(1, rounds + 1):
        laid = ["Ann", "Bob"] + (["Cy"] if n >= 2 else []) + (["Dee"] if n >= 3 else [])
        if n % 2:
            out.append(rnd("Ann", laid, Bob=10, Cy=30, Dee=4))
        else:
            out.append(rnd("Bob", laid, Ann=15, Cy=30, Dee=4))
    return out


def test_dummy_not_over_until_someone_completes_contract_12():
    s = load_game(dummy(["Ann", "Bob", "Cy", "Dee"], *four_player_game(11)))
    assert not s.finished
    # Laid so far: Ann 11, Bob 11, Cy 10, Dee 9 -> working on the next one.
    assert s.next_round.contracts == {"Ann": 12, "Bob": 12, "Cy": 11, "Dee": 10}
    assert s.next_round.number == 12


def test_dummy_ends_after_contract_12_ranking_finishers_then_contracts_then_total():
    s = load_game(dummy(["Ann", "Bob", "Cy", "Dee"], *four_player_game(12)))
    # Ann: 6 even rounds * 15 = 90; Bob: 6 odd rounds * 10 = 60;
    # Cy: 12 * 30 = 360; Dee: 12 * 4 = 48.
    assert totals(s) == {"Ann": 6 * 15, "Bob": 6 * 10, "Cy": 12 * 30, "Dee": 12 * 4}
    # 13 = all twelve done; Cy completed 11, Dee 10.
    assert contracts(s) == {"Ann": 13, "Bob": 13, "Cy": 12, "Dee": 11}
    assert s.finished
    # Finishers by total (Bob 60, Ann 90), then Cy (11 completed) before Dee (10
    # completed) although Dee's 48 is the lowest total of all.
    assert s.winners == ("Bob",)
    assert s.ranking == ["Bob", "Ann", "Cy", "Dee"]
    assert [p.place for p in s.players] == [2, 1, 3, 4]
    assert s.next_round is None
    assert [(e.player, e.value) for e in s.rounds[11].events] == [
        ("Ann", 12),
        ("Bob", 12),
        ("Cy", 11),
        ("Dee", 10),
    ]
    assert s.to_json()["players"][0]["contract"] == 13


def test_dummy_no_round_after_contract_12():
    rounds = [*four_player_game(12), rnd("Cy", ["Cy"], Ann=1, Bob=1, Dee=1)]
    with pytest.raises(RecordError, match="round 13: the game already ended after round 12"):
        load_game(dummy(["Ann", "Bob", "Cy", "Dee"], *rounds))


def test_dummy_the_only_finisher_wins_even_with_the_higher_total():
    rounds = [rnd("Ann", ["Ann"], Bob=5)] + [rnd("Bob", ["Ann", "Bob"], Ann=20)] * 11
    s = load_game(dummy(["Ann", "Bob"], *rounds))
    # Ann laid all 12 (rounds 1-12), 20 * 11 = 220 points; Bob laid 11 (rounds 2-12), 5.
    assert totals(s) == {"Ann": 20 * 11, "Bob": 5}
    assert contracts(s) == {"Ann": 13, "Bob": 12}
    assert s.finished
    assert s.winners == ("Ann",)
    assert s.ranking == ["Ann", "Bob"]


def test_dummy_finishers_tied_on_total_both_win():
    rounds = [
        rnd("Ann", ["Ann", "Bob"], Bob=10) if n % 2 else rnd("Bob", ["Ann", "Bob"], Ann=10)
        for n in range(1, 13)
    ]
    s = load_game(dummy(["Ann", "Bob"], *rounds))
    # Each is caught with 10 points in the 6 rounds the other goes out: 60 each.
    assert totals(s) == {"Ann": 6 * 10, "Bob": 6 * 10}
    assert s.winners == ("Ann", "Bob")
    assert [p.place for p in s.players] == [1, 1]


def test_dummy_generic_buy_in_paid_out_to_the_winner():
    s = load_game(dummy(["Ann", "Bob", "Cy", "Dee"], *four_player_game(12), buy_in=250))
    # Default split: winner takes all. Pot 4 * 250 = 1000 to Bob.
    assert s.pot.balances == {"Ann": -250, "Bob": -250 + 1000, "Cy": -250, "Dee": -250}


def test_dummy_deck_advice_two_decks_four_jokers():
    s = load_game(dummy(["Ann", "Bob", "Cy"]))
    assert (s.deck_advice.decks, s.deck_advice.jokers) == (2, 4)
