"""Games: started (or imported from a record), deleted and restored, and their history."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import (
    Edit,
    Game,
    GameRound,
    Night,
    Seat,
    User,
    utcnow,
)
from ..rules import (
    GameRecord,
    RecordError,
    Standings,
    name_key,
    replay,
)
from ..rules.errors import say
from ..rules.record import read_json
from ..rules.seating import seating
from .base import (
    check_fresh,
    commit_change,
    commit_created,
    creating,
    transaction,
)
from .nights import MAX_GAMES_PER_NIGHT, find_or_add_person
from .regulars import add_missing_regulars, night_spellings
from .said_night import refuse
from .state import mark_changed


def history_page(game: Game, *, before: int | None, size: int) -> list[Edit]:
    """Up to ``size + 1`` of the game's changes, newest first, older than edit ``before``
    (the one more says whether there is an older page)."""
    query = select(Edit).where(Edit.game_id == game.id)
    if before is not None and 0 < before < 2**31:
        query = query.where(Edit.id < before)
    return list(db.session.scalars(query.order_by(Edit.id.desc()).limit(size + 1)))


# ------------------------------------------------------------------------- games ---
@transaction
def create_game(
    night: Night,
    *,
    variant: str,
    players: Sequence[tuple[str, int]],
    first_dealer: str,
    settings: dict[str, Any],
    user: User,
    rounds: Sequence[dict[str, Any]] = (),
    action: str = "create",
    submission: str | None = None,
) -> Game:
    """Check the record with the engine, then store the game (and its rounds on import).
    The same ``submission`` sent twice stores the game once (AlreadySent)."""
    with creating(user, submission):
        _check_room_for_games(night)
        record, standings = _checked_record(night, variant, players, first_dealer, settings,
                                            rounds)  # fmt: skip
        canonical = record.to_json()
        canonical["settings"]["currency"] = night.currency
        add_missing_regulars(night.owner_id, [p.name for p in standings.players])
        game = Game(
            night=night,
            variant=variant,
            settings=canonical["settings"],
            first_dealer=record.first_dealer,
            pending_joins=[],
        )
        db.session.add(game)
        _seat_players(game, night, record, standings)
        for number, rnd in enumerate(canonical["rounds"], 1):
            game.rounds.append(GameRound(number=number, data=rnd))
        db.session.add(Edit(game=game, user_id=user.id, action=action, after=json.dumps(canonical)))
        commit_created(user, submission, "game", game)
    return game


def _checked_record(
    night: Night,
    variant: str,
    players: Sequence[tuple[str, int]],
    first_dealer: str,
    settings: dict[str, Any],
    rounds: Sequence[dict[str, Any]],
) -> tuple[GameRecord, Standings]:
    """The new game's record, replayed by the engine, in the night's currency and its
    people's spelling: RecordError on anything wrong."""
    data = {
        "format": "scorekeeper-game/1",
        "variant": variant,
        "settings": settings,
        "players": [{"name": n, "handicap": h} if h else n for n, h in players],
        "first_dealer": first_dealer,
        "rounds": list(rounds),
    }
    record = GameRecord.from_json(data)
    if record.settings.currency != night.currency and "currency" in settings:
        raise RecordError(
            say("games.other_currency", currency=record.settings.currency, night=night.currency),
            field="currency",
        )
    return _in_night_spelling(night, record, replay(record))


def _seat_players(game: Game, night: Night, record: GameRecord, standings: Standings) -> None:
    """Every player at the seat the engine gave them, as the live app writes seats
    (``rules.seating``): a joiner of imported rounds seated after someone moves the
    players after them one on."""
    for seat in seating(record, standings):
        game.seats.append(
            Seat(
                person=find_or_add_person(night, seat.name),
                position=seat.position,
                handicap=seat.handicap,
                joined_round=seat.joined_round,
            )
        )


def _in_night_spelling(
    night: Night, record: GameRecord, standings: Standings
) -> tuple[GameRecord, Standings]:
    """The record with each player under the name the night's list holds them by (see
    ``night_spellings``), replayed again if a name changed. Two players who are one
    person on the list are refused: each person takes one seat."""
    names = [p.name for p in standings.players]
    spelled = night_spellings(night, names)
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name_key(spelled[name]), name)
        if other != name:
            raise RecordError(
                say("games.one_person", other=other, name=name, listed=spelled[name]),
                player=name,
                field="players",
            )
    changed = [(old, new) for old, new in spelled.items() if old != new]
    if not changed:
        return record, standings
    for old, new in changed:
        record = record.renamed(old, new)
    record = GameRecord.from_json(record.to_json())
    return record, replay(record)


def _check_room_for_games(night: Night) -> None:
    if len(night.games) >= MAX_GAMES_PER_NIGHT:
        raise refuse("games.most", most=MAX_GAMES_PER_NIGHT)


@transaction
def delete_game(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> None:
    """Delete a game: it leaves the night's pages and settlement, kept for a restore."""
    game_id = game.id
    check_fresh(game, expected_version, submission)
    game.deleted_at = utcnow()
    mark_changed(game)
    db.session.add(Edit(game=game, user_id=user.id, action="delete", submission=submission))
    commit_change(game_id, submission)


@transaction
def restore_game(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> None:
    game_id = game.id
    check_fresh(game, expected_version, submission)
    _check_room_for_games(game.night)
    game.deleted_at = None
    mark_changed(game)
    db.session.add(Edit(game=game, user_id=user.id, action="restore", submission=submission))
    commit_change(game_id, submission)


def import_game(night: Night, text: str, *, user: User, submission: str | None) -> Game:
    """A game record (JSON text) as a new game of the night, checked whole by replay: the
    record's currency must be the night's. Idempotent per ``submission``."""
    data = read_json(text)
    record = GameRecord.from_json(data)
    if record.settings.currency != night.currency:
        currency = record.settings.currency
        raise RecordError(say("import.currency", currency=currency, night=night.currency))
    given = frozenset((data.get("settings") or {}) if isinstance(data, dict) else {})
    return create_game(
        night,
        variant=record.variant,
        players=[(p.name, p.handicap) for p in record.players],
        first_dealer=record.first_dealer,
        settings=record.settings.to_json(given | {"currency"}),
        rounds=[r.to_json() for r in record.rounds],
        user=user,
        action="import",
        submission=submission,
    )
