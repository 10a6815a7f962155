"""A checked plan written into an empty account: every row with a new id, in one
transaction, once per form."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select

from ...extensions import db
from ...models import (
    Edit,
    Game,
    GameRound,
    LedgerEntry,
    Night,
    PaymentHandle,
    Person,
    Regular,
    RegularMerge,
    Seat,
    Submission,
    User,
    utcnow,
)
from ...rules import name_key
from .. import ledger
from ..base import AlreadySent, lock_rows
from .checks import ImportRefused, check_file
from .plan import Plan, count


def holdings(user: User) -> tuple[int, int]:
    """How many nights (deleted ones too) and regulars the account has."""
    nights = db.session.scalar(
        select(func.count()).select_from(Night).where(Night.owner_id == user.id)
    )
    regulars = db.session.scalar(
        select(func.count()).select_from(Regular).where(Regular.owner_id == user.id)
    )
    return int(nights or 0), int(regulars or 0)


def _may_import(user: User, submission: str | None) -> None:
    if submission and db.session.scalar(
        select(Submission.id).where(Submission.user_id == user.id, Submission.token == submission)
    ):
        raise AlreadySent("account", user.id)
    nights, regulars = holdings(user)
    if nights or regulars:
        raise ImportRefused(
            f"this account already has {count(nights, 'night')} and "
            f"{count(regulars, 'regular')}: an account file is imported only into an "
            "account with none, so that nothing is mixed. Import it into a new account."
        )


def import_account(user: User, data: bytes, *, submission: str | None = None) -> str:
    """Restore an exported account into ``user``'s, which must have no nights and no
    regulars; one transaction. Returns what was imported, in words. ImportRefused (and
    nothing changed) for a file that is not whole and right; AlreadySent when this
    form (``submission``) was sent before."""
    try:
        _may_import(user, submission)  # cheap, before the file is read
        plan = check_file(data)
        lock_rows(User, [user.id])  # one import (or merge) of the account at a time
        _may_import(user, submission)  # again, under the lock
        write_plan(user, plan)
        if submission:
            db.session.add(
                Submission(user_id=user.id, token=submission, kind="account", target_id=user.id)
            )
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return plan.counts()


def write_plan(user: User, plan: Plan) -> None:
    """Every row of the plan, with new ids, in the old ids' order (what is ordered by id,
    such as nights played on one date, stays in its order)."""
    regular_of, handle_of = _write_regulars(user, plan)
    night_of = _write_nights(user, plan)
    person_of = _write_people(plan, night_of, regular_of)
    _write_games(user, plan, night_of, person_of)
    entry_of = _write_ledger(user, plan, night_of, regular_of)
    new_ids: dict[str, dict[int, Any]] = {
        "people": person_of,
        "regulars": regular_of,
        "payer_id": entry_of,
        "payee_id": entry_of,
        "handles": handle_of,
    }
    for row in sorted(plan.merges, key=lambda m: m["id"]):
        db.session.add(
            RegularMerge(
                owner_id=user.id,
                kept_id=regular_of[row["kept"]].id,
                gone_id=regular_of[row["gone"]].id,
                moved={k: [new_ids[k][v].id for v in ids] for k, ids in row["moved"].items()},
                user_id=user.id,
                created_at=row["created"],
                undone_at=row["undone"],
            )
        )
    db.session.flush()


def _write_regulars(user: User, plan: Plan) -> tuple[dict[int, Regular], dict[int, PaymentHandle]]:
    regular_of: dict[int, Regular] = {}
    handle_of: dict[int, PaymentHandle] = {}
    for row in sorted(plan.regulars, key=lambda r: r["id"]):
        regular = Regular(
            owner_id=user.id,
            name=row["name"],
            name_key=name_key(row["name"]),
            created_at=row["created"],
        )
        for position, handle in enumerate(row.get("handles", [])):
            made = PaymentHandle(kind=handle["kind"], value=handle["value"], position=position)
            regular.handles.append(made)
            handle_of[handle["id"]] = made
        db.session.add(regular)
        regular_of[row["id"]] = regular
    db.session.flush()
    for row in plan.regulars:
        if row["merged_into"] is not None:
            regular_of[row["id"]].merged_into_id = regular_of[row["merged_into"]].id
    return regular_of, handle_of


def _write_nights(user: User, plan: Plan) -> dict[int, Night]:
    night_of: dict[int, Night] = {}
    for row in sorted(plan.nights, key=lambda n: n["id"]):
        night = Night(
            owner_id=user.id, name=row["name"], played_on=row["played_on"],
            currency=row["currency"], locale=row["locale"], paper=row["paper"],
            settle_unit=row["settle_unit"], created_at=row["created"], deleted_at=row["deleted"],
        )  # fmt: skip
        db.session.add(night)
        night_of[row["id"]] = night
    db.session.flush()
    return night_of


def _write_people(
    plan: Plan, night_of: dict[int, Night], regular_of: dict[int, Regular]
) -> dict[int, Person]:
    person_of: dict[int, Person] = {}
    for row in sorted(plan.people, key=lambda p: p["id"]):
        person = Person(
            night_id=night_of[row["night"]].id,
            regular_id=regular_of[row["regular"]].id,
            name=row["name"],
            name_key=name_key(row["name"]),
        )
        db.session.add(person)
        person_of[row["id"]] = person
    db.session.flush()
    return person_of


def _write_games(
    user: User, plan: Plan, night_of: dict[int, Night], person_of: dict[int, Person]
) -> None:
    by_name = {(row["night"], row["name"]): person_of[row["id"]] for row in plan.people}
    now = utcnow()
    for game_plan in sorted(plan.games, key=lambda g: g.row["id"]):
        night_id = game_plan.row["night"]
        record = game_plan.record
        game = Game(
            night_id=night_of[night_id].id,
            variant=record["variant"],
            settings=record["settings"],
            first_dealer=record["first_dealer"],
            pending_joins=game_plan.row["pending_joins"],
            created_at=now,
            updated_at=now,
            deleted_at=game_plan.deleted_at,
        )
        for position, name, handicap, joined in game_plan.seats:
            game.seats.append(
                Seat(
                    person=by_name[(night_id, name)],
                    position=position,
                    handicap=handicap,
                    joined_round=joined,
                )
            )
        for number, rnd in enumerate(record["rounds"], 1):
            game.rounds.append(GameRound(number=number, data=rnd, created_at=now))
        for edit in game_plan.history:
            game.edits.append(
                Edit(
                    user_id=user.id,
                    action=edit["action"],
                    round_number=edit.get("round"),
                    before=None if edit.get("before") is None else json.dumps(edit["before"]),
                    after=None if edit.get("after") is None else json.dumps(edit["after"]),
                    created_at=edit["created"],
                )
            )
        db.session.add(game)
    db.session.flush()


def _write_ledger(
    user: User, plan: Plan, night_of: dict[int, Night], regular_of: dict[int, Regular]
) -> dict[int, LedgerEntry]:
    entry_of: dict[int, LedgerEntry] = {}
    for row in sorted(plan.ledger, key=lambda e: e["id"]):
        part = row.get("games_part")
        entry = LedgerEntry(
            night_id=night_of[row["night"]].id,
            kind=row["kind"],
            payer_id=regular_of[row["payer"]].id,
            payee_id=regular_of[row["payee"]].id,
            amount=row["amount"],
            to_night_id=night_of[row["to_night"]].id if row.get("to_night") else None,
            user_id=user.id,
            created_at=row["created"],
            games_part=None
            if part is None
            else {str(regular_of[int(k)].id): v for k, v in part.items()},
            undone_at=row["undone"],
            undone_by=user.id if row["undone"] is not None else None,
            plan=row.get("plan"),
        )
        if row["kind"] == ledger.CLAIM:
            entry.user_id = None  # said on the players' page, by no account
        db.session.add(entry)
        entry_of[row["id"]] = entry
    db.session.flush()
    for row in plan.ledger:
        if row.get("claim") is not None:
            entry_of[row["id"]].claim_id = entry_of[row["claim"]].id
    db.session.flush()
    return entry_of
