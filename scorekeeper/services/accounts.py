"""A whole account: everything of it as one file to take elsewhere (``export_account``,
format ``scorekeeper-account/1``, described in docs/scorekeeper-account.md), that file
restored into an empty account (``import_account``), the account erased
(``delete_account``), and the operator's ``disable`` / ``enable`` / ``list``.

The file is a zip of JSON: ``account.json`` holds the regulars (with their ways to pay),
the merges, the nights, their people, each game's place (night, deleted or not, joiners
waiting, history) and the ledger; each game is ``games/<id>.json``, a game record
(``scorekeeper-game/1``) that the game importer and ``flask standings`` read as they are.
Ids in the file are the old host's: they only tie its parts together, and an import
gives every row a new id. Live links, log-in data and one-time form ids stay behind.

An import is checked whole before anything is written, as strictly as a game record is:
every reference must name a row the file carries (a person of a night in the file, a
carry into a night in the file, a game's players among its night's people...), every
name, amount, currency and setting is checked as the forms check it, every game replays
through the engine, and the file and its counts are bounded. A refusal is one sentence
saying what is wrong, and changes nothing. It goes only into an account that has no
nights and no regulars (so a file never mixes with what an account holds), in one
transaction."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from flask import current_app
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import (
    Edit,
    Game,
    GameResult,
    GameRound,
    LedgerEntry,
    LiveLink,
    LoginAttempt,
    Night,
    PasswordReset,
    PaymentHandle,
    Person,
    Regular,
    RegularMerge,
    Seat,
    Submission,
    User,
    UserSession,
    as_utc,
    utcnow,
)
from ..rules import GameRecord, RecordError, name_key, replay
from ..rules.money import CURRENCIES, LOCALES, rounding_steps
from ..rules.record import clean_name, read_json
from . import ledger
from .nights import MAX_GAMES_PER_NIGHT, MAX_PEOPLE_PER_NIGHT
from .payments import HandleError, clean_handle
from .regulars import MAX_HANDLES, lock_keeper

FORMAT = "scorekeeper-account/1"
MANIFEST = "account.json"
_GAME_FILE = re.compile(r"games/([1-9][0-9]{0,9})\.json")

# Bounds of an import, far beyond a club's years of nights; the zip file's own size is
# ``ACCOUNT_IMPORT_MAX_BYTES`` (config).
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
MAX_NIGHTS = 5_000
MAX_REGULARS = 5_000
MAX_GAMES = 20_000
MAX_LEDGER_ENTRIES = 50_000
MAX_MERGES = 5_000
MAX_EDITS_PER_GAME = 5_000
MAX_AMOUNT = 10**15  # minor units, as MAX_MONEY_DIGITS allows
EDIT_ACTIONS = frozenset(
    {"create", "import", "add", "edit", "remove", "rename", "joins", "delete", "restore"}
)


class ImportRefused(ValueError):
    """The file is not restored: the message is a sentence saying what is wrong."""


class AlreadyImported(Exception):
    """This import form was sent before (a double tap): it imported the file then."""


# --------------------------------------------------------------------- export ---
def _when(moment: datetime | None) -> str | None:
    return None if moment is None else as_utc(moment).isoformat()


def export_account(user: User) -> bytes:
    """Everything of ``user``'s account as a zip of JSON (``scorekeeper-account/1``)."""
    nights = list(
        db.session.scalars(select(Night).where(Night.owner_id == user.id).order_by(Night.id))
    )
    night_ids = [n.id for n in nights]
    regulars = list(
        db.session.scalars(
            select(Regular)
            .where(Regular.owner_id == user.id)
            .order_by(Regular.id)
            .options(selectinload(Regular.handles))
        )
    )
    people = list(
        db.session.scalars(select(Person).where(Person.night_id.in_(night_ids)).order_by(Person.id))
    )
    games = list(
        db.session.scalars(
            select(Game)
            .where(Game.night_id.in_(night_ids))
            .order_by(Game.id)
            .options(
                selectinload(Game.seats).joinedload(Seat.person),
                selectinload(Game.rounds),
                selectinload(Game.edits),
            )
        )
    )
    entries = list(
        db.session.scalars(
            select(LedgerEntry).where(LedgerEntry.night_id.in_(night_ids)).order_by(LedgerEntry.id)
        )
    )
    merges = list(
        db.session.scalars(
            select(RegularMerge).where(RegularMerge.owner_id == user.id).order_by(RegularMerge.id)
        )
    )
    manifest = {
        "format": FORMAT,
        "exported_at": _when(utcnow()),
        "email": user.email,
        "regulars": [
            {
                "id": r.id,
                "name": r.name,
                "merged_into": r.merged_into_id,
                "created_at": _when(r.created_at),
                "handles": [{"id": h.id, "kind": h.kind, "value": h.value} for h in r.handles],
            }
            for r in regulars
        ],
        "merges": [
            {
                "id": m.id,
                "kept": m.kept_id,
                "gone": m.gone_id,
                "moved": m.moved,
                "created_at": _when(m.created_at),
                "undone_at": _when(m.undone_at),
            }
            for m in merges
        ],
        "nights": [
            {
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
            for n in nights
        ],
        "people": [
            {"id": p.id, "night": p.night_id, "regular": p.regular_id, "name": p.name}
            for p in people
        ],
        "games": [
            {
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
            for g in games
        ],
        "ledger": [
            {
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
            }
            for e in entries
        ],
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False))
        for game in games:
            record = json.dumps(game.record_json(), indent=1, ensure_ascii=False)
            archive.writestr(f"games/{game.id}.json", record)
    return out.getvalue()


# ---------------------------------------------------------------- reading a file ---
def _unpacked(data: bytes) -> tuple[Any, dict[int, Any]]:
    """The manifest and the game records of a zip file, each JSON read and bounded."""
    limit = int(current_app.config["ACCOUNT_IMPORT_MAX_BYTES"])
    if len(data) > limit:
        raise ImportRefused(f"the file is larger than {_size(limit)}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise ImportRefused("that is not a Scorekeeper account file (a zip file)") from None
    if len(infos) > MAX_GAMES + 1:
        raise ImportRefused(f"the file holds more than {MAX_GAMES} games")
    names = [info.filename for info in infos]
    if len(set(names)) != len(names):
        raise ImportRefused("the file holds two parts of the same name")
    manifest: Any = None
    records: dict[int, Any] = {}
    budget = MAX_UNPACKED_BYTES
    with archive:
        for info in infos:
            found = _GAME_FILE.fullmatch(info.filename)
            if info.filename != MANIFEST and found is None:
                raise ImportRefused(f"the file holds {info.filename[:60]!r}, which is not its own")
            try:
                with archive.open(info) as part:
                    raw = part.read(budget + 1)  # the header's size may lie
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError):
                raise ImportRefused(f"{info.filename[:60]} cannot be unpacked") from None
            budget -= len(raw)
            if budget < 0:
                raise ImportRefused(f"the file unpacks to more than {_size(MAX_UNPACKED_BYTES)}")
            try:
                value = read_json(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise ImportRefused(f"{info.filename} is not text in UTF-8") from None
            except RecordError as exc:
                raise ImportRefused(f"{info.filename} is not JSON: {exc}") from None
            if found is None:
                manifest = value
            else:
                records[int(found.group(1))] = value
    if manifest is None:
        raise ImportRefused(f"the file has no {MANIFEST}")
    return manifest, records


def _size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):g} MiB"
    return f"{size:,} bytes"


