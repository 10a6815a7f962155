"""What comes in from a file or a typed amount is held to the bounds of what the app makes
(issue 30, class 4): an account file's times, ids and keys; a typed amount's currency and
minor unit; the size of a night's ledger."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.services import ledger
from scorekeeper.services.accounts import checks, importing
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, text_of
from tests.web.test_account_data import account_file, doctored, newcomer, upload  # noqa: F401
from tests.web.test_games import play_texas
from tests.web.test_settle_up import carry, mark, new_night, payout, payout_form, regular_ids, send


def _entry(m: dict[str, Any]) -> dict[str, Any]:
    return m["ledger"][0]


# ------------------------------------------------------------- account files ---
BAD_FILES = [
    ("a time past year 9999 in UTC",
     lambda m, r: m["nights"][0].update(created_at="9999-12-31T23:59:59-12:00"),
     "created_at: '9999-12-31T23:59:59-12:00' is not a time this app could have stored"),
    ("a time at the end of year 9999",
     lambda m, r: m["regulars"][0].update(created_at="9999-12-31T23:59:59+00:00"),
     "is not a time this app could have stored (from 2000 until now)"),
    ("a time in the future",
     lambda m, r: _entry(m).update(created_at="2999-01-01T00:00:00+00:00"),
     "created_at: '2999-01-01T00:00:00+00:00' is not a time this app could have stored"),
    ("an undo before the year 2000",
     lambda m, r: _entry(m).update(undone_at="0001-01-01T00:00:00+00:00"),
     "undone_at: '0001-01-01T00:00:00+00:00' is not a time this app could have stored"),
    ("a history time past 9999",
     lambda m, r: m["games"][0]["history"][0].update(at="9999-12-31T23:59:59.999999-14:00"),
     "is not a time this app could have stored"),
    ("a games_part key that is a superscript digit",
     lambda m, r: _entry(m).update(games_part={"²": 5}), "games_part names regular '²'"),
    ("a games_part key of 5,000 digits",
     lambda m, r: _entry(m).update(games_part={"9" * 5000: 5}), "games_part names regular"),
    ("a games_part key with a sign",
     lambda m, r: _entry(m).update(games_part={"+1": 5}), "games_part names regular '+1'"),
    ("a merge moving under an odd key",
     lambda m, r: m["merges"][0]["moved"].update({"²": [1]}), "has an unknown field '²'"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "change", "sentence"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_odd_times_and_keys_are_refused_with_a_sentence(
    app,
    account_file,  # noqa: F811
    newcomer,  # noqa: F811
    what,
    change,
    sentence,
):
    before = snapshot(app)
    response = upload(newcomer, doctored(account_file, change))
    assert response.status_code == 422, (what, response.status_code)
    page = text_of(response)
    assert "Not imported, nothing was changed:" in page and sentence in page, (what, page)
    assert snapshot(app) == before
    assert newcomer.client.get("/").status_code == 200


def _no_replay(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a game was replayed before the cheap checks refused the file")


def test_cheap_checks_come_before_any_replay(
    app,
    client,
    account_file,  # noqa: F811
    newcomer,  # noqa: F811
    monkeypatch,
):
    monkeypatch.setattr(checks, "replay", _no_replay)
    # An account that has nights takes no file: said before the file is read at all.
    monkeypatch.setattr(importing, "check_file", _no_replay)
    response = upload(Keeper(client), account_file)
    assert response.status_code == 422
    assert "this account already has 3 nights" in text_of(response)
    monkeypatch.undo()
    # A file out of bounds (here its ledger, listed after the games) is refused unreplayed.
    monkeypatch.setattr(checks, "replay", _no_replay)
    monkeypatch.setattr(checks, "MAX_LEDGER_ENTRIES", 1)
    response = upload(newcomer, account_file)
    assert response.status_code == 422 and "ledger: holds more than 1" in text_of(response)
    monkeypatch.setattr(checks, "MAX_LEDGER_ENTRIES", 50_000)
    # A bad time of a ledger entry, the same.
    late = doctored(account_file, lambda m, r: _entry(m).update(created_at="2999-01-01T00:00Z"))
    response = upload(newcomer, late)
    assert response.status_code == 422 and "could have stored" in text_of(response)


def test_a_file_with_a_night_over_its_ledger_bound_is_refused(
    app,
    account_file,  # noqa: F811
    newcomer,  # noqa: F811
    monkeypatch,
):
    monkeypatch.setattr(ledger, "MAX_ENTRIES_PER_NIGHT", 1)  # the file's first night has 2
    response = upload(newcomer, account_file)
    assert response.status_code == 422
    assert "holds more than 1 money entries, the most one night keeps" in text_of(response)


# ------------------------------------------------------------- typed amounts ---
@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


@pytest.mark.parametrize(
    ("typed", "sentence"),
    [
        ("€5", "'€5' is not in USD: this night's money is in USD"),
        ("5 GBP", "'5 GBP' is not in USD"),
        ("0,001", "an amount in USD has at most 2 decimals"),
        ("2.555", "an amount in USD has at most 2 decimals"),
    ],
)
def test_a_typed_amount_in_another_currency_or_finer_than_a_cent_is_refused(
    app, keeper, client, typed, sentence
):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(night, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    before = snapshot(app)
    form = payout_form(keeper, night, "payments")
    changes = {"pay-payer": str(ids["Bob"]), "pay-payee": str(ids["Ann"]), "pay-amount": typed}
    r = client.post(form.action, data={**form.values(), **changes})
    assert r.status_code == 422
    assert sentence in text_of(r)
    assert snapshot(app) == before


def test_a_buy_in_in_another_currency_is_refused(keeper, client):
    night = keeper.night(["Ann", "Bob"], name="First")
    r = keeper.post_form(
        f"/nights/{night}/games/new?variant=rummy",
        {"variant": "rummy", "seats": ["Ann", "Bob"], "buy_in": "€2", "deals": "1"},
    )
    assert r.status_code == 422, r.status_code
    assert "is not in USD" in text_of(r)


# -------------------------------------------------------- a night's ledger ---
def test_a_nights_ledger_is_bounded_with_a_sentence(app, keeper, client, monkeypatch):
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"], ids["Cy"]], [])
    monkeypatch.setattr(ledger, "MAX_ENTRIES_PER_NIGHT", 1)
    mark(keeper, first, ids["Bob"], ids["Ann"])  # the first entry: room for it
    before = snapshot(app)
    form = payout_form(keeper, first, "transfers/mark", payer=ids["Cy"], payee=ids["Ann"])
    r = client.post(form.action, data=form.values(), follow_redirects=True)
    assert "First holds 1 money entries already" in text_of(r)
    form = payout_form(keeper, first, "payments")
    changes = {"pay-payer": str(ids["Cy"]), "pay-payee": str(ids["Ann"]), "pay-amount": "0.05"}
    r = client.post(form.action, data={**form.values(), **changes}, follow_redirects=True)
    assert "the most one night keeps" in text_of(r)
    form = payout_form(keeper, first, "carry")
    page = send(keeper, first, form, {"carry-target": str(second)})
    assert "Cy pays Ann $0.20" in page
    assert snapshot(app) == before
    # Room again: the carry takes the one debt left into the second night.
    monkeypatch.setattr(ledger, "MAX_ENTRIES_PER_NIGHT", 2)
    carry(keeper, first, second)
    assert "Cy pays Ann $0.20" in payout(client, second)
