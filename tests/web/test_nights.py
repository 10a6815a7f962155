"""Starting a night: the order people sit in (issue 22 point 7)."""

from __future__ import annotations

import re

import pytest

from tests.web.keeper import Keeper, text_of
from tests.web.test_settle_up import regular_ids


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def _night(keeper: Keeper, picked: list[int], typed: list[str], order: list[str]) -> int:
    r = keeper.post_form(
        "/nights/new",
        {
            "name": "Friday",
            "played_on": "2026-11-27",
            "currency": "USD",
            "paper": "Letter",
            "regulars": [str(i) for i in picked],
            "people": "\n".join(typed),
            "order": "\n".join(order),
        },
    )
    assert r.status_code == 302, text_of(r)
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def _default_seats(keeper: Keeper, night: int) -> list[str]:
    """The new game's seating as the form fills it in: names by seat number."""
    html = keeper.client.get(f"/nights/{night}/games/new?variant=rummy").get_data(as_text=True)
    rows = re.findall(r'<label for="seat-(\d+)">([^<]+)</label>.*?value="(\d*)"', html, re.S)
    return [name for _, name, seat in sorted(rows, key=lambda r: int(r[2] or 99))]


def test_the_order_set_on_the_new_night_is_the_default_seating(keeper: Keeper) -> None:
    """Ticked regulars and a typed name in one order the keeper set: Dee (typed) first,
    then Cy, then Ann (ticked in the list's order Ann, Cy)."""
    _night(keeper, [], ["Ann", "Cy"], [])  # makes Ann and Cy regulars
    ids = regular_ids(keeper.client)
    night = _night(keeper, [ids["Ann"], ids["Cy"]], ["Dee"], ["dee", "Cy", "Ann"])
    assert _default_seats(keeper, night) == ["Dee", "Cy", "Ann"]


def test_the_order_only_orders_it_adds_nobody(keeper: Keeper) -> None:
    """A name in the order that was neither ticked nor typed joins nobody; people the
    order leaves out keep their place after it."""
    night = _night(keeper, [], ["Ann", "Bob", "Cy"], ["Cy", "Zed"])
    assert _default_seats(keeper, night) == ["Cy", "Ann", "Bob"]
    assert "Zed" not in text_of(keeper.client.get(f"/nights/{night}"))


def test_without_an_order_regulars_come_first_then_names_as_typed(keeper: Keeper) -> None:
    _night(keeper, [], ["Ann"], [])
    ids = regular_ids(keeper.client)
    night = _night(keeper, [ids["Ann"]], ["Eve", "Bob"], [])
    assert _default_seats(keeper, night) == ["Ann", "Eve", "Bob"]
