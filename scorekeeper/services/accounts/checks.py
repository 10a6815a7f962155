"""An account file read and checked whole, nothing written: a plan of rows, each
reference tied to a row the file carries, or ImportRefused naming what is wrong."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date
from typing import Any

from flask import current_app

from ...rules import GameRecord, RecordError, name_key, replay
from ...rules.errors import say
from ...rules.money import CURRENCIES, LOCALES, rounding_steps
from ...rules.record import read_json
from ...rules.seating import Seating, seating
from .. import ledger
from ..nights import MAX_GAMES_PER_NIGHT, MAX_PEOPLE_PER_NIGHT
from ..payments import HandleError, clean_handle
from ..regulars import MAX_HANDLES
from .export import FORMAT, MANIFEST
from .fields import (
    ImportRefused,
    _fail,
    _ids,
    _list,
    _moment,
    _name,
    _object,
    _ref,
    _text,
    _waiting,
    _whole,
)
from .plan import GamePlan, Plan

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


def _unpacked(data: bytes) -> tuple[Any, dict[int, Any]]:
    """The manifest and the game records of a zip file, each JSON read and bounded."""
    limit = int(current_app.config["ACCOUNT_IMPORT_MAX_BYTES"])
    if len(data) > limit:
        raise ImportRefused(say("account_file.too_large", size=_size(limit)))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise ImportRefused(say("account_file.not_zip")) from None
    if len(infos) > MAX_GAMES + 1:
        raise ImportRefused(say("account_file.games", most=MAX_GAMES))
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
def check_file(data: bytes) -> Plan:
    """The file read and checked whole, nothing written: ImportRefused on any problem."""
    manifest, records = _unpacked(data)
    top = _object(
        manifest,
        MANIFEST,
        ("format", "exported_at", "email", "regulars", "merges", "nights", "people", "games",
         "ledger"),
    )  # fmt: skip
    if top.get("format") != FORMAT:
        raise ImportRefused(
            say("account_file.format", wanted=FORMAT, value=repr(top.get("format")))
        )
    # The cheap checks first (every row, time, id and reference), the games' replays last.
    plan = Plan()
    plan.regulars = _check_regulars(_list(top.get("regulars"), "regulars", MAX_REGULARS))
    regular_ids = {r["id"] for r in plan.regulars}
    plan.nights = _check_nights(_list(top.get("nights"), "nights", MAX_NIGHTS))
    nights = {n["id"]: n for n in plan.nights}
    plan.people = _check_people(
        _list(top.get("people"), "people", MAX_NIGHTS * MAX_PEOPLE_PER_NIGHT), nights, regular_ids
    )
    plan.ledger = _check_ledger(
        _list(top.get("ledger"), "ledger", MAX_LEDGER_ENTRIES), nights, regular_ids
    )
    plan.merges = _check_merges(_list(top.get("merges"), "merges", MAX_MERGES), plan)
    plan.games = _check_games(_list(top.get("games"), "games", MAX_GAMES), records, nights, plan)
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
    rows: list[Any], records: dict[int, Any], nights: dict[int, dict[str, Any]], plan: Plan
) -> list[GamePlan]:
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
        record, seats = _check_record(
            records[number], where, number, nights[night_id], people.get(night_id, {})
        )
        waiting = _list(row.get("pending_joins", []), f"{where}: pending_joins", 20)
        row["pending_joins"] = [_waiting(n, f"{where}: joining next round") for n in waiting]
        if any(isinstance(n, dict) for n in row["pending_joins"]):
            try:  # whom a newcomer sits after, by the engine's own join
                replay(record).with_joins(row["pending_joins"])
            except RecordError as exc:
                raise _fail(f"{where}: joining next round", exc.detail) from None
        history = _list(row.get("history", []), f"{where}: history", MAX_EDITS_PER_GAME)
        out.append(
            GamePlan(
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


def _check_record(
    data: Any, where: str, number: int, night: dict[str, Any], roster: dict[str, str]
) -> tuple[GameRecord, list[Seating]]:
    """A game's record replayed, in its night's currency, its players among its night's
    people; and its seats as the live app writes them (``rules.seating``)."""
    try:
        record = GameRecord.from_json(data)
        standings = replay(record)
    except RecordError as exc:
        raise _fail(f"{where} (games/{number}.json)", str(exc)) from None
    if record.settings.currency != night["currency"]:
        raise _fail(where, f"it is in {record.settings.currency}, its night in "
                    f"{night['currency']}")  # fmt: skip
    seats = seating(record, standings)
    for _, name, _, _ in seats:
        if name not in roster:
            raise _fail(where, f"{name} plays in it but is not among its night's people "
                        "in the file")  # fmt: skip
    return record, seats


def _is_round(value: Any) -> bool:
    if not isinstance(value, dict) or not isinstance(value.get("hands", {}), dict):
        return False
    hands = value.get("hands", {})
    return all(
        isinstance(k, str)
        and (
            (isinstance(v, int) and not isinstance(v, bool))
            or (isinstance(v, list) and all(isinstance(c, str) for c in v))
            or isinstance(v, str)  # a hand marker (Pool's "drop")
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
        if not isinstance(after, list):
            raise _fail(where, "must list the names joining")
        for entry in after:  # as the game's waiting list holds them (with a seat, maybe)
            _waiting(entry, where)
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
            "created_at", "undone_at", "plan", "claim")  # fmt: skip
    rows = [_object(r, f"ledger entry {i}", keys) for i, r in enumerate(rows, 1)]
    entry_ids = _ids(rows, "ledger entry")
    claims = {r["id"] for r in rows if r.get("kind") == ledger.CLAIM}
    night_ids = set(nights)
    held: dict[int, int] = {}  # entries of each night's book, as ledger.entry_count counts
    for row in rows:
        where = f"ledger entry {row['id']}"
        night_id = _ref(row.get("night"), night_ids, where, "a night")
        if row.get("kind") not in (*ledger.KINDS, ledger.CLAIM):
            kind = str(row.get("kind"))[:20]
            raise _fail(where, f"{kind!r} is not a payment, carry, write-off or claim")
        _check_claim_fields(row, where, entry_ids & claims)
        _ref(row.get("payer"), regular_ids, f"{where}: payer", "a regular")
        _ref(row.get("payee"), regular_ids, f"{where}: payee", "a regular")
        if row["payer"] == row["payee"]:
            raise _fail(where, "its payer and payee are one regular")
        _whole(row.get("amount"), f"{where}: amount", 1, MAX_AMOUNT)
        _check_carry(row, where, night_id, nights)  # to_night is a night of the file, or None
        for counted in {night_id, row.get("to_night")} & night_ids:
            held[counted] = held.get(counted, 0) + 1
            if held[counted] > (most := ledger.MAX_ENTRIES_PER_NIGHT):
                what = f"holds more than {most} money entries, the most one night keeps"
                raise ImportRefused(f"night {counted} {what}")
        _check_games_part(row.get("games_part"), where, regular_ids)
        row["created"] = _moment(row.get("created_at"), f"{where}: created_at")
        row["undone"] = _moment(row.get("undone_at"), f"{where}: undone_at", optional=True)
    return rows


def _check_claim_fields(row: dict[str, Any], where: str, claims: set[int]) -> None:
    """The plan an entry was made against (a stamp, or none), and the claim a payment
    confirms (a claim of the file, or none)."""
    plan = row.get("plan")
    if plan is not None and not (isinstance(plan, str) and re.fullmatch(r"[0-9a-f]{12}", plan)):
        raise _fail(where, "plan must be the stamp of a plan (12 hex digits) or null")
    if row.get("claim") is not None:
        if row["kind"] != ledger.PAYMENT:
            raise _fail(where, "only a payment confirms a claim")
        _ref(row["claim"], claims, f"{where}: claim", "a claim")


def _check_carry(
    row: dict[str, Any], where: str, night_id: int, nights: dict[int, dict[str, Any]]
) -> None:
    """A carry goes forward into a night in the same currency; nothing else goes anywhere."""
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


def _check_games_part(part: Any, where: str, regular_ids: set[int]) -> None:
    """An entry's games' part as it was when recorded: regulars of the file, whole amounts."""
    if part is None:
        return
    if not isinstance(part, dict) or len(part) > MAX_PEOPLE_PER_NIGHT * 2:
        raise _fail(where, "games_part must be an object of regulars' amounts")
    for key, amount in part.items():
        if not (re.fullmatch(r"[1-9][0-9]{0,9}", key) and int(key) in regular_ids):
            raise _fail(where, f"games_part names regular {key[:12]!r}, not in the file")
        _whole(amount, f"{where}: games_part", -MAX_AMOUNT, MAX_AMOUNT)


def _check_merges(rows: list[Any], plan: Plan) -> list[dict[str, Any]]:
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
