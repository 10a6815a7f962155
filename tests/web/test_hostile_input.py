"""Hostile input: every form and API endpoint fed bad data answers with a sentence naming
what is wrong (the sentence is asserted, not only the status), never a 500, and stores
nothing (the whole database is compared before and after). Names with HTML in them come
back escaped on every page where they show."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Night, User
from tests.web.checks import audit, snapshot
from tests.web.keeper import Keeper, inputs, text_of

VARIANTS = ("vegas", "texas", "rummy", "multiplayer", "dummy")
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
DROP = object()  # a form value that removes the key from the base form


# ------------------------------------------------------------------------- the world ---
class World:
    """One keeper's night (Ann, Bob, Cy) and, made on demand, a game of each variant:
    fresh (no round yet) or played (one round: Ann went out, Bob 5, Cy 5). The keeper signs
    up through the app; the night and games are made with the services, to keep it quick."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client
        self.keeper = Keeper(client)
        self.keeper.signup()
        self._night: int | None = None
        self._games: dict[tuple[str, bool], int] = {}

    def _user(self) -> User:
        return db.session.scalar(select(User).where(User.email == "keeper@example.com"))

    @property
    def night(self) -> int:
        if self._night is None:
            with self.app.app_context():
                self._night = services.create_night(
                    self._user(), name="Friday", played_on=date(2026, 11, 20), currency="USD",
                    paper="Letter", people=["Ann", "Bob", "Cy"],
                ).id  # fmt: skip
        return self._night

    def person(self, name: str) -> int:
        with self.app.app_context():
            night = db.session.get(Night, self.night)
            return next(p.id for p in night.people if p.name == name)

    def game(self, variant: str, *, played: bool = False) -> int:
        key = (variant, played)
        if key not in self._games:
            with self.app.app_context():
                user = self._user()
                game = services.create_game(
                    db.session.get(Night, self.night), variant=variant,
                    players=[("Ann", 0), ("Bob", 0), ("Cy", 0)], first_dealer="Ann",
                    settings={"currency": "USD"}, user=user,
                )  # fmt: skip
                if played:
                    rnd: dict[str, Any] = {"went_out": "Ann", "hands": {"Bob": 5, "Cy": 5}}
                    if variant == "dummy":
                        rnd["contracts"] = ["Ann"]
                    services.save_round(
                        game, rnd, number=None, expected_version=None, submission=None,
                        user=user,
                    )  # fmt: skip
                self._games[key] = game.id
        return self._games[key]

    def new_game_form(self, variant: str) -> tuple[str, dict[str, str]]:
        """The new-game form as the page fills it, Ann in seat 1 and Bob in seat 2."""
        url = f"/nights/{self.night}/games/new?variant={variant}"
        page, hidden = self.keeper.form(url)
        html = page.get_data(as_text=True)
        form = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', html))
        form = {k: v for k, v in form.items() if not k.startswith(("seat-", "handicap-"))}
        for key in re.findall(r'<input[^>]*name="(\w+)"[^>]*checked', html):
            form[key] = "y"
        ids = {name: self.person(name) for name in ("Ann", "Bob", "Cy")}
        form.update({f"seat-{pid}": "" for pid in ids.values()})
        form.update({f"seat-{ids['Ann']}": "1", f"seat-{ids['Bob']}": "2"})
        form.update(hidden)
        form.update({"variant": variant, "first_dealer": "Ann", "ace_points": "1"})
        return url, form


@pytest.fixture
def world(app: Flask, client: FlaskClient) -> World:
    return World(app, client)


# --------------------------------------------------------------------- the requests ---
def merged(base: dict[str, Any], data: dict[str, Any], world: World) -> dict[str, Any]:
    """``base`` overridden by ``data``; ``seat:Ann`` / ``handicap:Ann`` name a person's
    seat field; DROP removes a key."""
    out = dict(base)
    for key, value in data.items():
        if ":" in key:
            field, _, name = key.partition(":")
            key = f"{field}-{world.person(name)}"
        if value is DROP:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def post(
    world: World,
    client: FlaskClient,
    page: str,
    base: dict[str, Any],
    data: dict[str, Any],
    action: str | None = None,
    **kwargs: Any,
) -> TestResponse:
    """GET ``page`` for its hidden fields (CSRF token, version, submission), then POST
    them with ``base`` and ``data`` on top, to ``action`` or back to the page."""
    form = client.get(page)
    assert form.status_code == 200, (page, form.status_code)
    fields = merged({**inputs(form.get_data(as_text=True)), **base}, data, world)
    return client.post(action or page, data=fields, **kwargs)


