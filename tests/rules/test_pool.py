"""Pool Rummy, worked by hand from RULES.md ("Pool Rummy").

Every expected number below was computed by hand from RULES.md, with the arithmetic
written out in a comment; the engine is only asked to agree.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import GameRecord, RecordError, get_variant, load_game, replay
from scorekeeper.rules.games.pool_terms import drops_left, split_shares
from scorekeeper.rules.plan import Open, Planned, plan, propose
from scorekeeper.rules.questions import Answers, Choice, RejoinOrOut

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def pool(players: list, *rounds: dict, **settings) -> dict:
    return {
        "format": "scorekeeper-game/1",
        "variant": "pool",
        "settings": settings,
        "players": players,
        "rounds": list(rounds),
    }


def rnd(went_out: str, wild: str | None = None, rejoins=(), **hands) -> dict:
    out: dict = {"went_out": went_out, "hands": hands}
    if wild is not None:
        out["wild"] = wild
    if rejoins:
        out["rejoins"] = list(rejoins)
    return out


def totals(s) -> dict[str, int]:
    return {p.name: p.total for p in s.players}


# -------------------------------------------------------------- settings, by pool ---
@pytest.mark.parametrize(
    ("pool_", "numbers"),
    [
        # RULES.md's table: first_drop, middle_drop, full_count, wrong_show, rejoin_limit
        (101, (20, 40, 80, 80, 79)),
        (201, (25, 50, 80, 80, 174)),
        (61, (15, 30, 60, 60, 44)),
    ],
)
def test_the_pool_fixes_the_defaults(pool_, numbers):
    s = load_game(pool(["Ann", "Bob"], pool=pool_)).record.settings
    got = (s.first_drop, s.middle_drop, s.full_count, s.wrong_show, s.rejoin_limit)
    assert (s.pool, got) == (pool_, numbers)


def test_a_number_set_by_the_table_wins_over_the_pools_default():
    s = load_game(pool(["Ann", "Bob"], pool=201, first_drop=30)).record.settings
    assert (s.first_drop, s.middle_drop) == (30, 50)  # 50: 201's middle drop


def test_the_settings_a_pool_record_writes_and_refuses():
    record = GameRecord.from_json(pool(["Ann", "Bob"], pool=61, buy_in=500))
    assert record.to_json()["settings"] == {
        "pool": 61,
        "first_drop": 15,
        "middle_drop": 30,
        "full_count": 60,
        "wrong_show": 60,
        "rejoin_limit": 44,
        "buy_in": 500,
        "currency": "USD",
    }
    with pytest.raises(RecordError, match=r"settings\.pool must be 101, 201 or 61"):
        load_game(pool(["Ann", "Bob"], pool=150))
    with pytest.raises(RecordError, match=r"rejoin_limit must be below the pool \(61\)"):
        load_game(pool(["Ann", "Bob"], pool=61, rejoin_limit=61))
    with pytest.raises(RecordError, match="pot_split is not a setting of pool"):
        load_game(pool(["Ann", "Bob"], pot_split=[70, 30]))


# -------------------------------------------------------------------- card values ---
@pytest.mark.parametrize(
    ("cards", "wild", "points"),
    [
        (["A", "K", "Q", "J", "10"], None, 10 * 5),  # A K Q J 10 count 10
        (["2", "9"], None, 2 + 9),  # face value
        (["JK", "JK", "5"], None, 0 + 0 + 5),  # printed jokers 0
        (["7", "7", "K"], "7", 0 + 0 + 10),  # the deal's wild rank 0
        (["A", "3"], "A", 0 + 3),  # an ace cut: aces 0 this deal
        (["K"] * 9, None, 80),  # 9 x 10 = 90, capped at the full count 80
    ],
)
def test_counting_a_hand(cards, wild, points):
    s = load_game(pool(["Ann", "Bob"], rnd("Ann", wild, Bob=cards)))
    assert s.rounds[0].scores == {"Ann": 0, "Bob": points}


def test_a_count_is_capped_at_the_full_count_typed_or_counted():
    # 101 pool: full count 80, so 95 typed scores 80; 61 pool: full count 60.
    s = load_game(pool(["Ann", "Bob", "Cy"], rnd("Ann", Bob=95, Cy=80)))
    assert totals(s) == {"Ann": 0, "Bob": 80, "Cy": 80}
    s = load_game(pool(["Ann", "Bob"], rnd("Ann", Bob=59), rnd("Ann", Bob=70), pool=61))
    assert totals(s)["Bob"] == 59 + 60  # 119 >= 61: out after deal 2
    assert s.finished and s.winners == ("Ann",)


@pytest.mark.parametrize(
    ("pool_", "points"),
    [
        # drop, middle_drop, full_count, wrong_show by RULES.md's table
        (101, (20, 40, 80, 80)),
        (201, (25, 50, 80, 80)),
        (61, (15, 30, 60, 60)),
    ],
)
def test_the_hand_markers_score_the_pools_numbers(pool_, points):
    five = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    deal = rnd("Ann", Bob="drop", Cy="middle_drop", Dee="full_count", Eve="wrong_show")
    s = load_game(pool(five, deal, pool=pool_))
    assert [s.rounds[0].scores[n] for n in five[1:]] == list(points)
    kinds = [(e.player, e.kind, e.value) for e in s.rounds[0].events]
    assert kinds[:4] == [
        ("Bob", "first_drop", points[0]),
        ("Cy", "middle_drop", points[1]),
        ("Dee", "full_count", points[2]),
        ("Eve", "wrong_show", points[3]),
    ]


def test_everyone_else_dropped_the_last_one_left_wins_the_deal():
    s = load_game(pool(["Ann", "Bob", "Cy"], rnd("Cy", Ann="drop", Bob="drop")))
    assert totals(s) == {"Ann": 20, "Bob": 20, "Cy": 0}


def test_markers_and_wild_ranks_belong_to_pool_only():
    with pytest.raises(RecordError, match="Bob's hand must be a whole number"):
        load_game(
            {
                "variant": "contract",
                "players": ["Ann", "Bob"],
                "rounds": [{"went_out": "Ann", "hands": {"Bob": "drop"}}],
            }
        )
    with pytest.raises(RecordError, match="rejoins is only recorded in pool, not in rummy"):
        load_game(
            {
                "variant": "rummy",
                "players": ["Ann", "Bob"],
                "rounds": [{"went_out": "Ann", "hands": {"Bob": 1}, "rejoins": ["Bob"]}],
            }
        )
    with pytest.raises(RecordError, match="round 1: wild '7C' is not a rank"):
        load_game(pool(["Ann", "Bob"], rnd("Ann", "7C", Bob=1)))
    with pytest.raises(RecordError, match="round 1: someone must go out in Pool Rummy"):
        load_game(pool(["Ann", "Bob"], {"went_out": None, "hands": {"Ann": 1, "Bob": 1}}))


# ------------------------------------------------------------ out, and the rejoin ---
# Deal 1 (Ann deals): Ann shows; Bob 60, Cy 70, Dee 80 (full count).
# Deal 2 (Bob deals): Ann shows; Bob 20 (drop): 80; Cy 10: 80; Dee 30: 110 >= 101, out.
OUT_IN_TWO = [
    rnd("Ann", Bob=60, Cy=70, Dee="full_count"),
    rnd("Ann", Bob="drop", Cy=10, Dee=30),
]


def test_a_total_at_the_pool_is_out_and_the_deal_skips_them():
    s = load_game(pool(FOUR, *OUT_IN_TWO))
    assert totals(s) == {"Ann": 0, "Bob": 80, "Cy": 80, "Dee": 110}
    assert not s.player("Dee").in_contention and s.player("Dee").dropped_round == 2
    assert ("Dee", "eliminate", 110) in [(e.player, e.kind, e.value) for e in s.rounds[1].events]
    # Deal 3 would be Cy's; deal 4 Dee's, but Dee is out: it passes to Ann.
    assert (s.next_round.dealer, s.next_round.starts) == ("Cy", "Ann")
    s = load_game(pool(FOUR, *OUT_IN_TWO, rnd("Ann", Bob=0, Cy=0)))
    assert (s.next_round.dealer, s.next_round.starts) == ("Ann", "Bob")
    # Exactly the pool is out: 100 stays in, 101 is out.
    s = load_game(pool(["Ann", "Bob", "Cy"], rnd("Ann", Bob=80, Cy=80), rnd("Ann", Bob=20, Cy=21)))
    assert [p.in_contention for p in s.players] == [True, True, False]  # Bob 100, Cy 101


def test_a_rejoin_is_refused_while_someone_in_is_over_the_limit():
    with pytest.raises(RecordError) as refused:
        load_game(pool(FOUR, OUT_IN_TWO[0], {**OUT_IN_TWO[1], "rejoins": ["Dee"]}))
    # Bob and Cy have 80 each, above the 101 pool's limit of 79.
    assert str(refused.value) == "round 2: Dee cannot rejoin: Bob has 80 and Cy has 80, above 79"
    assert refused.value.player == "Dee"


# Deal 1: Ann shows; Bob 30, Cy 79, Dee 80 (full count).
# Deal 2: Ann shows; Bob 10: 40; Cy 0: 79; Dee 21: 101, out. Still in: Ann 0, Bob 40,
# Cy 79; nobody above 79, so Dee may rejoin at 79 + 1 = 80, paying $5.00 again.
REJOIN = [
    rnd("Ann", Bob=30, Cy=79, Dee="full_count"),
    rnd("Ann", rejoins=["Dee"], Bob=10, Cy=0, Dee=21),
]


def test_a_rejoin_comes_back_at_the_highest_total_in_plus_one_and_pays_again():
    s = load_game(pool(FOUR, *REJOIN, buy_in=500))
    assert totals(s) == {"Ann": 0, "Bob": 40, "Cy": 79, "Dee": 80}
    assert s.player("Dee").in_contention
    assert s.rounds[1].totals["Dee"] == 80
    events = [(e.player, e.kind, e.value, e.amount_cents) for e in s.rounds[1].events]
    assert ("Dee", "eliminate", 101, None) in events
    assert ("Dee", "rejoin", 80, -500) in events
    # The pot: 4 x $5.00 buy-ins + Dee's $5.00 rejoin = $25.00.
    assert s.pot.total == 2500
    assert [e.kind for e in s.pot.entries if e.player == "Dee"] == ["buy_in", "rejoin"]
    assert s.pot.entries[-1].round == 2


def test_a_rejoin_needs_someone_out_and_a_game_still_on():
    with pytest.raises(RecordError, match="round 1: Bob cannot rejoin: only a player out"):
        load_game(pool(FOUR, rnd("Ann", rejoins=["Bob"], Bob=1, Cy=1, Dee=1)))
    # Two players: Bob out at 80 + 40 = 120; Ann alone is left, the game is over.
    with pytest.raises(RecordError, match="Bob cannot rejoin: the game is over, Ann is the last"):
        load_game(pool(["Ann", "Bob"], rnd("Ann", Bob=80), rnd("Ann", rejoins=["Bob"], Bob=40)))


def test_the_last_one_in_takes_the_pot():
    # Deal 1: Bob 80, Cy 80. Deal 2: Bob 25 -> 105 out; Cy 21 -> 101 out; Ann alone.
    game = pool(["Ann", "Bob", "Cy"], rnd("Ann", Bob=80, Cy=80), rnd("Ann", Bob=25, Cy=21))
    s = load_game({**game, "settings": {"buy_in": 1000}})
    assert s.finished and s.winners == ("Ann",)
    # Ann takes the pot of 3 x $10.00: +$20.00; Bob and Cy -$10.00 each.
    assert s.pot.balances == {"Ann": 2000, "Bob": -1000, "Cy": -1000}
    # Places: Ann; then the two out in deal 2, the lower total first: Cy 101, Bob 105.
    assert s.ranking == ["Ann", "Cy", "Bob"]
    assert [s.player(n).place for n in ("Ann", "Cy", "Bob")] == [1, 2, 3]
    with pytest.raises(RecordError, match="round 3: the game already ended after round 2"):
        load_game({**game, "rounds": [*game["rounds"], rnd("Ann")]})


def test_places_put_the_later_out_first_and_a_rejoin_by_its_last_time_out():
    # From REJOIN (Ann 0, Bob 40, Cy 79, Dee 80 after rejoining in deal 2):
    # Deal 3: Bob shows; Ann 10: 10; Cy 22: 101 out; Dee 0: 80.
    # Deal 4: Ann shows; Bob 70: 110 out; Dee 30: 110 out. Ann is the last one in.
    # Places: Ann; then Bob and Dee (out in deal 4, both 110: they share 2nd); then Cy
    # (out in deal 3). Dee was out in deal 2 too, but is placed by the last time out.
    s = load_game(pool(FOUR, *REJOIN, rnd("Bob", Ann=10, Cy=22, Dee=0), rnd("Ann", Bob=70, Dee=30)))
    assert totals(s) == {"Ann": 10, "Bob": 110, "Cy": 101, "Dee": 110}
    assert s.finished and s.winners == ("Ann",)
    assert [list(g) for g in s.groups] == [["Ann"], ["Bob", "Dee"], ["Cy"]]
    assert [s.player(n).place for n in ("Ann", "Bob", "Dee", "Cy")] == [1, 2, 2, 4]


# --------------------------------------------------------------------- the split ---
def test_drops_left():
    settings = load_game(pool(["Ann", "Bob"])).record.settings
    # floor((101 - 1 - total) / 20)
    assert drops_left(0, settings) == 5  # 100 / 20
    assert drops_left(39, settings) == 3  # 61 / 20 = 3.05
    assert drops_left(80, settings) == 1  # 20 / 20
    assert drops_left(81, settings) == 0  # 19 / 20
    assert drops_left(100, settings) == 0


def test_split_shares_floor_and_the_leftover_goes_to_the_best_placed():
    # 1000 by 1:1:1: 333 each, 1 left over to the first listed (the best placed).
    assert split_shares(1000, [("Ann", 1), ("Bob", 1), ("Cy", 1)]) == {
        "Ann": 334,
        "Bob": 333,
        "Cy": 333,
    }
    # 1000 by 3:1: 750 and 250; all weights 0: equal, 500 each.
    assert split_shares(1000, [("Ann", 3), ("Bob", 1)]) == {"Ann": 750, "Bob": 250}
    assert split_shares(1000, [("Ann", 0), ("Bob", 0)]) == {"Ann": 500, "Bob": 500}


def test_an_equal_split_ends_the_game():
    # REJOIN with $3.33 stakes: the pot holds 4 x 333 + Dee's rejoin 333 = 1665 cents.
    # Ann 0, Bob 40, Cy 79, Dee 80 share it equally: 1665 / 4 = 416 each, 1 left over
    # to the best placed, Ann (total 0): 417.
    s = load_game(pool(FOUR, *REJOIN, {"split": "equal"}, buy_in=333))
    assert s.finished and set(s.winners) == set(FOUR) and s.next_round is None
    paid = {e.player: e.amount for e in s.pot.entries if e.kind == "payout"}
    assert paid == {"Ann": 417, "Bob": 416, "Cy": 416, "Dee": 416}
    assert sum(s.pot.balances.values()) == 0 and s.pot.total == 0
    assert s.rounds[-1].split == "equal" and s.rounds[-1].dealer == "Bob"
    assert s.ranking == ["Ann", "Bob", "Cy", "Dee"]


def test_a_split_by_drops_left():
    # OUT_IN_TWO without the rejoin: Ann 0, Bob 80, Cy 80 in; Dee out. Pot 4 x $5 = $20.
    # Drops left: Ann floor(100 / 20) = 5; Bob, Cy floor(20 / 20) = 1 each: 7 in all.
    # Ann 2000 x 5 / 7 = 1428.57 -> 1428; Bob, Cy 2000 / 7 = 285.71 -> 285;
    # 1428 + 285 + 285 = 1998: 2 cents over to Ann (lowest total): 1430.
    s = load_game(pool(FOUR, *OUT_IN_TWO, {"split": "drops"}, buy_in=500))
    paid = {e.player: e.amount for e in s.pot.entries if e.kind == "payout"}
    assert paid == {"Ann": 1430, "Bob": 285, "Cy": 285}
    assert set(s.winners) == {"Ann", "Bob", "Cy"}
    assert s.pot.balances == {"Ann": 930, "Bob": -215, "Cy": -215, "Dee": -500}
    # Places: Ann 0; Bob and Cy 80 share 2nd; Dee out.
    assert [s.player(n).place for n in FOUR] == [1, 2, 2, 4]
    assert {e.player: e.value for e in s.rounds[-1].events} == {"Ann": 5, "Bob": 1, "Cy": 1}


def test_a_split_by_drops_with_no_drops_left_is_equal():
    # Bob 80 + 10 = 90, Cy 85 + 15 = 100: floor(10 / 20) = 0, floor(0 / 20) = 0 (Ann
    # went out twice: 0, floor(100 / 20) = 5, so give Ann a hand too).
    # Deal 1: Bob shows; Ann 81, Cy 85. Deal 2: Ann shows; Bob 90, Cy 15.
    # Ann 81: floor(19/20) = 0; Bob 90: 0; Cy 100: 0. Pot 3 x 100 = 300: 100 each.
    s = load_game(
        pool(
            ["Ann", "Bob", "Cy"],
            rnd("Bob", Ann=81, Cy=85),
            rnd("Ann", Bob=90, Cy=15),
            {"split": "drops"},
            buy_in=100,
            full_count=90,
        )
    )
    assert totals(s) == {"Ann": 81, "Bob": 90, "Cy": 100}
    paid = {e.player: e.amount for e in s.pot.entries if e.kind == "payout"}
    assert paid == {"Ann": 100, "Bob": 100, "Cy": 100}


def test_a_split_is_a_last_entry_of_its_own():
    with pytest.raises(RecordError, match="round 1: split the pot after a deal"):
        load_game(pool(FOUR, {"split": "equal"}))
    with pytest.raises(RecordError, match="round 2: a split ends the game by agreement: it takes"):
        load_game(pool(FOUR, OUT_IN_TWO[0], {"split": "equal", "went_out": "Ann"}))
    with pytest.raises(RecordError, match='round 2: split must be "equal" or "drops"'):
        load_game(pool(FOUR, OUT_IN_TWO[0], {"split": "half"}))
    with pytest.raises(RecordError, match="round 3: the game already ended after round 2"):
        load_game(pool(FOUR, OUT_IN_TWO[0], {"split": "equal"}, OUT_IN_TWO[1]))
    with pytest.raises(RecordError, match="split is only recorded in pool, not in vegas"):
        load_game({"variant": "vegas", "players": ["Ann", "Bob"], "rounds": [{"split": "equal"}]})


def test_a_pool_record_round_trips():
    game = pool(FOUR, *REJOIN, rnd("Bob", "Q", Ann=["Q", "K"], Cy="drop", Dee=3), buy_in=200)
    game["rounds"].append({"split": "drops"})
    record = GameRecord.from_json(game)
    exported = record.to_json()
    assert exported["rounds"][1]["rejoins"] == ["Dee"]
    assert exported["rounds"][2]["wild"] == "Q" and exported["rounds"][2]["hands"]["Cy"] == "drop"
    assert exported["rounds"][3] == {"split": "drops"}
    assert GameRecord.from_json(exported) == record
    assert replay(GameRecord.from_json(exported)).to_json() == replay(record).to_json()
    # Ann Q K with queens wild: 0 + 10 = 10.
    assert load_game(game).rounds[2].scores["Ann"] == 10


# ---------------------------------------------------------- "Rejoin or out?" asked ---
def test_the_plan_asks_rejoin_or_out_and_saves_the_answer():
    before = load_game(pool(FOUR, REJOIN[0], buy_in=500))
    typed = {k: v for k, v in REJOIN[1].items() if k != "rejoins"}
    change = propose(before, typed, number=None)
    asked = plan(before, change)
    assert isinstance(asked, Open) and asked.asking
    (question,) = asked.questions
    assert isinstance(question, RejoinOrOut)
    assert question.sentence == "Dee reached 101. Rejoin for $5.00 (back at 80) or out?"
    (choice,) = question.asks
    assert isinstance(choice, Choice) and choice.name == "rejoin-3" and choice.default == "out"
    seen = frozenset({question.key})
    out = plan(before, change, Answers({}, seen))
    assert isinstance(out, Planned) and out.round.rejoins == ()
    assert not out.standings.player("Dee").in_contention
    back = plan(before, change, Answers({"rejoin-3": "rejoin"}, seen))
    assert isinstance(back, Planned) and back.round.rejoins == ("Dee",)
    assert back.standings.to_json() == replay(back.record).to_json()
    assert back.standings.player("Dee").total == 80


def test_when_no_rejoin_is_allowed_the_plan_says_why():
    before = load_game(pool(FOUR, OUT_IN_TWO[0]))
    asked = plan(before, propose(before, OUT_IN_TWO[1], number=None))
    assert isinstance(asked, Open)
    (question,) = asked.questions
    assert question.asks == ()
    assert question.sentence == (
        "Dee reached 110. Out: no rejoin, Bob has 80 and Cy has 80, above 79."
    )
    done = plan(before, propose(before, OUT_IN_TWO[1], number=None), Answers(confirmed=True))
    assert isinstance(done, Planned) and done.round.rejoins == ()


def test_the_game_over_asks_nothing():
    before = load_game(pool(["Ann", "Bob"], rnd("Ann", Bob=80)))
    done = plan(before, propose(before, rnd("Ann", Bob=40), number=None))
    assert isinstance(done, Planned) and done.standings.finished


def test_pool_is_registered_with_its_capabilities():
    variant = get_variant("pool")
    assert variant.title == "Pool Rummy"
    assert variant.round_inputs == {"hand_markers", "wild_rank"}
    assert variant.wild_rank_points == 0 and variant.split_kinds == ("equal", "drops")
    settings = variant.default_settings()
    assert [(m.key, m.short, m.points) for m in variant.hand_markers(settings)] == [
        ("drop", "D", 20),
        ("middle_drop", "MD", 40),
        ("full_count", "FC", 80),
        ("wrong_show", "WS", 80),
    ]
    assert str(variant.deck_advice(2, settings)) == "1 deck with 2 jokers"
    assert str(variant.deck_advice(6, settings)) == "2 decks with 4 jokers"


def test_a_rejoin_taken_back_while_a_later_deal_holds_their_hand_is_refused():
    # REJOIN, then deal 3 with Dee's hand: correcting deal 2 to "out" would leave deal 3
    # a hand for a player no longer in. The plan refuses, naming deal 3 and Dee (the
    # reading: correct or remove the later deals first; no hands are taken off silently).
    before = load_game(pool(FOUR, *REJOIN, rnd("Bob", Ann=10, Cy=5, Dee=0)))
    typed = {k: v for k, v in REJOIN[1].items() if k != "rejoins"}
    change = propose(before, typed, number=2)
    (question,) = plan(before, change).questions
    assert isinstance(question, RejoinOrOut) and question.asks[0].default == "rejoin"
    done = plan(before, change, Answers({"rejoin-3": "out"}, frozenset({question.key})))
    assert isinstance(done, Open) and done.refusal is not None
    assert (done.refusal.round, done.refusal.player) == (3, "Dee")
