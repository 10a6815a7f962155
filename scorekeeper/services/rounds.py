"""Rounds: planned (checked by the engine up to the round, with the money moments it
brings), saved (a new round at the end by ``state.append_round``, anything else through the
ORM), undone; and late joiners waiting for the next round."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..extensions import db
from ..metrics import ROUNDS_SAVED
from ..models import (
    Edit,
    Game,
    GameRound,
    Seat,
    User,
)
from ..rules import (
    GameRecord,
    RecordError,
    Round,
    Standings,
    extend,
    get_variant,
    name_key,
    parse_round,
    replay,
)
from ..rules.names import MAX_NAME_LENGTH, clean_name
from ..rules.rounds import MAX_PLAYERS, Hand, join_name
from .base import Refused, check_fresh, commit_change, transaction
from .nights import find_or_add_person
from .regulars import night_spellings
from .state import append_round, keep_saved, mark_changed, standings_for


def with_pending_joins(game: Game, round_data: dict[str, Any]) -> dict[str, Any]:
    """The next round as it will be saved: late joiners waiting for it join in it."""
    if not game.pending_joins or "joins" in round_data:
        return round_data
    return {**round_data, "joins": list(game.pending_joins)}


@dataclass(frozen=True)
class Expiry:
    """A player who reaches the max in the round being entered, if they re-buy."""

    name: str
    reached: int
    reset: int  # the total a re-buy sets them back to
    fee: int  # what a re-buy costs, in cents


@dataclass(frozen=True)
class RoundPlan:
    """A round as typed, checked against the game up to itself, before it is saved.

    ``before`` is the game as stored. ``preview`` is the game up to this round with
    nobody dropping in it: it says who expires in it and where a re-buy resets them to
    (which depend only on the rounds before), so the keeper can choose re-buy or drop
    before anything is saved. When the round is saved as previewed (a new round, no
    drop), the save reuses this replay."""

    number: int
    before: Standings
    round: Round
    preview: Standings
    #: Hands added to later rounds, by round number: a player whose drop this correction
    #: undoes plays on, so each later round gets the hand they had (asked for on the form).
    later: Mapping[int, Mapping[str, Hand]] = field(default_factory=dict)

    @property
    def base(self) -> GameRecord:
        return self.before.record

    @property
    def appends(self) -> bool:
        return self.number > len(self.base.rounds)

    def standings(self) -> Standings:
        """The game once the round is saved: a new round is folded onto the stored game's
        standings, a corrected one replays the game from the start."""
        if not self.appends:
            return replay(self.record())
        if self.round == self.preview.record.rounds[-1]:  # the preview is this very game
            return self.preview
        return extend(self.before, [self.round])

    def expiries(self) -> list[Expiry]:
        result = self.preview.rounds[self.number - 1]
        rebuys = {e.player: e for e in result.events if e.kind == "rebuy"}
        return [
            Expiry(
                e.player,
                e.value or 0,
                rebuys[e.player].value or 0,
                -(rebuys[e.player].amount_cents or 0),
            )
            for e in result.events
            if e.kind == "expire" and e.player in rebuys
        ]

    def with_drops(self, names: Sequence[str]) -> RoundPlan:
        return replace(self, round=replace(self.round, drops=tuple(names)))

    def undropped(self) -> list[str]:
        """Who dropped out in this round as stored and, as corrected, re-buys instead."""
        if self.appends:
            return []
        stored = {name_key(n) for n in self.base.rounds[self.number - 1].drops}
        now = {name_key(n) for n in self.round.drops}
        return [p.name for p in self.before.players if name_key(p.name) in stored - now]

    def later_hands_needed(self) -> list[tuple[int, str]]:
        """(round, player) for each later round a player this correction keeps in the game
        had no hand in: they play on, so the keeper gives those hands."""
        return [
            (number, name)
            for name in self.undropped()
            for number in range(self.number + 1, len(self.base.rounds) + 1)
            if name_key(name) not in {name_key(n) for n in self.base.rounds[number - 1].hands}
        ]

    def with_later(self, later: Mapping[int, Mapping[str, Hand]]) -> RoundPlan:
        return replace(self, later=later)

    def dropped_now(self) -> list[str]:
        """Who re-bought in this round as stored and, as corrected, drops out instead."""
        if self.appends:
            return []
        stored = {name_key(n) for n in self.base.rounds[self.number - 1].drops}
        return [n for n in self.round.drops if name_key(n) not in stored]

    def later_hands_gone(self) -> list[tuple[int, str, Hand]]:
        """(round, player, hand) for each later hand of a player this correction drops
        out: they no longer play, so those hands go, up to the round they join again (the
        keeper confirms first). Their later drop, if any, goes with them."""
        gone = []
        for name in self.dropped_now():
            key = name_key(name)
            for number in range(self.number + 1, len(self.base.rounds) + 1):
                rnd = self.base.rounds[number - 1]
                if key in {name_key(j) for j in rnd.joins}:
                    break  # back at the table from this round on
                hand = next((h for n, h in rnd.hands.items() if name_key(n) == key), None)
                if hand is not None:
                    gone.append((number, name, hand))
        return gone

    def _without_dropped(self, rounds: list[Round]) -> None:
        """Take the later hands of who this correction drops out off ``rounds``, and their
        drop there if they dropped again (a drop comes with a hand: they expired in it)."""
        for number, name, _ in self.later_hands_gone():
            key, rnd = name_key(name), rounds[number - 1]
            rounds[number - 1] = replace(
                rnd,
                hands={n: h for n, h in rnd.hands.items() if name_key(n) != key},
                drops=tuple(d for d in rnd.drops if name_key(d) != key),
            )

    def record(self) -> GameRecord:
        rounds = list(self.base.rounds)
        if self.appends:
            rounds.append(self.round)
        else:
            rounds[self.number - 1] = self.round
        for number, hands in self.later.items():
            rnd = rounds[number - 1]
            rounds[number - 1] = replace(rnd, hands={**rnd.hands, **hands})
        self._without_dropped(rounds)
        return self.base.with_rounds(rounds)


def plan_round(
    game: Game,
    round_data: dict[str, Any],
    *,
    number: int | None,
    standings: Standings | None = None,
) -> RoundPlan:
    """Check a typed round (``number`` None: the next one) up to itself; raises
    RecordError naming the round and player. Waiting Vegas joiners join a new round; a
    correction keeps the round's joins (they are made on the join page). ``standings``:
    the game's, when the caller has them already."""
    # Parsed and replayed once per record, then cached.
    before = standings if standings is not None else standings_for(game)
    base = before.record
    if number is None:
        number = len(base.rounds) + 1
        round_data = with_pending_joins(game, round_data)
    elif not 1 <= number <= len(base.rounds):
        raise RecordError(f"there is no round {number} to edit", round=number)
    else:
        # The joins stay as recorded, with where each newcomer sat.
        round_data = {**round_data, "joins": base.rounds[number - 1].to_json().get("joins", [])}
    variant = get_variant(game.variant)
    typed = parse_round(
        round_data, number=number, variant=game.variant, card_codes=variant.card_codes
    )
    probe = replace(typed, drops=())
    if number > len(base.rounds):
        preview = extend(before, [probe])
    else:
        preview = replay(base.with_rounds([*base.rounds[: number - 1], probe]))
    return RoundPlan(number, before, typed, preview)