def send(world: World, endpoint: str, data: dict[str, Any]) -> TestResponse:
    # Uploads are kept as bytes in the table and opened afresh for each request: the test
    # client closes a file it sent, and the table is shared by both database engines.
    data = {
        k: (BytesIO(v[0]), v[1]) if isinstance(v, tuple) and isinstance(v[0], bytes) else v
        for k, v in data.items()
    }
    kind, _, variant = endpoint.partition(":")
    c = world.client
    if kind == "signup":
        base = {"email": "new@example.com", "password": "correct horse"}
        base["confirm"] = base["password"]
        return post(world, world.app.test_client(), "/signup", base, data)
    if kind == "login":
        base = {"email": "keeper@example.com", "password": "wrong horse"}
        return post(world, world.app.test_client(), "/login", base, data)
    if kind == "night":
        base = {"name": "Friday", "played_on": "2026-11-20", "currency": "USD",
                "paper": "Letter", "people": "Dan\nEve"}  # fmt: skip
        return post(world, c, "/nights/new", base, data)
    night = f"/nights/{world.night}"
    if kind == "person":
        return post(world, c, night, {}, data, action=f"{night}/people")
    if kind == "rename":
        return post(world, c, f"{night}/people/{world.person('Bob')}", {}, data)
    if kind == "paper":
        return post(world, c, night, {}, data, action=f"{night}/paper", follow_redirects=True)
    if kind == "newgame":
        url, base = world.new_game_form(variant)
        return c.post(url, data=merged(base, data, world))
    if kind in {"round", "edit"}:
        game = world.game(variant, played=kind == "edit")
        url = f"/games/{game}/rounds/new" if kind == "round" else f"/games/{game}/rounds/1"
        return post(world, c, url, {"went_out": "0", "hand-1": "5", "hand-2": "5"}, data)
    if kind == "join":
        game = world.game("vegas", played=True)
        return post(world, c, f"/games/{game}/join", {"action": "add"}, data)
    if kind == "undo":
        game = world.game("rummy", played=True)
        return post(world, c, f"/games/{game}", {}, data,
                    action=f"/games/{game}/rounds/last/delete")  # fmt: skip
    if kind == "import":
        url = f"{night}/games/import"
        return post(world, c, url, {}, data, content_type="multipart/form-data")
    if kind == "api":
        return c.get(f"/api/v1/games/{data['id']}")
    raise AssertionError(f"unknown endpoint {endpoint}")


def record(**changes: Any) -> str:
    base: dict[str, Any] = {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"buy_in": 100, "currency": "USD"},
        "players": ["Ann", "Bob", "Cy"],
        "first_dealer": "Ann",
        "rounds": [{"went_out": "Ann", "hands": {"Bob": 5, "Cy": 5}}],
    }
    base.update(changes)
    return json.dumps(base)


def one_round(**changes: Any) -> str:
    return record(rounds=[{"went_out": "Ann", "hands": {"Bob": 5, "Cy": 5}, **changes}])


# ------------------------------------------------------------------------ the table ---
@dataclass(frozen=True)
class Case:
    id: str
    endpoint: str
    data: dict[str, Any]
    message: str
    status: int = 422


# fmt: off
LONG = "x" * 41
HUGE = "x" * 10_000
BIG = str(10**30)
NINES = "9" * 500
INCOMPLETE = "This form is incomplete: reload the page and try again."

