"""Settling up across nights, as a keeper does it: three nights with overlapping regulars,
a transfer marked paid (and still paid after a reload), an unpaid debt carried into the next
night and settled there, a write-off, whole-unit rounding, and the regulars' stats checked
against the engine's own settlements of the stored records, to the cent.

The same Texas game is played on each night with the seats shuffled; on its own it pays
the first seat +30c and costs the second -10c and the third -20c (see ``play_texas``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest

from scorekeeper.rules import load_game, settle
from scorekeeper.rules.record import GameRecord
from tests.web.keeper import Keeper, inputs, text_of
from tests.web.test_games import play_texas


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def regular_ids(client) -> dict[str, int]:
    html = client.get("/regulars").get_data(as_text=True)
    return {
        unescape(name): int(rid)
        for rid, name in re.findall(r'<a href="/regulars/(\d+)">([^<]+)</a>', html)
    }


def new_night(keeper: Keeper, name: str, day: str, picked: list[int], typed: list[str]) -> int:
    """A night whose people are picked from the regulars (checkboxes) and typed."""
    r = keeper.post_form(
        "/nights/new",
        {
            "name": name,
            "played_on": day,
            "currency": "USD",
            "paper": "Letter",
            "regulars": [str(i) for i in picked],
            "people": "\n".join(typed),
        },
    )
    assert r.status_code == 302, text_of(r)
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def import_texas(keeper: Keeper, night: int, seats: dict[str, str], record: dict) -> None:
    """The Texas game again, its players renamed (first seat, second, third)."""
    game = GameRecord.from_json(record)
    temp = {old: f"tmp{i}" for i, old in enumerate(seats)}
    for old, tmp in temp.items():
        game = game.renamed(old, tmp)
    for old, new in seats.items():
        game = game.renamed(temp[old], new)
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(game.to_json())})
    assert r.status_code == 302, text_of(r)


def payout(client, night: int) -> str:
    response = client.get(f"/nights/{night}/payout")
    assert response.status_code == 200
    return text_of(response)


def post(keeper: Keeper, night: int, path: str, data: dict) -> str:
    token = inputs(keeper.client.get(f"/nights/{night}/payout").get_data(as_text=True))
    r = keeper.client.post(
        f"/nights/{night}/{path}", data={"csrf_token": token["csrf_token"], **data}
    )
    assert r.status_code == 302, text_of(r)
    return payout(keeper.client, night)


def engine_nets(client, night: int) -> dict[str, int]:
    """The games part of the night's settlement, computed here from the exported records."""
    html = client.get(f"/nights/{night}").get_data(as_text=True)
    finished = []
    for game in sorted(set(re.findall(r'href="/games/(\d+)"', html))):
        record = client.get(f"/games/{game}/export.json").get_json()
        standings = load_game(record)
        if standings.finished:
            finished.append(standings)
    return dict(settle(finished, "USD").games) if finished else {}


