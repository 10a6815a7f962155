"""Rounds: planned by the engine (``rules.plan``: what a round does to the game and what
the keeper must still be asked), saved (a new round at the end by ``state.append_round``,
anything else through the ORM), undone; and late joiners waiting for the next round."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
from ..rules import Standings, name_key, replay, table
from ..rules.errors import say
from ..rules.names import MAX_NAME_LENGTH, clean_name
from ..rules.plan import Open, Planned, plan, propose, unanswered
from ..rules.questions import Answers
from ..rules.rounds import join_name
from .base import check_fresh, commit_change, transaction
from .nights import find_or_add_person
from .regulars import night_spellings
from .said_night import refuse
from .state import append_round, keep_saved, mark_changed, standings_for


def plan_round(
    game: Game,
    round_data: Mapping[str, Any],
    *,
    number: int | None,
    answers: Answers | None = None,
    standings: Standings | None = None,
) -> Planned | Open:
    """The engine's plan of a typed round (``number`` None: the next one, which the late
    joiners waiting join in) on the game as stored: what it saves, or what the keeper
    must still be asked (:func:`rules.plan.plan`). Raises RecordError naming the round and
    player when the round itself cannot be read. ``standings``: the game's, when the
    caller has them already."""
    # Parsed and replayed once per record, then cached.
    before = standings if standings is not None else standings_for(game)
    waiting = game.pending_joins if number is None else ()
    return plan(before, propose(before, round_data, number=number, waiting=waiting), answers)


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
    round (nothing asked): :func:`plan_round` and :func:`save_planned_round` in one call."""
    planned = plan_round(game, round_data, number=number, answers=Answers(confirmed=True))
    if isinstance(planned, Open):
        raise planned.refusal or unanswered(planned)
    return save_planned_round(
        game, planned, expected_version=expected_version, submission=submission, user=user
    )


@transaction
def save_planned_round(
    game: Game,
    plan: Planned,
    *,
    expected_version: int | None,
    submission: str | None,
    user: User,
) -> Standings:
    """Add or replace the planned round; everything after it is recomputed by the replay.
    Raises RecordError (naming the round it breaks), Conflict or AlreadySent, writing
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
            plan.standings,
            submission=submission,
            user=user,
        )
        ROUNDS_SAVED.labels(change="new").inc()
        return appended
    game_id = game.id
    check_fresh(game, expected_version, submission)
    standings = plan.standings
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


def _write_later(game: Game, plan: Planned, user: User) -> None:
    """The later rounds a correction changes (hands given for a drop undone, taken off
    for a drop added), each with its own line in the history, in the same transaction as
    the correction."""
    for number in plan.later_changed():
        row = game.rounds[number - 1]
        stored = plan.record.rounds[number - 1].to_json()
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


def _write_round(game: Game, plan: Planned, standings: Standings) -> tuple[str, str | None, str]:
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
        raise refuse("rounds.none_to_remove")
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
    people = [p.name for p in game.night.people]
    return table.join_candidates(standings, game.pending_joins, people)


def seat_choices(game: Game, standings: Standings) -> list[str]:
    """Whom a newcomer can sit after (``rules.table.seat_choices``)."""
    return table.seat_choices(standings, game.pending_joins)


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
    keeps their own seat); returns the name as it will be written. Raises Refused or
    RecordError with a sentence, Conflict."""
    standings = standings_for(game)
    if not raw_name.strip():
        raise refuse("joins.choose")
    name = clean_name(raw_name, what=say("joins.the_name"))
    name = night_spellings(game.night, [name])[name]  # "ann." is Ann if the night has her
    entry = table.planned_join(standings, game.pending_joins, name, after)
    _set_pending_joins(game, [*game.pending_joins, entry], expected_version, user)
    return name


@transaction
def cancel_joiner(game: Game, name: str, *, expected_version: int | None, user: User) -> None:
    key = name_key(name)
    if not any(name_key(join_name(n)) == key for n in game.pending_joins):
        raise refuse("joins.not_joining", name=name[:MAX_NAME_LENGTH])
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