CASES = [
    # -- accounts --------------------------------------------------------------------
    Case("signup-empty", "signup", {"email": "", "password": "", "confirm": ""},
         "This field is required."),
    Case("signup-not-email", "signup", {"email": "ann"}, "An email address must have an @-sign."),
    Case("signup-script-email", "signup", {"email": f"{SCRIPT}@example.com"},
         "There can't be anything after the email address."),
    Case("signup-nul-email", "signup", {"email": "a\x00b@example.com"},
         "The email address contains invalid characters before the @-sign: U+0000."),
    Case("signup-huge-email", "signup", {"email": HUGE + "@example.com"},
         "Field cannot be longer than 254 characters."),
    Case("signup-short-password", "signup", {"password": "short", "confirm": "short"},
         "Use at least 8 characters."),
    Case("signup-huge-password", "signup", {"password": HUGE, "confirm": HUGE},
         "Use at most 200 characters."),
    Case("signup-confirm-differs", "signup", {"confirm": "other horse"}, "Passwords differ."),
    # A taken email (in any case) changes nothing, and is answered as any sign-up is: it
    # does not say that the email has an account (tests/web/test_logins.py).
    Case("signup-taken-any-case", "signup", {"email": "KEEPER@Example.com"},
         "/login?next=/nights/new", 302),
    Case("login-empty", "login", {"email": "", "password": ""}, "This field is required."),
    Case("login-wrong", "login", {}, "That email and password do not match an account."),
    Case("login-nul-email", "login", {"email": "keeper\x00@example.com"},
         "The email contains control characters."),
    Case("login-huge-email", "login", {"email": HUGE},
         "Field cannot be longer than 254 characters."),
    Case("login-huge-password", "login", {"password": HUGE},
         "Field cannot be longer than 200 characters."),
    # -- a new night -----------------------------------------------------------------
    Case("night-empty-name", "night", {"name": ""}, "Give the night a name."),
    Case("night-blank-name", "night", {"name": "   "}, "Give the night a name."),
    Case("night-long-name", "night", {"name": "x" * 81},
         "Field cannot be longer than 80 characters."),
    Case("night-huge-name", "night", {"name": HUGE}, "Field cannot be longer than 80 characters."),
    Case("night-nul-name", "night", {"name": "Fri\x00day"},
         "The name contains control characters."),
    Case("night-escape-name", "night", {"name": "\x1b[31mFriday"},
         "The name contains control characters."),
    Case("night-bad-date", "night", {"played_on": "2026-13-45"}, "Not a valid date value."),
    Case("night-text-date", "night", {"played_on": "tomorrow"}, "Not a valid date value."),
    Case("night-empty-date", "night", {"played_on": ""}, "Give the date of the night."),
    Case("night-currency", "night", {"currency": "XXXX"}, "Choose a currency from the list."),
    Case("night-paper", "night", {"paper": "A5"}, "Choose A4 or US Letter paper."),
    Case("night-duplicate-names", "night", {"people": "Dan\nDAN"}, "DAN is listed twice"),
    Case("night-long-person", "night", {"people": LONG},
         f"name '{'x' * 20}'... is too long (41 characters, at most 40)"),
    Case("night-huge-people", "night", {"people": HUGE},
         "Field cannot be longer than 2000 characters."),
    Case("night-control-person", "night", {"people": "Dan\x07"},
         "name 'Dan\\x07' contains control characters"),
    Case("night-c1-person", "night", {"people": "Dan\x9b"},
         "name 'Dan\\x9b' contains control characters"),
    # -- people ----------------------------------------------------------------------
    Case("person-empty", "person", {"name": ""}, "This field is required."),
    Case("person-blank", "person", {"name": "   "}, "name is blank: give a name"),
    Case("person-long", "person", {"name": LONG}, "Field cannot be longer than 40 characters."),
    Case("person-huge", "person", {"name": HUGE}, "Field cannot be longer than 40 characters."),
    Case("person-duplicate", "person", {"name": " bOB "}, "bOB is already on tonight's list"),
    Case("person-nul", "person", {"name": "Dan\x00"},
         "name 'Dan\\x00' contains control characters"),
    Case("rename-empty", "rename", {"name": ""}, "This field is required."),
    Case("rename-taken", "rename", {"name": "ANN"}, "ANN is already on tonight's list"),
    Case("rename-long", "rename", {"name": LONG}, "Field cannot be longer than 40 characters."),
    Case("rename-control", "rename", {"name": "Bo\x1bb"},
         "name 'Bo\\x1bb' contains control characters"),
    Case("paper-a5", "paper", {"paper": "A5"}, "Choose A4 or US Letter.", 200),
    # -- a new game: seats and settings ----------------------------------------------
    Case("vegas-buy-in-negative", "newgame:vegas", {"buy_in": "-1"},
         "an amount must be 0 or more"),
    Case("vegas-buy-in-1e9", "newgame:vegas", {"buy_in": "1e9"},
         "'1e9' is not an amount: write it like 2.50"),
    Case("vegas-buy-in-overflow", "newgame:vegas", {"buy_in": "1e999999999"},
         "'1e999999999' is not an amount: write it like 2.50"),
    Case("vegas-buy-in-many-digits", "newgame:vegas", {"buy_in": "9" * 20},
         "that amount is more than this app will hold"),
    Case("vegas-buy-in-text", "newgame:vegas", {"buy_in": "abc"},
         "'abc' is not an amount: write it like 2.50"),
    Case("vegas-buy-in-nan", "newgame:vegas", {"buy_in": "NaN"},
         "'NaN' is not an amount: write it like 2.50"),
    Case("vegas-buy-in-huge", "newgame:vegas", {"buy_in": BIG},
         "Field cannot be longer than 24 characters."),
    Case("vegas-buy-in-cents", "newgame:vegas", {"buy_in": "2.555"},
         "an amount in USD has at most 2 decimals: write it like 2.50"),
    Case("vegas-pot-split-110", "newgame:vegas", {"pot_split": "50/60"},
         "settings.pot_split must add up to 100 (got 110)"),
    Case("vegas-pot-split-text", "newgame:vegas", {"pot_split": "abc"},
         "write whole percentages like 70/30"),
    Case("vegas-pot-split-negative", "newgame:vegas", {"pot_split": "150/-50"},
         "settings.pot_split must be between 0 and 100 (got 150)"),
    Case("vegas-pot-split-nines", "newgame:vegas", {"pot_split": NINES},
         "Field cannot be longer than 60 characters."),
    Case("vegas-max-score-0", "newgame:vegas", {"max_score": "0"},
         "Number must be between 1 and 100000."),
    Case("vegas-max-score-text", "newgame:vegas", {"max_score": "abc"},
         "Not a valid integer value."),
    Case("vegas-max-score-huge", "newgame:vegas", {"max_score": BIG},
         "Number must be between 1 and 100000."),
    Case("vegas-max-score-nines", "newgame:vegas", {"max_score": NINES},
         "Number must be between 1 and 100000."),
    Case("vegas-cards-nines", "newgame:vegas", {"cards_per_player": "-" + NINES},
         "Number must be between 1 and 20."),
    Case("vegas-cards-21", "newgame:vegas", {"cards_per_player": "21"},
         "Number must be between 1 and 20."),
    Case("vegas-aces-text", "newgame:vegas", {"ace_points": "abc"},
         "Aces count 1, 11 or 13 points."),
    Case("vegas-aces-nines", "newgame:vegas", {"ace_points": "9" * 5000},
         "Aces count 1, 11 or 13 points."),
    Case("vegas-aces-5", "newgame:vegas", {"ace_points": "5"},
         "settings.ace_points must be 1, 11 or 13 (got 5)"),
    Case("vegas-seat-text", "newgame:vegas", {"seat:Ann": "one"},
         "Seat must be a number: 1, 2, 3 ..."),
    Case("vegas-seat-nines", "newgame:vegas", {"seat:Ann": "9" * 5000},
         "Seat must be a number: 1, 2, 3 ..."),
    Case("vegas-seat-negative", "newgame:vegas", {"seat:Ann": "-1"},
         "Seat must be a number: 1, 2, 3 ..."),
    Case("vegas-seat-twice", "newgame:vegas", {"seat:Bob": "1"},
         "Seat 1 is given twice: Ann and Bob."),
    Case("vegas-handicap-negative", "newgame:vegas", {"handicap:Ann": "-3"},
         "Handicap is whole points, 0 or more."),
    Case("vegas-handicap-text", "newgame:vegas", {"handicap:Ann": "abc"},
         "Handicap is whole points, 0 or more."),
    Case("vegas-handicap-huge", "newgame:vegas", {"handicap:Ann": BIG},
         f"Ann's handicap of {BIG} must be below the max score (100)"),
    Case("vegas-one-player", "newgame:vegas", {"seat:Bob": ""},
         "a game needs at least 2 players (got 1)"),
    Case("vegas-new-player-taken", "newgame:vegas", {"new_player": "ann"},
         "ann is already on tonight's list: give them a seat"),
    Case("vegas-new-player-long", "newgame:vegas", {"new_player": LONG},
         "Field cannot be longer than 40 characters."),
    Case("vegas-new-player-control", "newgame:vegas", {"new_player": "Dan\x07"},
         "the new player's name 'Dan\\x07' contains control characters"),
    Case("vegas-dealer-unknown", "newgame:vegas", {"first_dealer": "Zed"},
         "Zed is not playing in this game."),
    Case("vegas-dealer-sits-out", "newgame:vegas", {"first_dealer": "Cy"},
         "Cy is not playing in this game."),
    Case("texas-ante-negative", "newgame:texas", {"ante": "-0.50"},
         "an amount must be 0 or more"),
    Case("texas-per-round-text", "newgame:texas", {"per_round": "ten"},
         "'ten' is not an amount: write it like 2.50"),
    Case("rummy-target-0", "newgame:rummy", {"target_score": "0"},
         "Number must be between 1 and 100000."),
    Case("rummy-deals-text", "newgame:rummy", {"deals": "abc"}, "Not a valid integer value."),
    Case("rummy-deals-huge", "newgame:rummy", {"deals": NINES},
         "Number must be between 1 and 200."),
    Case("multiplayer-target-text", "newgame:multiplayer", {"target_score": "1e3"},
         "Not a valid integer value."),
    Case("multiplayer-target-nines", "newgame:multiplayer", {"target_score": NINES},
         "Number must be between 1 and 100000."),
    Case("dummy-buy-in-text", "newgame:dummy", {"buy_in": "$$"},
         "'$$' is not an amount: write it like 2.50"),
    Case("dummy-pot-split-0", "newgame:dummy", {"pot_split": "0/0"},
         "settings.pot_split must add up to 100 (got 0)"),
    # -- import ----------------------------------------------------------------------
    Case("import-empty", "import", {"record": ""},
         "Not imported: paste a game record or choose a file"),
    Case("import-not-json", "import", {"record": "{not json"},
         "That is not JSON: Expecting property name enclosed in double quotes at line 1, "
         "column 2."),
    Case("import-deep", "import", {"record": "[" * 100_000},
         "Not imported: the record is nested too deeply"),
    Case("import-long-number", "import", {"record": "9" * 5000},
         "Not imported: a number in the record is too long"),
    Case("import-array", "import", {"record": "[1, 2]"},
         "Not imported: a game record must be a JSON object"),
    Case("import-null", "import", {"record": "null"},
         "Not imported: a game record must be a JSON object"),
    Case("import-format", "import", {"record": record(format="scorekeeper-game/9")},
         "Not imported: format must be 'scorekeeper-game/1' (got 'scorekeeper-game/9')"),
    Case("import-unknown-key", "import", {"record": record(owner="mallory")},
         "Not imported: unknown key 'owner' in the game record"),
    Case("import-variant-bool", "import", {"record": record(variant=True)},
         "Not imported: unknown variant True: use one of vegas, texas, rummy, multiplayer, "
         "dummy"),
    Case("import-players-string", "import", {"record": record(players="Ann, Bob")},
         "Not imported: players must be a list of names in seat order"),
    Case("import-player-bool", "import", {"record": record(players=[True, "Bob"])},
         "Not imported: player 1 must be a name in quotes (got True)"),
    Case("import-player-array", "import", {"record": record(players=["Ann", ["Bob"]])},
         "Not imported: player 2 must be a name in quotes (got ['Bob'])"),
    Case("import-player-long", "import", {"record": record(players=["Ann", LONG])},
         f"Not imported: player 2 '{'x' * 20}'... is too long (41 characters, at most 40)"),
    Case("import-player-twice", "import", {"record": record(players=["Ann", "ANN"])},
         "Not imported: two players are called 'Ann' (names must differ, ignoring capitals)"),
    Case("import-player-nul", "import", {"record": record(players=["Ann", "B\x00b"])},
         "Not imported: player 2 'B\\x00b' contains control characters"),
    Case("import-dealer-array", "import", {"record": record(first_dealer=["Ann"])},
         "Not imported: first_dealer ['Ann'] is not one of the players"),
    Case("import-settings-string", "import", {"record": record(settings="cheap")},
         "Not imported: settings must be an object of setting names and values"),
    Case("import-currency", "import", {"record": record(settings={"currency": "XXXX"})},
         "Not imported: settings.currency must be a three-letter ISO 4217 code such as USD "
         "(got 'XXXX')"),
    Case("import-other-currency", "import", {"record": record(settings={"currency": "EUR"})},
         "Not imported: the record is in EUR but this night is in USD"),
    Case("import-buy-in-negative", "import", {"record": record(settings={"buy_in": -1})},
         "Not imported: settings.buy_in must be between 0 and 10000000 (got -1)"),
    Case("import-buy-in-text", "import", {"record": record(settings={"buy_in": "2.50"})},
         "Not imported: settings.buy_in must be a whole number (got '2.50')"),
    Case("import-buy-in-huge", "import", {"record": record(settings={"buy_in": 10**30})},
         f"Not imported: settings.buy_in must be between 0 and 10000000 (got {BIG})"),
    Case("import-max-score-0", "import", {"record": record(settings={"max_score": 0})},
         "Not imported: settings.max_score must be between 1 and 100000 (got 0)"),
    Case("import-pot-split", "import", {"record": record(settings={"pot_split": [50, 60]})},
         "Not imported: settings.pot_split must add up to 100 (got 110)"),
    Case("import-handicap-huge", "import",
         {"record": record(players=["Ann", {"name": "Bob", "handicap": 10**30}, "Cy"])},
         f"Not imported: Bob's handicap of {BIG} must be below the max score (100)"),
    Case("import-rounds-string", "import", {"record": record(rounds="none")},
         "Not imported: rounds must be a list"),
    Case("import-went-out-unknown", "import",
         {"record": record(rounds=[{"went_out": "Zed", "hands": {"Bob": 1, "Cy": 2}}])},
         "Not imported: round 1: Zed went out but is not in the game"),
    Case("import-hand-unknown", "import", {"record": record(
        rounds=[{"went_out": "Ann", "hands": {"Bob": 1, "Cy": 2, "Zed": 3}}])},
         "Not imported: round 1: a hand is given for Zed, who is not a player in this game"),
    Case("import-hand-negative", "import",
         {"record": record(rounds=[{"went_out": "Ann", "hands": {"Bob": -5, "Cy": 2}}])},
         "Not imported: round 1: Bob's hand must be 0 points or more (got -5)"),
    Case("import-hand-huge", "import",
         {"record": record(rounds=[{"went_out": "Ann", "hands": {"Bob": 10**30, "Cy": 2}}])},
         f"Not imported: round 1: Bob's hand of {BIG} points is more than any hand can hold "
         "(at most 9999)"),
    Case("import-wild", "import", {"record": one_round(wild="ZZ")},
         "Not imported: round 1: wild 'ZZ' is not a card: write the rank and suit, such as 7C "
         "or QH, or JK for a joker"),
    Case("import-drop-not-expired", "import", {"record": one_round(drops=["Bob"])},
         "Not imported: round 1: Bob cannot drop: Bob did not expire this round (5 points, "
         "max 100); only a player who expires can drop"),
    Case("import-contracts-in-vegas", "import", {"record": one_round(contracts=["Ann"])},
         "Not imported: round 1: contracts is only recorded in dummy, not in vegas"),
    Case("import-10-mb", "import", {"record": "[" + "1," * 5_000_000 + "1]"},
         "That upload is too large: nothing was saved.", 413),
    Case("import-10-mb-file", "import",
         {"file": (b" " * 10_000_000 + record().encode(), "big.json")},
         "That upload is too large: nothing was saved.", 413),
    # Flask reads at most 500 kB of a form field: a longer paste is refused whole.
    Case("import-600-kb-text", "import", {"record": " " * 600_000 + record()},
         "That upload is too large: nothing was saved.", 413),
    Case("import-binary-file", "import", {"file": (b"\xff\xfe\x00garbage", "x.json")},
         "That is not JSON: Expecting value at line 1, column 1."),
    # -- the API ---------------------------------------------------------------------
    Case("api-zero", "api", {"id": "0"}, "no such game among yours", 404),
    Case("api-huge", "api", {"id": BIG}, "no such game among yours", 404),
    Case("api-text", "api", {"id": "abc"}, "no such game among yours", 404),
    # -- a late joiner (Vegas) -------------------------------------------------------
    Case("join-nobody", "join", {"new_name": "", "person": ""},
         "Choose who joins, or type a new name."),
    Case("join-long", "join", {"new_name": LONG}, "Field cannot be longer than 40 characters."),
    Case("join-huge-choice", "join", {"person": HUGE},
         f"the name '{'x' * 20}'... is too long (10000 characters, at most 40)"),
    Case("join-playing", "join", {"new_name": "ann"}, "Ann is already in the game."),
    Case("join-control", "join", {"new_name": "D\x07n"},
         "the name 'D\\x07n' contains control characters"),
    Case("join-cancel-unknown", "join", {"action": "cancel", "name": "Zed"},
         "Zed is not joining next round."),
    Case("join-version-text", "join", {"new_name": "Dee", "version": "abc"}, INCOMPLETE, 400),
    Case("join-no-version", "join", {"new_name": "Dee", "version": DROP}, INCOMPLETE, 400),
    # -- removing the last round -----------------------------------------------------
    Case("undo-version-text", "undo", {"version": "abc"},
         "The form sent was incomplete or malformed: nothing was saved.", 400),
    Case("undo-submission-nul", "undo", {"submission": "a\x00b"},
         "The form sent was incomplete or malformed: nothing was saved.", 400),
]

