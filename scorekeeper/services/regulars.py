"""A keeper's regulars: the people they play with, night after night.

Each night's person is one of the keeper's regulars. A name typed on a night is matched
forgivingly to a regular (capitals, spacing, invisible characters, accents and punctuation
ignored: "zoe" finds "Zoë", "Bob." finds "Bob"); a name nobody matches makes a new regular.
Renaming a regular renames nothing recorded: the game records keep the name each game was
played with, and the link is by identity. Two entries for one person can be merged.

On a night they keep, a co-keeper's typed names are matched only to the night's own
people (``keeping_as``): a forgiving match to the owner's other regulars would show their
spelling, and a link to one would show their ways to pay, on pages the co-keeper reads. A
name new to the night takes the name as typed and a regular of its own (the owner's of
that exact name only when it has no ways to pay; the owner may merge the two later).

Every function that changes data is one transaction (``base.transaction``). Merging,
undoing a merge and attaching a person to a regular take the keeper's lock first
(``lock_rows`` of the keeper's row), so a merge never races another merge (no loop: X
into Y while Y goes into X) or a person being added (who would land on the entry merged
away).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, cast

from flask import g, has_app_context
from sqlalchemy import Table, select, update

from ..extensions import db, upsert
from ..models import LedgerEntry, Night, PaymentHandle, Person, Regular, RegularMerge, User, utcnow
from ..rules import name_key
from ..rules.names import clean_name
from .base import Conflict, commit_created, commit_plain, creating, lock_rows, transaction
from .payments import HandleError, clean_handle
from .said_night import refuse

MAX_HANDLES = 6
MAX_HOPS = 4  # merged_into_id is kept flat (one hop); more means a stored loop


def _fresh(regular_id: int) -> Regular | None:
    return db.session.get(Regular, regular_id, populate_existing=True)


def live_regular(regular: Regular | None) -> Regular | None:
    """The regular a merged entry was merged into (itself if it was not); None for a
    chain that does not end (a loop stored before merges were locked: repaired by
    migration 0008, and never followed for ever)."""
    seen: set[int] = set()
    while regular is not None and regular.merged_into_id is not None:
        if regular.id in seen or len(seen) >= MAX_HOPS:
            return None
        seen.add(regular.id)
        regular = _fresh(regular.merged_into_id)
    return regular


def match_key(name: str) -> str:
    """A name as it is matched forgivingly: its name key without accents or punctuation."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    kept = "".join(
        ch for ch in decomposed if not unicodedata.combining(ch) and (ch.isalnum() or ch.isspace())
    )
    return " ".join(kept.split())


def regulars_of(owner_id: int) -> list[Regular]:
    """The keeper's regulars (merged entries left out), by name."""
    found = db.session.scalars(
        select(Regular).where(Regular.owner_id == owner_id, Regular.merged_into_id.is_(None))
    ).all()
    return sorted(found, key=lambda r: r.name_key)


def find_regular(owner_id: int, name: str) -> Regular | None:
    """The regular a typed name means: the same name, else the one regular it matches
    forgivingly; a merged entry leads to the regular it was merged into."""
    regular = db.session.scalar(
        select(Regular)
        .where(Regular.owner_id == owner_id, Regular.name_key == name_key(name))
        .execution_options(populate_existing=True)
    )
    if regular is None:
        key = match_key(name)
        candidates = [r for r in regulars_of(owner_id) if match_key(r.name) == key]
        regular = candidates[0] if len(candidates) == 1 else None
    return live_regular(regular)


def regular_for(owner_id: int, name: str) -> Regular:
    """The keeper's regular for a name typed on a night, made when there is none (in the
    transaction of the change that needs it; see ``add_missing_regulars``). Found under the
    keeper's lock: a merge committed meanwhile is seen, and none can start until this
    change commits."""
    lock_rows(User, [owner_id])
    found = find_regular(owner_id, name)
    if found is None:
        add_missing_regulars(owner_id, [name])
        found = find_regular(owner_id, name)
    if found is None:  # pragma: no cover - the row is there, made now or by another
        raise Conflict
    return found


