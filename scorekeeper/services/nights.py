"""Card nights: made, their people added and renamed, deleted and restored, how their money
is written, and the games of a night as the pages and the ledger read them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..models import (
    Edit,
    Game,
    LedgerEntry,
    Night,
    Person,
    Regular,
    Seat,
    User,
    utcnow,
)
from ..rules import (
    RecordError,
    Standings,
    name_key,
    replay,
)
from ..rules.errors import Said, say
from ..rules.names import clean_name
from .base import (
    Conflict,
    commit_created,
    commit_plain,
    creating,
    lock_games,
    transaction,
)
from .keepers import kept_by
from .regulars import add_missing_regulars, keeping_as, new_person
from .said_night import refuse
from .state import mark_changed, standings_for

# Limits a real card night never meets; beyond them a keeper is told so in a sentence, and
# no page of a night (which replays every game of it) can grow without bound.
MAX_GAMES_PER_NIGHT = 50


MAX_PEOPLE_PER_NIGHT = 60


def owned_night(
    night_id: int, user: User, *, deleted: bool = False, owner_only: bool = False
) -> Night | None:
    """A night with its people and games (seats and rounds too), in a fixed number of
    queries however many games it holds; one ``user`` may keep (its owner or a
    co-keeper; the owner alone with ``owner_only``); a deleted night only when asked."""
    games = selectinload(Night.games)
    query = (
        select(Night)
        .where(Night.id == night_id, kept_by(user.id, owner_only=owner_only))
        .options(
            selectinload(Night.people),
            games.selectinload(Game.seats).joinedload(Seat.person),
            games.selectinload(Game.rounds),
        )
    )
    if not deleted:
        query = query.where(Night.deleted_at.is_(None))
    keeping_as(user.id)
    return db.session.scalars(query).first()


def night_games(night: Night) -> list[tuple[str, Standings]]:
    """The night's games that count (not deleted), as (title, standings), in play order."""
    return [(game.title, standings_for(game)) for game in night.games]


# ------------------------------------------------------------------------ nights ---
@transaction
def create_night(
    owner: User,
    *,
    name: str,
    played_on: date,
    currency: str,
    paper: str,
    people: Sequence[str],
    locale: str = "en",
    submission: str | None = None,
) -> Night:
    with creating(owner, submission):
        if len(people) > MAX_PEOPLE_PER_NIGHT:
            raise refuse("nights.most_people", most=MAX_PEOPLE_PER_NIGHT)
        typed = [clean_name(raw, what="name") for raw in people]
        night = Night(
            owner=owner, name=name, played_on=played_on, currency=currency, paper=paper,
            locale=locale,
        )  # fmt: skip
        db.session.add(night)
        db.session.flush()  # the night's owner id, for its regulars
        add_missing_regulars(owner.id, typed)
        seen: list[Regular] = []
        for each in typed:
            person = new_person(night, each)
            regular = person.regular
            if person.name_key in {p.name_key for p in night.people} or any(
                r is regular for r in seen
            ):
                raise refuse("nights.twice", name=each)
            seen.append(regular)
            night.people.append(person)
        commit_created(owner, submission, "night", night)
    return night


def _check_room_for_people(night: Night, adding: int = 1) -> None:
    if len(night.people) + adding > MAX_PEOPLE_PER_NIGHT:
        raise refuse("nights.most_people_more", most=MAX_PEOPLE_PER_NIGHT)


@transaction
def add_person(night: Night, raw_name: str, *, user: User, submission: str | None = None) -> Person:
    person_name = clean_name(raw_name, what="name")
    try:
        with creating(user, submission):
            person = new_person(night, person_name)
            if any(
                p.name_key == person.name_key or p.regular_id == person.regular.id
                for p in night.people
            ):
                raise refuse("nights.on_list", name=person_name)
            _check_room_for_people(night)
            night.people.append(person)
            commit_created(user, submission, "person", person)
    except Conflict:
        # Someone else added the same name at the same moment (the unique name key).
        raise refuse("nights.on_list", name=person_name) from None
    return person


def find_or_add_person(night: Night, raw_name: str) -> Person:
    person_name = clean_name(raw_name, what="name")
    for p in night.people:
        if p.name_key == name_key(person_name):
            return p
    _check_room_for_people(night)
    person = new_person(night, person_name)
    for p in night.people:
        if p.regular_id is not None and p.regular_id == person.regular.id:
            return p  # the same regular under the night's spelling
    night.people.append(person)
    return person


