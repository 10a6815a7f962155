"""Keepers playing card nights at random, through the test client as phones post forms,
and what must hold after every step (issue 8: "the proof that the classes are gone").

The machine (:class:`CardNights`) plays one or two keepers: nights, people (names that are
card codes, record keys and look-alikes), games of every variant with random settings,
rounds with hands as points, sums and tapped or typed cards, Vegas expiries (re-buy or
drop), late joiners, corrections, undo, renames, export and import, deletes and restores,
settling up, and a second post of every form. Each form is read from the page that shows
it (hidden fields, CSRF token, one-time submission id, version), filled in and posted.

It expects something only where it is certain: a second post of a form changes nothing;
a refused post (4xx, or a redirect to an error) changes nothing; an unchanged correction
changes no number; a rename or an import changes no number; a saved round stores the hands
as typed. Otherwise it takes the app's answer and checks the invariants: no 5xx; every
stored game replays and its export replays to the same standings; sheet, API and PDF show
the same totals; every finished pot pays out what was paid in; every night settles to 0;
the sheet answers 304 to the ETag a phone last got only while the game's record and
standings are what they were then (issue 12: no cache may serve a stale page). Requests
land on one of two workers, each with caches of its own, switching at random: a worker
then often holds an older state of a game, which what it answers must never show.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from sqlalchemy import delete, or_, select
from werkzeug.test import TestResponse

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Game, LedgerEntry, Night, Person, Regular, User
from scorekeeper.rules import VARIANTS, get_variant, load_game, name_key, settle
from scorekeeper.services import ledger, stats
from tests.web.checks import snapshot
from tests.web.keeper import Form, Keeper, forms_of, text_of

# People as keepers name them: card codes, keys of the game record, look-alikes (capitals,
# a zero-width space, NFC and NFD, punctuation, accents), markup and quotes.
NAMES = (
    "A", "K", "Q", "J", "JK", "W", "2", "10", "7C",
    "players", "rounds", "went_out", "hands", "drops", "null",
    "Ann", "Ann\u200b", "ANN", "ann ", "Ann.", "Zoë", "Zoe\u0308", "Zoe",
    "Bob", "Bob Lee", "Cy", "O'Neil", "<b>Dee</b>", "Éva",
)  # fmt: skip
# Names of different people, whatever the look-alike rules (for the first night).
PLAIN_NAMES = ("Ann", "Bob", "Cy", "K", "10", "JK", "hands", "went_out", "Zoë", "O'Neil")
CURRENCIES = ("USD", "USD", "USD", "EUR", "JPY", "KWD")
DATES = ("2026-11-20", "2026-11-27", "2026-12-04")
LOCALES = ("en", "en", "de", "ja")
# Amounts a keeper types for a payment: ordinary, odd, too precise for some currencies,
# and wrong.
AMOUNTS = ("1", "0.50", "2.75", "10", "1,000", "0.005", "0", "-1", "x", "=1+1", "")
# Values a keeper may type into a game's settings: allowed ones ("keep": the form's own
# default), and by (variant, key) or key a few the form must refuse.
SETTING_VALUES: dict[str, tuple[str, ...]] = {
    "buy_in": ("keep", "", "0", "1", "2.50", "0.05", "$3", "1,25"),
    "pot_split": ("keep", "", "100", "70/30", "50/30/20", "60 40", "33/33/34"),
    "max_score": ("keep", "", "50", "100", "150"),
    "cards_per_player": ("keep", "7", "10"),
    "ace_points": ("keep", "1", "11", "13"),
    "ante": ("keep", "", "0.50", "0.10", "0"),
    "per_round": ("keep", "", "0.10", "0.25", "0"),
    "target_score": ("keep", "", "30", "60", "100"),
    "deals": ("keep", "", "1", "2", "3"),
    "cards": ("keep", "", "10 10 10 10 12 12 12", "7 8 9 10 11 12 13"),
    "joker_points": ("keep", "", "0", "25", "50"),
    # pool: the pool fixes the rest; a number typed overrides its default
    "pool": ("keep", "101", "201", "61"),
    "first_drop": ("keep", "", "", "10", "20"),
    "middle_drop": ("keep", "", "", "40"),
    "full_count": ("keep", "", "", "60", "80"),
    "wrong_show": ("keep", "", "", "80"),
    "rejoin_limit": ("keep", "", "", "", "44", "79"),
}
VARIANT_SETTING_VALUES: dict[tuple[str, str], tuple[str, ...]] = {
    ("contract", "ace_points"): ("keep", "", "1", "15", "50"),
    ("contract", "deals"): ("keep", "", "1", "2", "3", "7"),
}
WRONG_SETTINGS: dict[str, tuple[str, ...]] = {
    "buy_in": ("x", "-1", "1.005", "1e9"),
    "pot_split": ("90", "50/60", "a/b"),
    "max_score": ("0", "-5", "9" * 30),
    "cards_per_player": ("0", "21"),
    "ace_points": ("15", "1.0", "x"),
    "target_score": ("0",),
    "deals": ("0", "8", "201"),
    "cards": ("7 8 9", "x", "0"),
    "joker_points": ("101",),
    "pool": ("150", "x"),
    "first_drop": ("0", "x"),
    "rejoin_limit": ("-1", "300"),
}
FLAG = ("keep", "on", "off")
PDF_EVERY = 10  # steps between full sweeps (every game and night, the PDFs of one game)


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as paths (for readable failures)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                out.append(
                    f"{path}.{key}: {a.get(key, '<missing>')!r} != {b.get(key, '<missing>')!r}"
                )
            else:
                out += differences(a[key], b[key], f"{path}.{key}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = enumerate(zip(a, b, strict=True))
        return [d for i, (x, y) in pairs for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def same(a: Any, b: Any, what: str) -> None:
    found = differences(a, b)
    assert not found, f"{what}: " + "; ".join(found[:8])


def clear_database(app: Flask) -> None:
    """Every row gone: each example starts from an empty database."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(delete(table))
        db.session.commit()


@contextmanager
def app_context(app: Flask) -> Iterator[None]:
    with app.app_context():
        try:
            yield
        finally:
            db.session.remove()


class CheckedClient(FlaskClient):
    """A test client for which any 5xx answer fails the test on the spot."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        if response.status_code >= 500:
            raise AssertionError(
                f"{response.status_code} for {args[0] if args else kwargs.get('path')}: "
                f"{text_of(response)[:500]}"
            )
        return response


# ------------------------------------------------------------------------ the model ---
@dataclass
class GameModel:
    id: int
    night: int
    variant: str
    deleted: bool = False
    kept: dict[str, Any] | None = None  # standings when deleted, to compare on restore

    def __repr__(self) -> str:
        return f"<game {self.id} {self.variant}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # how Hypothesis prints a draw
        p.text(repr(self))


@dataclass
class NightModel:
    id: int
    currency: str
    deleted: bool = False
    games: dict[int, GameModel] = field(default_factory=dict)

    def live_games(self) -> list[GameModel]:
        return [g for g in self.games.values() if not g.deleted]

    def __repr__(self) -> str:
        return f"<night {self.id}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))


@dataclass
class Phone:
    """One keeper's phone: a client with its own cookies, and the keeper's nights."""

    keeper: Keeper
    email: str
    user_id: int
    nights: dict[int, NightModel] = field(default_factory=dict)

    @property
    def client(self) -> FlaskClient:
        return self.keeper.client

    def __repr__(self) -> str:
        return f"<{self.email}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def live_nights(self) -> list[NightModel]:
        return [n for n in self.nights.values() if not n.deleted]

    def live_games(self) -> list[GameModel]:
        return [g for n in self.live_nights() for g in n.live_games()]


def canon(standings: dict[str, Any]) -> dict[str, Any]:
    """A game's numbers without its names: what no rename or import may change."""
    players = standings["players"]
    balances = standings["pot"]["balances"]
    names = [name_key(p["name"]) for p in players]
    by_key = {name_key(n): v for n, v in balances.items()}
    return {
        "finished": standings["finished"],
        "rounds_played": standings["rounds_played"],
        "players": [
            (p["total"], p["scores"], p["in_contention"], p["expiries"], p["contract"], p["place"])
            for p in players
        ],
        "winners": sorted(names.index(name_key(w)) for w in standings["winners"]),
        "pot_total": standings["pot"]["total"],
        "entries": [
            (names.index(name_key(e["player"])), e["amount"], e["kind"], e["round"])
            for e in standings["pot"]["entries"]
        ],
        "balances": [by_key.get(k, 0) for k in names],
        "next": None
        if standings["next_round"] is None
        else {k: v for k, v in standings["next_round"].items() if k not in {"dealer", "starts"}}
        | {"contracts": sorted((standings["next_round"]["contracts"] or {}).values())},
    }