# ------------------------------------------------------------------ checking ---
def _fail(where: str, what: str) -> ImportRefused:
    return ImportRefused(f"{where}: {what}")


def _object(value: Any, where: str, keys: Iterable[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, "must be an object")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise _fail(where, f"has an unknown field {unknown[0][:40]!r}")
    return value


def _list(value: Any, where: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, "must be a list")
    if len(value) > most:
        raise _fail(where, f"holds more than {most}")
    return value


def _whole(value: Any, where: str, low: int = 1, high: int = 2**31 - 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"must be a whole number from {low} to {high}")
    return value


def _text(value: Any, where: str, most: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > most:
        raise _fail(where, f"must be text of 1 to {most} characters")
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise _fail(where, "contains control characters")
    return value


def _moment(value: Any, where: str, *, optional: bool = False) -> datetime | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise _fail(where, "must be a date and time (ISO 8601)")
    try:
        return as_utc(datetime.fromisoformat(value))
    except ValueError:
        raise _fail(where, f"{value[:40]!r} is not a date and time (ISO 8601)") from None


def _name(value: Any, where: str) -> str:
    try:
        name = clean_name(value, what="the name")
    except RecordError as exc:
        raise _fail(where, str(exc)) from None
    if name != value:
        raise _fail(where, f"{value!r} is not a name as the app stores it")
    return name


def _ids(rows: list[dict[str, Any]], what: str) -> set[int]:
    seen: set[int] = set()
    for i, row in enumerate(rows, 1):
        number = _whole(row.get("id"), f"{what} {i}: id")
        if number in seen:
            raise ImportRefused(f"{what} {number} is in the file twice")
        seen.add(number)
    return seen


def _ref(value: Any, known: set[int], where: str, what: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in known:
        raise _fail(where, f"names {what} {value!r}, which is not in the file")
    return value


@dataclass
class _GamePlan:
    row: dict[str, Any]
    record: dict[str, Any]  # the record as the engine writes it back
    seats: list[tuple[int, str, int, int]]  # position, person name, handicap, joined round
    deleted_at: datetime | None
    history: list[dict[str, Any]]


@dataclass
class _Plan:
    regulars: list[dict[str, Any]] = field(default_factory=list)
    merges: list[dict[str, Any]] = field(default_factory=list)
    nights: list[dict[str, Any]] = field(default_factory=list)
    people: list[dict[str, Any]] = field(default_factory=list)
    games: list[_GamePlan] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> str:
        return (
            f"{_count(len(self.nights), 'night')}, {_count(len(self.games), 'game')}, "
            f"{_count(len(self.regulars), 'regular')} and "
            f"{_count(len(self.ledger), 'ledger entry', 'ledger entries')}"
        )


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def check_file(data: bytes) -> _Plan:
    """The file read and checked whole, nothing written: ImportRefused on any problem."""
    manifest, records = _unpacked(data)
    top = _object(
        manifest,
        MANIFEST,
        ("format", "exported_at", "email", "regulars", "merges", "nights", "people", "games",
         "ledger"),
    )  # fmt: skip
    if top.get("format") != FORMAT:
        raise ImportRefused(f"this is not a {FORMAT} file (its format is {top.get('format')!r})")
    plan = _Plan()
    plan.regulars = _check_regulars(_list(top.get("regulars"), "regulars", MAX_REGULARS))
    regular_ids = {r["id"] for r in plan.regulars}
    plan.nights = _check_nights(_list(top.get("nights"), "nights", MAX_NIGHTS))
    nights = {n["id"]: n for n in plan.nights}
    plan.people = _check_people(
        _list(top.get("people"), "people", MAX_NIGHTS * MAX_PEOPLE_PER_NIGHT), nights, regular_ids
    )
    plan.games = _check_games(_list(top.get("games"), "games", MAX_GAMES), records, nights, plan)
    plan.ledger = _check_ledger(
        _list(top.get("ledger"), "ledger", MAX_LEDGER_ENTRIES), nights, regular_ids
    )
    plan.merges = _check_merges(_list(top.get("merges"), "merges", MAX_MERGES), plan)
    return plan


def _check_regulars(rows: list[Any]) -> list[dict[str, Any]]:
    keys = ("id", "name", "merged_into", "created_at", "handles")
    rows = [_object(r, f"regular {i}", keys) for i, r in enumerate(rows, 1)]
    ids = _ids(rows, "regular")
    by_key: dict[str, str] = {}
    handle_ids: set[int] = set()
    for row in rows:
        where = f"regular {row['id']}"
        name = _name(row.get("name"), f"{where}: name")
        if name_key(name) in by_key:
            raise ImportRefused(f"the regulars {by_key[name_key(name)]} and {name} are one name")
        by_key[name_key(name)] = name
        row["created"] = _moment(row.get("created_at"), f"{where}: created_at")
        into = _ref(row.get("merged_into"), ids - {row["id"]}, f"{where}: merged_into",
                    "a regular", optional=True)  # fmt: skip
        row["merged_into"] = into
        handles = _list(row.get("handles", []), f"{where}: handles", MAX_HANDLES)
        for j, handle in enumerate(handles, 1):
            handle = _object(handle, f"{where}: handle {j}", ("id", "kind", "value"))
            number = _whole(handle.get("id"), f"{where}: handle {j}: id")
            if number in handle_ids:
                raise ImportRefused(f"payment handle {number} is in the file twice")
            handle_ids.add(number)
            value = handle.get("value")
            try:
                text = value if isinstance(value, str) else ""
                cleaned = clean_handle(str(handle.get("kind")), text)
            except HandleError as exc:
                raise _fail(f"{where}: handle {j}", str(exc)) from None
            if cleaned != value:
                raise _fail(f"{where}: handle {j}", "is not a handle as the app stores it")
    merged = {r["id"] for r in rows if r["merged_into"] is not None}
    for row in rows:
        if row["merged_into"] in merged:
            raise ImportRefused(
                f"regular {row['id']} is merged into regular {row['merged_into']}, which is "
                "merged itself (a merge goes into a regular that is not merged)"
            )
    return rows


def _check_nights(rows: list[Any]) -> list[dict[str, Any]]:
    keys = ("id", "name", "date", "currency", "locale", "paper", "settle_unit", "created_at",
            "deleted_at")  # fmt: skip
    rows = [_object(r, f"night {i}", keys) for i, r in enumerate(rows, 1)]
    _ids(rows, "night")
    for row in rows:
        where = f"night {row['id']}"
        _text(row.get("name"), f"{where}: name", 80)
        raw = row.get("date")
        try:
            row["played_on"] = date.fromisoformat(raw) if isinstance(raw, str) else None
        except ValueError:
            row["played_on"] = None
        if row["played_on"] is None:
            raise _fail(where, f"the date {str(raw)[:20]!r} is not a date (YYYY-MM-DD)")
        if row.get("currency") not in CURRENCIES:
            raise _fail(where, f"the currency {str(row.get('currency'))[:10]!r} is not one of ours")
        if row.get("locale") not in LOCALES:
            raise _fail(where, f"money written as {str(row.get('locale'))[:20]!r} is not offered")
        if row.get("paper") not in ("A4", "Letter"):
            raise _fail(where, "the paper must be A4 or Letter")
        if row.get("settle_unit") not in rounding_steps(row["currency"]):
            raise _fail(where, "its settle-up step is not one offered for its currency")
        row["created"] = _moment(row.get("created_at"), f"{where}: created_at")
        row["deleted"] = _moment(row.get("deleted_at"), f"{where}: deleted_at", optional=True)
    return rows


def _check_people(
    rows: list[Any], nights: dict[int, dict[str, Any]], regular_ids: set[int]
) -> list[dict[str, Any]]:
    rows = [_object(r, f"person {i}", ("id", "night", "regular", "name")) for i, r in
            enumerate(rows, 1)]  # fmt: skip
    _ids(rows, "person")
    on_night: dict[int, dict[str, str]] = {}
    for row in rows:
        where = f"person {row['id']}"
        night = _ref(row.get("night"), set(nights), where, "a night")
        _ref(row.get("regular"), regular_ids, where, "a regular")
        name = _name(row.get("name"), f"{where}: name")
        names = on_night.setdefault(night, {})
        if name_key(name) in names:
            raise ImportRefused(f"night {night} lists {name} twice")
        if len(names) >= MAX_PEOPLE_PER_NIGHT:
            raise ImportRefused(f"night {night} has more than {MAX_PEOPLE_PER_NIGHT} people")
        names[name_key(name)] = name
    return rows


def _check_games(
    rows: list[Any], records: dict[int, Any], nights: dict[int, dict[str, Any]], plan: _Plan
) -> list[_GamePlan]:
    keys = ("id", "night", "record", "pending_joins", "deleted_at", "history")
    rows = [_object(r, f"game {i}", keys) for i, r in enumerate(rows, 1)]
    _ids(rows, "game")
    people: dict[int, dict[str, str]] = {}
    for person in plan.people:
        people.setdefault(person["night"], {})[person["name"]] = person["name"]
    used: set[int] = set()
    live: dict[int, int] = {}
    out = []
    for row in rows:
        where = f"game {row['id']}"
        night_id = _ref(row.get("night"), set(nights), where, "a night")
        found = _GAME_FILE.fullmatch(str(row.get("record")))
        number = int(found.group(1)) if found else None
        if number is None or number not in records:
            raise _fail(where, f"its record {str(row.get('record'))[:40]!r} is not in the file")
        if number in used:
            raise _fail(where, f"its record games/{number}.json is another game's too")
        used.add(number)
        deleted = _moment(row.get("deleted_at"), f"{where}: deleted_at", optional=True)
        if deleted is None:
            live[night_id] = live.get(night_id, 0) + 1
            if live[night_id] > MAX_GAMES_PER_NIGHT:
                raise ImportRefused(f"night {night_id} has more than {MAX_GAMES_PER_NIGHT} games")
        night = nights[night_id]
        data = records[number]
        try:
            record = GameRecord.from_json(data)
            standings = replay(record)
        except RecordError as exc:
            raise _fail(f"{where} (games/{number}.json)", str(exc)) from None
        if record.settings.currency != night["currency"]:
            raise _fail(where, f"it is in {record.settings.currency}, its night in "
                        f"{night['currency']}")  # fmt: skip
        roster = people.get(night_id, {})
        # The seats as a game made by the services has them (services.create_game): the
        # record's players in order, then each late joiner (a player back after a drop
        # too) at the seat the engine gave them.
        seats = [(i, p.name, p.handicap, 0) for i, p in enumerate(record.players)]
        seats += [
            (p.seat, p.name, 0, p.joined_round) for p in standings.players[len(record.players) :]
        ]
        for _, name, _, _ in seats:
            if name not in roster:
                raise _fail(where, f"{name} plays in it but is not among its night's people "
                            "in the file")  # fmt: skip
        waiting = _list(row.get("pending_joins", []), f"{where}: pending_joins", 20)
        row["pending_joins"] = [_name(n, f"{where}: joining next round") for n in waiting]
        history = _list(row.get("history", []), f"{where}: history", MAX_EDITS_PER_GAME)
        out.append(
            _GamePlan(
                row=row,
                record=record.to_json(),
                seats=seats,
                deleted_at=deleted,
                history=[_check_edit(e, f"{where}: change {i}") for i, e in enumerate(history, 1)],
            )
        )
    unused = sorted(set(records) - used)
    if unused:
        raise ImportRefused(f"games/{unused[0]}.json is not a game of any night in the file")
    return out


def _is_round(value: Any) -> bool:
    if not isinstance(value, dict) or not isinstance(value.get("hands", {}), dict):
        return False
    hands = value.get("hands", {})
    return all(
        isinstance(k, str)
        and (
            (isinstance(v, int) and not isinstance(v, bool))
            or (isinstance(v, list) and all(isinstance(c, str) for c in v))
        )
        for k, v in hands.items()
    ) and (value.get("went_out") is None or isinstance(value.get("went_out"), str))


def _check_edit(value: Any, where: str) -> dict[str, Any]:
    """One change of a game's history, of the shape the history page reads."""
    row = _object(value, where, ("action", "round", "before", "after", "at"))
    action = row.get("action")
    if not isinstance(action, str) or action not in EDIT_ACTIONS:
        raise _fail(where, f"{str(action)[:20]!r} is not a kind of change")
    before, after = row.get("before"), row.get("after")
    if action in {"create", "import"}:
        try:
            GameRecord.from_json(after)
        except RecordError as exc:
            raise _fail(where, f"the record it started with: {exc}") from None
    elif action == "rename":
        _name(before, where)
        _name(after, where)
    elif action == "joins":
        if not isinstance(after, list) or not all(isinstance(n, str) for n in after):
            raise _fail(where, "must list the names joining")
    elif action in {"add", "edit", "remove"}:
        if action != "add" and not _is_round(before):
            raise _fail(where, "must give the round before the change")
        if action != "remove" and not _is_round(after):
            raise _fail(where, "must give the round after the change")
    if action in {"add", "edit", "remove"} or row.get("round") is not None:
        _whole(row.get("round"), f"{where}: round", 1, 10_000)
    row["created"] = _moment(row.get("at"), f"{where}: at")
    return row


def _check_ledger(
    rows: list[Any], nights: dict[int, dict[str, Any]], regular_ids: set[int]
) -> list[dict[str, Any]]:
    keys = ("id", "night", "kind", "payer", "payee", "amount", "to_night", "games_part",
            "created_at", "undone_at")  # fmt: skip
    rows = [_object(r, f"ledger entry {i}", keys) for i, r in enumerate(rows, 1)]
    _ids(rows, "ledger entry")
    for row in rows:
        where = f"ledger entry {row['id']}"
        night_id = _ref(row.get("night"), set(nights), where, "a night")
        if row.get("kind") not in ledger.KINDS:
            kind = str(row.get("kind"))[:20]
            raise _fail(where, f"{kind!r} is not a payment, carry or write-off")
        _ref(row.get("payer"), regular_ids, f"{where}: payer", "a regular")
        _ref(row.get("payee"), regular_ids, f"{where}: payee", "a regular")
        if row["payer"] == row["payee"]:
            raise _fail(where, "its payer and payee are one regular")
        _whole(row.get("amount"), f"{where}: amount", 1, MAX_AMOUNT)
        night = nights[night_id]
        if row["kind"] == ledger.CARRY:
            target_id = _ref(row.get("to_night"), set(nights), f"{where}: to_night", "a night")
            target = nights[target_id]
            if (target["played_on"], target_id) <= (night["played_on"], night_id):
                raise _fail(where, f"it carries into night {target_id}, which is not later")
            if target["currency"] != night["currency"]:
                raise _fail(where, f"it carries into night {target_id}, in another currency")
        elif row.get("to_night") is not None:
            raise _fail(where, "only a carry goes into another night")
        part = row.get("games_part")
        if part is not None:
            if not isinstance(part, dict) or len(part) > MAX_PEOPLE_PER_NIGHT * 2:
                raise _fail(where, "games_part must be an object of regulars' amounts")
            for key, amount in part.items():
                if not (isinstance(key, str) and key.isdigit() and int(key) in regular_ids):
                    raise _fail(where, f"games_part names regular {key[:12]!r}, not in the file")
                _whole(amount, f"{where}: games_part", -MAX_AMOUNT, MAX_AMOUNT)
        row["created"] = _moment(row.get("created_at"), f"{where}: created_at")
        row["undone"] = _moment(row.get("undone_at"), f"{where}: undone_at", optional=True)
    return rows


def _check_merges(rows: list[Any], plan: _Plan) -> list[dict[str, Any]]:
    keys = ("id", "kept", "gone", "moved", "created_at", "undone_at")
    rows = [_object(r, f"merge {i}", keys) for i, r in enumerate(rows, 1)]
    _ids(rows, "merge")
    known = {
        "people": {p["id"] for p in plan.people},
        "regulars": {r["id"] for r in plan.regulars},
        "payer_id": {e["id"] for e in plan.ledger},
        "payee_id": {e["id"] for e in plan.ledger},
        "handles": {h["id"] for r in plan.regulars for h in r.get("handles", [])},
    }
    for row in rows:
        where = f"merge {row['id']}"
        _ref(row.get("kept"), known["regulars"], f"{where}: kept", "a regular")
        _ref(row.get("gone"), known["regulars"], f"{where}: gone", "a regular")
        if row["kept"] == row["gone"]:
            raise _fail(where, "merges a regular into itself")
        moved = _object(row.get("moved"), f"{where}: moved", known)
        for key, ids in moved.items():
            for value in _list(ids, f"{where}: moved {key}", 100_000):
                _ref(value, known[key], f"{where}: moved {key}", key.removesuffix("_id"))
        row["created"] = _moment(row.get("created_at"), f"{where}: created_at")
        row["undone"] = _moment(row.get("undone_at"), f"{where}: undone_at", optional=True)
    return rows


# ------------------------------------------------------------------ importing ---
def holdings(user: User) -> tuple[int, int]:
    """How many nights (deleted ones too) and regulars the account has."""
    nights = db.session.scalar(
        select(func.count()).select_from(Night).where(Night.owner_id == user.id)
    )
    regulars = db.session.scalar(
        select(func.count()).select_from(Regular).where(Regular.owner_id == user.id)
    )
    return int(nights or 0), int(regulars or 0)


def import_account(user: User, data: bytes, *, submission: str | None = None) -> str:
    """Restore an exported account into ``user``'s, which must have no nights and no
    regulars; one transaction. Returns what was imported, in words. ImportRefused (and
    nothing changed) for a file that is not whole and right; AlreadyImported when this
    form (``submission``) was sent before."""
    try:
        plan = check_file(data)
        lock_keeper(user.id)  # one import (or merge) of the account at a time
        if submission and db.session.scalar(
            select(Submission.id).where(
                Submission.user_id == user.id, Submission.token == submission
            )
        ):
            raise AlreadyImported
        nights, regulars = holdings(user)
        if nights or regulars:
            raise ImportRefused(
                f"this account already has {_count(nights, 'night')} and "
                f"{_count(regulars, 'regular')}: an account file is imported only into an "
                "account with none, so that nothing is mixed. Import it into a new account."
            )
        _write(user, plan)
        if submission:
            db.session.add(
                Submission(user_id=user.id, token=submission, kind="account", target_id=user.id)
            )
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return plan.counts()


def _write(user: User, plan: _Plan) -> None:
    """Every row of the plan, with new ids, in the old ids' order (what is ordered by id,
    such as nights played on one date, stays in its order)."""
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
    person_of: dict[int, Person] = {}
    by_name: dict[tuple[int, str], Person] = {}
    for row in sorted(plan.people, key=lambda p: p["id"]):
        person = Person(
            night_id=night_of[row["night"]].id,
            regular_id=regular_of[row["regular"]].id,
            name=row["name"],
            name_key=name_key(row["name"]),
        )
        db.session.add(person)
        person_of[row["id"]] = person
        by_name[(row["night"], row["name"])] = person
    db.session.flush()
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
        )
        db.session.add(entry)
        entry_of[row["id"]] = entry
    db.session.flush()
    new_ids: dict[str, Any] = {
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


# ------------------------------------------------------------------- deleting ---
def delete_account(user: User) -> None:
    """Erase the account and everything of it, in one transaction: its nights, games,
    rounds, history, seats, results, people, regulars, ways to pay, merges, ledger
    entries, live links, one-time form ids, logins, reset links and the log-in attempts
    of its email. Nothing is kept: its live links then answer as unknown ones."""
    user_id, email = user.id, user.email
    try:
        lock_keeper(user_id)
        nights = select(Night.id).where(Night.owner_id == user_id).scalar_subquery()
        games = select(Game.id).where(Game.night_id.in_(nights)).scalar_subquery()
        regulars = select(Regular.id).where(Regular.owner_id == user_id).scalar_subquery()
        # Hook for co-keepers (issue 25, part 1): when other accounts can keep this
        # account's nights, their access (and any keeper links) ends here, with these
        # nights; and this account's own changes on other accounts' nights (edits and
        # ledger entries it recorded there) must be handed over or erased before its
        # users row goes.
        statements = [
            delete(LiveLink).where(or_(LiveLink.game_id.in_(games), LiveLink.night_id.in_(nights))),
            delete(GameResult).where(GameResult.game_id.in_(games)),
            delete(GameRound).where(GameRound.game_id.in_(games)),
            delete(Edit).where(Edit.game_id.in_(games)),
            delete(Seat).where(Seat.game_id.in_(games)),
            delete(Game).where(Game.id.in_(games)),
            delete(LedgerEntry).where(
                or_(LedgerEntry.night_id.in_(nights), LedgerEntry.to_night_id.in_(nights))
            ),
            delete(Person).where(Person.night_id.in_(nights)),
            delete(Night).where(Night.owner_id == user_id),
            delete(RegularMerge).where(RegularMerge.owner_id == user_id),
            delete(PaymentHandle).where(PaymentHandle.regular_id.in_(regulars)),
            update(Regular).where(Regular.owner_id == user_id).values(merged_into_id=None),
            delete(Regular).where(Regular.owner_id == user_id),
            delete(Submission).where(Submission.user_id == user_id),
            delete(UserSession).where(UserSession.user_id == user_id),
            delete(PasswordReset).where(
                or_(PasswordReset.user_id == user_id, PasswordReset.email == email)
            ),
            delete(LoginAttempt).where(LoginAttempt.email == email),
            delete(User).where(User.id == user_id),
        ]
        for statement in statements:
            db.session.execute(statement, execution_options={"synchronize_session": False})
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    db.session.expunge_all()


# ------------------------------------------------------------------ operators ---
def find_user(email: str) -> User | None:
    return db.session.scalar(select(User).where(User.email == email.strip().lower()))


def set_disabled(user: User, disabled: bool) -> None:
    """Disable the account (it cannot log in; every login of it ends; its reset links
    stop working) or enable it again. Committed."""
    if disabled:
        if user.disabled_at is None:
            user.disabled_at = utcnow()
        db.session.execute(delete(UserSession).where(UserSession.user_id == user.id))
        db.session.execute(
            update(PasswordReset)
            .where(PasswordReset.user_id == user.id, PasswordReset.used_at.is_(None))
            .values(used_at=utcnow())
        )
    else:
        user.disabled_at = None
    db.session.commit()


@dataclass(frozen=True)
class AccountLine:
    email: str
    created_at: datetime
    disabled_at: datetime | None
    nights: int
    logins: int


def accounts() -> list[AccountLine]:
    """Every account, by email, with its number of nights and of live logins."""
    nights = (
        select(func.count()).select_from(Night).where(Night.owner_id == User.id)
    ).scalar_subquery()
    logins = (
        select(func.count())
        .select_from(UserSession)
        .where(UserSession.user_id == User.id, UserSession.expires_at > utcnow())
    ).scalar_subquery()
    rows = db.session.execute(
        select(User.email, User.created_at, User.disabled_at, nights, logins).order_by(User.email)
    ).all()
    return [AccountLine(*row) for row in rows]
