"""A change to a game planned before anything is saved: a round added (with the late
joiners waiting for it), a round corrected (and with it a drop undone or added), folded
onto the game by the engine, with what the keeper must still be asked.

:func:`plan` is pure: the standings of the game as stored, the change and the keeper's
answers in; out comes either :class:`Planned` (the record and the standings once saved)
or :class:`Open` (the questions still open, the errors of answers given, or the rule the
change breaks). Asked in turn, each question's answer shaping the next:

1. :class:`RebuyOrDrop`: who expires in the round (Vegas), re-buy or drop out?
2. :class:`LaterHandsNeeded`: a correction undoes a drop, so the later rounds need the
   hands the player had;
3. :class:`HandsThatGo`: a correction adds a drop, so the player's later hands go.

Pool asks :class:`RejoinOrOut` where Vegas asks its expiries: who reaches the pool in the
round, rejoin or out? (or, when the rules allow no rejoin, why not).

The page shows them and sends the answers back; the service saves what was planned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import RecordError, Said, say
from .names import name_key
from .questions import (
    Answers,
    Expiry,
    GoneHand,
    HandsThatGo,
    LaterHand,
    LaterHandsNeeded,
    Question,
    RebuyOrDrop,
    RejoinOrOut,
)
from .record import GameRecord
from .replay import Standings, extend, replay
from .rounds import Hand, Round, parse_round


# ------------------------------------------------------------------- the changes ---
@dataclass(frozen=True, slots=True)
class AddRound:
    """The next round, its ``joins`` the late joiners waiting for it."""

    round: Round


@dataclass(frozen=True, slots=True)
class CorrectRound:
    """Round ``number`` as corrected; its joins stay as recorded."""

    number: int
    round: Round


Change = AddRound | CorrectRound


def propose(
    before: Standings,
    raw: Mapping[str, Any],
    *,
    number: int | None,
    waiting: Sequence[str | Mapping[str, Any]] = (),
) -> Change:
    """A round as typed (a record's round object) as a change: the next round
    (``number`` None; ``waiting``: the late joiners, who join in it) or a correction of
    round ``number``. Raises RecordError naming the round and player."""
    base = before.record
    if number is None:
        number = len(base.rounds) + 1
        if waiting and "joins" not in raw:
            raw = {**raw, "joins": list(waiting)}
        return AddRound(_parsed(before, raw, number))
    if not 1 <= number <= len(base.rounds):
        raise RecordError(say("plan.no_round", number=number), round=number)
    # The joins stay as recorded, with where each newcomer sat.
    stored = base.rounds[number - 1].to_json()
    raw = {**raw, "joins": stored.get("joins", [])}
    if "rejoins" in stored and "rejoins" not in raw:  # Pool: asked again, as stored
        raw["rejoins"] = stored["rejoins"]
    return CorrectRound(number, _parsed(before, raw, number))


def _parsed(before: Standings, raw: Mapping[str, Any], number: int) -> Round:
    variant = before.variant
    return parse_round(raw, number=number, variant=variant.name, card_codes=variant.card_codes)


# ------------------------------------------------------------------- the outcome ---
@dataclass(frozen=True, slots=True)
class Planned:
    """The change, every question answered: the round as it is saved (drops as
    chosen), the whole record once saved (later rounds changed too) and its standings."""

    number: int
    before: Standings
    round: Round
    record: GameRecord
    standings: Standings
    questions: tuple[Question, ...] = ()  # asked, and answered

    @property
    def appends(self) -> bool:
        return self.number > len(self.before.record.rounds)

    def later_changed(self) -> list[int]:
        """The later rounds this change rewrites (hands given or taken off)."""
        old, new = self.before.record.rounds, self.record.rounds
        return [
            n
            for n in range(self.number + 1, len(old) + 1)
            if new[n - 1].to_json() != old[n - 1].to_json()
        ]


@dataclass(frozen=True, slots=True)
class Open:
    """Not yet: the questions to show (answered ones too, with their answers), the
    errors of answers given, by field, or the rule the change breaks."""

    questions: tuple[Question, ...]
    errors: Mapping[str, Said]  # by field: what is wrong with an answer given
    refusal: RecordError | None = None

    @property
    def asking(self) -> bool:
        """Only asking (nothing wrong): the keeper answers and sends again."""
        return not self.errors and self.refusal is None


# ---------------------------------------------------------------------- the plan ---
def plan(before: Standings, change: Change, answers: Answers | None = None) -> Planned | Open:
    """Fold ``change`` onto the game (``before``: its standings as stored), asking what
    the keeper has not answered yet (``answers``)."""
    asked: list[Question] = []
    try:
        return _plan(before, change, answers or Answers(), asked)
    except RecordError as exc:
        return Open(tuple(asked), {}, exc)


def _plan(
    before: Standings, change: Change, answers: Answers, asked: list[Question]
) -> Planned | Open:
    base, typed = before.record, change.round
    number = change.number if isinstance(change, CorrectRound) else len(base.rounds) + 1
    appends = isinstance(change, AddRound)
    # Who expires and where a re-buy resets them depend only on the rounds before: the
    # round with nobody dropping says it.
    probe = replace(typed, drops=(), rejoins=())
    if appends:
        preview = extend(before, [probe])
    else:
        preview = replay(base.with_rounds([*base.rounds[: number - 1], probe]))
    seats = _seats(preview if appends else before)
    errors: dict[str, Said] = {}
    codes = before.variant.card_codes

    dropping = _drops(preview, number, typed, seats, answers, errors, asked)
    rejoining = _rejoins(preview, number, typed, seats, answers, errors, asked)
    if dropping is None or rejoining is None:
        return Open(tuple(asked), errors)
    rnd = replace(typed, drops=dropping, rejoins=rejoining)

    later: dict[int, dict[str, Hand]] = {}
    gone: tuple[GoneHand, ...] = ()
    if not appends:
        if needed := _later_needed(base, number, rnd, seats, before):
            question = LaterHandsNeeded(number, needed)
            asked.append(question)
            if (got := question.read(answers, codes, errors)) is None:
                return Open(tuple(asked), errors)
            later = question.given(got)
        if gone := _later_gone(base, number, rnd, seats):
            going = HandsThatGo(number, gone)
            asked.append(going)
            if going.read(answers, codes, errors) is None:
                return Open(tuple(asked), errors)

    record = _record(base, number, rnd, later, gone)
    if not appends:
        return Planned(number, before, rnd, record, replay(record), tuple(asked))
    # A round added is folded onto the standings as stored; with nobody dropping, the
    # preview is this very game.
    standings = preview if rnd == probe else extend(before, [rnd])
    return Planned(number, before, rnd, record, standings, tuple(asked))


def _seats(standings: Standings) -> dict[str, int]:
    return {name_key(p.name): p.seat for p in standings.players}


def _expiries(
    preview: Standings, number: int, typed: Round, seats: Mapping[str, int]
) -> tuple[Expiry, ...]:
    """Who expires in round ``number`` and, re-buying, where they go back to and at what
    cost (nobody, when the round ends the game)."""
    result = preview.rounds[number - 1]
    rebuys = {e.player: e for e in result.events if e.kind == "rebuy"}
    dropping = {name_key(n) for n in typed.drops}
    return tuple(
        Expiry(
            e.player,
            seats[name_key(e.player)],
            e.value or 0,
            rebuys[e.player].value or 0,
            -(rebuys[e.player].amount_cents or 0),
            name_key(e.player) in dropping,
        )
        for e in result.events
        if e.kind == "expire" and e.player in rebuys
    )


def _drops(
    preview: Standings,
    number: int,
    typed: Round,
    seats: Mapping[str, int],
    answers: Answers,
    errors: dict[str, Said],
    asked: list[Question],
) -> tuple[str, ...] | None:
    """Vegas: who drops out in round ``number``, asked of the keeper for each player who
    expires (None while the question is open); the round as typed when nobody does."""
    if not (expiring := _expiries(preview, number, typed, seats)):
        return typed.drops
    rebuy = RebuyOrDrop(number, expiring, preview.record.settings.currency)
    asked.append(rebuy)
    if (got := rebuy.read(answers, preview.variant.card_codes, errors)) is None:
        return None
    keys = {name_key(x.name) for x in expiring}
    kept = tuple(n for n in typed.drops if name_key(n) not in keys)
    return kept + rebuy.drops(got)


def _rejoins(
    preview: Standings,
    number: int,
    typed: Round,
    seats: Mapping[str, int],
    answers: Answers,
    errors: dict[str, Said],
    asked: list[Question],
) -> tuple[str, ...] | None:
    """Pool: who rejoins after round ``number``, asked of the keeper when someone reached
    the pool (None while the question is open); the round as typed when nobody did."""
    variant, settings = preview.variant, preview.record.settings
    offer = variant.rejoin_offer(preview.rounds[number - 1], settings)
    if offer is None:
        return typed.rejoins
    typed_keys = frozenset(name_key(n) for n in typed.rejoins)
    question = RejoinOrOut(offer, tuple(seats.items()), typed_keys, settings.currency)
    asked.append(question)
    if (got := question.read(answers, variant.card_codes, errors)) is None:
        return None
    return question.rejoins(got)


def _later_needed(
    base: GameRecord, number: int, rnd: Round, seats: Mapping[str, int], before: Standings
) -> tuple[LaterHand, ...]:
    """For each player who dropped out in round ``number`` as stored and, as corrected,
    re-buys instead: each later round they had no hand in (they play on)."""
    stored = {name_key(n) for n in base.rounds[number - 1].drops}
    now = {name_key(n) for n in rnd.drops}
    undropped = [p.name for p in before.players if name_key(p.name) in stored - now]
    return tuple(
        LaterHand(later, name, seats[name_key(name)])
        for name in undropped
        for later in range(number + 1, len(base.rounds) + 1)
        if name_key(name) not in {name_key(n) for n in base.rounds[later - 1].hands}
    )


def _later_gone(
    base: GameRecord, number: int, rnd: Round, seats: Mapping[str, int]
) -> tuple[GoneHand, ...]:
    """For each player who re-bought in round ``number`` as stored and, as corrected,
    drops out instead: their hands in the later rounds, up to the round they join again."""
    stored = {name_key(n) for n in base.rounds[number - 1].drops}
    gone = []
    for name in (n for n in rnd.drops if name_key(n) not in stored):
        key = name_key(name)
        for later in range(number + 1, len(base.rounds) + 1):
            held = base.rounds[later - 1]
            if key in {name_key(j) for j in held.joins}:
                break  # back at the table from this round on
            hand = next((h for n, h in held.hands.items() if name_key(n) == key), None)
            if hand is not None:
                gone.append(GoneHand(later, name, seats[key], hand))
    return tuple(gone)


def _record(
    base: GameRecord,
    number: int,
    rnd: Round,
    later: Mapping[int, Mapping[str, Hand]],
    gone: Sequence[GoneHand],
) -> GameRecord:
    """The record once the change is saved: the round added or put in its place, the
    later hands given added, and the later hands that go taken off (with their drop
    there, if they dropped again: a drop comes with a hand)."""
    rounds = list(base.rounds)
    if number > len(rounds):
        rounds.append(rnd)
    else:
        rounds[number - 1] = rnd
    for later_number, hands in later.items():
        held = rounds[later_number - 1]
        rounds[later_number - 1] = replace(held, hands={**held.hands, **hands})
    for g in gone:
        key, held = name_key(g.name), rounds[g.round - 1]
        rounds[g.round - 1] = replace(
            held,
            hands={n: h for n, h in held.hands.items() if name_key(n) != key},
            drops=tuple(d for d in held.drops if name_key(d) != key),
        )
    return base.with_rounds(rounds)


def unanswered(open_: Open) -> RecordError:
    """What a caller that asks nothing is told when a plan still needs an answer no
    default gives (a later round's hand of a player whose drop is undone)."""
    for question in open_.questions:
        if isinstance(question, LaterHandsNeeded):
            first = question.hands[0]
            return RecordError(
                say("round.no_hand", player=first.name),
                round=first.round,
                player=first.name,
                field="hands",
            )
    return RecordError(say("plan.needs_answer"), round=None)