def save_round(
    game: Game,
    round_data: dict[str, Any],
    *,
    number: int | None,
    expected_version: int | None,
    submission: str | None,
    user: User,
) -> Standings:
    """Add a round (``number`` None) or replace round ``number``, drops as given in the
    round: :func:`plan_round` and :func:`save_planned_round` in one call."""
    plan = plan_round(game, round_data, number=number)
    plan = plan.with_drops(tuple(round_data.get("drops") or ()))
    return save_planned_round(
        game, plan, expected_version=expected_version, submission=submission, user=user
    )


@transaction
def save_planned_round(
    game: Game,
    plan: RoundPlan,
    *,
    expected_version: int | None,
    submission: str | None,
    user: User,
) -> Standings:
    """Add or replace the planned round; everything after it is recomputed by the replay.
    Raises RecordError (naming the round it breaks), Conflict or Duplicate, writing
    nothing. The standings it makes are kept for the sheet shown after the redirect."""
    if (
        plan.appends
        and not plan.round.joins
        and not game.pending_joins
        and expected_version in (None, game.version)
    ):
        appended = append_round(
            game,
            plan.number,
            plan.round.to_json(),
            plan.standings(),
            submission=submission,
            user=user,
        )
        ROUNDS_SAVED.labels(change="new").inc()
        return appended
    game_id = game.id
    check_fresh(game, expected_version, submission)
    standings = plan.standings()
    action, before, after = _write_round(game, plan, standings)
    db.session.add(
        Edit(
            game=game,
            user_id=user.id,
            action=action,
            round_number=plan.number,
            before=before,
            after=after,
            submission=submission,
        )
    )
    _write_later(game, plan, user)
    created_at = game.created_at
    version = commit_change(game_id, submission, game)
    ROUNDS_SAVED.labels(change="new" if plan.appends else "correction").inc()
    keep_saved(game_id, created_at, version, standings, len(after))
    return standings