def add_missing_regulars(owner_id: int, names: Sequence[str]) -> None:
    """Make the regulars that clean typed ``names`` need and the keeper does not have yet
    (one per forgiving match among them, in the first spelling), in one statement that
    passes over a name another request made at the same moment: it waits for that
    request's commit and then finds its regular (``find_regular``), so two forms that
    bring one new name at once (a double tap, two phones) never conflict over it. Rows
    are written in the order of their keys, so two such statements never wait for each
    other's rows in opposite orders (a deadlock, on PostgreSQL)."""
    lock_rows(User, [owner_id])
    batch: dict[str, str] = {}
    for name in names:
        if match_key(name) not in batch and find_regular(owner_id, name) is None:
            batch[match_key(name)] = name
    if not batch:
        return
    now = utcnow()
    rows: list[dict[str, Any]] = sorted(
        ({"owner_id": owner_id, "name": n, "name_key": name_key(n), "created_at": now}
         for n in batch.values()),
        key=lambda row: row["name_key"],
    )  # fmt: skip
    db.session.execute(upsert(cast(Table, Regular.__table__)).on_conflict_do_nothing(), rows)


def night_spellings(night: Night, raw_names: Sequence[str]) -> dict[str, str]:
    """Each typed name as the night's list would hold it, changing nothing: the name of
    the person already on the list (same name, or the same regular matched forgivingly),
    else the regular's spelling, else the name as typed; two typed names that match each
    other forgivingly get one spelling. A record's names are these, so that every name
    in it is exactly one person's (``find_or_add_person`` finds the same people)."""
    out: dict[str, str] = {}
    batch: dict[str, str] = {}  # match key -> spelling, for names new to the keeper
    within = _co_keeping(night)  # a co-keeper's names: the night's people only
    for raw in raw_names:
        typed = clean_name(raw, what="name")
        person = next((p for p in night.people if p.name_key == name_key(typed)), None)
        if person is not None:
            spelled = person.name
        elif within and (regular := _on_the_night(night, typed)) is not None:
            spelled = next(p.name for p in night.people if p.regular_id == regular.id)
        elif not within and (regular := find_regular(night.owner_id, typed)) is not None:
            spelled = next(
                (p.name for p in night.people if p.regular_id == regular.id), regular.name
            )
        else:
            spelled = batch.get(match_key(typed), typed)
        batch.setdefault(match_key(spelled), spelled)
        out[raw] = spelled
    return out


def new_person(night: Night, raw_name: str) -> Person:
    """A person for the night's list, linked to the keeper's regular; a name matched
    forgivingly takes the regular's spelling. A co-keeper's name is matched within the
    night only, and keeps its spelling (see the module)."""
    typed = clean_name(raw_name, what="name")
    if _co_keeping(night):
        regular = _on_the_night(night, typed) or _co_keepers_regular(night.owner_id, typed)
        return Person(name=typed, name_key=name_key(typed), regular=regular)
    regular = regular_for(night.owner_id, typed)
    return Person(name=regular.name, name_key=name_key(regular.name), regular=regular)


def keeping_as(user_id: int) -> None:
    """Who this request keeps a night for (set when a night or a game is loaded for a
    user): the owner's names match all their regulars, a co-keeper's the night's only."""
    if has_app_context():
        g.keeping_user_id = user_id


def _co_keeping(night: Night) -> bool:
    user_id = g.get("keeping_user_id") if has_app_context() else None
    return user_id is not None and user_id != night.owner_id


def _on_the_night(night: Night, typed: str) -> Regular | None:
    """The regular of the night's person a name means: the same name, else the one
    person it matches forgivingly."""
    for person in night.people:
        if person.name_key == name_key(typed):
            return person.regular
    found = {p.regular_id: p.regular for p in night.people if match_key(p.name) == match_key(typed)}
    return next(iter(found.values())) if len(found) == 1 else None


def _co_keepers_regular(owner_id: int, typed: str) -> Regular:
    """A regular for a name a co-keeper typed that is not on the night: the owner's of
    that exact name when it shows nothing (no ways to pay), else one of its own, made
    now (its name marked with ``*`` while the owner has that name)."""
    lock_rows(User, [owner_id])
    name = typed
    while True:
        found = live_regular(
            db.session.scalar(
                select(Regular).where(
                    Regular.owner_id == owner_id, Regular.name_key == name_key(name)
                )
            )
        )
        if found is None:
            regular = Regular(owner_id=owner_id, name=name, name_key=name_key(name))
            db.session.add(regular)
            db.session.flush()
            return regular
        if not found.handles or len(name) >= 40:
            return found
        name += "*"