@transaction
def rename_person(night: Night, person: Person, raw_name: str, user: User) -> None:
    """Rename someone on the night's list and in every game of the night they play in or
    are waiting to join (deleted games too, so a restored game still replays).

    Only the places that hold names change (seats, first dealer, went out, hand keys,
    contracts, drops, joins, waiting joiners): never card codes, whatever the old or new
    name. Each renamed record is replayed before anything is written; one that would
    no longer replay refuses the whole rename with a sentence."""
    new = clean_name(raw_name, what="name")
    old = person.name
    if new == old:
        return
    if any(p.name_key == name_key(new) and p is not person for p in night.people):
        raise refuse("nights.on_list", name=new)
    lock_games([game.id for game in night.all_games])
    for game in night.all_games:
        seated = any(s.person_id == person.id for s in game.seats)
        waiting = [n for n in game.pending_joins if person.name_key in _join_keys(n)]
        if not seated and not waiting:
            continue
        renamed = standings_for(game).record.renamed(old, new)
        try:
            replay(renamed)
        except RecordError as exc:
            why = exc.said if exc.said is not None else str(exc)
            raise RecordError(
                say("nights.rename_breaks", old=old, new=new, game=game.title, number=game.id,
                    why=why)
            ) from None  # fmt: skip
        for row, rnd in zip(game.rounds, renamed.rounds, strict=True):
            data = rnd.to_json()
            if data != row.data:
                row.data = data
        game.first_dealer = renamed.first_dealer
        game.pending_joins = [_renamed_join(n, person.name_key, new) for n in game.pending_joins]
        mark_changed(game)
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
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict from None


@transaction
def delete_night(night: Night, *, user: User) -> None:
    """Delete a night: it leaves the list of nights, and can be restored from there."""
    lock_games([game.id for game in night.all_games])
    night.deleted_at = utcnow()
    for game in night.all_games:
        mark_changed(game)
    commit_plain()


@transaction
def restore_night(night: Night, *, user: User) -> list[Said]:
    """Restore a deleted night, and its carries with it, but for those whose other night
    had money recorded (or undone) while this one was deleted: that night settled without
    the carry meanwhile, so putting it back would charge the debt twice. Those stay
    undone (by this restore, kept), and the debt is on the night it came from. Returns
    what was not put back, in words."""
    lock_games([game.id for game in night.all_games])
    kept_back = _carries_settled_meanwhile(night)
    for entry in kept_back:
        entry.undone_at = utcnow()
        entry.undone_by = user.id
    night.deleted_at = None
    for game in night.all_games:
        mark_changed(game)
    commit_plain()
    return _not_put_back(night, kept_back)


def _carries_settled_meanwhile(night: Night) -> list[LedgerEntry]:
    since = night.deleted_at
    carries = db.session.scalars(
        select(LedgerEntry).where(
            LedgerEntry.kind == "carry",
            LedgerEntry.undone_at.is_(None),
            or_(LedgerEntry.night_id == night.id, LedgerEntry.to_night_id == night.id),
        )
    ).all()
    if since is None or not carries:
        return []
    others = {_other(c, night) for c in carries}
    for other_id in sorted({night.id, *others}):  # money on them waits for the restore
        db.session.execute(
            update(Night)
            .where(Night.id == other_id)
            .values(locale=Night.locale)
            .execution_options(synchronize_session=False)
        )
    moved = set(
        db.session.scalars(
            select(Night.id).where(
                Night.id.in_(others),
                select(LedgerEntry.id)
                .where(
                    or_(LedgerEntry.night_id == Night.id, LedgerEntry.to_night_id == Night.id),
                    or_(LedgerEntry.created_at >= since, LedgerEntry.undone_at >= since),
                )
                .exists(),
            )
        )
    )
    return [c for c in carries if _other(c, night) in moved]


def _other(carry: LedgerEntry, night: Night) -> int:
    other = carry.night_id if carry.night_id != night.id else carry.to_night_id
    assert other is not None
    return other


def _not_put_back(night: Night, entries: list[LedgerEntry]) -> list[Said]:
    counts: dict[tuple[bool, str], int] = {}
    for e in entries:
        outgoing = e.night_id == night.id
        there = e.to_night if outgoing else e.night
        assert there is not None
        key = (outgoing, there.name)
        counts[key] = counts.get(key, 0) + 1
    said = []
    for (outgoing, other), n in sorted(counts.items()):
        kind = "nights.kept_to" if outgoing else "nights.kept_from"
        if n == 1:
            said.append(say(f"{kind}_one", night=other))
        else:
            said.append(say(kind, count=n, night=other))
    return said


@transaction
def set_paper(night: Night, paper: str) -> None:
    night.paper = paper
    commit_plain()


@transaction
def set_locale(night: Night, locale: str) -> None:
    """Write the night's money as in ``locale`` from now on. Every game of the night is
    marked changed, so no page or PDF drawn in the old way is served again."""
    if locale == night.locale:
        return
    lock_games([game.id for game in night.all_games])
    night.locale = locale
    for game in night.all_games:
        mark_changed(game)
    commit_plain()


def _join_keys(entry: str | dict[str, str]) -> set[str]:
    """The names a waiting join holds: the joiner, and whom they sit after."""
    if isinstance(entry, dict):
        return {name_key(entry["name"]), name_key(entry["after"])}
    return {name_key(entry)}


def _renamed_join(entry: str | dict[str, str], key: str, new: str) -> str | dict[str, str]:
    if isinstance(entry, dict):
        return {k: new if name_key(v) == key else v for k, v in entry.items()}
    return new if name_key(entry) == key else entry
