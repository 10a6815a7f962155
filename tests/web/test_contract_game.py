"""Contract Rummy through every layer, none of which knows it by name: the new-game form
(its settings come from the variant), the banner, round entry, the sheet, the blank and
filled PDFs, export and import, the API and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.rules import load_game
from tests.reports.pdftools import squash, text_of
from tests.web.keeper import Keeper
from tests.web.keeper import text_of as page_text


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def api(client, game_id: int) -> dict:
    return client.get(f"/api/v1/games/{game_id}").get_json()


def test_a_liverpool_game_from_the_form_to_the_payout(keeper, client, tmp_path: Path):
    night = keeper.night(["Ann", "Bob", "Cy"])
    page = page_text(client.get(f"/nights/{night}/games/new?variant=contract"))
    assert "Cards dealt in each deal" in page and "Jokers count" in page
    game = keeper.game(
        night, "contract", ["Ann", "Bob", "Cy"], deals="6", buy_in="5.00", ace_points="20"
    )
    sheet = page_text(client.get(f"/games/{game}"))
    assert "Deal 1 of 6 · two sets · 10 cards" in sheet
    assert "Ann deals , Bob starts" in sheet
    assert "Wild: jokers" in sheet
    assert "Aces: count 20" in sheet

    hands = [
        ("Bob", {"Ann": ["A", "K"], "Cy": 12}),  # Ann 20 + 10 = 30; Cy 12
        ("Cy", {"Ann": 5, "Bob": ["JK"]}),  # Bob 25
        (None, {"Ann": 1, "Bob": 2, "Cy": 3}),  # nobody went out: every hand counts
        ("Ann", {"Bob": 10, "Cy": 10}),
        ("Ann", {"Bob": 0, "Cy": 4}),
    ]
    for number, (went_out, typed) in enumerate(hands, 1):
        if number == 3:
            page = page_text(client.get(f"/games/{game}/rounds/new"))
            assert "two runs · 10 cards" in page
        r = keeper.enter(game, went_out, typed)
        assert r.status_code == 302, page_text(r)
    assert "Deal 6 of 6 · one set and two runs · 12 cards" in page_text(
        client.get(f"/games/{game}")
    )
    r = keeper.enter(game, "Bob", {"Ann": 3, "Cy": 7})
    assert r.status_code == 302
    data = api(client, game)
    # Ann 30 + 5 + 1 + 0 + 0 + 3 = 39; Bob 0 + 25 + 2 + 10 + 0 + 0 = 37;
    # Cy 12 + 0 + 3 + 10 + 4 + 7 = 36
    totals = {p["name"]: p["total"] for p in data["standings"]["players"]}
    assert totals == {"Ann": 39, "Bob": 37, "Cy": 36}
    assert data["standings"]["finished"] and data["standings"]["winners"] == ["Cy"]
    assert data["standings"] == load_game(data["record"]).to_json()
    assert "Cy won" in page_text(client.get(f"/games/{game}"))
    # Pot 3 x $5.00, winner takes all: Cy receives $15.00, nets $10.00.
    payout = client.get(f"/nights/{night}/payout.txt").get_data(as_text=True)
    assert "Ann pays Cy $5.00" in payout and "Bob pays Cy $5.00" in payout

    # Printed: the filled sheet labels each deal with its contract and cards; the blank one
    # lists the six deals.
    filled = tmp_path / "filled.pdf"
    filled.write_bytes(client.get(f"/games/{game}/sheet.pdf").data)
    text = squash(text_of(filled))
    assert "2 sets" in text and "set+2 runs" in text and "Winner: Cy" in text
    blank = tmp_path / "blank.pdf"
    blank.write_bytes(client.get(f"/games/{game}/blank.pdf").data)
    text = squash(text_of(blank))
    assert "one set and two runs" in text and "three runs" not in text

    # Export, then import into another night: the same standings.
    exported = client.get(f"/games/{game}/export.json").get_json()
    assert exported["variant"] == "contract" and exported["settings"]["deals"] == 6
    other = keeper.night(["Ann", "Bob", "Cy"], name="Copy")
    r = keeper.post_form(f"/nights/{other}/games/import", {"record": json.dumps(exported)})
    assert r.status_code == 302
    copy = int(r.headers["Location"].rsplit("/", 1)[-1])
    assert api(client, copy)["standings"] == data["standings"]


def test_the_command_line_speaks_contract_records(runner, tmp_path: Path):
    record = {
        "variant": "contract",
        "settings": {"deals": 2},
        "players": ["Ann", "Bob"],
        "rounds": [
            {"went_out": "Ann", "hands": {"Bob": ["A", "JK"]}},
            {"went_out": "Bob", "hands": {"Ann": 7}},
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(args=["standings", str(path)])
    assert result.exit_code == 0, result.output
    standings = json.loads(result.stdout)
    assert [p["total"] for p in standings["players"]] == [7, 15 + 25]
    assert standings["winners"] == ["Ann"]
    out = tmp_path / "sheet.pdf"
    result = runner.invoke(args=["pdf", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "set+run" in squash(text_of(out))
