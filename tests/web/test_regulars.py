"""Regulars through the test client: added, matched forgivingly on a new night, renamed
without touching what was recorded, merged (refused when both played one night), ways to
pay checked with a sentence that names the bad one, another keeper's regulars not found."""

from __future__ import annotations

import re

import pytest

from tests.web.checks import snapshot
from tests.web.keeper import Keeper, handle_rows, inputs, text_of
from tests.web.test_settle_up import regular_ids


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def post(keeper: Keeper, url: str, data: dict) -> str:
    token = inputs(keeper.client.get("/regulars").get_data(as_text=True))["csrf_token"]
    r = keeper.client.post(url, data={"csrf_token": token, **data}, follow_redirects=True)
    assert r.status_code == 200, r.status_code
    return text_of(r)


def test_add_match_forgivingly_and_refuse_a_second_entry(keeper, client):
    page = post(keeper, "/regulars", {"name": "Zoë"})
    assert "Zoë added to your regulars" in page
    assert "Zoë is already one of your regulars" in post(keeper, "/regulars", {"name": " zoë "})
    night = keeper.night(["ZOE", "Ann"])
    people = keeper.person_ids(night)
    assert set(people) == {"Zoë", "Ann"}  # the regular's spelling
    assert set(regular_ids(client)) == {"Zoë", "Ann"}
    assert "name is blank: give a name" in post(keeper, "/regulars", {"name": "   "})
    assert set(regular_ids(client)) == {"Zoë", "Ann"}


def test_rename_keeps_what_was_recorded(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    ids = regular_ids(client)
    page = post(keeper, f"/regulars/{ids['Bob']}/rename", {"name": "Robert"})
    assert "Renamed" in page and "Robert" in page
    record = client.get(f"/games/{game}/export.json").get_json()
    assert record["players"] == ["Ann", "Bob"]
    assert "Ann is already one of your regulars: merge them instead" in post(
        keeper, f"/regulars/{ids['Bob']}/rename", {"name": "ann"}
    )


def test_merge_two_entries_and_refuse_two_people_of_one_night(keeper, client):
    first = keeper.night(["Ann", "Bob"], name="First")
    keeper.game(first, "rummy", ["Ann", "Bob"])
    second = keeper.night(["Annie", "Bob"], name="Second")
    keeper.game(second, "rummy", ["Annie", "Bob"])
    ids = regular_ids(client)
    refused = post(keeper, "/regulars/merge", {"keep": ids["Ann"], "gone": ids["Bob"]})
    assert "Ann and Bob both played on First: they are two people" in refused
    page = post(keeper, "/regulars/merge", {"keep": ids["Ann"], "gone": ids["Annie"]})
    assert "Annie merged into Ann" in page
    assert set(regular_ids(client)) == {"Ann", "Bob"}
    ann = text_of(client.get(f"/regulars/{ids['Ann']}"))
    assert "2 nights" in ann and "as Annie" in ann
    assert client.get(f"/regulars/{ids['Annie']}").status_code == 404


def test_ways_to_pay_are_checked_and_named(keeper, client):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    url = f"/regulars/{ids['Ann']}/handles"
    page = post(keeper, url, handle_rows([("paypal", "ann.pays!"), ("venmo", "")]))
    assert "payment handle 1: a PayPal.me name is letters and digits" in page
    iban = "DE89 3704 0044 0532 0130 00"
    page = post(keeper, url, handle_rows([("paypal", "annpays"), ("iban", iban)]))
    assert "Ways to pay saved" in page
    html = client.get(f"/regulars/{ids['Ann']}").get_data(as_text=True)
    assert re.search(r'value="annpays"', html)


def test_another_keepers_regulars_are_not_found(app, keeper, client):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    assert other.client.get(f"/regulars/{ids['Ann']}").status_code == 404
    assert other.client.get(f"/regulars/{ids['Ann']}/history.csv").status_code == 404
    assert regular_ids(other.client) == {}


@pytest.mark.parametrize("look_alike", ["Ánn", "ANN.", "ánn", "Ann!"])
def test_a_rename_to_a_look_alike_of_another_regular_is_refused(app, keeper, client, look_alike):
    """Renaming Bob to "Ánn" beside Ann would leave two regulars that a name typed later
    matches both, so it would make a third: the rename is refused and changes nothing,
    and a name typed later is still Ann."""
    keeper.night(["Ann", "Bob"], name="First")
    ids = regular_ids(client)
    before = snapshot(app)
    page = post(keeper, f"/regulars/{ids['Bob']}/rename", {"name": look_alike})
    assert f"{look_alike} looks like Ann, one of your regulars" in page, page
    assert snapshot(app) == before
    second = keeper.night(["ann.", "Bob"], name="Second")
    assert set(keeper.person_ids(second)) == {"Ann", "Bob"}
    assert set(regular_ids(client)) == {"Ann", "Bob"}
    # A rename of a regular to a spelling of their own name is no look-alike of another.
    assert "Renamed" in post(keeper, f"/regulars/{ids['Ann']}/rename", {"name": "Ánn"})
    assert "Ánn is already one of your regulars" in post(keeper, "/regulars", {"name": "ann"})


def test_adding_a_look_alike_of_a_regular_is_refused(keeper, client):
    keeper.night(["Ann", "Bob"])
    assert "Ann is already one of your regulars" in post(keeper, "/regulars", {"name": "ÁNN!"})
    assert set(regular_ids(client)) == {"Ann", "Bob"}


@pytest.mark.parametrize(
    ("kind", "handle", "message"),
    [
        ("text", "pay \u202eem", "text-direction control characters"),
        ("text", "cash\u200b", "invisible characters"),
        ("revolut", "...", "a Revolut username is 3 to 30 letters and digits"),
        ("iban", "DE51 3704 0044 0532 0130 0", "an IBAN of DE has 22 characters, this one has 21"),
    ],
)
def test_a_hostile_or_malformed_handle_is_refused_and_nothing_saved(
    app, keeper, client, kind, handle, message
):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    before = snapshot(app)
    page = post(keeper, f"/regulars/{ids['Ann']}/handles", handle_rows([(kind, handle)]))
    assert "payment handle 1: " in page and message in page, page
    assert snapshot(app) == before