ROUND_CASES = []
for v in VARIANTS:
    who = "Tap who went out." if v == "vegas" else "Tap who went out (or Nobody)."
    cards = {"vegas": "A 2 10 J Q K JK W", "texas": "A 2 10 J Q K JK",
             "dummy": "A 2 10 J Q K JK"}.get(v, "A 2 10 J Q K")  # fmt: skip
    for kind in ("round", "edit"):
        ep = f"{kind}:{v}"
        ROUND_CASES += [
            Case(f"{ep}-went-out-99", ep, {"went_out": "99", "hand-0": "3"}, who),
            Case(f"{ep}-went-out-name", ep, {"went_out": "Ann"}, who),
            Case(f"{ep}-hand-empty", ep, {"hand-1": ""},
                 "Bob: give the points left in the hand (0 if none)"),
            Case(f"{ep}-hand-negative", ep, {"hand-1": "-5"}, "Bob: points cannot be negative"),
            Case(f"{ep}-hand-text", ep, {"hand-1": "twelve"},
                 f"Bob: 'TWELVE' is not points or a card: type 12, 10+7, or cards like {cards}"),
            Case(f"{ep}-hand-nines", ep, {"hand-1": NINES},
                 "Bob: that is more points than any hand can hold (at most 9999)"),
            Case(f"{ep}-hand-10-30", ep, {"hand-2": BIG},
                 "Cy: that is more points than any hand can hold (at most 9999)"),
            Case(f"{ep}-hand-control", ep, {"hand-1": "\x07"},
                 "Bob: '\\x07' is not points or a card"),
            Case(f"{ep}-hand-99", ep, {"hand-99": "3"},
                 "There is no seat 99 in this game: reload the page and enter the round again."),
            Case(f"{ep}-version-text", ep, {"version": "abc"}, INCOMPLETE, 400),
            Case(f"{ep}-submission-nul", ep, {"submission": "a\x00b"}, INCOMPLETE, 400),
            Case(f"{ep}-no-submission", ep, {"submission": DROP}, INCOMPLETE, 400),
        ]
    ROUND_CASES.append(Case(f"round:{v}-hand-array", f"round:{v}", {"hand-1": ["x", "5"]},
                            "Bob: 'X' is not points or a card"))  # fmt: skip
