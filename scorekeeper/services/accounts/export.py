"""The account as one file: a zip of JSON, ``account.json`` and ``games/<id>.json``."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import selectinload

from ...extensions import db
from ...models import (
    Game,
    LedgerEntry,
    Night,
    Person,
    Regular,
    RegularMerge,
    Seat,
    User,
    as_utc,
    utcnow,
)

FORMAT = "scorekeeper-account/1"
MANIFEST = "account.json"

T = TypeVar("T")


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else as_utc(moment).isoformat()


def export_account(user: User) -> bytes:
    """Everything of ``user``'s account as a zip of JSON (``scorekeeper-account/1``)."""
    nights = _rows(select(Night).where(Night.owner_id == user.id).order_by(Night.id))
    night_ids = [n.id for n in nights]
    regulars = _rows(
        select(Regular)
        .where(Regular.owner_id == user.id)
        .order_by(Regular.id)
        .options(selectinload(Regular.handles))
    )
    people = _rows(select(Person).where(Person.night_id.in_(night_ids)).order_by(Person.id))
    games = _rows(
        select(Game)
        .where(Game.night_id.in_(night_ids))
        .order_by(Game.id)
        .options(
            selectinload(Game.seats).joinedload(Seat.person),
            selectinload(Game.rounds),
            selectinload(Game.edits),
        )
    )
    entries = _rows(
        select(LedgerEntry).where(LedgerEntry.night_id.in_(night_ids)).order_by(LedgerEntry.id)
    )
    merges = _rows(
        select(RegularMerge).where(RegularMerge.owner_id == user.id).order_by(RegularMerge.id)
    )
    manifest = {
        "format": FORMAT,
        "exported_at": _when(utcnow()),
        "email": user.email,
        "regulars": [_regular(r) for r in regulars],
        "merges": [_merge(m) for m in merges],
        "nights": [_night(n) for n in nights],
        "people": [
            {"id": p.id, "night": p.night_id, "regular": p.regular_id, "name": p.name}
            for p in people
        ],
        "games": [_game(g) for g in games],
        "ledger": [_entry(e) for e in entries],
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False))
        for game in games:
            record = json.dumps(game.record_json(), indent=1, ensure_ascii=False)
            archive.writestr(f"games/{game.id}.json", record)
    return out.getvalue()


def _rows(query: Select[T]) -> list[T]:
    return list(db.session.scalars(query))


def _regular(r: Regular) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": r.name,
        "merged_into": r.merged_into_id,
        "created_at": _when(r.created_at),
        "handles": [{"id": h.id, "kind": h.kind, "value": h.value} for h in r.handles],
    }


def _merge(m: RegularMerge) -> dict[str, Any]:
    return {
        "id": m.id,
        "kept": m.kept_id,
        "gone": m.gone_id,
        "moved": m.moved,
        "created_at": _when(m.created_at),
        "undone_at": _when(m.undone_at),
    }


def _night(n: Night) -> dict[str, Any]:
    return {
        "id": n.id,
        "name": n.name,
        "date": n.played_on.isoformat(),
        "currency": n.currency,
        "locale": n.locale,
        "paper": n.paper,
        "settle_unit": n.settle_unit,
        "created_at": _when(n.created_at),
        "deleted_at": _when(n.deleted_at),
    }


def _game(g: Game) -> dict[str, Any]:
    """A game's place in the account; its record is a file of its own."""
    return {
        "id": g.id,
        "night": g.night_id,
        "record": f"games/{g.id}.json",
        "pending_joins": list(g.pending_joins),
        "deleted_at": _when(g.deleted_at),
        "history": [
            {
                "action": e.action,
                "round": e.round_number,
                "before": e.before_data,
                "after": e.after_data,
                "at": _when(e.created_at),
            }
            for e in g.edits
        ],
    }


def _entry(e: LedgerEntry) -> dict[str, Any]:
    return {
        "id": e.id,
        "night": e.night_id,
        "kind": e.kind,
        "payer": e.payer_id,
        "payee": e.payee_id,
        "amount": e.amount,
        "to_night": e.to_night_id,
        "games_part": e.games_part,
        "created_at": _when(e.created_at),
        "undone_at": _when(e.undone_at),
        "plan": e.plan,
        "claim": e.claim_id,
    }
