"""Ids and amounts posted by a page are read by one checked parser (issue 20): ASCII digits
within an INTEGER column's range. ``"²".isdigit()`` is True in Python and ``int("²")``
raises; ``int("٣")`` is 3; ten digits overflow PostgreSQL's INTEGER. None of them may
answer 500 or change anything, on any form that posts an id or an amount."""

from __future__ import annotations

import pytest

from tests.web.checks import snapshot
from tests.web.keeper import Keeper, forms_of
from tests.web.test_games import play_texas
from tests.web.test_settle_up import new_night, regular_ids

HOSTILE = ["²", "٣", "1²", "-1", "+1", " 1", "1.0", "0x10", "2147483648", "9" * 30, ""]


@pytest.fixture
def night(client) -> tuple[Keeper, int]:
    keeper = Keeper(client)
    keeper.signup()
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    play_texas(keeper, keeper.game(first, "texas", ["Ann", "Bob", "Cy"]))
    ids = regular_ids(client)
    new_night(keeper, "Later", "2026-11-27", [ids["Ann"], ids["Bob"]], [])
    return keeper, first


def test_hostile_ids_and_amounts_change_nothing(app, night):
    for value in HOSTILE:
        _try(app, night, value)


def _try(app, night, value):
    keeper, first = night
    client = keeper.client
    pages = [f"/nights/{first}/payout", "/regulars"]
    forms = [f for page in pages for f in forms_of(client.get(page).get_data(as_text=True))]
    fields = {
        "/transfers/mark": ("payer", "payee", "amount"),
        "/carry": ("carry-target",),
        "/unit": ("step-unit",),
        "/payments": ("pay-payer", "pay-payee"),
        "/regulars/merge": ("keep", "gone"),
    }
    tried = 0
    before = snapshot(app)
    for form in forms:
        for action, names in fields.items():
            if not form.action.endswith(action):
                continue
            for name in names:
                r = client.post(form.action, data={**form.values(), name: value})
                assert r.status_code < 500, (form.action, name, value, r.status_code)
                tried += 1
    assert tried >= 9
    assert snapshot(app) == before
    conflict = client.post(
        "/games/1/rounds/new", data={"round_number": value, "version": "0", "went_out": "1"}
    )
    assert conflict.status_code < 500
    for query in ("saved", "before", "vs"):
        for page in ("/games/1", "/games/1/history", f"/regulars/{regular_ids(client)['Ann']}"):
            assert client.get(f"{page}?{query}={value}").status_code < 500