def test_three_nights_carry_a_debt_mark_paid_and_stats_match_the_settlements(keeper, client):
    # Night 1: Ann, Bob, Cy. Ann +30, Bob -10, Cy -20.
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(first, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    record = client.get(f"/games/{game}/export.json").get_json()
    page = payout(client, first)
    assert "Cy pays Ann $0.20" in page and "Bob pays Ann $0.10" in page
    ids = regular_ids(client)
    assert set(ids) == {"Ann", "Bob", "Cy"}

    # Cy pays on the night; the mark survives a reload and says when.
    page = post(
        keeper,
        first,
        "transfers/mark",
        {"payer": ids["Cy"], "payee": ids["Ann"], "amount": 20, "paid": "1"},
    )
    assert re.search(r"Cy pays Ann \$0\.20 Paid", page)
    assert re.search(r"Cy pays Ann \$0\.20 Paid", payout(client, first))
    assert "Marked paid" in payout(client, first)

    # Night 2: Bob and Ann picked from the regulars, Dee new. Bob +30, Ann -10, Dee -20;
    # Bob's unpaid 10c to Ann from night 1 is carried in.
    second = new_night(keeper, "Second", "2026-11-27", [ids["Bob"], ids["Ann"]], ["Dee"])
    import_texas(keeper, second, {"Ann": "Bob", "Bob": "Ann", "Cy": "Dee"}, record)
    page = post(keeper, first, "carry", {"target": second})
    assert "Bob pays Ann $0.10 Carried to Second" in page
    page = payout(client, second)
    assert "Bob owed Ann $0.10" in page
    # Ann's -10 in the game and +10 carried cancel out; Bob's +30 less the 10 he owed.
    assert "Dee pays Bob $0.20" in page
    assert "pays Ann" not in page and "Ann pays" not in page
    # The carried debt is no longer open on the first night: it cannot be marked there.
    r = keeper.client.post(
        f"/nights/{first}/transfers/mark",
        data={
            "csrf_token": inputs(client.get(f"/nights/{first}/payout").get_data(as_text=True))[
                "csrf_token"
            ],
            "payer": ids["Bob"],
            "payee": ids["Ann"],
            "amount": 10,
            "paid": "1",
        },
        follow_redirects=True,
    )
    assert "settle it there" in text_of(r)

    # Night 3: "ann" typed is Ann (matched forgivingly); Cy picked; Dee picked.
    ids = regular_ids(client)
    assert set(ids) == {"Ann", "Bob", "Cy", "Dee"}
    third = new_night(keeper, "Third", "2026-12-04", [ids["Cy"], ids["Dee"]], ["ann"])
    assert "Ann" in text_of(client.get(f"/nights/{third}"))
    assert set(regular_ids(client)) == {"Ann", "Bob", "Cy", "Dee"}
    import_texas(keeper, third, {"Ann": "Cy", "Bob": "Dee", "Cy": "Ann"}, record)
    page = payout(client, third)
    assert "Ann pays Cy $0.20" in page and "Dee pays Cy $0.10" in page

    # Stats: each regular's net is the sum of the games part of their nights'
    # settlements, computed here by the engine from the exported records.
    expected = {"Ann": 30 - 10 - 20, "Bob": -10 + 30, "Cy": -20 + 30, "Dee": -20 - 10}
    by_engine: dict[str, int] = {}
    for night in (first, second, third):
        for name, cents in engine_nets(client, night).items():
            by_engine[name] = by_engine.get(name, 0) + cents
    assert by_engine == expected
    table = text_of(client.get("/regulars?sort=net"))
    assert re.search(r"Cy 2 2 1 \$0\.10", table) and re.search(r"Dee 2 2 0 -\$0\.30", table)
    assert re.search(r"Bob 2 2 1 \$0\.20", table) and re.search(r"Ann 3 3 1 \$0\.00", table)
    # Sorted by net: Bob, Cy, Ann, Dee.
    order = [n for n in re.findall(r"\b(Ann|Bob|Cy|Dee) \d", table)]
    assert order[:4] == ["Bob", "Cy", "Ann", "Dee"]
    ann = text_of(client.get(f"/regulars/{ids['Ann']}"))
    assert "Money: $0.00" in ann
    assert "Best night: First (2026-11-20), $0.30" in ann
    assert "Worst night: Third (2026-12-04), -$0.20" in ann
    history = list(csv.reader(io.StringIO(client.get(f"/regulars/{ids['Ann']}/history.csv").text)))
    assert [row[5] for row in history[1:]] == ["0.30", "-0.10", "-0.20"]
    assert sum(round(float(row[5]) * 100) for row in history[1:]) == expected["Ann"]
    vs = text_of(client.get(f"/regulars/{ids['Ann']}?vs={ids['Bob']}"))
    assert "In 2 games together, Ann finished ahead of Bob 1 time, behind 1" in vs


def test_a_carried_debt_can_be_written_off(keeper, client):
    first = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(first, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    ids = regular_ids(client)
    second = new_night(keeper, "Second", "2026-11-27", [ids["Ann"], ids["Bob"]], [])
    post(keeper, first, "carry", {"target": second})
    page = payout(client, second)
    assert "Cy pays Ann $0.20" in page and "Bob pays Ann $0.10" in page
    carry = re.search(
        rf"/nights/{second}/carried/(\d+)/write-off",
        client.get(f"/nights/{second}/payout").get_data(as_text=True),
    )
    assert carry
    page = post(keeper, second, f"carried/{carry.group(1)}/write-off", {})
    assert "Cy pays Ann" not in page and "Bob pays Ann $0.10" in page
    # Written off stays written off after a second tap, and the first night still says
    # where its debt went.
    page = post(keeper, second, f"carried/{carry.group(1)}/write-off", {})
    assert "Cy pays Ann" not in page
    assert "Carried to Second" in payout(client, first)


def test_whole_unit_rounding_states_its_rule_and_still_balances(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    # In steps of 25c: Ann +30 -> 25, Cy -20 -> -25, Bob -10 -> 0 (largest remainder).
    page = post(keeper, night, "unit", {"unit": 25})
    assert "Cy pays Ann $0.25" in page and "Bob pays" not in page
    assert "steps of $0.25" in page
    # Ann 30 -> 25 (-5c), Bob -10 -> 0 (+10c), Cy -20 -> -25 (-5c).
    assert "The rounding changed: Ann -$0.05, Bob +$0.10, Cy -$0.05." in page
    csv_rows = list(csv.reader(io.StringIO(client.get(f"/nights/{night}/export.csv").text)))
    assert ["Cy", "Ann", "0.25"] in csv_rows
    text = client.get(f"/nights/{night}/payout.txt").get_data(as_text=True)
    assert "Cy pays Ann $0.25" in text
    r = keeper.client.post(
        f"/nights/{night}/unit",
        data={
            "csrf_token": inputs(client.get(f"/nights/{night}/payout").text)["csrf_token"],
            "unit": 7,
        },
        follow_redirects=True,
    )
    assert "Choose how to round" in text_of(r)
    assert "Cy pays Ann $0.25" in text_of(r)


def test_another_keeper_cannot_mark_or_carry(app, keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"], name="First")
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    ids = regular_ids(client)
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    token = inputs(other.client.get("/nights/new").get_data(as_text=True))["csrf_token"]
    r = other.client.post(
        f"/nights/{night}/transfers/mark",
        data={
            "csrf_token": token,
            "payer": ids["Cy"],
            "payee": ids["Ann"],
            "amount": 20,
            "paid": "1",
        },
    )
    assert r.status_code == 404
    assert "Marked paid" not in payout(client, night)
