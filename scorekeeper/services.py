"""What the views ask of the database: each function is one transaction that commits
or changes nothing. Every change to a game is checked by replaying its whole record with
the rules engine before it is written, and kept in the game's history."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from .extensions import db
from .models import Edit, Game, GameRound, Night, Person, Seat, User, utcnow
from .rules import GameRecord, RecordError, Standings, get_variant, name_key, parse_round, replay
from .rules.record import clean_name


class Conflict(Exception):
    """The game changed since the keeper's form was rendered (another phone saved)."""


class Duplicate(Exception):
    """This submission was already recorded (a double tap or a retry); ``round_number``
    is the round it saved (None for a change that is not about one round)."""

    def __init__(self, round_number: int | None = None) -> None:
        super().__init__(round_number)
        self.round_number = round_number


def _recorded(game_id: int, submission: str | None) -> bool | int | None:
    """False when the submission is new; otherwise the round it recorded (or None)."""
    if not submission:
        return False
    row = db.session.execute(
        select(Edit.id, Edit.round_number).where(
            Edit.game_id == game_id, Edit.submission == submission
        )
    ).first()
    return False if row is None else row.round_number


_STANDINGS: OrderedDict[str, Standings] = OrderedDict()
_STANDINGS_LOCK = threading.Lock()
STANDINGS_CACHE_SIZE = 256


def standings_for(game: Game) -> Standings:
    """The game's standings: its record replayed. Replays are kept by a hash of the whole
    record, so a sheet viewed again (by any viewer) skips parsing and replaying, and a
    changed record can never be answered from the cache."""
    data = game.record_json()
    key = hashlib.sha256(
        json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    with _STANDINGS_LOCK:
        cached = _STANDINGS.get(key)
        if cached is not None:
            _STANDINGS.move_to_end(key)
            return cached
    standings = replay(GameRecord.from_json(data))
    with _STANDINGS_LOCK:
        _STANDINGS[key] = standings
        while len(_STANDINGS) > STANDINGS_CACHE_SIZE:
            _STANDINGS.popitem(last=False)
    return standings


def load_game(game_id: int, owner: User) -> Game | None:
    """A game with its seats and rounds in a fixed number of queries, owner only."""
    game = db.session.scalars(
        select(Game)
        .join(Night)
        .where(Game.id == game_id, Night.owner_id == owner.id)
        .options(
            selectinload(Game.seats).joinedload(Seat.person),
            selectinload(Game.rounds),
        )
    ).first()
    return game


def game_version(game_id: int, owner: User) -> int | None:
    """One small query: the game's version, if it is the owner's (for conditional GETs)."""
    return db.session.scalar(
        select(Game.version).join(Night).where(Game.id == game_id, Night.owner_id == owner.id)
    )


def load_night(night_id: int, owner: User) -> Night | None:
    """A night with its people and games (seats and rounds too), in a fixed number of
    queries however many games it holds; owner only."""
    games = selectinload(Night.games)
    return db.session.scalars(
        select(Night)
        .where(Night.id == night_id, Night.owner_id == owner.id)
        .options(
            selectinload(Night.people),
            games.selectinload(Game.seats).joinedload(Seat.person),
            games.selectinload(Game.rounds),
        )
    ).first()


# ------------------------------------------------------------------------ nights ---
def create_night(
    owner: User, *, name: str, played_on: date, currency: str, paper: str, people: Sequence[str]
) -> Night:
    night = Night(owner=owner, name=name, played_on=played_on, currency=currency, paper=paper)
    db.session.add(night)
    seen: set[str] = set()
    for raw in people:
        person_name = clean_name(raw, what="name")
        if name_key(person_name) in seen:
            raise RecordError(f"{person_name} is listed twice", player=person_name)
        seen.add(name_key(person_name))
        night.people.append(Person(name=person_name, name_key=name_key(person_name)))
    db.session.commit()
    return night


def add_person(night: Night, raw_name: str) -> Person:
    person_name = clean_name(raw_name, what="name")
    if any(p.name_key == name_key(person_name) for p in night.people):
        raise RecordError(f"{person_name} is already on tonight's list", player=person_name)
    person = Person(name=person_name, name_key=name_key(person_name))
    night.people.append(person)
    db.session.commit()
    return person


def find_or_add_person(night: Night, raw_name: str) -> Person:
    person_name = clean_name(raw_name, what="name")
    for p in night.people:
        if p.name_key == name_key(person_name):
            return p
    person = Person(name=person_name, name_key=name_key(person_name))
    night.people.append(person)
    return person


def rename_person(night: Night, person: Person, raw_name: str, user: User) -> None:
    """Rename someone everywhere: the roster and every round of the night's games."""
    new = clean_name(raw_name, what="name")
    old = person.name
    if new == old:
        return
    if any(p.name_key == name_key(new) and p is not person for p in night.people):
        raise RecordError(f"{new} is already on tonight's list", player=new)

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return new if name_key(value) == person.name_key else value
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {swap(k): swap(v) for k, v in value.items()}
        return value

    for game in night.games:
        if not any(s.person_id == person.id for s in game.seats):
            continue
        game.first_dealer = swap(game.first_dealer)
        game.pending_joins = swap(game.pending_joins)
        for rnd in game.rounds:
            rnd.data = swap(rnd.data)
        game.updated_at = utcnow()
        db.session.add(
            Edit(
                game=game,
                user_id=user.id,
                action="rename",
                before=json.dumps(old),
                after=json.dumps(new),
            )
        )
    person.rename(new)
    db.session.commit()


# ------------------------------------------------------------------------- games ---
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
) -> Game:
    """Check the record with the engine, then store the game (and its rounds on import)."""
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
            f"this game is in {record.settings.currency} but the night is in {night.currency}",
            field="currency",
        )
    standings = replay(record)
    canonical = record.to_json()
    canonical["settings"]["currency"] = night.currency
    game = Game(
        night=night,
        variant=variant,
        settings=canonical["settings"],
        first_dealer=record.first_dealer,
        pending_joins=[],
    )
    db.session.add(game)
    for position, spec in enumerate(record.players):
        game.seats.append(
            Seat(
                person=find_or_add_person(night, spec.name),
                position=position,
                handicap=spec.handicap,
            )
        )
    for player in standings.players[len(record.players) :]:
        game.seats.append(
            Seat(
                person=find_or_add_person(night, player.name),
                position=player.seat,
                joined_round=player.joined_round,
            )
        )
    for number, rnd in enumerate(canonical["rounds"], 1):
        game.rounds.append(GameRound(number=number, data=rnd))
    db.session.add(Edit(game=game, user_id=user.id, action=action, after=json.dumps(canonical)))
    db.session.commit()
    return game