# ----------------------------------------------------------------------- changes ---
@transaction
def add_regular(owner: User, raw_name: str, *, submission: str | None = None) -> Regular:
    """A regular added by hand. The same ``submission`` sent twice adds them once
    (AlreadySent); a name that is one of the keeper's regulars already (forgivingly,
    or made by another phone at the same moment) is refused."""
    name = clean_name(raw_name, what="name")
    try:
        with creating(owner, submission):
            found = find_regular(owner.id, name) or _look_alike(owner.id, name)
            if found is not None:
                raise refuse("regulars.already", name=found.name)
            regular = Regular(owner_id=owner.id, name=name, name_key=name_key(name))
            db.session.add(regular)
            commit_created(owner, submission, "regular", regular)
    except Conflict:
        raise refuse("regulars.already", name=name) from None
    return regular


@transaction
def rename_regular(regular: Regular, raw_name: str) -> None:
    """The regular's name from now on; what was recorded keeps the names played with.
    Refused when another regular has the name, or one that matches it forgivingly
    ("Ánn" beside Ann): a name typed later would then match both, and be neither."""
    name = clean_name(raw_name, what="name")
    taken = db.session.scalar(
        select(Regular).where(
            Regular.owner_id == regular.owner_id,
            Regular.name_key == name_key(name),
            Regular.id != regular.id,
        )
    )
    if taken is not None:
        raise refuse("regulars.already_merge", name=taken.name)
    alike = _look_alike(regular.owner_id, name, but=regular)
    if alike is not None:
        raise refuse("regulars.looks_like", name=name, alike=alike.name)
    regular.name = name
    regular.name_key = name_key(name)
    commit_plain()


def _look_alike(owner_id: int, name: str, *, but: Regular | None = None) -> Regular | None:
    """A regular of the keeper (not ``but``) whose name matches ``name`` forgivingly."""
    key = match_key(name)
    return next(
        (r for r in regulars_of(owner_id) if r is not but and match_key(r.name) == key), None
    )


@transaction
def merge_regulars(keep: Regular, gone: Regular, *, user: User) -> RegularMerge:
    """``gone`` was the same person as ``keep``: their nights, payment handles, payments,
    carried debts and write-offs become ``keep``'s, and the merge is recorded so that it
    can be undone. Refused when both played on one night (then they are two people), or
    when either was merged already (a merge into a merged entry could make a loop)."""
    owner_id = keep.owner_id
    keep_id, gone_id = keep.id, gone.id
    if keep_id == gone_id or owner_id != gone.owner_id:
        raise refuse("regulars.two_different")
    lock_rows(User, [owner_id])
    fresh_keep, fresh_gone = _fresh(keep_id), _fresh(gone_id)
    assert fresh_keep is not None and fresh_gone is not None
    keep, gone = fresh_keep, fresh_gone
    for regular in (keep, gone):
        if regular.merged_into_id is not None:
            raise refuse("regulars.merged_already", name=regular.name)
    both = db.session.scalar(
        select(Night.name)
        .join(Person, Person.night_id == Night.id)
        .where(Person.regular_id == gone.id)
        .where(Night.id.in_(select(Person.night_id).where(Person.regular_id == keep.id)))
        .limit(1)
    )
    if both is not None:
        raise refuse("regulars.both_played", keep=keep.name, gone=gone.name, night=both)
    moved: dict[str, list[int]] = {
        "people": list(db.session.scalars(select(Person.id).where(Person.regular_id == gone.id))),
        "regulars": list(
            db.session.scalars(select(Regular.id).where(Regular.merged_into_id == gone.id))
        ),
    }
    db.session.execute(
        update(Person).where(Person.regular_id == gone.id).values(regular_id=keep.id)
    )
    db.session.execute(
        update(Regular).where(Regular.merged_into_id == gone.id).values(merged_into_id=keep.id)
    )
    for column in ("payer_id", "payee_id"):
        field = getattr(LedgerEntry, column)
        moved[column] = list(db.session.scalars(select(LedgerEntry.id).where(field == gone.id)))
        db.session.execute(update(LedgerEntry).where(field == gone.id).values({column: keep.id}))
    have = {(h.kind, h.value) for h in keep.handles}
    copied = []
    for handle in list(gone.handles):
        if (handle.kind, handle.value) not in have and len(keep.handles) < MAX_HANDLES:
            copy = PaymentHandle(kind=handle.kind, value=handle.value, position=len(keep.handles))
            keep.handles.append(copy)
            copied.append(copy)
    db.session.flush()
    moved["handles"] = [h.id for h in copied]
    gone.merged_into_id = keep.id
    merge = RegularMerge(
        owner_id=owner_id, kept_id=keep.id, gone_id=gone.id, moved=moved, user_id=user.id
    )
    db.session.add(merge)
    commit_plain()
    return merge