ROUND_CASES += [
    Case("round:vegas-wild-zz", "round:vegas", {"wild": "ZZ"},
         "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."),
    Case("round:vegas-wild-script", "round:vegas", {"wild": SCRIPT},
         "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."),
    Case("round:vegas-nobody-out", "round:vegas", {"went_out": "", "hand-0": "3"},
         "Tap who went out."),
    Case("round:multiplayer-rummy-nobody-out", "round:multiplayer",
         {"went_out": "", "hand-0": "3", "going_rummy": "y"},
         "round 1: going_rummy needs the player who went out"),
    Case("round:dummy-contract-99", "round:dummy", {"contract-99": "y"},
         "There is no seat 99 in this game: reload the page and enter the round again."),
    Case("round:texas-expiry-99", "round:texas", {"expiry-99": "drop"},
         "There is no seat 99 in this game: reload the page and enter the round again."),
]

# fmt: on


def answer_text(response: TestResponse) -> str:
    if response.is_json:
        return response.get_json()["error"]
    return text_of(response)


@pytest.mark.parametrize("case", CASES + ROUND_CASES, ids=lambda c: c.id)
def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(world, app, case):
    _prepare(world, case.endpoint)  # what the request needs exists before the snapshot
    before = snapshot(app)
    response = send(world, case.endpoint, case.data)
    assert response.status_code != 500
    page = answer_text(response)
    assert case.message in page, page[:2000]
    assert response.status_code == case.status, page[:2000]
    assert snapshot(app) == before