def _commit_change(game_id: int, submission: str | None) -> None:
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        recorded = _recorded(game_id, submission)
        if recorded is not False:
            raise Duplicate(recorded) from None
        raise Conflict from None


def _check_fresh(game: Game, expected_version: int | None, submission: str | None) -> None:
    recorded = _recorded(game.id, submission)
    if recorded is not False:
        raise Duplicate(recorded)
    if expected_version is not None and game.version != expected_version:
        raise Conflict


def with_pending_joins(game: Game, round_data: dict[str, Any]) -> dict[str, Any]:
    """The next round as it will be saved: Vegas late joiners waiting for it join in it."""
    if game.variant != "vegas" or not game.pending_joins or "joins" in round_data:
        return round_data
    return {**round_data, "joins": list(game.pending_joins)}


def save_round(
    game: Game,
    round_data: dict[str, Any],
    *,
    number: int | None,
    expected_version: int | None,
    submission: str | None,
    user: User,
) -> Standings:
    """Add a round (``number`` None) or replace round ``number``; everything after it is
    recomputed by the replay. Raises RecordError, Conflict or Duplicate, writing nothing."""
    game_id = game.id
    _check_fresh(game, expected_version, submission)
    old = standings_for(game).record  # parsed once per record, then cached
    rounds = list(old.rounds)
    if number is None:
        number = len(rounds) + 1
        round_data = with_pending_joins(game, round_data)
    elif not 1 <= number <= len(rounds):
        raise RecordError(f"there is no round {number} to edit", round=number)
    new_round = parse_round(
        round_data,
        number=number,
        variant=game.variant,
        card_codes=get_variant(game.variant).card_codes,
    )
    if number > len(rounds):
        rounds.append(new_round)
    else:
        rounds[number - 1] = new_round
    record = old.with_rounds(rounds)
    standings = replay(record)
    stored = new_round.to_json()
    if number > len(game.rounds):
        game.rounds.append(GameRound(number=number, data=stored))
        before = None
        action = "add"
        game.pending_joins = []
    else:
        row = game.rounds[number - 1]
        before = json.dumps(row.data)
        row.data = stored
        action = "edit"
    _sync_seats(game, standings)
    game.updated_at = utcnow()
    db.session.add(
        Edit(
            game=game,
            user_id=user.id,
            action=action,
            round_number=number,
            before=before,
            after=json.dumps(stored),
            submission=submission,
        )
    )
    _commit_change(game_id, submission)
    return standings


def remove_last_round(
    game: Game, *, expected_version: int | None, submission: str | None, user: User
) -> int:
    game_id = game.id
    _check_fresh(game, expected_version, submission)
    if not game.rounds:
        raise RecordError("there is no round to remove")
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
    game.updated_at = utcnow()
    _commit_change(game_id, submission)
    return number


def _sync_seats(game: Game, standings: Standings) -> None:
    """Late joiners get seats; seats of joins that no longer happen are removed."""
    by_position = {s.position: s for s in game.seats}
    wanted = {p.seat: p for p in standings.players}
    for position, seat in list(by_position.items()):
        if position not in wanted:
            game.seats.remove(seat)
            db.session.delete(seat)
    for position, player in wanted.items():
        seat = by_position.get(position)
        if seat is None:
            game.seats.append(
                Seat(
                    person=find_or_add_person(game.night, player.name),
                    position=position,
                    joined_round=player.joined_round,
                )
            )
        elif seat.joined_round:
            seat.joined_round = player.joined_round or seat.joined_round


def set_pending_joins(
    game: Game, names: Sequence[str], *, expected_version: int | None, user: User
) -> None:
    """Vegas: who joins at the start of the next round (saved with that round)."""
    game_id = game.id
    _check_fresh(game, expected_version, None)
    game.pending_joins = list(names)
    game.updated_at = utcnow()
    db.session.add(Edit(game=game, user_id=user.id, action="joins", after=json.dumps(list(names))))
    _commit_change(game_id, None)