@transaction
def undo_merge(merge_id: int, *, owner: User) -> RegularMerge:
    """Undo a merge: what moved goes back to the entry merged away (people added to the
    kept regular since stay with it), which is a regular of its own again. Refused while
    the kept regular is itself merged into another (undo that first). A second tap
    finds it undone and changes nothing."""
    lock_rows(User, [owner.id])
    merge = db.session.get(RegularMerge, merge_id, populate_existing=True)
    if merge is None or merge.owner_id != owner.id:
        raise refuse("regulars.not_your_merge")
    if merge.undone_at is not None:
        return merge
    kept, gone = _fresh(merge.kept_id), _fresh(merge.gone_id)
    assert kept is not None and gone is not None
    if kept.merged_into_id is not None:
        raise refuse("regulars.merged_since", name=kept.name)
    moved = merge.moved
    db.session.execute(
        update(Person)
        .where(Person.id.in_(moved.get("people", [])), Person.regular_id == kept.id)
        .values(regular_id=gone.id)
    )
    db.session.execute(
        update(Regular)
        .where(Regular.id.in_(moved.get("regulars", [])), Regular.merged_into_id == kept.id)
        .values(merged_into_id=gone.id)
    )
    for column in ("payer_id", "payee_id"):
        field = getattr(LedgerEntry, column)
        db.session.execute(
            update(LedgerEntry)
            .where(LedgerEntry.id.in_(moved.get(column, [])), field == kept.id)
            .values({column: gone.id})
        )
    for handle in list(kept.handles):
        if handle.id in moved.get("handles", []):
            kept.handles.remove(handle)
    gone.merged_into_id = None
    merge.undone_at = utcnow()
    commit_plain()
    return merge


def merges_of(owner_id: int) -> list[RegularMerge]:
    """The keeper's merges in force, newest first (each can be undone)."""
    query = (
        select(RegularMerge)
        .where(RegularMerge.owner_id == owner_id, RegularMerge.undone_at.is_(None))
        .order_by(RegularMerge.id.desc())
        .limit(20)
    )
    return list(db.session.scalars(query))


@transaction
def set_handles(regular: Regular, handles: Sequence[tuple[str, str]]) -> None:
    """Replace the regular's payment handles (kind, handle), in the order given; raises
    Refused naming the bad one, changing nothing. Under the keeper's lock: the same form
    sent twice at once stores the handles once."""
    lock_rows(User, [regular.owner_id])
    regular = _fresh(regular.id) or regular
    cleaned = []
    for i, (kind, raw) in enumerate(handles, 1):
        if not (raw or "").strip():
            continue
        try:
            cleaned.append((kind, clean_handle(kind, raw)))
        except HandleError as exc:
            raise refuse("regulars.handle", number=i, why=exc.said) from None
    if len(cleaned) > MAX_HANDLES:
        raise refuse("regulars.most_handles", most=MAX_HANDLES)
    regular.handles.clear()
    db.session.flush()
    for position, (kind, value) in enumerate(cleaned):
        regular.handles.append(PaymentHandle(kind=kind, value=value, position=position))
    commit_plain()


def merged_since(regular_ids: set[int]) -> dict[int, int]:
    """Regulars merged into another since (``merged_into_id`` is kept one hop), by id."""
    if not regular_ids:
        return {}
    rows = db.session.execute(
        select(Regular.id, Regular.merged_into_id).where(
            Regular.id.in_(regular_ids), Regular.merged_into_id.is_not(None)
        )
    )
    return {rid: into for rid, into in rows if into is not None}