def _prepare(world: World, endpoint: str) -> None:
    kind, _, variant = endpoint.partition(":")
    if kind in {"round", "edit"}:
        world.game(variant, played=kind == "edit")
    elif kind == "join":
        world.game("vegas", played=True)
    elif kind == "undo":
        world.game("rummy", played=True)
    elif kind in {"import", "person", "rename", "paper", "newgame"}:
        world.game("rummy")
    elif kind == "api":
        world.game("rummy", played=True)


# ------------------------------------------------------------- escaping of names ---
def test_html_in_names_comes_back_escaped_on_every_page(app, client):
    k = Keeper(client)
    k.signup()
    night = k.night([SCRIPT, IMG, "Ann"], name=SCRIPT)
    players = [SCRIPT, IMG, "Ann"]
    vegas = k.game(night, "vegas", players, first_dealer=IMG)
    assert k.enter(vegas, SCRIPT, {IMG: 5, "Ann": 7}).status_code == 302
    assert k.enter(vegas, IMG, {SCRIPT: 5, "Ann": 7}, number=1).status_code == 302
    rummy = k.game(night, "rummy", players, target_score="10")
    assert k.enter(rummy, IMG, {SCRIPT: 20, "Ann": 30}).status_code == 302
    ids = k.person_ids(night)
    bad_round = k.round_data(vegas, IMG, {SCRIPT: "-1", "Ann": "7"})
    pages = {
        "home": client.get("/"),
        "night": client.get(f"/nights/{night}"),
        "payout": client.get(f"/nights/{night}/payout"),
        "choose": client.get(f"/nights/{night}/games/new"),
        "new game": client.get(f"/nights/{night}/games/new?variant=vegas"),
        "import": client.get(f"/nights/{night}/games/import"),
        "rename": client.get(f"/nights/{night}/people/{ids[IMG]}"),
        "sheet": client.get(f"/games/{vegas}"),
        "finished sheet": client.get(f"/games/{rummy}"),
        "round form": client.get(f"/games/{vegas}/rounds/new"),
        "round form with errors": k.post_form(f"/games/{vegas}/rounds/new", bad_round),
        "edit round": client.get(f"/games/{vegas}/rounds/1"),
        "join": client.get(f"/games/{vegas}/join"),
        "history": client.get(f"/games/{vegas}/history"),
        "duplicate person": k.post_form(
            f"/nights/{night}", {"name": SCRIPT.upper()}, action=f"/nights/{night}/people"
        ),
    }
    for label, response in pages.items():
        html = response.get_data(as_text=True)
        assert response.status_code in {200, 422}, label
        assert SCRIPT not in html and IMG not in html, label
        problems, tags = audit(html)
        assert problems == [], label
        # static/js/app.js, the round form's static/js/round.js, and the page's words for
        # its scripts (static/js/words.js and its JSON table: data, never run)
        scripts = 4 if label in {"round form", "round form with errors", "edit round"} else 3
        assert "img" not in tags and tags.count("script") == scripts, label
    for label in ("night", "payout", "sheet", "finished sheet", "round form", "edit round",
                  "history", "rename"):  # fmt: skip
        text = text_of(pages[label])
        assert IMG in text, label
    for label in ("home", "night", "payout", "choose", "sheet", "history", "round form"):
        assert SCRIPT in text_of(pages[label]), label
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["sheet"].get_data(as_text=True)
    assert f"{SCRIPT.upper()} is already on tonight's list" in text_of(pages["duplicate person"])
    # The record and the API carry the names as they were typed (JSON, not HTML).
    data = client.get(f"/api/v1/games/{vegas}").get_json()
    assert data["record"]["players"] == players
    flash = k.post_form(f"/nights/{night}/people/{ids[IMG]}", {"name": IMG + "!"})
    assert flash.status_code == 302
    assert IMG + "!" in text_of(client.get(f"/nights/{night}"))
    assert "<img" not in client.get(f"/nights/{night}").get_data(as_text=True)


