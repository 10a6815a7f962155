"""Gin Rummy, worked by hand from RULES.md ("Gin Rummy").

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out; the engine is only asked to agree.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import GameRecord, RecordError, get_variant, load_game
from scorekeeper.rules.display import cell_marks, legend
from scorekeeper.rules.games.gin import gin_tally


def gin(*rounds: dict, players: list | None = None, **settings) -> dict:
    return {
        "format": "scorekeeper-game/1",
        "variant": "gin",
        "settings": settings,
        "players": players or ["Ann", "Bob"],
        "rounds": list(rounds),
    }


def knock(who: str, ann: int | list, bob: int | list, how: str = "knock") -> dict:
    return {"went_out": who, "how": how, "hands": {"Ann": ann, "Bob": bob}}


WASH = {"went_out": None, "hands": {}}


def totals(standings) -> dict[str, int]:
    return {p.name: p.total for p in standings.players}


def refusal(*rounds: dict, **settings) -> str:
    with pytest.raises(RecordError) as exc:
        load_game(gin(*rounds, **settings))
    return str(exc.value)


# ------------------------------------------------------------------------ the deal ---
def test_ten_cards_one_deck_no_jokers_and_gin_card_values():
    s = load_game(gin())
    assert s.next_round.cards_per_player == 10
    assert str(s.deck_advice) == "1 deck, no jokers"
    assert s.next_round.wild is None
    # Deadwood: A 1, 2-10 face value, J Q K 10 (A+7+K = 1 + 7 + 10 = 18).
    s = load_game(gin(knock("Ann", ["A", "2"], ["A", "7", "K"])))
    assert s.rounds[0].hands == {"Ann": 3, "Bob": 18}
    assert "JK" not in get_variant("gin").card_codes
    with pytest.raises(RecordError, match="unknown card 'JK'"):
        load_game(gin(knock("Ann", 3, ["JK"])))


def test_defaults_are_the_rules():
    s = get_variant("gin").default_settings()
    assert (s.target_score, s.knock_max, s.gin_bonus, s.big_gin_bonus) == (100, 10, 25, 31)
    assert (s.undercut_bonus, s.game_bonus, s.box_bonus, s.shutout_multiplier) == (25, 100, 25, 2)
    assert (s.stake, s.buy_in, s.pot_split) == (0, 0, (100,))


# ------------------------------------------------------------------ the players ---
@pytest.mark.parametrize("players", [["Ann", "Bob", "Cy"], ["A", "B", "C", "D"]])
def test_exactly_two_players(players):
    with pytest.raises(RecordError) as exc:
        load_game(gin(players=players))
    assert str(exc.value) == f"Gin Rummy is played by exactly two players (got {len(players)})"


def test_no_handicaps():
    with pytest.raises(RecordError, match="Ann has a handicap, but Gin Rummy takes none"):
        load_game(gin(players=[{"name": "Ann", "handicap": 10}, "Bob"]))


# ---------------------------------------------------------------------- a hand ---
def test_knock_scores_the_difference():
    # Ann knocks with 6, Bob has 23 after laying off: Ann scores 23 - 6 = 17.
    s = load_game(gin(knock("Ann", 6, 23)))
    assert s.rounds[0].scores == {"Ann": 17, "Bob": 0}
    assert [(e.kind, e.player, e.value) for e in s.rounds[0].events] == [
        ("knock", "Ann", 17),
        ("deadwood", "Ann", 6),
        ("deadwood", "Bob", 23),
    ]


def test_undercut_scores_the_defender_difference_plus_bonus():
    # Ann knocks with 9, Bob has 4: undercut, Bob scores (9 - 4) + 25 = 30.
    s = load_game(gin(knock("Ann", 9, 4)))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": 30}
    assert s.rounds[0].events[0].kind == "undercut"
    assert s.rounds[0].events[0].player == "Bob"


def test_a_tie_is_an_undercut():
    # Ann knocks with 7, Bob has 7: a tie is an undercut, Bob scores (7 - 7) + 25 = 25.
    s = load_game(gin(knock("Ann", 7, 7)))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": 25}
    # With undercut_bonus 0 the tie scores 0, but Bob still won the hand (a box).
    s = load_game(gin(knock("Ann", 7, 7), undercut_bonus=0))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": 0}
    assert gin_tally(s.rounds, ["Ann", "Bob"], s.record.settings).boxes == {"Ann": 0, "Bob": 1}


def test_gin_scores_bonus_plus_the_whole_deadwood():
    # Bob goes gin, Ann holds 31: Bob scores 25 + 31 = 56.
    s = load_game(gin(knock("Bob", 31, 0, "gin")))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": 56}
    # With gin_bonus 20: 20 + 31 = 51.
    s = load_game(gin(knock("Bob", 31, 0, "gin"), gin_bonus=20))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": 51}


def test_big_gin_scores_its_bonus_plus_the_deadwood():
    # Ann goes big gin, Bob holds 12: Ann scores 31 + 12 = 43.
    s = load_game(gin(knock("Ann", 0, 12, "big_gin")))
    assert s.rounds[0].scores == {"Ann": 43, "Bob": 0}
    assert s.rounds[0].events[0].kind == "big_gin"


def test_a_wash_scores_nothing_with_or_without_hands():
    s = load_game(gin(WASH, {"went_out": None, "hands": {"Ann": 40, "Bob": 12}}))
    assert [r.scores for r in s.rounds] == [{"Ann": 0, "Bob": 0}] * 2
    assert totals(s) == {"Ann": 0, "Bob": 0}
    assert [e.kind for e in s.rounds[0].events] == ["wash", "wash"]
    assert s.rounds[1].hands == {"Ann": 40, "Bob": 12}
    assert s.next_round.number == 3


def test_knock_max_is_a_setting():
    # Knock with 10 is allowed by default; with knock_max 5, a knock with 5 is the most.
    assert load_game(gin(knock("Ann", 10, 30))).rounds[0].scores["Ann"] == 30 - 10
    assert load_game(gin(knock("Ann", 5, 30), knock_max=5)).rounds[0].scores["Ann"] == 25


# ---------------------------------------------------------------- refusals ---
def test_impossible_hands_are_refused_with_round_and_player():
    assert refusal(WASH, knock("Ann", 0, 20)) == (
        "round 2: Ann knocked with 0 deadwood: that is gin, not a knock"
    )
    assert refusal(knock("Bob", 3, 11)) == (
        "round 1: Bob knocked with 11 deadwood: a knock allows at most 10"
    )
    assert refusal(knock("Bob", 3, 6), knock_max=5) == (
        "round 1: Bob knocked with 6 deadwood: a knock allows at most 5"
    )
    assert refusal(knock("Ann", 4, 20, "gin")) == (
        "round 1: Ann went gin with 4 deadwood: gin leaves 0"
    )
    assert refusal(knock("Ann", 1, 20, "big_gin")) == (
        "round 1: Ann went big gin with 1 deadwood: big gin leaves 0"
    )
    assert refusal({"went_out": "Ann", "hands": {"Ann": 3, "Bob": 20}}) == (
        "round 1: Ann knocked: say how (knock, gin or big_gin)"
    )
    assert refusal({"went_out": "Ann", "how": "knock", "hands": {"Bob": 20}}) == (
        "round 1: no hand given for Ann"
    )
    assert refusal({"went_out": None, "how": "gin", "hands": {}}) == (
        "round 1: how is gin but nobody knocked: a wash has no how"
    )
    assert refusal({"went_out": "Ann", "how": "rummy", "hands": {"Ann": 0, "Bob": 3}}) == (
        "round 1: how must be knock, gin or big_gin (got 'rummy')"
    )


def test_how_belongs_to_gin_only():
    record = {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "players": ["Ann", "Bob"],
        "rounds": [{"went_out": "Ann", "how": "knock", "hands": {"Bob": 3}}],
    }
    with pytest.raises(RecordError, match="how is only recorded in gin, not in rummy"):
        load_game(record)


def test_the_refusal_names_the_player():
    with pytest.raises(RecordError) as exc:
        load_game(gin(knock("Bob", 3, 11)))
    assert (exc.value.round, exc.value.player) == (1, "Bob")


# ------------------------------------------------------------------- the end ---
def test_game_ends_after_the_hand_reaching_the_target_with_bonuses():
    # Hand 1: Ann knocks 5 v 30 -> Ann 25.     Totals Ann 25,  Bob 0.
    # Hand 2: Ann knocks 8 v 8 -> undercut, Bob 0 + 25 = 25. Ann 25, Bob 25.
    # Hand 3: a wash.
    # Hand 4: Ann gin v 60 -> 25 + 60 = 85.    Ann 110 >= 100: the game ends.
    # Boxes: Ann 2 (hands 1, 4), Bob 1 (hand 2): no shutout.
    # Final: Ann 110 + game 100 + 2 x 25 = 260; Bob 25 + 1 x 25 = 50. Margin 260 - 50 = 210.
    s = load_game(gin(knock("Ann", 5, 30), knock("Ann", 8, 8), WASH, knock("Ann", 0, 60, "gin")))
    assert s.finished
    assert s.winners == ("Ann",)
    assert totals(s) == {"Ann": 260, "Bob": 50}
    # The hands keep their running totals; the bonuses are the standings' alone.
    assert s.rounds[-1].totals == {"Ann": 110, "Bob": 25}
    t = gin_tally(s.rounds, ["Ann", "Bob"], s.record.settings)
    assert (t.winner, t.shutout, t.margin, t.payer, t.payee) == ("Ann", False, 210, "Bob", "Ann")
    assert t.boxes == {"Ann": 2, "Bob": 1}
    assert t.game_bonus == {"Ann": 100, "Bob": 0}
    assert t.box_bonus == {"Ann": 50, "Bob": 25}
    with pytest.raises(RecordError, match="already ended after round 4"):
        load_game(
            gin(knock("Ann", 5, 30), knock("Ann", 8, 8), WASH, knock("Ann", 0, 60, "gin"), WASH)
        )


def test_shutout_multiplies_the_winners_hand_points_before_the_bonuses():
    # Hand 1: Bob knocks 2 v 40 -> 38. Hand 2: Bob big gin v 50 -> 31 + 50 = 81. Bob 119.
    # Ann won no hand: shutout. Bob: 119 x 2 = 238 + 100 + 2 x 25 = 388. Ann: 0.
    s = load_game(gin(knock("Bob", 40, 2), knock("Bob", 50, 0, "big_gin")))
    assert totals(s) == {"Ann": 0, "Bob": 388}
    t = gin_tally(s.rounds, ["Ann", "Bob"], s.record.settings)
    assert t.shutout and t.points == {"Ann": 0, "Bob": 238} and t.margin == 388
    # shutout_multiplier 3: 119 x 3 = 357 + 100 + 50 = 507.
    s = load_game(gin(knock("Bob", 40, 2), knock("Bob", 50, 0, "big_gin"), shutout_multiplier=3))
    assert totals(s) == {"Ann": 0, "Bob": 507}


def test_money_stake_on_the_margin_and_buy_in_to_the_winner():
    # As the first end test, stake 5 cents a point, buy-in $2.00: margin 210 -> Bob pays
    # 210 x 5 = 1050 into the pot; the pot (200 + 200 + 1050 = 1450) goes to Ann.
    # Balances: Ann -200 + 1450 = +1250; Bob -200 - 1050 = -1250.
    s = load_game(
        gin(knock("Ann", 5, 30), knock("Ann", 8, 8), WASH, knock("Ann", 0, 60, "gin"),
            stake=5, buy_in=200)
    )  # fmt: skip
    kinds = [(e.player, e.amount, e.kind, e.round) for e in s.pot.entries]
    assert kinds == [
        ("Ann", -200, "buy_in", 0),
        ("Bob", -200, "buy_in", 0),
        ("Bob", -1050, "stake", 4),
        ("Ann", 1450, "payout", 4),
    ]
    assert s.pot.balances == {"Ann": 1250, "Bob": -1250}
    assert s.pot.total == 0


def test_while_playing_nothing_is_paid_and_totals_are_hand_points():
    s = load_game(gin(knock("Ann", 5, 30), stake=5, buy_in=200))
    assert not s.finished
    assert totals(s) == {"Ann": 25, "Bob": 0}
    assert [e.kind for e in s.pot.entries] == ["buy_in", "buy_in"]


def test_boxes_can_put_the_loser_ahead_then_the_final_scores_decide():
    # target 30, box bonus 40, game bonus 0. Bob wins three hands by knocks of 1 point each
    # (Bob 2 v Ann 3): Bob 3. Ann then goes gin v 5: 25 + 5 = 30, reaching the target.
    # Final: Ann 30 + 0 + 1 x 40 = 70; Bob 3 + 3 x 40 = 123. Bob ahead by 53: with a stake
    # of 1, Ann pays 53 (the reading in /help: the final scores decide).
    bob_knocks = [knock("Bob", 3, 2)] * 3
    s = load_game(
        gin(*bob_knocks, knock("Ann", 0, 5, "gin"), target_score=30, box_bonus=40,
            game_bonus=0, stake=1)
    )  # fmt: skip
    assert s.finished
    assert totals(s) == {"Ann": 70, "Bob": 123}
    assert s.winners == ("Bob",)
    assert s.pot.balances == {"Ann": -53, "Bob": 53}


def test_equal_final_scores_share_first_and_pay_nothing():
    # target 30, game bonus 0, box 10. Bob knocks 2 v 12 twice: 10 + 10 = 20. Ann goes gin
    # v 5: 25 + 5 = 30, reaching 30. Final: Ann 30 + 0 + 1 x 10 = 40; Bob 20 + 2 x 10 = 40.
    # Margin 0: no stake is paid, and the buy-ins (100 each) are shared, 100 back to each.
    s = load_game(
        gin(knock("Bob", 12, 2), knock("Bob", 12, 2), knock("Ann", 0, 5, "gin"),
            target_score=30, game_bonus=0, box_bonus=10, stake=10, buy_in=100)
    )  # fmt: skip
    assert s.finished
    assert totals(s) == {"Ann": 40, "Bob": 40}
    assert set(s.winners) == {"Ann", "Bob"}
    assert s.pot.balances == {"Ann": 0, "Bob": 0}
    assert not any(e.kind == "stake" for e in s.pot.entries)
    rows = dict(get_variant("gin").display.tally(s.rounds, s.players, s.record.settings, True))
    assert rows["Margin"] == ["0", ""] and "Stake" not in rows


# ------------------------------------------------------------ the record ---
def test_record_round_trips_with_how():
    data = gin(knock("Ann", 5, ["K", "7"]), WASH, stake=10, knock_max=8)
    parsed = GameRecord.from_json(data)
    out = parsed.to_json()
    assert out["rounds"][0] == {
        "went_out": "Ann",
        "hands": {"Ann": 5, "Bob": ["K", "7"]},
        "how": "knock",
    }
    assert out["rounds"][1] == {"went_out": None, "hands": {}}
    assert out["settings"]["knock_max"] == 8 and "pot_split" not in out["settings"]
    assert GameRecord.from_json(out) == parsed


# ------------------------------------------------------------ what it shows ---
def test_marks_and_legend():
    s = load_game(gin(knock("Ann", 5, 30), knock("Ann", 8, 8), WASH))
    settings = s.record.settings
    r1, r2, r3 = s.rounds
    assert [m.symbol for m in cell_marks(r1, "Ann")] == ["★", "K", "(5)"]
    assert [m.symbol for m in cell_marks(r1, "Bob")] == ["(30)"]
    assert [m.symbol for m in cell_marks(r2, "Ann")] == ["★", "(8)"]
    assert [m.symbol for m in cell_marks(r2, "Bob")] == ["U", "(8)"]
    assert [m.symbol for m in cell_marks(r3, "Bob")] == ["—"]
    facts = {f.label: f.value for f in legend(s.rounds, settings, went_out_note=" (knocked)")}
    assert facts["★"] == "went out (knocked)"
    assert facts["U"].startswith("undercut")
    assert facts["(n)"] == "deadwood left in hand"


def test_tally_rows_while_playing_and_at_the_end():
    display = get_variant("gin").display
    s = load_game(gin(knock("Ann", 5, 30), knock("Ann", 8, 8)))
    rows = display.tally(s.rounds, s.players, s.record.settings, s.finished)
    assert rows == [("Boxes", ["1", "1"])]
    s = load_game(gin(knock("Bob", 40, 2), knock("Bob", 50, 0, "big_gin"), stake=10))
    rows = dict(display.tally(s.rounds, s.players, s.record.settings, s.finished))
    # 119 hand points, x2 shutout = 238, game 100, boxes 2 x 25 = 50: 388; margin 388,
    # at 10 cents a point $38.80.
    assert rows["Hand points"] == ["0", "119"]
    assert rows["Shutout ×2"] == ["0", "238"]
    assert rows["Game bonus"] == ["0", "100"]
    assert rows["Box bonus"] == ["0", "50"]
    assert rows["Final"] == ["0", "388"]
    assert rows["Margin"] == ["", "388"]
    assert rows["Stake"] == ["-$38.80", "+$38.80"]


def test_warnings_and_rules():
    display = get_variant("gin").display
    settings = get_variant("gin").default_settings()
    assert display.warnings(2, settings) == []
    assert display.warnings(3, settings) == []  # refused, not warned of
    rules = {f.label: f.value for f in display.table_rules(settings, 2)}
    assert rules["Target"] == "first to 100"
    assert rules["Knock"] == "with 10 or less; undercut +25"
