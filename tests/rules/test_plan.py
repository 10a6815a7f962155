"""The engine plans a change to a game (``rules.plan``): what a round added or corrected does
to the game, and what the keeper must still be asked, as typed questions.

The property: whatever the game and the change, a plan answered (re-buy or drop for each
player who expires, the hands of the later rounds of a drop undone, the hands that go
with a drop added confirmed) and applied is the record a keeper would have written
directly, and replays to the same standings; a change the record written directly could
not hold, the plan refuses.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    GAME_FORMAT,
    GameRecord,
    RecordError,
    Round,
    Standings,
    load_game,
    name_key,
    replay,
)
from scorekeeper.rules.plan import AddRound, CorrectRound, Open, Planned, plan, propose, unanswered
from scorekeeper.rules.questions import (
    Answers,
    Choice,
    HandBox,
    HandsThatGo,
    LaterHandsNeeded,
    RebuyOrDrop,
)
from scorekeeper.rules.rounds import Hand
from tests.rules.test_properties import PROPERTY_SETTINGS, vegas_games


def _game(
    rounds: list[dict[str, Any]], players: tuple[str, ...] = ("Ann", "Bob", "Cy")
) -> Standings:
    return load_game(
        {
            "format": GAME_FORMAT,
            "variant": "vegas",
            "settings": {"max_score": 100, "buy_in": 100},
            "players": list(players),
            "rounds": rounds,
        }
    )


# ------------------------------------------------------------ the questions, by hand ---
def test_an_expiry_asks_rebuy_or_drop_and_a_seen_answer_plans_the_save():
    before = _game([{"went_out": "Ann", "hands": {"Bob": 50, "Cy": 10}}])
    change = propose(before, {"went_out": "Cy", "hands": {"Ann": 10, "Bob": 60}}, number=None)
    asked = plan(before, change)
    assert isinstance(asked, Open) and asked.asking
    (question,) = asked.questions
    assert isinstance(question, RebuyOrDrop)
    assert question.sentence == "Bob reached 110. Re-buy for $1.00 (back to 10) or drop out?"
    (choice,) = question.asks
    assert isinstance(choice, Choice) and choice.name == "expiry-1" and choice.default == "rebuy"
    # The choice made but the question not seen: still asked (a stale form never saves).
    assert isinstance(plan(before, change, Answers({"expiry-1": "drop"})), Open)
    other = Answers({"expiry-1": "drop"}, frozenset({"rebuy-or-drop:2:2"}))
    assert isinstance(plan(before, change, other), Open)
    done = plan(before, change, Answers({"expiry-1": "drop"}, frozenset({question.key})))
    assert isinstance(done, Planned) and done.round.drops == ("Bob",)
    assert done.standings.to_json() == replay(done.record).to_json()
    assert not done.standings.player("Bob").in_contention


def test_a_drop_undone_asks_the_later_hands_and_adds_them():
    before = _game(
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}, "drops": ["Cy"]},
            {"went_out": "Bob", "hands": {"Ann": 5}},
        ]
    )
    change = propose(before, {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}}, number=1)
    rebuy = plan(before, change, Answers({"expiry-2": "rebuy"}))
    assert isinstance(rebuy, Open) and isinstance(rebuy.questions[0], RebuyOrDrop)
    seen = frozenset({rebuy.questions[0].key})
    later = plan(before, change, Answers({"expiry-2": "rebuy"}, seen))
    assert isinstance(later, Open) and later.asking
    question = later.questions[-1]
    assert isinstance(question, LaterHandsNeeded) and question.legend.english == "Cy played on"
    (box,) = question.asks
    assert isinstance(box, HandBox) and box.name == "later-2-2"
    assert box.label.english == "Cy in round 2"
    empty = plan(before, change, Answers({"expiry-2": "rebuy", "later-2-2": " "}, seen))
    assert isinstance(empty, Open)
    assert empty.errors["later-2-2"].english == "Round 2: give Cy's hand."
    wrong = plan(before, change, Answers({"expiry-2": "rebuy", "later-2-2": "ZZ"}, seen))
    assert isinstance(wrong, Open)
    assert wrong.errors["later-2-2"].english.startswith("Round 2: Cy: 'ZZ'")
    done = plan(before, change, Answers({"expiry-2": "rebuy", "later-2-2": "K 7"}, seen))
    assert isinstance(done, Planned) and done.later_changed() == [2]
    assert done.record.rounds[1].hands == {"Ann": 5, "Cy": ("K", "7")}
    assert done.standings.player("Cy").total == 10 + 17


def test_a_drop_added_lists_the_hands_that_go_until_confirmed():
    before = _game(
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}},
            {"went_out": "Bob", "hands": {"Ann": 5, "Cy": 20}},
        ]
    )
    typed = {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}, "drops": ["Cy"]}
    change = propose(before, typed, number=1)
    first = plan(before, change, Answers(seen=frozenset({"rebuy-or-drop:1:2"})))
    assert isinstance(first, Open)
    going = first.questions[-1]
    assert isinstance(going, HandsThatGo) and going.confirms
    assert [i.text.english for i in going.items if i.text] == ["Round 2: Cy's hand of 20"]
    assert going.legend.english == "Cy no longer plays"
    seen = frozenset({"rebuy-or-drop:1:2", going.key})
    done = plan(before, change, Answers(seen=seen))
    assert isinstance(done, Planned) and done.record.rounds[1].hands == {"Ann": 5}


def test_a_change_a_later_round_cannot_hold_is_refused_with_the_questions_kept():
    before = _game(
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}},
            {"went_out": "Cy", "hands": {"Ann": 5, "Bob": 20}},
        ]
    )
    typed = {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}, "drops": ["Cy"]}
    refused = plan(before, propose(before, typed, number=1), Answers(confirmed=True))
    assert isinstance(refused, Open) and refused.refusal is not None
    assert refused.refusal.round == 2 and isinstance(refused.questions[0], RebuyOrDrop)


def test_waiting_joiners_join_the_round_added_and_a_correction_keeps_its_joins():
    before = _game([{"went_out": "Ann", "hands": {"Bob": 10, "Cy": 5}}])
    change = propose(before, {"went_out": "Ann", "hands": {"Bob": 1, "Cy": 2, "Dee": 3}},
                     number=None, waiting=[{"name": "Dee", "after": "Ann"}])  # fmt: skip
    assert isinstance(change, AddRound) and change.round.joins == ("Dee",)
    done = plan(before, change)
    assert isinstance(done, Planned) and done.standings.player("Dee").seat == 1
    later = propose(
        done.standings, {"went_out": "Ann", "hands": {"Bob": 1, "Cy": 2, "Dee": 4}}, number=2
    )
    assert isinstance(later, CorrectRound) and later.round.seated_after == (("Dee", "Ann"),)
    with pytest.raises(RecordError, match="there is no round 3 to edit"):
        propose(done.standings, {"went_out": "Ann", "hands": {}}, number=3)


def test_a_caller_that_asks_nothing_is_told_which_hand_is_missing():
    before = _game(
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}, "drops": ["Cy"]},
            {"went_out": "Bob", "hands": {"Ann": 5}},
        ]
    )
    change = propose(before, {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 100}}, number=1)
    open_ = plan(before, change, Answers(confirmed=True))
    assert isinstance(open_, Open)
    assert str(unanswered(open_)) == "round 2: no hand given for Cy"


# ------------------------------------------------------------------- the property ---
def _written_directly(
    base: GameRecord, number: int, rnd: Round, later_hands: dict[tuple[int, str], Hand]
) -> GameRecord:
    """The record a keeper would write by hand for the change: the round in its place;
    a drop undone: the player's hand added to each later round they had none in; a drop
    added: their later hands (and a later drop) taken off, up to the round they join again."""
    rounds = list(base.rounds)
    if number > len(rounds):
        return base.with_rounds([*rounds, rnd])
    stored = {name_key(n): n for n in rounds[number - 1].drops}
    now = {name_key(n): n for n in rnd.drops}
    rounds[number - 1] = rnd
    names = {name_key(p.name): p.name for p in base.players}
    for r in range(number + 1, len(rounds) + 1):
        held = rounds[r - 1]
        hands = dict(held.hands)
        for key in stored.keys() - now.keys():
            if key not in {name_key(n) for n in hands}:
                hands[names.get(key, stored[key])] = later_hands[(r, key)]
        rounds[r - 1] = replace(held, hands=hands)
    for key in now.keys() - stored.keys():
        for r in range(number + 1, len(rounds) + 1):
            held = rounds[r - 1]
            if key in {name_key(j) for j in held.joins}:
                break
            if key in {name_key(n) for n in held.hands}:
                rounds[r - 1] = replace(
                    held,
                    hands={n: h for n, h in held.hands.items() if name_key(n) != key},
                    drops=tuple(d for d in held.drops if name_key(d) != key),
                )
    return base.with_rounds(rounds)


def _expiring(before: Standings, number: int, rnd: Round, drop: dict[str, bool]) -> tuple[str, ...]:
    """Who expires in the round and may re-buy (the game goes on), among them those the
    keeper drops: read off a replay of the game up to the round, nobody dropping."""
    probe = replace(rnd, drops=())
    try:
        preview = replay(before.record.with_rounds([*before.record.rounds[: number - 1], probe]))
    except RecordError:
        return ()
    events = preview.rounds[number - 1].events
    rebuys = {e.player for e in events if e.kind == "rebuy"}
    return tuple(
        e.player for e in events if e.kind == "expire" and e.player in rebuys and drop[e.player]
    )


@st.composite
def changes(draw: st.DrawFn) -> tuple[Standings, dict[str, Any], int | None]:
    """A game, and a round typed for it: the next one, or a correction of a round played
    (the same players, other hands, maybe another who went out)."""
    before = load_game(draw(vegas_games()))
    rounds = before.record.rounds
    number = draw(st.none() | st.integers(1, len(rounds))) if rounds else None
    if number is None:
        playing = [p.name for p in before.players if p.in_contention]
    else:
        result = before.rounds[number - 1]
        playing = [*result.scores] + ([result.went_out] if result.went_out else [])
        playing = list(dict.fromkeys(playing))
    max_score = before.record.settings.max_score
    if number is not None and draw(st.integers(0, 3)):
        # Mostly the round as stored, a hand or two changed: its expiries (and drops)
        # stay, or one comes or goes.
        stored = rounds[number - 1].to_json()
        went_out = stored["went_out"]
        hands = {
            n: h if draw(st.integers(0, 3)) else draw(st.integers(0, max_score))
            for n, h in stored["hands"].items()
        }
        return before, {"went_out": went_out, "hands": hands}, number
    went_out = draw(st.sampled_from(playing)) if playing else None
    hands = {n: draw(st.integers(0, max_score)) for n in playing if n != went_out}
    return before, {"went_out": went_out, "hands": hands}, number


@settings(PROPERTY_SETTINGS, max_examples=300)
@given(changes(), st.data())
def test_a_plan_answered_and_applied_is_the_record_written_directly(change_, data):
    before, typed, number = change_
    if before.finished and number is None:
        return
    try:
        change = propose(before, typed, number=number)
    except RecordError:
        return  # not even a round of this game (e.g. nobody out where someone must be)
    drop = {
        n: data.draw(st.booleans(), label=f"drop {n}") for n in (p.name for p in before.players)
    }
    hand = st.integers(0, 30)
    later_hands = {
        (r, name_key(p.name)): data.draw(hand, label=f"round {r} {p.name}")
        for r in range(1, len(before.record.rounds) + 1)
        for p in before.players
    }
    values: dict[str, str] = {}
    seen: set[str] = set()
    outcome = plan(before, change)
    for _ in range(4):  # each answer may open the next question
        if isinstance(outcome, Planned) or not outcome.asking:
            break
        for q in outcome.questions:
            seen.add(q.key)
            if isinstance(q, RebuyOrDrop):
                for x in q.players:
                    values[f"expiry-{x.seat}"] = "drop" if drop[x.name] else "rebuy"
            for ask in q.asks:
                if isinstance(ask, HandBox):
                    values[ask.name] = str(later_hands[(ask.round, name_key(ask.player))])
        outcome = plan(before, change, Answers(values, frozenset(seen)))
    target = number or len(before.record.rounds) + 1
    rnd = replace(change.round, drops=_expiring(before, target, change.round, drop))
    expected = _written_directly(before.record, target, rnd, later_hands)
    try:
        standings = replay(expected)
    except RecordError:
        assert isinstance(outcome, Open) and outcome.refusal is not None
        return
    assert isinstance(outcome, Planned), outcome
    for q in outcome.questions:
        event(f"asked {q.kind}")
    assert outcome.record.to_json() == expected.to_json()
    assert outcome.standings.to_json() == standings.to_json()
    assert outcome.standings.to_json() == replay(outcome.record).to_json()