def _write_later(game: Game, plan: RoundPlan, user: User) -> None:
    """The later rounds a correction changes (hands given for a drop undone, taken off
    for a drop added), each with its own line in the history, in the same transaction as
    the correction."""
    if plan.appends:
        return
    record = plan.record()
    for number in range(plan.number + 1, len(record.rounds) + 1):
        row = game.rounds[number - 1]
        stored = record.rounds[number - 1].to_json()
        if stored == plan.base.rounds[number - 1].to_json():
            continue
        before = json.dumps(row.data)
        row.data = stored
        db.session.add(
            Edit(
                game=game,
                user_id=user.id,
                action="edit",
                round_number=number,
                before=before,
                after=json.dumps(stored),
            )
        )


def _write_round(game: Game, plan: RoundPlan, standings: Standings) -> tuple[str, str | None, str]:
    """Put the planned round in its row (a new one, or the one it corrects) and the seats
    in line with it. Returns the history's action and the round before and after."""
    stored = plan.round.to_json()
    if plan.appends:
        # Beside the rounds, not through ``game.rounds``: a game whose standings were
        # found by its stamp has loaded no round, and the new one needs none of them.
        db.session.add(GameRound(game=game, number=plan.number, data=stored))
        before, action = None, "add"
        game.pending_joins = []
    else:
        row = game.rounds[plan.number - 1]
        before, action = json.dumps(row.data), "edit"
        row.data = stored
    if action == "edit" or plan.round.joins:  # seats change only when someone joins
        _sync_seats(game, standings)
    mark_changed(game)
    return action, before, json.dumps(stored)


