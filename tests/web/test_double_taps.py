"""Creating forms sent twice (a double tap, a retry) land on what the first one created,
in every order in which the two posts can meet, on both engines (issue 20, item 5: "Start
the night" with names new to the keeper answered a bare 409 when the second post met the
first one's new regulars in an autoflush).

The second post runs in a thread of its own (its own app context, session and database
connection), as another worker would, started at a chosen point of the first post:

- ``other first``: it runs whole after the first post checked its one-time id and before
  the first post writes anything;
- ``between``: it runs whole after the first post looked up the names new to the keeper
  and before it writes them (PostgreSQL only: on SQLite the first post holds the
  database's one write lock from its first write, so the other could not commit then);
- ``this first``: it starts once the first post has written everything but not yet
  committed, passes its own check of the one-time id, and then waits on the first post's
  rows (PostgreSQL) or on the write lock (SQLite) until the first one commits.

The same four forms are also raced for real against gunicorn and PostgreSQL in
``tests/load/test_double_taps.py``."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Night, Person, Regular
from scorekeeper.services import base, games, nights, regulars
from tests.web.keeper import Keeper, text_of

ORDERS = ["other first", "between", "this first"]


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def regular_names(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(select(Regular.name)))


class OtherTap:
    """The same form posted again by a copy of the phone, from a thread of its own."""

    def __init__(self, app, client, url: str, data: dict[str, Any]) -> None:
        self.app, self.url, self.data = app, url, data
        self.cookie = client.get_cookie("session").value
        self.checked = threading.Event()  # its one-time id was checked (and was new)
        self.response: Any = None
        self.thread: threading.Thread | None = None
        self.client = app.test_client()
        self.client.set_cookie("session", self.cookie)

    def start(self) -> None:
        def post() -> None:
            self.response = self.client.post(self.url, data=self.data)

        self.thread = threading.Thread(target=post)
        self.thread.start()

    def finish(self) -> Any:
        assert self.thread is not None
        self.thread.join(timeout=60)
        assert not self.thread.is_alive(), "the other post hung"
        return self.response

    def run(self) -> Any:
        self.start()
        return self.finish()


@dataclass
class Form:
    url: str  # where the form is read
    action: str  # where it is posted
    data: dict[str, Any]
    made: Callable[[Any], int]  # how many of the things it makes there are
    again: str  # what the second post says


def _forms(keeper: Keeper, night: int) -> dict[str, Form]:
    record = {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"target_score": 20},
        "players": ["Ann", "Zed", "Yan"],
        "rounds": [{"went_out": "Ann", "hands": {"Zed": 5, "Yan": 7}}],
    }
    return {
        "night": Form(
            "/nights/new",
            "/nights/new",
            {
                "name": "Twice",
                "played_on": "2026-11-20",
                "currency": "USD",
                "paper": "A4",
                "people": "Zed\nYan\nXia\nAnn",
            },
            lambda app: count(app, Night),
            "already started (sent twice)",
        ),
        "import": Form(
            f"/nights/{night}/games/import",
            f"/nights/{night}/games/import",
            {"record": json.dumps(record)},
            lambda app: count(app, Game),
            "already imported (sent twice)",
        ),
        "person": Form(
            f"/nights/{night}",
            f"/nights/{night}/people",
            {"name": "Zed"},
            lambda app: count(app, Person),
            "Already added (sent twice)",
        ),
        "regular": Form(
            "/regulars",
            "/regulars",
            {"name": "Zed"},
            lambda app: count(app, Regular),
            "Already added (sent twice)",
        ),
    }


def _hook(monkeypatch, where: Any, name: str, before=None, after=None) -> None:
    """Run ``before``/``after`` around the first call of ``where.name`` made by the test's
    own thread (the first post), once."""
    real = getattr(where, name)
    mine = threading.get_ident()
    done = {"n": 0}

    def hooked(*args: Any, **kwargs: Any) -> Any:
        first = threading.get_ident() == mine and done["n"] == 0
        if first:
            done["n"] = 1
            if before:
                before()
        result = real(*args, **kwargs)
        if first and after:
            after()
        return result

    monkeypatch.setattr(where, name, hooked)


def _signal_checks(monkeypatch, other: OtherTap) -> None:
    """The other post says when its one-time id was checked and found new."""
    real = base.check_new
    mine = threading.get_ident()

    def check(user, submission):
        real(user, submission)
        if threading.get_ident() != mine:
            other.checked.set()

    monkeypatch.setattr(base, "check_new", check)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("kind", ["night", "import", "person", "regular"])
def test_a_creating_form_sent_twice_lands_on_one_thing(
    keeper, client, app, db_uri, monkeypatch, kind, order
):
    if order == "between" and db_uri.startswith("sqlite"):
        pytest.skip("SQLite: once the first post wrote, the other waits for its commit")
    night = keeper.night(["Ann"], name="Earlier")
    form = _forms(keeper, night)[kind]
    before = form.made(app)
    _, hidden = keeper.form(form.url)
    data = {**hidden, **form.data}
    other = OtherTap(app, client, form.action, data)
    if order == "other first":
        _signal_checks(monkeypatch, other)
        _hook(monkeypatch, base, "check_new", after=other.run)
    elif order == "between":
        # The first post looked up "Zed" (new to the keeper) and found nobody; the other
        # starts then. It waits for the keeper's lock the first one holds (taken before
        # the look-up: services.base.lock_rows of the keeper), then lands on what the first made.
        _hook(monkeypatch, regulars, "find_regular", after=other.start)
    else:
        _signal_checks(monkeypatch, other)

        def start_other_and_wait_for_its_check() -> None:
            db.session.flush()  # everything the first post makes is written
            other.start()
            assert other.checked.wait(timeout=30)

        # Who calls it, for each form: its module imported commit_created by name.
        where = {"regular": regulars, "import": games, "night": nights, "person": nights}[kind]
        _hook(monkeypatch, where, "commit_created", before=start_other_and_wait_for_its_check)
    first = client.post(form.action, data=data)
    second = other.finish()
    assert (first.status_code, second.status_code) == (302, 302), (text_of(first), text_of(second))
    assert first.headers["Location"] == second.headers["Location"]
    assert form.made(app) == before + 1
    assert regular_names(app) == sorted(
        {"night": ["Ann", "Xia", "Yan", "Zed"]}.get(kind, ["Ann", "Zed"])
        + (["Yan"] if kind == "import" else [])
    )
    # The post that came second says so on the page it lands on ("between": the other
    # one, which waited for the keeper's lock the first one held).
    late, phone = (first, client) if order == "other first" else (second, other.client)
    assert form.again in text_of(phone.get(late.headers["Location"]))


@pytest.mark.parametrize("kind", ["night", "import", "person", "regular"])
def test_a_creating_form_sent_twice_in_a_row_lands_on_one_thing(keeper, client, app, kind):
    night = keeper.night(["Ann"], name="Earlier")
    form = _forms(keeper, night)[kind]
    before = form.made(app)
    _, hidden = keeper.form(form.url)
    data = {**hidden, **form.data}
    first = client.post(form.action, data=data)
    second = client.post(form.action, data=data)
    assert (first.status_code, second.status_code) == (302, 302), text_of(second)
    assert first.headers["Location"] == second.headers["Location"]
    assert form.made(app) == before + 1
    assert form.again in text_of(client.get(second.headers["Location"]))


def test_two_forms_bringing_one_new_name_at_once_share_its_regular(
    keeper, client, app, db_uri, monkeypatch
):
    """Two different nights started at the same moment, both with Zed, new to the keeper:
    both are started, with one regular Zed (each post either makes Zed or waits for the
    other's and finds it)."""
    _, hidden = keeper.form("/nights/new")
    _, hidden2 = keeper.form("/nights/new")
    fields = {"played_on": "2026-11-20", "currency": "USD", "paper": "A4", "people": "Zed\nAnn"}
    other = OtherTap(app, client, "/nights/new", {**hidden2, **fields, "name": "Two"})
    _signal_checks(monkeypatch, other)

    def start_other_and_wait_for_its_check() -> None:
        db.session.flush()
        other.start()
        assert other.checked.wait(timeout=30)

    _hook(monkeypatch, nights, "commit_created", before=start_other_and_wait_for_its_check)
    first = client.post("/nights/new", data={**hidden, **fields, "name": "One"})
    second = other.finish()
    assert (first.status_code, second.status_code) == (302, 302), text_of(second)
    assert first.headers["Location"] != second.headers["Location"]
    assert count(app, Night) == 2
    assert regular_names(app) == ["Ann", "Zed"]
    with app.app_context():
        regular_ids = db.session.execute(
            select(Person.name, func.count(func.distinct(Person.regular_id))).group_by(Person.name)
        ).all()
    assert dict(regular_ids) == {"Ann": 1, "Zed": 1}
