"""Issue 25, parts 3 and 4: take everything with you, and leave.

"Download everything" gives one zip file (scorekeeper-account/1); imported into an empty
account on another host (a second database of the same engine), every page shows the
same numbers: sheets, histories, payout pages (still to pay, recorded lines), the
players' totals, the regulars' stats, the CSVs. A file that is not whole and right
(references to rows it does not carry, another account's ids, a game that does not
replay, too large) is refused with a sentence and changes nothing; an account that holds
nights or regulars takes no file. "Delete my account" erases every row of it."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Night, Regular, User
from scorekeeper.services import accounts
from scorekeeper.services.accounts import checks, importing
from tests.conftest import make_app
from tests.samples import long_vegas
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, forms_of, handle_rows, inputs, text_of
from tests.web.test_games import play_texas
from tests.web.test_settle_up import (
    _live_link,
    carry,
    mark,
    new_night,
    pay,
    payout_form,
    regular_ids,
    send,
)

ANN = "keeper@example.com"
IBAN = "DE89 3704 0044 0532 0130 00"


def post(keeper: Keeper, url: str, data: dict[str, Any]) -> Any:
    token = inputs(keeper.client.get("/regulars").get_data(as_text=True))["csrf_token"]
    return keeper.client.post(url, data={"csrf_token": token, **data})


def build_history(keeper: Keeper) -> dict[str, int]:
    """A keeper's months in small: nights in two currencies and locales, a settle-up step,
    finished, running and deleted games (a correction, a late joiner seated after someone,
    one waiting to join), payments (one undone), a write-off, a carry, players' claims (one
    confirmed), ways to pay, a merge in force and one undone, a deleted night."""
    client = keeper.client
    friday = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy", "Dee"])
    texas = keeper.game(friday, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, texas)
    assert keeper.enter(texas, "Bob", {"Ann": 6, "Cy": "4+4"}, number=2).status_code == 302
    rummy = keeper.game(friday, "rummy", ["Ann", "Bob", "Cy", "Dee"], buy_in="2.00", deals="1")
    assert keeper.enter(rummy, "Ann", {"Bob": 5, "Cy": 7, "Dee": 9}).status_code == 302
    running = keeper.game(friday, "vegas", ["Bob", "Cy"], buy_in="1.50")
    assert keeper.enter(running, "Bob", {"Cy": 12}).status_code == 302
    joined = keeper.post_form(  # seated after Bob, not last: Cy moves one seat on
        f"/games/{running}/join", {"person": "Dee", "after": "Bob", "action": "add"}
    )
    assert joined.status_code == 302, text_of(joined)
    assert keeper.enter(running, "Cy", {"Bob": 4, "Dee": 3}).status_code == 302
    waiting = keeper.post_form(f"/games/{running}/join", {"person": "Ann", "action": "add"})
    assert waiting.status_code == 302
    gone = keeper.game(friday, "rummy", ["Ann", "Cy"], buy_in="1.00", deals="1")
    assert keeper.enter(gone, "Cy", {"Ann": 3}).status_code == 302
    assert keeper.post_form(f"/games/{gone}/delete", {}).status_code == 302
    ids = regular_ids(client)
    saturday = new_night(keeper, "Saturday", "2026-11-21", [ids["Ann"], ids["Dee"]], ["Eve"])
    later = keeper.game(saturday, "rummy", ["Ann", "Dee", "Eve"], buy_in="1.00", deals="1")
    assert keeper.enter(later, "Eve", {"Ann": 2, "Dee": 8}).status_code == 302
    mark(keeper, friday, ids["Bob"], ids["Ann"])
    pay(keeper, friday, ids["Cy"], ids["Ann"], "1.25")
    pay(keeper, friday, ids["Dee"], ids["Bob"], "0.40")
    undo = payout_form(keeper, friday, "entries/3/undo")
    send(keeper, friday, undo)
    page = text_of(client.get(f"/nights/{friday}/payout"))
    transfers = re.findall(r"(\w+) pays (\w+) \$", page.split("Still to pay", 1)[1])
    payer, payee = transfers[0]
    mark(keeper, friday, ids[payer], ids[payee], action="write_off")
    carry(keeper, friday, saturday)
    # On Saturday's players' page two players say "I paid"; the keeper confirms one.
    player = client.application.test_client()
    link = _live_link(keeper, saturday)
    said = [
        f for f in forms_of(player.get(link).get_data(as_text=True)) if f.action.endswith("/claims")
    ]
    assert len(said) >= 2
    for form in said[:2]:
        assert player.post(form.action, data=form.values()).status_code == 303
    html = client.get(f"/nights/{saturday}/payout").get_data(as_text=True)
    send(keeper, saturday, next(f for f in forms_of(html) if f.values().get("claim")))
    berlin = new_night(keeper, "Berlin", "2026-11-22", [ids["Ann"]], ["Fritz", "Gert"],
                       currency="EUR", locale="de")  # fmt: skip
    euro = keeper.game(berlin, "rummy", ["Ann", "Fritz", "Gert"], buy_in="1,00", deals="1")
    assert keeper.enter(euro, "Fritz", {"Ann": 3, "Gert": 4}).status_code == 302
    send(keeper, berlin, payout_form(keeper, berlin, "unit"), {"unit": "50"})
    ids = regular_ids(client)
    handles = handle_rows([("paypal", "annpays"), ("iban", IBAN)])
    assert post(keeper, f"/regulars/{ids['Ann']}/handles", handles).status_code == 302
    twin = new_night(keeper, "Sunday", "2026-11-23", [], ["Annie", "Cyrus", "Bob"])
    small = keeper.game(twin, "rummy", ["Annie", "Cyrus", "Bob"], buy_in="0.50", deals="1")
    assert keeper.enter(small, "Bob", {"Annie": 5, "Cyrus": 6}).status_code == 302
    ids = regular_ids(client)
    merged = keeper.post_form(
        "/regulars", {"keep": ids["Ann"], "gone": ids["Annie"]}, action="/regulars/merge"
    )
    assert merged.status_code == 302
    merged = keeper.post_form(
        "/regulars", {"keep": ids["Cy"], "gone": ids["Cyrus"]}, action="/regulars/merge"
    )
    assert merged.status_code == 302
    html = client.get("/regulars").get_data(as_text=True)
    undo = re.findall(r'action="(/regulars/merges/\d+/undo)"', html)
    assert undo
    assert keeper.post_form("/regulars", {}, action=undo[0]).status_code == 302
    # A long Vegas game: re-buys, a drop, and the dropped player back 10 rounds later.
    long = new_night(keeper, "Long", "2026-11-23", [], [])
    record = {"record": json.dumps(long_vegas(6, 60))}
    assert keeper.post_form(f"/nights/{long}/games/import", record).status_code == 302
    dropped = new_night(keeper, "Dropped", "2026-11-24", [ids["Bob"]], ["Hal"])
    assert keeper.post_form(f"/nights/{dropped}/delete", {}).status_code == 302
    return {"friday": friday, "saturday": saturday, "berlin": berlin}


# ------------------------------------------------------------- comparing hosts ---
def host_ids(app: Flask) -> tuple[list[int], list[int], dict[str, int]]:
    """The nights and games of the (one) keeper in order, and the regulars by name."""
    with app.app_context():
        nights = list(db.session.scalars(select(Night.id).order_by(Night.id)))
        games = list(db.session.scalars(select(Game.id).order_by(Game.id)))
        regulars = {r.name: r.id for r in db.session.scalars(select(Regular))}
        return nights, games, regulars


def without_ids(text: str) -> str:
    """A page's text with the numbers of the host's own ids left out (file names)."""
    return re.sub(r"game-\d+", "game-N", text)


def read(response: Any, *, raw: bool = False) -> str:
    """A page as a person reads it (a file as it is); a refusal as its status alone."""
    if response.status_code != 200:
        return str(response.status_code)
    return without_ids(response.get_data(as_text=True) if raw else text_of(response))


def pages(app: Flask, client: FlaskClient) -> dict[str, str]:
    """Every page a keeper reads, as text, named so that two hosts can be compared."""
    nights, games, regulars = host_ids(app)
    client.get("/")  # a message left to show is shown (once) before
    out = {"home": read(client.get("/")), "regulars": read(client.get("/regulars"))}
    for name, rid in regulars.items():
        out[f"regular {name}"] = read(client.get(f"/regulars/{rid}"))
        out[f"regular {name} csv"] = read(client.get(f"/regulars/{rid}/history.csv"), raw=True)
    for i, night in enumerate(nights):
        for page in ("", "/payout", "/payout.txt", "/export.csv"):
            response = client.get(f"/nights/{night}{page}")
            out[f"night {i}{page}"] = read(response, raw=page not in ("", "/payout"))
    for i, game in enumerate(games):
        for page in ("", "/history", "/export.json"):
            response = client.get(f"/games/{game}{page}")
            out[f"game {i}{page}"] = read(response, raw=page == "/export.json")
        api = client.get(f"/api/v1/games/{game}").get_json()
        if api is not None:
            api.pop("id", None)
            out[f"game {i} api"] = json.dumps(api, sort_keys=True)
    return out


@pytest.fixture
def second(second_db_uri: str) -> Iterator[Flask]:
    app = make_app(second_db_uri)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def exported(client: FlaskClient) -> bytes:
    response = client.get("/account/export.zip")
    assert response.status_code == 200 and response.mimetype == "application/zip"
    assert "attachment" in response.headers["Content-Disposition"]
    return response.get_data()


def upload(keeper: Keeper, data: bytes, **form: str) -> Any:
    _, hidden = keeper.form("/account/import")
    return keeper.client.post(
        "/account/import",
        data={**hidden, **form, "file": (io.BytesIO(data), "account.zip")},
        content_type="multipart/form-data",
    )


def test_an_exported_account_imported_elsewhere_shows_every_page_the_same(app, client, second):
    keeper = Keeper(client)
    keeper.signup(ANN)
    build_history(keeper)
    before = pages(app, client)
    data = exported(client)

    elsewhere = Keeper(second.test_client())
    elsewhere.signup(ANN)
    response = upload(elsewhere, data)
    assert response.status_code == 302, text_of(response)
    done = "Imported 6 nights, 8 games, 11 regulars and 8 ledger entries."
    assert done in text_of(elsewhere.client.get("/"))
    after = pages(second, elsewhere.client)
    assert after.keys() == before.keys()
    for name in before:
        assert after[name] == before[name], name
    # The numbers a club reads are there, not just equal: spot-check a few.
    friday = before["night 0/payout"]
    assert "carried to Saturday (2026-11-21)" in friday and "Bob paid Ann $2.10" in friday
    assert "Ann wrote off the $0.95 Cy owed" in friday  # what was left of Cy's transfer
    assert "carry out" in before["night 0/export.csv"]
    # And the file made there is the file made here (ids aside): nothing lost on the way.
    again = zipfile.ZipFile(io.BytesIO(exported(elsewhere.client)))
    first = zipfile.ZipFile(io.BytesIO(data))
    assert len(again.namelist()) == len(first.namelist())
    old, new = (json.loads(z.read("account.json")) for z in (first, again))
    for part in ("regulars", "nights", "people", "games", "ledger", "merges"):
        assert len(old[part]) == len(new[part]), part
    assert [g["history"] for g in old["games"]] == [g["history"] for g in new["games"]]
    assert [e["undone_at"] for e in old["ledger"]] == [e["undone_at"] for e in new["ledger"]]
    assert any(e["undone_at"] for e in old["ledger"])  # an undone payment went along
    assert sum(e["kind"] == "claim" for e in new["ledger"]) == 2  # "I paid", one confirmed
    assert sum(e["claim"] is not None for e in new["ledger"]) == 1
    assert any(g["pending_joins"] for g in new["games"])
    assert sum(m["undone_at"] is not None for m in new["merges"]) == 1
    ann = next(r for r in new["regulars"] if r["name"] == "Ann")
    assert [h["value"] for h in ann["handles"]] == ["annpays", IBAN]


def test_the_file_is_documented_json_and_its_games_are_game_records(app, client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="1", deals="1")
    keeper.enter(game, "Ann", {"Bob": 5})
    keeper.post_form(f"/games/{game}/live", {})  # a live link: left out of the file
    archive = zipfile.ZipFile(io.BytesIO(exported(client)))
    assert sorted(archive.namelist()) == ["account.json", f"games/{game}.json"]
    manifest = json.loads(archive.read("account.json"))
    assert manifest["format"] == "scorekeeper-account/1" and manifest["email"] == ANN
    assert set(manifest) == {"format", "exported_at", "email", "regulars", "merges", "nights",
                             "people", "games", "ledger"}  # fmt: skip
    record = json.loads(archive.read(f"games/{game}.json"))
    assert record == client.get(f"/games/{game}/export.json").get_json()
    text = archive.read("account.json").decode()
    assert "token" not in text and "password" not in text and "live" not in text


# ----------------------------------------------------------------- refusals ---
@pytest.fixture
def account_file(app: Flask, client: FlaskClient) -> bytes:
    """Ann's account file: two nights, a carry between them, a merge."""
    keeper = Keeper(client)
    keeper.signup(ANN)
    friday = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy"])
    game = keeper.game(friday, "rummy", ["Ann", "Bob", "Cy"], buy_in="2.00", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    ids = regular_ids(client)
    saturday = new_night(keeper, "Saturday", "2026-11-21", [ids["Ann"], ids["Bob"]], ["Dee"])
    carry(keeper, friday, saturday)
    new_night(keeper, "Sunday", "2026-11-22", [ids["Cy"]], ["Annie"])
    ids = regular_ids(client)
    merged = keeper.post_form(
        "/regulars", {"keep": ids["Ann"], "gone": ids["Annie"]}, action="/regulars/merge"
    )
    assert merged.status_code == 302
    return exported(client)


def doctored(data: bytes, change: Callable[[dict[str, Any], dict[str, Any]], None]) -> bytes:
    """The file with its manifest (and game records, by file name) changed."""
    source = zipfile.ZipFile(io.BytesIO(data))
    manifest = json.loads(source.read("account.json"))
    records = {n: json.loads(source.read(n)) for n in source.namelist() if n != "account.json"}
    change(manifest, records)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("account.json", json.dumps(manifest))
        for name, record in records.items():
            archive.writestr(name, json.dumps(record))
    return out.getvalue()


@pytest.fixture
def newcomer(app: Flask) -> Keeper:
    """A second account on the same host, new and empty (Bea)."""
    keeper = Keeper(app.test_client())
    keeper.signup("bea@example.com")
    return keeper


def _first_carry(m: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in m["ledger"] if e["kind"] == "carry")


DOCTORED: list[tuple[str, Callable[[dict[str, Any], dict[str, Any]], None], str]] = [
    ("person of a night not in the file",
     lambda m, r: m["people"][0].update(night=999), "names a night 999, which is not in"),
    ("person of a regular not in the file",
     lambda m, r: m["people"][0].update(regular=999), "names a regular 999, which is not in"),
    ("carry to a night not in the file",
     lambda m, r: _first_carry(m).update(to_night=999), "to_night: names a night 999"),
    ("carry backwards",
     lambda m, r: _first_carry(m).update(night=_first_carry(m)["to_night"],
                                         to_night=_first_carry(m)["night"]),
     "which is not later"),
    ("payment by a regular not in the file",
     lambda m, r: m["ledger"][0].update(payer=999), "payer: names a regular 999"),
    ("game of another night",
     lambda m, r: m["games"][0].update(night=m["nights"][1]["id"]),
     "is not among its night's people in the file"),
    ("game record missing",
     lambda m, r: r.clear(), "is not in the file"),
    ("game that does not replay",
     lambda m, r: next(iter(r.values()))["rounds"][0]["hands"].clear(), "no hand given"),
    ("game in another currency",
     lambda m, r: next(iter(r.values()))["settings"].update(currency="EUR"),
     "it is in EUR, its night in USD"),
    ("merge moving a ledger entry not in the file",
     lambda m, r: m["merges"][0]["moved"].update(payer_id=[999]), "moved payer_id: names"),
    ("regular merged into a merged one",
     lambda m, r: m["regulars"][0].update(merged_into=next(
         x["id"] for x in m["regulars"] if x["merged_into"] is not None)),
     "which is merged itself"),
    ("a person listed twice",
     lambda m, r: m["people"].append({**m["people"][0], "id": 999}), "lists Ann twice"),
    ("an amount that is not whole",
     lambda m, r: m["ledger"][0].update(amount=1.5), "amount: must be a whole number"),
    ("an unknown field",
     lambda m, r: m["nights"][0].update(owner_id=1), "has an unknown field 'owner_id'"),
    ("another format",
     lambda m, r: m.update(format="scorekeeper-account/2"), "is not a scorekeeper-account/1"),
    ("a night with a currency of no one's",
     lambda m, r: m["nights"][0].update(currency="XXX"), "is not one of ours"),
    ("a name with a text-direction control",
     lambda m, r: m["regulars"][0].update(name="Ann\u202e"), "regular"),
    ("a history entry of no kind",
     lambda m, r: m["games"][0]["history"].append({"action": "drop table", "round": None,
                                                   "before": None, "after": None,
                                                   "at": "2026-11-20T20:00:00+00:00"}),
     "is not a kind of change"),
    ("a history entry with a round that is not a number",
     lambda m, r: m["games"][0]["history"][0].update(round="x"), "round: must be a whole"),
    ("a correction without the round it corrected",
     lambda m, r: m["games"][0]["history"].append({"action": "edit", "round": 1,
                                                   "before": None, "after": {"hands": {}},
                                                   "at": "2026-11-20T20:00:00+00:00"}),
     "must give the round before the change"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "change", "sentence"), DOCTORED, ids=[d[0] for d in DOCTORED])
def test_a_doctored_file_is_refused_whole_and_changes_nothing(
    app, account_file, newcomer, what, change, sentence
):
    before = snapshot(app)
    response = upload(newcomer, doctored(account_file, change))
    assert response.status_code == 422, what
    page = text_of(response)
    assert "Not imported, nothing was changed:" in page and sentence in page, (what, page)
    assert snapshot(app) == before


def test_the_untouched_file_goes_into_another_empty_account_of_the_same_host(
    app, client, account_file, newcomer
):
    """The same host: the file's ids are Ann's rows here, and none of them is touched;
    Bea's account gets rows of its own with the same pages."""
    ann_pages = pages_of_first_account(app, client)
    before = snapshot(app)
    response = upload(newcomer, doctored(account_file, lambda m, r: None))
    assert response.status_code == 302, text_of(response)
    after = snapshot(app)
    for table, rows in before.items():
        assert all(row in after[table] for row in rows), table  # nothing of Ann's changed
    assert pages_of_first_account(app, client) == ann_pages
    assert pages_of_first_account(app, newcomer.client) == ann_pages


def pages_of_first_account(app: Flask, client: FlaskClient) -> dict[str, str]:
    client.get("/")  # a message left to show is shown (once) before
    return {"home": text_of(client.get("/")), "regulars": text_of(client.get("/regulars"))}


def test_ids_of_another_accounts_rows_are_refused(app, client, account_file, newcomer):
    """A file that names a row of the host that it does not carry (Ann's regular, by its
    id here) is refused: an import never reaches outside its own file."""
    with app.app_context():
        anns = db.session.scalars(select(Regular.id)).all()
    outside = max(anns) + 1000

    def steal(m: dict[str, Any], r: dict[str, Any]) -> None:
        m["regulars"] = m["regulars"][1:]  # the file drops one regular...
        dropped = {p["regular"] for p in m["people"]} - {x["id"] for x in m["regulars"]}
        for person in m["people"]:
            if person["regular"] in dropped:
                person["regular"] = anns[0]  # ...and points at Ann's row on this host
        m["merges"] = []
        for regular in m["regulars"]:
            regular["merged_into"] = None
        for entry in m["ledger"]:
            entry["games_part"] = None
        assert outside

    before = snapshot(app)
    response = upload(newcomer, doctored(account_file, steal))
    assert response.status_code == 422
    assert f"names a regular {anns[0]}, which is not in the file" in text_of(response)
    assert snapshot(app) == before


def test_an_account_with_nights_or_regulars_takes_no_file(app, client, account_file):
    keeper = Keeper(client)
    before = snapshot(app)
    response = upload(keeper, account_file)
    assert response.status_code == 422
    assert "this account already has 3 nights and 5 regulars" in text_of(response)
    assert "Import it into a new account" in text_of(response)
    assert snapshot(app) == before
    page = text_of(client.get("/account/import"))
    assert "This account already has 3 nights and 5 regulars." in page


def test_files_that_are_not_account_files_are_refused(app, account_file, newcomer):
    before = snapshot(app)
    cases = {
        b"not a zip at all": "that is not a Scorekeeper account file (a zip file)",
        b"": "Choose the account file",
    }
    extra = io.BytesIO()
    with zipfile.ZipFile(extra, "w") as archive:
        archive.writestr("account.json", zipfile.ZipFile(io.BytesIO(account_file)).read(
            "account.json"))  # fmt: skip
        archive.writestr("../../etc/passwd", "x")
    cases[extra.getvalue()] = "which is not its own"
    empty = io.BytesIO()
    with zipfile.ZipFile(empty, "w"):
        pass
    cases[empty.getvalue()] = "the file has no account.json"
    for data, sentence in cases.items():
        if data:
            response = upload(newcomer, data)
        else:
            _, hidden = newcomer.form("/account/import")
            response = newcomer.client.post("/account/import", data=hidden)
        assert response.status_code == 422, sentence
        assert sentence in text_of(response), (sentence, text_of(response))
    assert snapshot(app) == before


def test_imports_are_bounded(app, account_file, newcomer, monkeypatch):
    before = snapshot(app)
    app.config["ACCOUNT_IMPORT_MAX_BYTES"] = len(account_file) - 1
    response = upload(newcomer, account_file)
    assert response.status_code in (413, 422)
    app.config["ACCOUNT_IMPORT_MAX_BYTES"] = 16 * 1024 * 1024
    # A part that unpacks to more than it says (a zip bomb) stops at the bound.
    monkeypatch.setattr(checks, "MAX_UNPACKED_BYTES", 2000)
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("account.json", " " * 1_000_000)
    response = upload(newcomer, bomb.getvalue())
    assert response.status_code == 422 and "unpacks to more than" in text_of(response)
    monkeypatch.setattr(checks, "MAX_UNPACKED_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(checks, "MAX_NIGHTS", 1)
    response = upload(newcomer, account_file)
    assert response.status_code == 422 and "nights: holds more than 1" in text_of(response)
    assert snapshot(app) == before
    # Larger than the app's usual request limit, within the import's own: taken.
    app.config["MAX_CONTENT_LENGTH"] = 1000
    monkeypatch.setattr(checks, "MAX_NIGHTS", 100)
    assert len(account_file) > 1000
    assert upload(newcomer, account_file).status_code == 302


def test_a_double_tap_imports_once(app, account_file, newcomer):
    _, hidden = newcomer.form("/account/import")
    for _ in range(2):
        response = newcomer.client.post(
            "/account/import",
            data={**hidden, "file": (io.BytesIO(account_file), "account.zip")},
            content_type="multipart/form-data",
        )
        assert response.status_code == 302, text_of(response)
    with app.app_context():
        bea = db.session.scalar(select(User.id).where(User.email == "bea@example.com"))
        assert len(db.session.scalars(select(Night).where(Night.owner_id == bea)).all()) == 3


def test_the_account_page_offers_download_import_and_delete(client):
    Keeper(client).signup(ANN)
    html = client.get("/account").get_data(as_text=True)
    for href in ("/account/export.zip", "/account/import", "/account/delete"):
        assert f'href="{href}"' in html


# ------------------------------------------------------------------ deleting ---
def owned_rows(app: Flask, user_id: int, email: str) -> dict[str, set[Any]]:
    """Every row of every table that belongs to the account: the users row, rows with its
    email, and, walking db.metadata.sorted_tables to a fixed point, every row with a
    foreign key to a row that belongs to it."""
    with app.app_context():
        tables = db.metadata.sorted_tables
        rows = {t.name: db.session.execute(select(t)).mappings().all() for t in tables}
        owned: dict[str, set[Any]] = {t.name: set() for t in tables}
        owned["users"] = {user_id}
        changed = True
        while changed:
            changed = False
            for table in tables:
                (key,) = table.primary_key.columns
                for row in rows[table.name]:
                    if row[key.name] in owned[table.name]:
                        continue
                    mine = "email" in row and row["email"] == email
                    for fk in table.foreign_keys:
                        value = row[fk.parent.name]
                        if value is not None and value in owned[fk.column.table.name]:
                            mine = True
                    if mine:
                        owned[table.name].add(row[key.name])
                        changed = True
        return owned


def test_deleting_the_account_erases_every_row_of_it(app, client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    nights = build_history(keeper)
    other_phone = app.test_client()
    assert Keeper(other_phone).login(ANN).status_code == 302
    game_link = keeper.post_form(f"/nights/{nights['friday']}/live", {})
    assert game_link.status_code == 302
    keeper_page = client.get(f"/nights/{nights['friday']}/live").get_data(as_text=True)
    live = re.search(r'/live/night/[^"/]+', keeper_page)
    assert live and app.test_client().get(live.group(0)).status_code == 200
    Keeper(app.test_client()).login(ANN, "wrong horse")  # a failed log-in: a row of its email
    bea = Keeper(app.test_client())
    bea.signup("bea@example.com")
    bea_night = bea.night(["Bo", "Cas"])
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.email == ANN))
    owned = owned_rows(app, user_id, ANN)
    assert len(owned["game_rounds"]) > 10 and owned["ledger_entries"] and owned["live_links"]
    assert owned["regular_merges"] and owned["payment_handles"] and owned["login_attempts"]
    before = snapshot(app)

    page = keeper.client.get("/account/delete")
    assert "Everything of keeper@example.com is erased" in text_of(page)
    wrong = keeper.post_form("/account/delete", {"email": "bea@example.com"})
    assert wrong.status_code == 422 and "nothing was deleted" in text_of(wrong)
    assert snapshot(app) == before
    done = keeper.post_form("/account/delete", {"email": " Keeper@Example.com "})
    assert done.status_code == 302
    assert "Your account and everything in it were deleted." in text_of(client.get("/"))

    after = snapshot(app)
    with app.app_context():
        for table in db.metadata.sorted_tables:
            (key,) = table.primary_key.columns
            index = list(table.columns).index(key)
            left = {row[index] for row in after.get(table.name, [])}
            if table.name == "login_attempts":
                with db.engine.connect() as conn:
                    left = {r[0] for r in conn.execute(select(table.c.id))}
            assert not left & owned[table.name], table.name
            kept = {row[index] for row in before.get(table.name, [])} - owned[table.name]
            assert kept <= left | {None}, table.name  # nothing of anyone else's went
    # Its logins ended, its live link answers as an unknown one, Bea keeps her night.
    assert other_phone.get("/account").status_code == 302
    unknown = app.test_client().get("/live/night/AAAAAAAAAAAAAAAAAAAAAA")
    response = app.test_client().get(live.group(0))
    assert response.status_code == 404 and response.get_data() == unknown.get_data()
    assert bea.client.get(f"/nights/{bea_night}").status_code == 200
    assert Keeper(app.test_client()).login(ANN).status_code == 422


def test_a_deleted_account_is_gone_for_log_in_and_can_sign_up_anew(app, client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    keeper.night(["Ann", "Bob"])
    keeper.post_form("/account/delete", {"email": ANN})
    fresh = Keeper(app.test_client())
    fresh.signup(ANN, "another horse")
    assert (
        "Start a night" in text_of(fresh.client.get("/"))
        or "no nights" in text_of(fresh.client.get("/")).lower()
    )
    with app.app_context():
        assert db.session.scalars(select(Night)).all() == []


def test_the_delete_form_is_refused_without_its_token(app, client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    before = snapshot(app)
    response = client.post("/account/delete", data={"email": ANN})
    assert response.status_code == 400 and snapshot(app) == before


def test_forms_on_the_pages_are_complete(client):
    Keeper(client).signup(ANN)
    for url in ("/account/import", "/account/delete"):
        forms = [f for f in forms_of(client.get(url).get_data(as_text=True)) if f.action == url
                 or not f.action]  # fmt: skip
        assert len(forms) == 1 and forms[0].has("csrf_token"), url


# ---------------------------------------------------------- anything at all ---
def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value (object keys and list indexes), the root aside."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from _paths(item, (*path, index))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.sampled_from(["", "Ann", "x" * 300, "2026-11-20", "\u202e", "1", "carry", "USD"])
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6,
)  # fmt: skip


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_change_to_a_file_is_imported_or_refused_in_a_sentence(app, account_file, data):
    """Whatever one value of the file becomes, the import either checks out and writes
    (then rolled back here) or is refused with ImportRefused: never another error, from
    the checks or from the database."""
    source = zipfile.ZipFile(io.BytesIO(account_file))
    manifest = json.loads(source.read("account.json"))
    path = data.draw(st.sampled_from(list(_paths(manifest))))
    value = data.draw(JSON_VALUES)

    def change(m: dict[str, Any], r: dict[str, Any]) -> None:
        target = m
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    with app.app_context():
        user = User(email="fuzz@example.com", password_hash="x")
        db.session.add(user)
        db.session.flush()
        try:
            plan = accounts.check_file(doctored(account_file, change))
        except accounts.ImportRefused as exc:
            assert str(exc)
        else:
            importing.write_plan(user, plan)
            db.session.flush()
        finally:
            db.session.rollback()


def test_a_waiting_joiner_keeps_the_seat_chosen_and_a_doctored_seat_is_refused(
    app, client, newcomer
):
    """A late joiner waiting to sit after Ann goes along in the file and sits there on the
    new host; a file that seats them after someone not at the table is refused whole, in
    the engine's own sentence."""
    keeper = Keeper(client)
    keeper.signup(ANN)
    night = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    joined = keeper.post_form(
        f"/games/{game}/join", {"person": "Dee", "after": "Ann", "action": "add"}
    )
    assert joined.status_code == 302
    data = exported(client)

    def seat_after_zed(m: dict[str, Any], _: dict[str, Any]) -> None:
        m["games"][0]["pending_joins"] = [{"name": "Dee", "after": "Zed"}]

    before = snapshot(app)
    refused = upload(newcomer, doctored(data, seat_after_zed))
    assert refused.status_code == 422
    assert "Dee cannot sit after Zed: Zed is not at the table" in text_of(refused)
    assert snapshot(app) == before
    imported = upload(newcomer, data)
    assert imported.status_code == 302, text_of(imported)
    with app.app_context():
        bea = db.session.scalars(select(User).where(User.email == "bea@example.com")).one()
        moved = db.session.scalars(select(Game).join(Night).where(Night.owner_id == bea.id)).one()
        assert moved.pending_joins == [{"name": "Dee", "after": "Ann"}]


def test_a_seated_joiner_after_a_chosen_player_imports_in_the_seats_the_app_wrote(
    app, client, newcomer
):
    """Dee joins after Ann (not last) and plays: the file goes into another account with
    every seat where the live app put it, and the sheet reads the same."""
    keeper = Keeper(client)
    keeper.signup(ANN)
    night = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    joined = keeper.post_form(
        f"/games/{game}/join", {"person": "Dee", "after": "Ann", "action": "add"}
    )
    assert joined.status_code == 302
    assert keeper.enter(game, "Bob", {"Ann": 7, "Cy": 3, "Dee": 4}).status_code == 302
    with app.app_context():
        seats_before = [
            (s.position, s.person.name, s.joined_round) for s in db.session.get(Game, game).seats
        ]
    data = exported(client)
    imported = upload(newcomer, data)
    assert imported.status_code == 302, text_of(imported)
    with app.app_context():
        bea = db.session.scalars(select(User).where(User.email == "bea@example.com")).one()
        moved = db.session.scalars(select(Game).join(Night).where(Night.owner_id == bea.id)).one()
        assert [(s.position, s.person.name, s.joined_round) for s in moved.seats] == seats_before