# ------------------------------------------------------------- redirects after login ---
@pytest.mark.parametrize(
    "target",
    ["//evil.example", "/%09/evil.example", "/%5C/evil.example", "/%5Cevil.example",
     "https://evil.example/", "/%0d%0a//evil.example", "javascript:alert(1)"],
)  # fmt: skip
def test_login_never_redirects_off_site(client, target):
    k = Keeper(client)
    k.signup()
    client.post("/logout", data=inputs(client.get("/").get_data(as_text=True)))
    _, hidden = k.form("/login")
    r = client.post(f"/login?next={target}", data={**hidden, "email": "keeper@example.com",
                                                   "password": "correct horse"})  # fmt: skip
    assert r.status_code == 302
    location = r.headers["Location"]
    assert location == "/" or (location.startswith("/") and location[1:2] not in "/\\")
    assert "evil" not in location


def test_login_keeps_a_local_next(client):
    k = Keeper(client)
    k.signup()
    night = k.night(["Ann", "Bob"])
    client.post("/logout", data=inputs(client.get("/").get_data(as_text=True)))
    _, hidden = k.form("/login")
    r = client.post(f"/login?next=/nights/{night}", data={**hidden, "email": "keeper@example.com",
                                                          "password": "correct horse"})  # fmt: skip
    assert r.headers["Location"] == f"/nights/{night}"