@transaction
def remove_last_round(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> int:
    game_id = game.id
    check_fresh(game, expected_version, submission)
    if not game.rounds:
        raise Refused("there is no round to remove")
    row = game.rounds[-1]
    number = row.number
    record = standings_for(game).record
    standings = replay(record.with_rounds(record.rounds[:-1]))
    db.session.add(
        Edit(
            game=game,
            user_id=user.id,
            action="remove",
            round_number=number,
            before=json.dumps(row.data),
            submission=submission,
        )
    )
    game.rounds.remove(row)
    db.session.delete(row)
    _sync_seats(game, standings)
    mark_changed(game)
    commit_change(game_id, submission)
    return number


def _sync_seats(game: Game, standings: Standings) -> None:
    """Seats follow the standings: late joiners get seats, seats of joins that no longer
    happen are removed, and seats move on when a newcomer sat down between two players.
    Matched by person; a moved seat passes through a free position first, so two seats
    never hold one position (unique per game), whatever order the rows are written in."""
    wanted = {name_key(p.name): p for p in standings.players}
    seats = {s.person.name_key: s for s in game.seats}
    gone = [s for key, s in seats.items() if key not in wanted]
    for seat in gone:
        game.seats.remove(seat)
        db.session.delete(seat)
    moved = [s for key, s in seats.items() if key in wanted and s.position != wanted[key].seat]
    if gone or moved:
        for seat in moved:
            seat.position = -1 - seat.position
        db.session.flush()
        for seat in moved:
            seat.position = wanted[seat.person.name_key].seat
    for key, player in wanted.items():
        seated = seats.get(key)
        if seated is None:
            game.seats.append(
                Seat(
                    person=find_or_add_person(game.night, player.name),
                    position=player.seat,
                    joined_round=player.joined_round,
                )
            )
        elif seated.joined_round:
            seated.joined_round = player.joined_round or seated.joined_round


def join_candidates(game: Game, standings: Standings) -> list[str]:
    """The night's people who could join the game next round."""
    playing = {name_key(p.name) for p in standings.players if p.in_contention}
    waiting = {name_key(join_name(n)) for n in game.pending_joins}
    return [p.name for p in game.night.people if p.name_key not in playing | waiting]


def seat_choices(game: Game, standings: Standings) -> list[str]:
    """Whom a newcomer can sit after: the players at the table next round, clockwise from
    the first seat, then those joining before them."""
    at_table = sorted((p for p in standings.players if p.in_contention), key=lambda p: p.seat)
    return [p.name for p in at_table] + [join_name(n) for n in game.pending_joins]


@transaction
def add_joiner(
    game: Game,
    raw_name: str,
    *,
    after: str = "",
    expected_version: int | None,
    user: User,
) -> str:
    """Someone joins at the start of the next round (saved with that round), sitting
    right after ``after`` (a newcomer; empty: after the last seat; someone coming back
    keeps their own seat); returns the name as it will be written. Raises Refused with a
    sentence, Conflict."""
    standings = standings_for(game)
    if not raw_name.strip():
        raise Refused("Choose who joins, or type a new name.")
    name = clean_name(raw_name, what="the name")
    name = night_spellings(game.night, [name])[name]  # "ann." is Ann if the night has her
    key = name_key(name)
    waiting = [join_name(n) for n in game.pending_joins]
    if any(name_key(p.name) == key and p.in_contention for p in standings.players):
        raise Refused(f"{name} is already in the game.")
    if any(name_key(n) == key for n in waiting):
        raise Refused(f"{name} is already joining next round.")
    if len(standings.players) + len(waiting) >= MAX_PLAYERS:
        raise Refused(f"A game takes at most {MAX_PLAYERS} players.")
    entry: str | dict[str, str] = name
    returning = any(name_key(p.name) == key for p in standings.players)
    if after and not returning:
        neighbour = next(
            (n for n in seat_choices(game, standings) if name_key(n) == name_key(after)), None
        )
        if neighbour is None:
            raise Refused(f"Choose whom {name} sits after from the players at the table.")
        entry = {"name": name, "after": neighbour}
    _set_pending_joins(game, [*game.pending_joins, entry], expected_version, user)
    return name


@transaction
def cancel_joiner(game: Game, name: str, *, expected_version: int | None, user: User) -> None:
    key = name_key(name)
    if not any(name_key(join_name(n)) == key for n in game.pending_joins):
        raise Refused(f"{name[:MAX_NAME_LENGTH]} is not joining next round.")
    waiting = [n for n in game.pending_joins if name_key(join_name(n)) != key]
    # Whoever was to sit after the one who no longer joins sits after the last seat.
    waiting = [
        join_name(n) if isinstance(n, dict) and name_key(n["after"]) == key else n for n in waiting
    ]
    _set_pending_joins(game, waiting, expected_version, user)


def _set_pending_joins(
    game: Game, names: Sequence[str | dict[str, str]], expected_version: int | None, user: User
) -> None:
    game_id = game.id
    check_fresh(game, expected_version, None)
    game.pending_joins = list(names)
    mark_changed(game)
    db.session.add(Edit(game=game, user_id=user.id, action="joins", after=json.dumps(list(names))))
    commit_change(game_id, None)