def text_of_html(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def to_pay(html: str) -> dict[int, int]:
    """What is still to pay on a payout page, from its Mark paid forms: each regular's
    balance (to receive: positive), in minor units."""
    out: dict[int, int] = {}
    for form in forms_of(html):
        values = form.values()
        whole = "paid" not in values and "claim" not in values  # not a part, not a claim
        if form.action.endswith("/transfers/mark") and values.get("action") == "payment" and whole:
            payer, payee, amount = (int(values[k]) for k in ("payer", "payee", "amount"))
            out[payer] = out.get(payer, 0) - amount
            out[payee] = out.get(payee, 0) + amount
    return {k: v for k, v in out.items() if v}


def sheet_totals(html: str) -> list[tuple[str, int]]:
    """(name, total) from the sheet page's grid, in seat order."""
    names = [
        unescape(n) for n in re.findall(r'<th scope="col" class="pn[^"]*"\s+title="([^"]*)"', html)
    ]
    row = re.search(r'<tr class="totals">(.*?)</tr>', html, re.S)
    assert row, "the sheet has no totals row"
    totals = [int(t) for t in re.findall(r'<td class="num[^"]*">(-?\d+)', row.group(1))]
    return list(zip(names, totals, strict=True))


def post_forms(html: str) -> list[Form]:
    """The forms of a page that post, but the header's Log out."""
    return [f for f in forms_of(html) if f.method == "post" and f.action != "/logout"]


def pdf_text(body: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(body)
        f.flush()
        out = subprocess.run(
            ["pdftotext", "-layout", f.name, "-"], capture_output=True, text=True, check=True
        ).stdout
    return re.sub(r"[ \t]+", " ", out)


def expected_hand(typed: str, tapped: str, codes: frozenset[str]) -> int | list[str] | None:
    """What the round form must store for a hand (README, issue 8 point 1): the tapped
    cards while the field still shows them; else a number or a sum typed is points, and
    words that are all card codes are cards. None: the form must refuse it."""
    words = [w.upper() for w in re.split(r"[\s,]+", typed) if w]
    cards = [w.upper() for w in tapped.split() if w]
    if cards and cards == words:
        return sorted(cards) if all(c in codes for c in cards) else None
    raw = typed.strip()
    if re.fullmatch(r"\d{1,5}(\s*\+\s*\d{1,5})*", raw):
        total = sum(int(p) for p in raw.split("+"))
        return total if total <= 9999 else None
    if words and all(w in codes for w in words):
        return sorted(words)
    return None


def stored_hand(value: Any) -> int | list[str]:
    return sorted(value) if isinstance(value, list) else value


# ------------------------------------------------------------------- the machine ---
class CardNights(RuleBasedStateMachine):
    """Keepers at card nights; bound to a Flask app by :func:`machine_for`."""

    app: Flask

    def __init__(self) -> None:
        super().__init__()
        clear_database(self.app)
        # Each example is a new evening on a new server: the live views' per-client
        # limit (in the app, kept across examples like the app) starts empty, or the
        # test client's one address runs into it examples later (a 429 no table sees).
        self.app.extensions.pop("live_limiter", None)
        self.phones: list[Phone] = []
        self.touched_games: set[int] = set()
        self.touched_nights: set[int] = set()
        self.steps = 0
        self.passed: dict[int, dict[str, Any]] = {}
        # The sheet's last ETag per (phone, game), with the record and standings it tagged.
        self.etags: dict[tuple[str, int], tuple[str, Any]] = {}
        # Two gunicorn workers: each keeps its own caches, and a request lands on either.
        self.workers = [_worker_caches(), _fresh_worker_caches()]
        self._signup()
        # A co-keeper (issue 25): another account that keeps some of the keepers' nights
        # by their keeper links, entering and undoing rounds on the same games.
        self.co: Phone | None = None
        self.co_nights: set[int] = set()
        self.co_barred: set[int] = set()  # nights the owner removed the co-keeper from

    # -- plumbing --------------------------------------------------------------------
    def _signup(self, email: str | None = None) -> Phone:
        email = email or f"keeper{len(self.phones) + 1}@example.com"
        keeper = Keeper(self.app.test_client())
        keeper.signup(email)
        with app_context(self.app):
            user_id = db.session.scalar(select(User.id).where(User.email == email))
        phone = Phone(keeper, email, int(user_id))
        self.phones.append(phone)
        return phone

    def get(
        self, phone: Phone, url: str, status: int | tuple[int, ...] = 200, **headers: str
    ) -> TestResponse:
        r = phone.client.get(url, headers={k.replace("_", "-"): v for k, v in headers.items()})
        wanted = (status,) if isinstance(status, int) else status
        assert r.status_code in wanted, (url, r.status_code, text_of(r)[:300])
        return r

    def page_form(self, phone: Phone, url: str, action: str | None = None) -> Form | None:
        """The form of a page that posts (to ``action``, when given)."""
        html = self.get(phone, url).get_data(as_text=True)
        return self.form_in(html, action)

    @staticmethod
    def form_in(html: str, action: str | None = None) -> Form | None:
        for form in post_forms(html):
            if action is None or form.action == action or form.action.endswith(action):
                return form
        return None

    def send(
        self,
        phone: Phone,
        url: str,
        data: dict[str, Any],
        *,
        double: bool = False,
    ) -> tuple[TestResponse, bool, str]:
        """Post as the phone does; returns (answer, refused?, the page the phone shows).

        A refused post (a 4xx, a page shown again, a redirect to an error) must change
        nothing; a second post of the same form (a double tap: the same submission id)
        must change nothing the first did not."""
        before = snapshot(self.app)
        r = phone.client.post(url, data=dict(data))
        refused, shown = self._outcome(phone, r)
        if refused:
            assert snapshot(self.app) == before, f"a refused post to {url} changed the database"
        if double:
            once = snapshot(self.app)
            again = phone.client.post(url, data=dict(data))
            self._outcome(phone, again)
            assert snapshot(self.app) == once, f"a second post to {url} changed the database"
        return r, refused, shown

    def _outcome(self, phone: Phone, r: TestResponse) -> tuple[bool, str]:
        if r.status_code in (301, 302, 303):
            landing = phone.client.get(r.headers["Location"])  # shows (and uses up) flashes
            html = landing.get_data(as_text=True)
            return 'class="flash flash-error"' in html, html
        assert 400 <= r.status_code < 500 or r.status_code == 200, r.status_code
        html = r.get_data(as_text=True)
        if r.status_code >= 400:
            assert text_of(r), "a refusal must say why"
        return True, html

    def api(self, phone: Phone, game_id: int) -> dict[str, Any]:
        r = self.get(phone, f"/api/v1/games/{game_id}")
        data = r.get_json()
        assert isinstance(data, dict)
        return data

    def checked(self, phone: Phone, game: GameModel) -> dict[str, Any]:
        """The game's standings as checked in this pass of the invariants."""
        if game.id not in self.passed:
            self.passed[game.id] = self.check_game(phone, game)
        return self.passed[game.id]

    def pick_phone(self, data: st.DataObject) -> Phone:
        if len(self.phones) == 1:
            return self.phones[0]
        return data.draw(st.sampled_from(self.phones), label="keeper")

    def pick_night(self, data: st.DataObject) -> tuple[Phone, NightModel] | None:
        choices = [(p, n) for p in self.phones for n in p.live_nights()]
        if not choices:
            return None
        return data.draw(st.sampled_from(choices), label="night")

    def pick_game(
        self, data: st.DataObject, *, variant: str | None = None
    ) -> tuple[Phone, GameModel] | None:
        choices = [
            (p, g)
            for p in self.phones
            for g in p.live_games()
            if variant is None or g.variant == variant
        ]
        if not choices:
            return None
        return data.draw(st.sampled_from(choices), label="game")

    def people(self, phone: Phone, night_id: int) -> dict[str, int]:
        """The night's people (name -> person id), as its page lists them."""
        html = self.get(phone, f"/nights/{night_id}").get_data(as_text=True)
        return {
            unescape(label): int(pid)
            for pid, label in re.findall(
                rf'href="/nights/{night_id}/people/(\d+)" aria-label="Rename ([^"]*)"', html
            )
        }

    def touch(self, night: NightModel, game: int | None = None) -> None:
        self.touched_nights.add(night.id)
        if game is None:
            self.touched_games.update(g.id for g in night.live_games())
        else:
            self.touched_games.add(game)

    def has_night(self) -> bool:
        return any(p.live_nights() for p in self.phones)

    def has_game(self) -> bool:
        return any(p.live_games() for p in self.phones)

    # -- keepers -----------------------------------------------------------------------
    @precondition(lambda self: len(self.phones) < 2)
    @rule()
    def second_keeper_signs_up(self) -> None:
        self._signup()

    @precondition(lambda self: len(self.phones) == 2 and self.has_game())
    @rule(data=st.data())
    def other_keeper_cannot_reach(self, data: st.DataObject) -> None:
        """Another keeper's night and game answer 404, also to a post, which saves nothing."""
        owner, game = self.pick_game(data) or (None, None)
        assert owner is not None and game is not None
        other = next(p for p in self.phones if p is not owner)
        for url in (
            f"/games/{game.id}",
            f"/api/v1/games/{game.id}",
            f"/games/{game.id}/export.json",
            f"/games/{game.id}/rounds/new",
            f"/nights/{game.night}",
            f"/nights/{game.night}/payout",
        ):
            self.get(other, url, 404)
        own = other.live_nights()
        token = {}
        if own:
            form = self.page_form(other, f"/nights/{own[0].id}", "/people")
            token = form.hidden() if form else {}
        before = snapshot(self.app)
        r = other.client.post(f"/nights/{game.night}/people", data={**token, "name": "Mallory"})
        assert r.status_code in (400, 404), r.status_code
        assert snapshot(self.app) == before

    # -- nights and people ----------------------------------------------------------
    @rule(data=st.data())
    def new_night(self, data: st.DataObject) -> None:
        phone = self.pick_phone(data)
        form = self.page_form(phone, "/nights/new")
        assert form is not None
        values = form.values()
        regulars = form.choices("regulars")
        picked = data.draw(
            st.lists(st.sampled_from(regulars), unique=True) if regulars else st.just([]),
            label="regulars",
        )
        typed = data.draw(st.lists(st.sampled_from(NAMES), max_size=6), label="people")
        sep = data.draw(st.sampled_from(["\n", ", ", "\r\n"]), label="separator")
        currency = data.draw(st.sampled_from(CURRENCIES), label="currency")
        values.update(
            name=data.draw(st.sampled_from(["Friday", "<i>Sat</i>", ""]), label="name"),
            played_on=data.draw(st.sampled_from(DATES), label="date"),
            locale=data.draw(st.sampled_from(LOCALES), label="locale"),
            currency=currency,
            people=sep.join(typed),
            regulars=picked,
        )  # fmt: skip
        double = data.draw(st.booleans(), label="double")
        r, refused, _ = self.send(phone, "/nights/new", values, double=double)
        if refused:
            return
        night_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
        assert night_id not in phone.nights
        night = NightModel(night_id, currency)
        phone.nights[night_id] = night
        listed = self.people(phone, night_id)
        entries = len(picked) + len([n for n in typed if n.strip()])
        assert len(listed) == entries, (listed, picked, typed)
        self.touched_nights.add(night_id)

    @precondition(has_night)
    @rule(data=st.data())
    def add_person(self, data: st.DataObject) -> None:
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        before = self.people(phone, night.id)
        form = self.page_form(phone, f"/nights/{night.id}", f"/nights/{night.id}/people")
        assert form is not None
        name = data.draw(st.sampled_from(NAMES), label="name")
        double = data.draw(st.booleans(), label="double")
        _, refused, _ = self.send(
            phone, f"/nights/{night.id}/people", {**form.values(), "name": name}, double=double
        )
        after = self.people(phone, night.id)
        assert len(after) == len(before) + (0 if refused else 1)

    @precondition(has_night)
    @rule(data=st.data())
    def rename_person(self, data: st.DataObject) -> None:
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        people = self.people(phone, night.id)
        if not people:
            return
        old = data.draw(st.sampled_from(sorted(people)), label="person")
        new = data.draw(
            st.sampled_from(NAMES) | st.just(old.upper()) | st.just(old + "\u200b"), label="to"
        )
        url = f"/nights/{night.id}/people/{people[old]}"
        form = self.page_form(phone, url)
        assert form is not None
        games = {g.id: canon(self.api(phone, g.id)["standings"]) for g in night.live_games()}
        double = data.draw(st.booleans(), label="double")
        _, refused, _ = self.send(phone, url, {**form.values(), "name": new}, double=double)
        # Only names change: every number of every game of the night stays as it was.
        for game_id, numbers in games.items():
            same(canon(self.api(phone, game_id)["standings"]), numbers, f"game {game_id} renamed")
        if not refused:
            self.touch(night)

    @precondition(has_night)
    @rule(data=st.data())
    def delete_night(self, data: st.DataObject) -> None:
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        url = f"/nights/{night.id}/delete"
        form = self.page_form(phone, url)
        assert form is not None
        _, refused, _ = self.send(
            phone, url, form.values(), double=data.draw(st.booleans(), label="double")
        )
        assert not refused
        night.deleted = True
        self.touched_nights.add(night.id)  # its carries leave their other nights
        self.get(phone, f"/nights/{night.id}", 404)
        for game in night.live_games():
            self.get(phone, f"/games/{game.id}", 404)

    def has_deleted_night(self) -> bool:
        return any(n.deleted for p in self.phones for n in p.nights.values())

    @precondition(has_deleted_night)
    @rule(data=st.data())
    def restore_night(self, data: st.DataObject) -> None:
        choices = [(p, n) for p in self.phones for n in p.nights.values() if n.deleted]
        phone, night = data.draw(st.sampled_from(choices), label="night")
        action = f"/nights/{night.id}/restore"
        form = self.page_form(phone, "/", action)
        if form is None:  # the home page lists the ten latest deleted nights
            return
        _, refused, _ = self.send(
            phone, action, form.values(), double=data.draw(st.booleans(), label="double")
        )
        assert not refused
        night.deleted = False
        self.touch(night)

    # -- games ------------------------------------------------------------------------
    @initialize(data=st.data())
    def a_night_with_a_game(self, data: st.DataObject) -> None:
        """Most examples start where a table starts: a few people and a game."""
        phone = self.phones[0]
        form = self.page_form(phone, "/nights/new")
        assert form is not None
        people = data.draw(
            st.lists(st.sampled_from(PLAIN_NAMES), min_size=2, max_size=5, unique=True),
            label="people",
        )
        currency = data.draw(st.sampled_from(CURRENCIES), label="currency")
        values = {**form.values(), "people": "\n".join(people), "currency": currency}
        r, refused, _ = self.send(phone, "/nights/new", values)
        assert not refused
        night = NightModel(int(r.headers["Location"].rstrip("/").split("/")[-1]), currency)
        phone.nights[night.id] = night
        self.touched_nights.add(night.id)
        self._new_game(data, phone, night)

    @initialize(data=st.data())
    def money_on_the_table(self, data: st.DataObject) -> None:
        """Most examples also have money to settle: a night whose one-deal game is over,
        and a later night of the same people in the same currency to carry debts into."""
        if not data.draw(st.integers(0, 2), label="money on the table"):
            return
        phone = self.phones[0]
        people = data.draw(
            st.lists(st.sampled_from(PLAIN_NAMES), min_size=2, max_size=4, unique=True),
            label="players",
        )
        currency = data.draw(st.sampled_from(["USD", "JPY", "KWD"]), label="currency")
        nights = []
        for day in ("2026-11-20", "2026-11-27"):
            form = self.page_form(phone, "/nights/new")
            assert form is not None
            values = {**form.values(), "people": "\n".join(people), "currency": currency,
                      "played_on": day}  # fmt: skip
            r, refused, _ = self.send(phone, "/nights/new", values)
            assert not refused
            night = NightModel(int(r.headers["Location"].rstrip("/").split("/")[-1]), currency)
            phone.nights[night.id] = night
            nights.append(night)
        first = nights[0]
        # A name that looks like a regular's ("Zoë" beside a "Zoe" seen before) is that
        # regular: the night lists them under the name the keeper's regulars have.
        listed = {name_key(n): n for n in phone.keeper.person_ids(first.id)}
        people = [listed[name_key(n)] for n in people]
        game = phone.keeper.game(first.id, "rummy", people, buy_in="3", deals="1")
        first.games[game] = GameModel(game, first.id, "rummy")
        hands = {name: data.draw(st.integers(0, 30), label="hand") for name in people[1:]}
        assert phone.keeper.enter(game, people[0], hands).status_code == 302
        self.touch(first)
        self.touched_nights.add(nights[1].id)

    @precondition(has_night)
    @rule(data=st.data())
    def new_game(self, data: st.DataObject) -> None:
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        self._new_game(data, phone, night)

    def _new_game(self, data: st.DataObject, phone: Phone, night: NightModel) -> None:
        variant = data.draw(st.sampled_from(sorted(VARIANTS)), label="variant")
        source = ""
        finished = [g for g in night.live_games() if g.variant == variant]
        if finished and data.draw(st.booleans(), label="same players"):
            source = f"&from={data.draw(st.sampled_from(finished), label='from').id}"
        url = f"/nights/{night.id}/games/new?variant={variant}{source}"
        form = self.page_form(phone, url)
        assert form is not None
        values = form.values()
        seats = [c for c in form.controls if c.name.startswith("seat-")]
        settings = [c for c in form.controls if c.name in SETTING_VALUES]
        # Mostly a game a table would start; now and then one slip the form must refuse.
        slips = ["seat twice", "one player", "handicap", "dealer", "new player"]
        slips += [f"setting:{c.name}" for c in settings if c.name in WRONG_SETTINGS]
        slip = data.draw(st.sampled_from(slips), label="slip") if not data.draw(
            st.integers(0, 7), label="slip?") else None  # fmt: skip
        by_name = {c.label: c for c in seats}
        order = [by_name[n] for n in data.draw(st.permutations(sorted(by_name)), label="seating")]
        low = 1 if slip == "one player" else 2
        high = 1 if slip == "one player" else min(len(seats), 6)
        if high < low:
            low = high = len(seats)
        # A game played by some counts only (Gin: two) is mostly started with one of them.
        fits = [n for n in range(low, high + 1) if get_variant(variant).players_refused(n) is None]
        if fits and slip is None:
            low, high = min(fits), max(fits)
        seated = order[: data.draw(st.integers(low, high), label="players")]
        for c in seats:
            values[c.name] = ""
        for i, c in enumerate(seated, 1):
            values[c.name] = str(i)
        if slip == "seat twice" and seated:
            values[seated[-1].name] = "1"
        for c in seated:
            handicap = c.name.replace("seat-", "handicap-")
            if form.has(handicap):
                choices = ["", "", "0", "10", *(["200", "x"] if slip == "handicap" else [])]
                values[handicap] = data.draw(st.sampled_from(choices), label="handicap")
        names = [c.label for c in seated]
        dealers = ["", *names] if slip != "dealer" else form.choices("first_dealer")
        values["first_dealer"] = data.draw(st.sampled_from(dealers), label="dealer")
        if slip == "new player" or data.draw(st.integers(0, 5), label="new player?") == 0:
            values["new_player"] = data.draw(st.sampled_from(NAMES), label="new player")
        for c in settings:
            allowed = VARIANT_SETTING_VALUES.get((variant, c.name), SETTING_VALUES[c.name])
            if slip == f"setting:{c.name}":
                allowed = WRONG_SETTINGS[c.name]
            typed = data.draw(st.sampled_from(allowed), label=c.name)
            if typed != "keep":
                values[c.name] = typed
        for c in form.controls:
            if c.type == "checkbox":
                flag = data.draw(st.sampled_from(FLAG), label=c.name)
                if flag == "on":
                    values[c.name] = c.value or "y"
                elif flag == "off":
                    values.pop(c.name, None)
        double = data.draw(st.booleans(), label="double")
        r, refused, shown = self.send(phone, url, values, double=double)
        warned = re.search(r'name="warned" value="(\w+)"', shown) if refused else None
        if warned and data.draw(st.booleans(), label="start anyway"):
            # The setup warned (player count, a Texas pot that runs dry) and changed
            # nothing; the keeper reads it and starts anyway.
            values["warned"] = warned[1]
            r, refused, _ = self.send(phone, url, values, double=double)
        if refused:
            return
        game_id = int(r.headers["Location"].split("?")[0].rstrip("/").split("/")[-1])
        assert game_id not in night.games
        night.games[game_id] = GameModel(game_id, night.id, variant)
        record = self.api(phone, game_id)["record"]
        players = [p if isinstance(p, str) else p["name"] for p in record["players"]]
        if not values.get("new_player"):
            assert [name_key(n) for n in players] == [name_key(n) for n in names]
        if values["first_dealer"] and values["first_dealer"] in names:
            assert name_key(record["first_dealer"]) == name_key(values["first_dealer"])
        self.touch(night, game_id)

    def _hand(self, data: st.DataObject, codes: list[str], finishing: bool) -> tuple[str, str]:
        """(typed text, tapped cards) for one hand: points, a sum, cards typed or tapped."""
        kind = data.draw(
            st.sampled_from(
                ["points", "points", "big", "sum", "typed", "tapped", "tapped", "overtyped", "junk"]
            ),
            label="hand",
        )
        cards = st.lists(st.sampled_from(codes), min_size=1, max_size=6)
        if kind == "points":
            return str(data.draw(st.integers(0, 60 if finishing else 30), label="points")), ""
        if kind == "big":
            return str(data.draw(st.sampled_from([0, 99, 150, 9999, 10000]), label="points")), ""
        if kind == "sum":
            parts = data.draw(st.lists(st.integers(0, 25), min_size=2, max_size=3), label="sum")
            return "+".join(map(str, parts)), ""
        if kind == "typed":
            words = data.draw(cards, label="cards")
            lower = data.draw(st.booleans(), label="lower")
            text = " ".join(w.lower() if lower else w for w in words)
            return text, ""
        if kind == "tapped":
            words = " ".join(data.draw(cards, label="cards"))
            return words, words
        if kind == "overtyped":  # tapped cards, then a number typed over them
            words = " ".join(data.draw(cards, label="cards"))
            return str(data.draw(st.integers(0, 40), label="points")), words
        return data.draw(st.sampled_from(["", "x", "-5", "K Z", "1 2 x"]), label="junk"), ""

    def _play_round(
        self, data: st.DataObject, phone: Phone, game: GameModel, *, finishing: bool
    ) -> tuple[bool, bool]:
        """One round typed into the round form: (saved?, may another round follow?)."""
        url = f"/games/{game.id}/rounds/new"
        r = phone.client.get(url)
        if r.status_code == 302:
            phone.client.get(r.headers["Location"])  # "This game is over" (flash used up)
            return False, False
        assert r.status_code == 200, r.status_code
        form = self.form_in(r.get_data(as_text=True))
        assert form is not None
        before = self.api(phone, game.id)
        variant = get_variant(game.variant)
        codes = sorted(variant.card_codes)
        values = form.values()
        # The radio's label also says the total ("Ann 12: went out"); the hand field's
        # label is the name alone ("Ann: left in hand").
        seats = {
            seat: form.named(f"hand-{seat}")[0].label.removesuffix(": left in hand") if seat else ""
            for seat in form.labels("went_out")
        }
        went = data.draw(st.sampled_from(sorted(seats)), label="went out")
        values["went_out"] = went
        expected: dict[str, Any] = {}
        # A Gin wash may leave both hands empty (stored as none); one left empty alone is
        # refused, so an empty field stands for junk only when the other is typed.
        wash = went == "" and variant.wash_without_hands
        empty_wash = wash and data.draw(st.booleans(), label="empty wash")
        for seat, name in seats.items():
            if not seat:
                continue
            if empty_wash:
                values[f"hand-{seat}"] = values[f"cards-{seat}"] = ""
                continue
            if seat == went and variant.out_has_hand:  # Gin: the knocker's deadwood
                knocker = ["0", "0", "3", "10", "11", "A 2"] if not finishing else ["0"]
                typed = data.draw(st.sampled_from(knocker), label="knocker")
                values[f"hand-{seat}"], values[f"cards-{seat}"] = typed, ""
                expected[name] = expected_hand(typed, "", variant.card_codes)
                continue
            if seat == went:
                if data.draw(st.integers(0, 5), label="leftover") == 0:
                    values[f"hand-{seat}"] = "12"  # ignored: they went out
                continue
            typed, tapped = self._hand(data, codes, finishing)
            if wash and not typed.strip():
                typed = "x"
            values[f"hand-{seat}"] = typed
            values[f"cards-{seat}"] = tapped
            expected[name] = expected_hand(typed, tapped, variant.card_codes)
        if form.has("wild"):
            wild = st.sampled_from(["", "7C", "jk", "10D", "QH", "ZZ"])
            values["wild"] = data.draw(wild, label="wild")
        if form.has("going_rummy"):
            values["going_rummy"] = "y" if data.draw(st.booleans(), label="rummy") else ""
        if form.has("how"):  # Gin: knock, gin, big gin (and one the form must refuse)
            hows = ["gin"] if finishing else ["knock", "knock", "gin", "big_gin", "rummy"]
            values["how"] = data.draw(st.sampled_from(hows), label="how")
        for c in form.controls:
            if c.name.startswith("contract-"):
                tick = finishing or data.draw(st.booleans(), label="contract")
                values[c.name] = "y" if tick else ""
        self._markers(data, form, values, seats, went, expected)
        double = data.draw(st.booleans(), label="double")
        r, refused, shown = self.send(phone, url, values, double=double)
        if r.status_code == 200 and "rebuy-or-drop:" in shown:
            asked = self.form_in(shown)
            assert asked is not None
            values = asked.values()
            for c in asked.controls:
                if c.name.startswith("expiry-") and c.value == "drop":
                    drop = data.draw(st.integers(0, 2 if finishing else 3), label="drop") != 0
                    values[c.name] = "drop" if drop else "rebuy"
            r, refused, shown = self.send(phone, url, values, double=double)
        if r.status_code == 200 and "rejoin-or-out:" in shown:
            asked = self.form_in(shown)
            assert asked is not None
            values = asked.values()
            for c in asked.controls:
                if c.name.startswith("rejoin-") and c.value == "rejoin":
                    back = data.draw(st.booleans(), label="rejoin") and not finishing
                    values[c.name] = "rejoin" if back else "out"
            r, refused, shown = self.send(phone, url, values, double=double)
        after = self.api(phone, game.id)
        played = before["standings"]["rounds_played"]
        if refused:
            same(after, before, "refused change")
            return False, any(v is None for v in expected.values()) or not finishing
        assert after["standings"]["rounds_played"] == played + 1
        stored = after["record"]["rounds"][played]
        assert name_key(stored["went_out"] or "") == name_key(seats[went] if went else "")
        hands = {name_key(k): stored_hand(v) for k, v in stored["hands"].items()}
        if empty_wash:
            assert stored["hands"] == {}, stored
        for name, hand in expected.items():
            assert hand is not None, f"{name}'s hand was saved though the form should refuse it"
            assert hands.get(name_key(name)) == hand, (name, hand, stored)
        return True, not after["standings"]["finished"]

    def _markers(
        self,
        data: st.DataObject,
        form: Any,
        values: dict[str, Any],
        seats: dict[str, str],
        went: str,
        expected: dict[str, Any],
    ) -> None:
        """Pool: now and then a hand marked by one tap instead of counted (the marker is
        stored, whatever the hand field holds; the one who went out has none)."""
        for seat, name in seats.items():
            if not seat or not form.has(f"marker-{seat}"):
                continue
            marker = data.draw(
                st.sampled_from(["", "", "", "drop", "middle_drop", "full_count", "wrong_show"]),
                label="marker",
            )
            values[f"marker-{seat}"] = marker
            if marker and seat != went:
                expected[name] = marker
        if form.has("wild_rank"):
            values["wild_rank"] = data.draw(st.sampled_from(["", "7", "A", "k"]), label="rank")

    def _game_to_play(self, data: st.DataObject) -> tuple[Phone, GameModel] | None:
        return self.pick_game(data)

    @precondition(has_game)
    @rule(data=st.data(), rounds=st.integers(1, 3))
    def play_rounds(self, data: st.DataObject, rounds: int) -> None:
        phone, game = self._game_to_play(data) or (None, None)
        assert phone is not None and game is not None
        for _ in range(rounds):
            if not self._play_round(data, phone, game, finishing=False)[1]:
                break
        self.touch(phone.nights[game.night], game.id)

    @precondition(has_game)
    @rule(data=st.data())
    def play_to_the_end(self, data: st.DataObject) -> None:
        """Rounds until the game is over (Texas takes 11, Dummy 12 with every contract)."""
        phone, game = self._game_to_play(data) or (None, None)
        assert phone is not None and game is not None
        for _ in range(14):
            if not self._play_round(data, phone, game, finishing=True)[1]:
                break
        self.touch(phone.nights[game.night], game.id)

    def has_vegas(self) -> bool:
        return any(g.variant == "vegas" for p in self.phones for g in p.live_games())

    @precondition(has_vegas)
    @rule(data=st.data())
    def late_joiner(self, data: st.DataObject) -> None:
        phone, game = self.pick_game(data, variant="vegas") or (None, None)
        assert phone is not None and game is not None
        url = f"/games/{game.id}/join"
        r = phone.client.get(url)
        if r.status_code == 302:  # the game is over
            phone.client.get(r.headers["Location"])
            return
        html = r.get_data(as_text=True)
        forms = post_forms(html)
        cancel = [f for f in forms if f.hidden().get("action") == "cancel"]
        if cancel and data.draw(st.integers(0, 3), label="cancel?") == 0:
            form = data.draw(st.sampled_from(cancel), label="cancel")
            values = form.values()
        else:
            form = next(f for f in forms if f.hidden().get("action") == "add")
            values = form.values()
            people = [c for c in form.choices("person") if c]
            if people and data.draw(st.booleans(), label="from the list"):
                values["person"] = data.draw(st.sampled_from(people), label="person")
            else:
                values["new_name"] = data.draw(st.sampled_from(NAMES), label="new name")
        double = data.draw(st.booleans(), label="double")
        self.send(phone, url, values, double=double)
        self.touch(phone.nights[game.night], game.id)

    @precondition(has_game)
    @rule(data=st.data())
    def correct_a_round(self, data: st.DataObject) -> None:
        phone, game = self.pick_game(data) or (None, None)
        assert phone is not None and game is not None
        before = self.api(phone, game.id)
        played = before["standings"]["rounds_played"]
        if not played:
            return
        number = data.draw(st.integers(1, played), label="round")
        url = f"/games/{game.id}/rounds/{number}"
        form = self.page_form(phone, url)  # every round opens for correction (issue 8.3)
        assert form is not None
        values = form.values()
        change = data.draw(
            st.sampled_from(["none", "none", "hand", "hand", "went_out", "drop"]), label="change"
        )
        if change == "hand":
            hands = [c.name for c in form.controls if c.name.startswith("hand-")]
            key = data.draw(st.sampled_from(hands), label="hand")
            typed, tapped = self._hand(data, sorted(get_variant(game.variant).card_codes), False)
            values[key] = typed
            values[key.replace("hand-", "cards-")] = tapped
        elif change == "went_out":
            values["went_out"] = data.draw(st.sampled_from(form.choices("went_out")), label="out")
        elif change == "drop":
            drops = sorted({c.name for c in form.controls if c.name.startswith("expiry-")})
            if drops:
                key = data.draw(st.sampled_from(drops), label="expiry")
                values[key] = "rebuy" if values.get(key) == "drop" else "drop"
        double = data.draw(st.booleans(), label="double")
        r, refused, shown = self.send(phone, url, values, double=double)
        if r.status_code == 200 and "rebuy-or-drop:" in shown:
            asked = self.form_in(shown)
            assert asked is not None
            r, refused, shown = self.send(phone, url, asked.values(), double=double)
        if r.status_code == 422 and "fix the marked field" in shown:
            assert re.search(r'has-error|aria-invalid="true"', shown), "nothing is marked"
        if change == "none":
            # The form shows the round as it is stored (and "back to N" as it will be
            # saved): saved unchanged, it changes no number.
            stored = before["record"]["rounds"][number - 1]
            assert not refused, (stored, before["record"]["players"], text_of(r)[:600])
            same(self.api(phone, game.id)["standings"], before["standings"], "unchanged correction")
        self.touch(phone.nights[game.night], game.id)

    @precondition(has_game)
    @rule(data=st.data())
    def undo_last_round(self, data: st.DataObject) -> None:
        phone, game = self.pick_game(data) or (None, None)
        assert phone is not None and game is not None
        self.undo_last(data, phone, game)

    def undo_last(self, data: st.DataObject, phone: Phone, game: GameModel) -> None:
        before = self.api(phone, game.id)
        form = self.page_form(phone, f"/games/{game.id}", "/rounds/last/delete")
        if form is None:
            return
        double = data.draw(st.booleans(), label="double")
        _, refused, _ = self.send(phone, form.action, form.values(), double=double)
        after = self.api(phone, game.id)
        if refused:
            same(after, before, "refused change")
        else:
            assert after["record"]["rounds"] == before["record"]["rounds"][:-1]
        self.touch(self.owner_of(game.night)[1], game.id)

    @precondition(has_game)
    @rule(data=st.data())
    def stale_form(self, data: st.DataObject) -> None:
        """A round form left open on one phone while another saves: refused, not saved."""
        phone, game = self.pick_game(data) or (None, None)
        assert phone is not None and game is not None
        r = phone.client.get(f"/games/{game.id}/rounds/new")
        if r.status_code != 200:
            phone.client.get(r.headers["Location"])
            return
        stale = self.form_in(r.get_data(as_text=True))
        assert stale is not None
        saved, _ = self._play_round(data, phone, game, finishing=False)
        self.touch(phone.nights[game.night], game.id)
        if not saved:
            return
        values = stale.values()
        for seat in stale.labels("went_out"):
            if seat:
                values["went_out"] = seat
                break
        values.update({k.replace("cards-", "hand-"): "5" for k in values if k.startswith("cards-")})
        url = f"/games/{game.id}/rounds/new"
        before = snapshot(self.app)
        r = phone.client.post(url, data=values)
        _, shown = self._outcome(phone, r)
        if r.status_code == 200 and "rebuy-or-drop:" in shown:  # asked "re-buy or drop?" first
            asked = self.form_in(shown)
            assert asked is not None
            r = phone.client.post(url, data=asked.values())
            self._outcome(phone, r)
        # 409: changed on another phone; 422: a seat of the old form is gone; 302: the
        # game is over meanwhile. Whichever, nothing of the old form is saved.
        assert r.status_code in (302, 409, 422), r.status_code
        assert snapshot(self.app) == before

    # -- a co-keeper ------------------------------------------------------------------
    def owner_of(self, night_id: int) -> tuple[Phone, NightModel]:
        return next((p, p.nights[night_id]) for p in self.phones if night_id in p.nights)

    def co_games(self) -> list[tuple[Phone, GameModel]]:
        """The live games of the live nights the co-keeper keeps, with their owners."""
        found = []
        for night_id in sorted(self.co_nights):
            owner, night = self.owner_of(night_id)
            if not night.deleted:
                found.extend((owner, game) for game in night.live_games())
        return found

    @precondition(has_night)
    @rule(data=st.data())
    def co_keeper_joins_by_the_link(self, data: st.DataObject) -> None:
        """The owner makes (or renews) the night's keeper link; the co-keeper opens it,
        confirms (maybe twice), and keeps the night; a renewed-away link opens nothing."""
        with_games = [(p, n) for p in self.phones for n in p.live_nights() if n.live_games()]
        if with_games:  # mostly a night with games to play, so the co-keeper plays soon
            owner, night = data.draw(st.sampled_from(with_games), label="night")
        else:
            owner, night = self.pick_night(data) or (None, None)
        assert owner is not None and night is not None
        if self.co is None:
            self.co = self._signup("cokeeper@example.com")
            self.phones.remove(self.co)  # a keeper of no night of its own here
        page = f"/nights/{night.id}"
        old = self.keeper_link(owner, night.id)
        change = "renew" if old and data.draw(st.booleans(), label="renew") else "open"
        # With a link in force the page offers Renew and Off; Make sent again (a second
        # tap from an older page) finds the same link.
        form = self.page_form(owner, page, "/keepers/renew" if old else "/keepers/open")
        assert form is not None
        action = f"{page}/keepers/{change}"
        self.send(owner, action, form.values(), double=data.draw(st.booleans(), label="double"))
        link = self.keeper_link(owner, night.id)
        assert link is not None and (link != old if change == "renew" else old in (None, link))
        if old and link != old:
            self.get(self.co, old, 404)
        if night.id in self.co_barred:  # removed: the link refuses them until let back in
            self.get(self.co, link, 403)
            back = self.page_form(owner, page, f"/keepers/{self.co.user_id}/let-back")
            assert back is not None
            double = data.draw(st.booleans(), label="double")
            self.send(owner, back.action, back.values(), double=double)
            self.co_barred.discard(night.id)
        r = self.get(self.co, link, (200, 302))
        if r.status_code == 302:  # keeps it already: straight to the night
            assert night.id in self.co_nights and r.headers["Location"] == page
            return
        assert night.id not in self.co_nights
        confirm = self.form_in(r.get_data(as_text=True), link)
        assert confirm is not None
        self.send(self.co, link, confirm.values(), double=data.draw(st.booleans(), label="double"))
        self.co_nights.add(night.id)

    def keeper_link(self, owner: Phone, night_id: int) -> str | None:
        html = self.get(owner, f"/nights/{night_id}").get_data(as_text=True)
        found = re.search(r'id="keeper-url" type="text" readonly value="[^"]*(/keep/[^"]+)"', html)
        return found.group(1) if found else None

    @precondition(lambda self: self.co is not None and self.co_games())
    @rule(data=st.data(), steps=st.integers(1, 3))
    def co_keeper_plays_and_undoes(self, data: st.DataObject, steps: int) -> None:
        """The co-keeper plays rounds on an owner's game, undoes the last one, or saves
        while the owner's round form is open (the owner's is then refused, not saved)."""
        assert self.co is not None
        owner, game = data.draw(st.sampled_from(self.co_games()), label="co-kept game")
        self.touch(self.owner_of(game.night)[1], game.id)
        for _ in range(steps):
            what = data.draw(st.sampled_from(["play", "play", "undo", "race"]), label="co does")
            self.co_keeper_step(data, owner, game, what)

    def co_keeper_step(self, data: st.DataObject, owner: Phone, game: GameModel, what: str) -> None:
        assert self.co is not None
        if what == "undo":
            self.undo_last(data, self.co, game)
            return
        stale = owner.client.get(f"/games/{game.id}/rounds/new")
        if stale.status_code != 200:  # the game is over
            owner.client.get(stale.headers["Location"])
            return
        saved, _ = self._play_round(data, self.co, game, finishing=False)
        sheet = self.get(self.co, f"/games/{game.id}").get_data(as_text=True)
        assert "Delete game" not in sheet and "Show players" not in sheet
        if what != "race" or not saved:
            return
        form = self.form_in(stale.get_data(as_text=True))
        assert form is not None
        values = form.values()
        values["went_out"] = next(seat for seat in form.labels("went_out") if seat)
        values.update({k.replace("cards-", "hand-"): "5" for k in values if k.startswith("cards-")})
        before = snapshot(self.app)
        r = owner.client.post(f"/games/{game.id}/rounds/new", data=values)
        _, shown = self._outcome(owner, r)
        assert r.status_code in (302, 409, 422), r.status_code
        if r.status_code == 409:
            assert "changed on another phone" in text_of_html(shown)
        assert snapshot(self.app) == before

    @precondition(lambda self: self.co is not None and self.co_nights)
    @rule(data=st.data())
    def co_keeper_removed(self, data: st.DataObject) -> None:
        """The owner removes the co-keeper: the night and its games answer 404 at once."""
        assert self.co is not None
        night_id = data.draw(st.sampled_from(sorted(self.co_nights)), label="co-kept night")
        owner, night = self.owner_of(night_id)
        if night.deleted:
            return
        page = f"/nights/{night_id}"
        form = self.page_form(owner, page, f"/keepers/{self.co.user_id}/remove")
        assert form is not None
        self.send(
            owner, form.action, form.values(), double=data.draw(st.booleans(), label="double")
        )
        self.co_nights.discard(night_id)
        self.co_barred.add(night_id)
        self.get(self.co, page, 404)
        for game in night.live_games():
            self.get(self.co, f"/games/{game.id}", 404)

    @invariant()
    def co_keeper_reaches_what_it_keeps_only(self) -> None:
        """The co-keeper's home page lists exactly the live nights it keeps."""
        if self.co is None:
            return
        html = self.get(self.co, "/").get_data(as_text=True)
        listed = {int(i) for i in re.findall(r'href="/nights/(\d+)"', html)}
        kept = {n for n in self.co_nights if not self.owner_of(n)[1].deleted}
        assert listed == kept, (listed, kept)

    # -- records -----------------------------------------------------------------------
    @precondition(has_game)
    @rule(data=st.data())
    def export_and_import(self, data: st.DataObject) -> None:
        phone, game = self.pick_game(data) or (None, None)
        assert phone is not None and game is not None
        r = self.get(phone, f"/games/{game.id}/export.json")
        text = r.get_data(as_text=True)
        source = self.api(phone, game.id)["standings"]
        targets = phone.live_nights()
        target = data.draw(st.sampled_from(targets), label="into")
        url = f"/nights/{target.id}/games/import"
        form = self.page_form(phone, url)
        assert form is not None
        values = form.values()
        as_file = data.draw(st.booleans(), label="as a file")
        if as_file:
            from io import BytesIO

            values["file"] = (BytesIO(text.encode()), "game.json")
        else:
            values["record"] = text
        double = data.draw(st.booleans(), label="double") and not as_file
        r, refused, _ = self.send(phone, url, values, double=double)
        if refused:
            return
        game_id = int(r.headers["Location"].split("?")[0].rstrip("/").split("/")[-1])
        target.games[game_id] = GameModel(game_id, target.id, game.variant)
        # The same game, to the cent, in the night it was imported into.
        same(canon(self.api(phone, game_id)["standings"]), canon(source), "imported game")
        self.touch(target, game_id)

    @precondition(has_game)
    @rule(data=st.data())
    def delete_game(self, data: st.DataObject) -> None:
        phone, game = self.pick_game(data) or (None, None)
        assert phone is not None and game is not None
        kept = self.api(phone, game.id)["standings"]
        url = f"/games/{game.id}/delete"
        form = self.page_form(phone, url)
        assert form is not None
        double = data.draw(st.booleans(), label="double")
        _, refused, _ = self.send(phone, url, form.values(), double=double)
        if refused:
            return
        game.deleted, game.kept = True, kept
        self.get(phone, f"/games/{game.id}", 404)
        self.get(phone, f"/api/v1/games/{game.id}", 404)
        self.touched_nights.add(game.night)

    def has_deleted_game(self) -> bool:
        return any(
            g.deleted for p in self.phones for n in p.live_nights() for g in n.games.values()
        )

    @precondition(has_deleted_game)
    @rule(data=st.data())
    def restore_game(self, data: st.DataObject) -> None:
        choices = [
            (p, n, g)
            for p in self.phones
            for n in p.live_nights()
            for g in n.games.values()
            if g.deleted
        ]
        phone, night, game = data.draw(st.sampled_from(choices), label="game")
        action = f"/games/{game.id}/restore"
        form = self.page_form(phone, f"/nights/{night.id}", action)
        assert form is not None, "a deleted game is listed for a restore"
        double = data.draw(st.booleans(), label="double")
        _, refused, _ = self.send(phone, action, form.values(), double=double)
        if refused:
            return
        game.deleted = False
        same(canon(self.api(phone, game.id)["standings"]), canon(game.kept), "restored game")
        self.touch(night, game.id)

    # -- settling up -------------------------------------------------------------------
    @precondition(has_night)
    @rule(data=st.data())
    def settle_up(self, data: st.DataObject) -> None:
        """Money, as a keeper records it: a transfer marked paid or written off (sometimes
        from a page that is no longer current), a payment typed (partial, over, wrong), a
        carry into a later night (or an earlier one, sent anyway), an undo, the rounding
        and the locale; each sometimes sent twice. What was recorded stays recorded."""
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        for _ in range(data.draw(st.integers(1, 3), label="actions")):
            self._settle_once(data, phone, night)

    def _settle_once(self, data: st.DataObject, phone: Phone, night: NightModel) -> None:
        html = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
        forms = post_forms(html)
        settings = ("/unit", "/locale")
        weighted = [f for f in forms for _ in range(1 if f.action.endswith(settings) else 3)]
        form = data.draw(st.sampled_from(weighted), label="action")
        values = form.values()
        action = form.action
        if action.endswith("/unit"):
            values["step-unit"] = data.draw(
                st.sampled_from([*form.choices("step-unit"), "3"]), label="unit"
            )
        elif action.endswith("/locale"):
            values["locale-locale"] = data.draw(
                st.sampled_from([*form.choices("locale-locale"), "xx"]), label="locale"
            )
        elif action.endswith("/carry"):
            others = [str(n.id) for n in phone.nights.values() if n.id != night.id]
            values["carry-target"] = data.draw(
                st.sampled_from([*form.choices("carry-target"), *others]), label="into"
            )
        elif action.endswith("/payments"):
            people = form.choices("pay-payer")
            values["pay-payer"] = data.draw(st.sampled_from(people), label="payer")
            values["pay-payee"] = data.draw(st.sampled_from(people), label="payee")
            values["pay-amount"] = data.draw(st.sampled_from(AMOUNTS), label="amount")
        elif action.endswith("/mark") and data.draw(st.integers(0, 5), label="stale") == 0:
            values["amount"] = str(int(values["amount"]) + 1)  # not what is to pay now
        elif action.endswith("/mark") and "paid" in values:  # part of a transfer paid
            values["paid"] = data.draw(st.sampled_from([values["paid"], *AMOUNTS]), label="part")
        double = data.draw(st.booleans(), label="double")
        before = self.ledger_rows()
        _, refused, shown = self.send(phone, action, values, double=double)
        after = self.ledger_rows()
        # Nothing recorded is lost or changed, but the one entry an undo undid.
        undone = int(action.split("/")[-2]) if action.endswith("/undo") else None
        for entry_id, row in before.items():
            assert entry_id in after, f"entry {entry_id} vanished"
            if entry_id != undone or refused:
                assert after[entry_id] == row, (entry_id, row, after[entry_id])
        added = set(after) - set(before)
        if added:
            assert not refused and action.endswith(("/mark", "/payments", "/carry"))
            for entry_id in added:
                assert f"/entries/{entry_id}/undo" in shown, "a recorded entry is not shown"
        if action.endswith("/carry") and not refused:
            self.touched_nights.add(int(values["carry-target"]))
        self.touched_nights.add(night.id)
        if not refused and action.endswith(("/unit", "/locale")):
            self.touched_games.update(g.id for g in night.live_games())

    @precondition(has_night)
    @rule(data=st.data())
    def carry_forward(self, data: st.DataObject) -> None:
        """What is still to pay on a night, carried into a later one (when any night offers
        it), sometimes twice; then money keeps moving on both nights."""
        offered = []
        for phone in self.phones:
            for night in phone.live_nights():
                html = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
                form = self.form_in(html, "/carry")
                if form is not None:
                    offered.append((phone, night, form))
        if not offered:
            return
        phone, night, form = data.draw(st.sampled_from(offered), label="carry")
        values = {**form.values()}
        values["carry-target"] = data.draw(st.sampled_from(form.choices("carry-target")))
        before = self.ledger_rows()
        _, refused, shown = self.send(phone, form.action, values, double=data.draw(st.booleans()))
        assert not refused, text_of_html(shown)[:300]
        added = set(self.ledger_rows()) - set(before)
        assert added and all(f"/entries/{e}/undo" in shown for e in added)
        self.touched_nights.update({night.id, int(values["carry-target"])})

    # -- regulars -------------------------------------------------------------------
    @rule(data=st.data())
    def merge_or_undo_a_merge(self, data: st.DataObject) -> None:
        """Two regulars merged (sometimes a pair that played one night together: refused),
        or a merge undone; each sometimes sent twice."""
        phone = self.pick_phone(data)
        html = self.get(phone, "/regulars").get_data(as_text=True)
        forms = [f for f in post_forms(html) if f.action.endswith(("/merge", "/undo"))]
        if not forms:
            return
        form = data.draw(st.sampled_from(forms), label="merge form")
        values = form.values()
        if form.action.endswith("/merge"):
            ids = form.choices("keep")
            values["keep"] = data.draw(st.sampled_from(ids), label="keep")
            values["gone"] = data.draw(st.sampled_from(ids), label="gone")
        self.send(phone, form.action, values, double=data.draw(st.booleans(), label="double"))
        self.touched_nights.update(n.id for n in phone.live_nights())

    @rule(data=st.data())
    def rename_a_regular(self, data: st.DataObject) -> None:
        phone = self.pick_phone(data)
        html = self.get(phone, "/regulars").get_data(as_text=True)
        ids = sorted(set(re.findall(r'href="/regulars/(\d+)"', html)))
        if not ids:
            return
        regular = data.draw(st.sampled_from(ids), label="regular")
        form = self.page_form(phone, f"/regulars/{regular}", "/rename")
        if form is None:
            return
        values = {**form.values(), "name": data.draw(st.sampled_from(NAMES), label="name")}
        self.send(phone, form.action, values, double=data.draw(st.booleans(), label="double"))
        self.touched_nights.update(n.id for n in phone.live_nights())

    # -- the players' phones ---------------------------------------------------------
    @precondition(has_night)
    @rule(data=st.data())
    def a_player_says_i_paid(self, data: st.DataObject) -> None:
        """On the night's players' page a phone with no account taps "I paid" on a
        transfer, or takes a claim back, sometimes twice: at most one open claim a
        transfer, nothing else recorded, and no money moves until the keeper confirms it
        (check_money runs after this step)."""
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        page = f"/nights/{night.id}/live"
        form = self.page_form(phone, page, page)
        if form is not None:
            assert not self.send(phone, page, form.values())[1]
        html = self.get(phone, page).get_data(as_text=True)
        found = re.search(r'id="live-url"[^>]* value="([^"]+)"', html)
        assert found, "the keeper's live page shows the link"
        link = unescape(found.group(1)).removeprefix("http://localhost")
        player = self.app.test_client()
        forms = [f for f in post_forms(player.get(link).get_data(as_text=True))]
        if not forms:
            return
        claim = data.draw(st.sampled_from(forms), label="claim form")
        before = self.ledger_rows()
        for _ in range(1 + data.draw(st.integers(0, 1), label="double")):
            r = player.post(claim.action, data=claim.values())
            assert r.status_code in (303, 409), (r.status_code, text_of_html(r.get_data(True)))
            assert "Set-Cookie" not in r.headers
        after = self.ledger_rows()
        added = [after[e] for e in set(after) - set(before)]
        assert len(added) <= 1 and all(row[1] == "claim" for row in added), added
        changed = [e for e in before if before[e] != after[e]]
        assert all(before[e][1] == "claim" for e in changed), changed
        shown = player.get(link).get_data(as_text=True)
        for line in shown.split('<li class="pay">')[1:]:
            assert line.count("says they paid") <= 1, "two open claims on one transfer"
        if added:
            keeper_sees = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
            assert "says they paid" in unescape(keeper_sees)
        self.touched_nights.add(night.id)

    @precondition(has_night)
    @rule(data=st.data())
    def players_poll_a_live_link(self, data: st.DataObject) -> None:
        """The keeper shows players a game or the night; a phone with no account (or the
        other keeper's) polls the link as live.js does, with and without its last ETag:
        it sees what the keeper sees, and nothing it was not shown."""
        phone, night = self.pick_night(data) or (None, None)
        assert phone is not None and night is not None
        games = night.live_games()
        game = data.draw(st.sampled_from([None, *games]), label="live game")
        page = f"/games/{game.id}/live" if game else f"/nights/{night.id}/live"
        form = self.page_form(phone, page, page)
        if form is not None:
            _, refused, _ = self.send(phone, page, form.values())
            assert not refused
        html = self.get(phone, page).get_data(as_text=True)
        found = re.search(r'id="live-url"[^>]* value="([^"]+)"', html)
        assert found, "the keeper's live page shows the link"
        link = unescape(found.group(1)).removeprefix("http://localhost")
        viewer = self.app.test_client() if len(self.phones) == 1 else self.phones[-1].client
        first = viewer.get(link)
        assert first.status_code == 200, (link, first.status_code)
        assert not first.headers.get("Set-Cookie"), "a live page sets no cookie"
        again = viewer.get(link, headers={"If-None-Match": first.headers.get("ETag", "")})
        assert again.status_code in (200, 304)
        shown = first.get_data(as_text=True)
        if game is not None:
            standings = self.checked(phone, game)
            assert sheet_totals(shown) == [(p["name"], p["total"]) for p in standings["players"]]
        else:
            payout = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
            keeper_sees = re.findall(r'<span class="pay-sentence"><strong>([^<]+)</strong>', payout)
            players_see = re.findall(r'<span class="pay-sentence"><strong>([^<]+)</strong>', shown)
            assert sorted(players_see) == sorted(keeper_sees)

    def ledger_rows(self) -> dict[int, tuple[Any, ...]]:
        with app_context(self.app):
            rows = db.session.execute(
                select(
                    LedgerEntry.id, LedgerEntry.night_id, LedgerEntry.kind,
                    LedgerEntry.payer_id, LedgerEntry.payee_id, LedgerEntry.amount,
                    LedgerEntry.to_night_id, LedgerEntry.undone_at.is_(None),
                )
            ).all()  # fmt: skip
        return {row[0]: tuple(row[1:]) for row in rows}

    # -- invariants --------------------------------------------------------------------
    def check_game(self, phone: Phone, game: GameModel) -> dict[str, Any]:
        """API, export, replay, sheet and pot of one game agree."""
        data = self.api(phone, game.id)
        record, standings = data["record"], data["standings"]
        export = self.get(phone, f"/games/{game.id}/export.json").get_json()
        same(export, record, "export and API record")
        # The export, read back by the engine, replays to the very same standings.
        same(load_game(export).to_json(), standings, "export replayed and API standings")
        pot = standings["pot"]
        assert pot["total"] == -sum(e["amount"] for e in pot["entries"]) >= 0
        for name, balance in pot["balances"].items():
            assert balance == sum(e["amount"] for e in pot["entries"] if e["player"] == name)
        if standings["finished"]:
            assert pot["total"] == 0 and sum(pot["balances"].values()) == 0
            dropped = {p["name"] for p in standings["players"] if not p["in_contention"]}
            assert not any(
                e["kind"] == "payout" and e["amount"] > 0 and e["player"] in dropped
                for e in pot["entries"]
            ), "a dropped player was paid out"
        self.check_not_modified(phone, game, (record, standings))
        page = self.get(phone, f"/games/{game.id}")
        shown = sheet_totals(page.get_data(as_text=True))
        assert shown == [(p["name"], p["total"]) for p in standings["players"]]
        if page.headers.get("ETag"):
            self.etags[(phone.email, game.id)] = (page.headers["ETag"], (record, standings))
        return standings

    def check_not_modified(self, phone: Phone, game: GameModel, now: Any) -> None:
        """The phone asks again with the sheet's last ETag it got: a 304 only when the
        record and standings are what they were then, the sheet otherwise."""
        known = self.etags.get((phone.email, game.id))
        if known is None:
            return
        r = self.get(phone, f"/games/{game.id}", (200, 304), If_None_Match=known[0])
        if r.status_code == 304:
            same(now, known[1], "the game answered 304 (not modified)")

    def check_pdf(self, phone: Phone, game: GameModel, standings: dict[str, Any]) -> None:
        body = self.get(phone, f"/games/{game.id}/sheet.pdf").data
        text = pdf_text(body)
        for p in standings["players"]:
            name = r"\s+".join(re.escape(w) for w in p["name"].split())
            row = rf"(?m)^\s*=?\d+(?:st|nd|rd|th)\s+{name}\s+{p['total']}(?:\s|$)"
            assert re.search(row, text), (p["name"], p["total"], text[-1500:])

    def check_payout_pdf(self, phone: Phone, night: NightModel) -> None:
        """The payout summary PDF says who pays whom as the payout page does."""
        html = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
        sentences = [unescape(t) for t in re.findall(r"<li>([^<]* pays [^<]*)</li>", html)]
        text = " ".join(pdf_text(self.get(phone, f"/nights/{night.id}/payout.pdf").data).split())
        for sentence in sentences:
            assert " ".join(sentence.split()) in text, (sentence, text[:1500])

    def check_night(self, phone: Phone, night: NightModel) -> None:
        """The night lists its live games; its settlement sums to 0; its games' part is the
        engine's settlement of the exported records in the night's rounding step; what is
        still to pay (the Mark paid forms) settles exactly each person's balance; every
        entry recorded on it or carried into it is shown."""
        html = self.get(phone, f"/nights/{night.id}").get_data(as_text=True)
        listed = {int(i) for i in re.findall(r'href="/games/(\d+)"', html)}
        assert listed == {g.id for g in night.live_games()}
        page = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
        finished = [
            load_game(self.get(phone, f"/games/{game.id}/export.json").get_json())
            for game in night.live_games()
            if self.checked(phone, game)["finished"]
        ]
        with app_context(self.app):
            user = db.session.get(User, phone.user_id)
            loaded = services.owned_night(night.id, user)
            assert loaded is not None
            book = ledger.night_book(loaded)
            unit = loaded.settle_unit
            keys = {name_key(n): rid for rid, n in book.names.items()}
            entries = [
                e.id
                for e in ledger.entries_of(night.id)
                if e.undone_at is None and e.kind != "claim"  # claims: a_player_says_i_paid
            ]
        settlement = book.settlement
        assert sum(settlement.people.values()) == 0, settlement.people
        engine = settle(finished, night.currency, unit=unit)
        expected = {name_key(n): v + engine.rounding.get(n, 0) for n, v in engine.games.items()}
        shown = {name_key(n): v for n, v in ledger.games_part(settlement).items()}
        assert {k: v for k, v in shown.items() if v} == {k: v for k, v in expected.items() if v}
        balances = {keys[name_key(n)]: v for n, v in settlement.people.items() if v}
        assert to_pay(page) == balances, (to_pay(page), balances)
        for entry_id in entries:
            assert f"/entries/{entry_id}/undo" in page, f"entry {entry_id} is not shown"

    def check_money(self, phone: Phone) -> None:
        """Across all the keeper's nights, for every regular: their games' nets (after
        each night's rounding) equal what they received minus what they paid in recorded
        payments, plus what is still to receive minus what is still to pay, plus what they
        forgave minus what was forgiven them; and their stats are those games' nets.

        What a write-off forgives is worked out here on its own, as /help says: at most
        what the payer still owes and the payee is still to receive on that night without
        its write-offs (games, payments, carries in force), never less than nothing, in
        the order recorded. A carry counts on both its nights while both are live, and on
        neither otherwise, so each debt is counted once."""
        games: dict[tuple[int, str], int] = {}
        moved: dict[tuple[int, str], int] = {}
        for night in phone.live_nights():
            finished = [
                load_game(self.get(phone, f"/games/{game.id}/export.json").get_json())
                for game in night.live_games()
                if self.checked(phone, game)["finished"]
            ]
            page = self.get(phone, f"/nights/{night.id}/payout").get_data(as_text=True)
            engine, people, entries = self.night_money(night, finished)
            before: dict[int, int] = {}
            for name, net in engine.games.items():
                regular = people[name_key(name)]
                part = net + engine.rounding.get(name, 0)
                before[regular] = before.get(regular, 0) + part
                key = (regular, night.currency)
                games[key] = games.get(key, 0) + part
            offs = []
            for kind, payer, payee, amount, counts in entries:
                if kind == "write_off":
                    offs.append((payer, payee, amount))
                elif counts:  # a payment, or a carry out (+) or in (-) in force
                    before[payer] = before.get(payer, 0) + amount
                    before[payee] = before.get(payee, 0) - amount
                if kind == "payment":  # paid: +, received: -
                    moved[payer, night.currency] = moved.get((payer, night.currency), 0) + amount
                    moved[payee, night.currency] = moved.get((payee, night.currency), 0) - amount
            for payer, payee, amount in offs:
                part = min(amount, max(0, -before.get(payer, 0)), max(0, before.get(payee, 0)))
                assert 0 <= part <= amount
                before[payer] = before.get(payer, 0) + part
                before[payee] = before.get(payee, 0) - part
                moved[payer, night.currency] = moved.get((payer, night.currency), 0) + part
                moved[payee, night.currency] = moved.get((payee, night.currency), 0) - part
            shown = to_pay(page)
            assert shown == {r: v for r, v in before.items() if v}, (night.id, shown, before)
            for regular, balance in shown.items():
                key = (regular, night.currency)
                moved[key] = moved.get(key, 0) - balance
        everyone = {k for k, v in games.items() if v} | {k for k, v in moved.items() if v}
        for key in everyone:
            assert games.get(key, 0) == -moved.get(key, 0), (key, games, moved)
        with app_context(self.app):
            regular_stats = stats.all_stats(phone.user_id)
        for (regular, currency), net in games.items():
            if regular in regular_stats:
                assert regular_stats[regular].nets.get(currency, 0) == net, (regular, currency)

    def night_money(
        self, night: NightModel, finished: list[Any]
    ) -> tuple[Any, dict[str, int], list[tuple[str, int, int, int, bool]]]:
        """The engine's settlement of the night's finished games in its step, its people
        (name key -> regular), and its entries in force as (kind, payer, payee, signed
        amount, counts), oldest first: a carry in has its amount negative."""
        with app_context(self.app):
            unit = db.session.get(Night, night.id).settle_unit
            people = dict(
                db.session.execute(
                    select(Person.name_key, Person.regular_id).where(Person.night_id == night.id)
                ).all()
            )
            deleted = {
                n.id for n in db.session.scalars(select(Night).where(Night.deleted_at.is_not(None)))
            }
            rows = db.session.execute(
                select(
                    LedgerEntry.kind, LedgerEntry.payer_id, LedgerEntry.payee_id,
                    LedgerEntry.amount, LedgerEntry.night_id, LedgerEntry.to_night_id,
                )
                .where(
                    or_(LedgerEntry.night_id == night.id, LedgerEntry.to_night_id == night.id),
                    LedgerEntry.undone_at.is_(None),
                    LedgerEntry.kind != "claim",  # "I paid" moves nothing until confirmed
                )
                .order_by(LedgerEntry.id)
            ).all()  # fmt: skip
        entries = []
        for kind, payer, payee, amount, source, target in rows:
            counts = kind != "carry" or not ({source, target} & deleted)
            sign = -1 if kind == "carry" and target == night.id else 1
            entries.append((kind, payer, payee, sign * amount, counts))
        return settle(finished, night.currency, unit=unit), people, entries

    def check_database(self) -> None:
        """Every stored game replays, deleted ones too, and its seats are its players."""
        with app_context(self.app):
            for game in db.session.scalars(select(Game)).all():
                standings = load_game(game.record_json())
                seats = sorted(s.person.name_key for s in game.seats)
                assert seats == sorted(name_key(p.name) for p in standings.players), game.id
            for night in db.session.scalars(select(Night)).all():
                keys = [p.name_key for p in night.people]
                assert len(keys) == len(set(keys))
            # Every person belongs to a live regular; a merged one points at a live one.
            pointers = dict(db.session.execute(select(Regular.id, Regular.merged_into_id)).all())
            for person in db.session.scalars(select(Person)).all():
                assert pointers[person.regular_id] is None, ("person on a merged", person.id)
            for target in pointers.values():
                assert target is None or pointers[target] is None, "a chain or loop of merges"

    @invariant()
    def touched_things_hold(self) -> None:
        """After every step: the games and nights the step touched, and the money of
        every keeper the step touched (each person's games' nets against what was paid,
        is still to pay and was forgiven, over all their nights)."""
        self.steps += 1
        self.passed = {}
        for phone in self.phones:
            touched = False
            for night in phone.live_nights():
                for game in night.live_games():
                    if game.id in self.touched_games:
                        self.checked(phone, game)
                        touched = True
                if night.id in self.touched_nights:
                    self.check_night(phone, night)
                    touched = True
            if touched or any(n.id in self.touched_nights for n in phone.nights.values()):
                self.check_money(phone)
        self.touched_games.clear()
        self.touched_nights.clear()

    @invariant()
    def everything_holds_now_and_then(self) -> None:
        if self.steps % PDF_EVERY:
            return
        self.check_everything(pdfs=1)

    def check_everything(self, *, pdfs: int) -> None:
        self.check_database()
        self.passed = {}
        for phone in self.phones:
            for night in phone.live_nights():
                if pdfs > 0 and night.live_games():
                    self.check_payout_pdf(phone, night)
                for game in night.live_games():
                    standings = self.checked(phone, game)
                    if pdfs > 0:
                        self.check_pdf(phone, game, standings)
                        pdfs -= 1
                self.check_night(phone, night)
            self.check_money(phone)

    @rule()
    def next_requests_land_on_the_other_worker(self) -> None:
        """The other worker answers from here on, with what it drew and kept itself (often
        an older state of a game, which a new round is folded on from)."""
        self.workers.reverse()
        _install_worker_caches(self.workers[0])

    def teardown(self) -> None:
        try:
            self.check_everything(pdfs=2)
        finally:
            _install_worker_caches(_FIRST)


def _worker_caches() -> dict[tuple[Any, str], Any]:
    """The caches a worker keeps in memory, by (module, name)."""
    from scorekeeper.reports import files
    from scorekeeper.services import state
    from scorekeeper.web import live
    from scorekeeper.web.games import sheet

    places = [(state, "STANDINGS_CACHE"), (state, "DRAWN_STATES"),
              (sheet, "SHEET_CACHE"), (files, "PDF_CACHE"), (live, "LIVE_PAGES")]  # fmt: skip
    return {(module, name): getattr(module, name) for module, name in places}


def _fresh_worker_caches() -> dict[tuple[Any, str], Any]:
    from scorekeeper.cache import ByteBoundedCache, DocumentCache
    from scorekeeper.reports.files import PdfCache

    fresh: dict[tuple[Any, str], Any] = {}
    for (module, name), cache in _FIRST.items():
        if isinstance(cache, DocumentCache):
            fresh[module, name] = DocumentCache(cache.name, cache.local.max_bytes, 2_000)
        elif isinstance(cache, PdfCache):
            fresh[module, name] = PdfCache()
        else:
            fresh[module, name] = ByteBoundedCache(max_bytes=cache.max_bytes)
    return fresh


def _install_worker_caches(caches: dict[tuple[Any, str], Any]) -> None:
    for (module, name), cache in caches.items():
        setattr(module, name, cache)


_FIRST = _worker_caches()  # the process's own caches, put back after every example


def machine_for(app: Flask) -> type[CardNights]:
    """The machine class bound to one app (one engine's database)."""
    app.test_client_class = CheckedClient
    engine = app.config["SQLALCHEMY_DATABASE_URI"].split(":")[0].split("+")[0]
    return type(f"CardNightsOn{engine.title()}", (CardNights,), {"app": app})
