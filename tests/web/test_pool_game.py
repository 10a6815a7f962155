"""Pool Rummy through every layer, none of which knows it by name: the new-game form (the
pool fixes its numbers), the round form's wild rank and one-tap markers, "Rejoin or out?",
a correction, the split with its shares shown first (and undone), the sheet, history,
the PDFs, the API and the night's payout. Every number is worked by hand in a comment and
read back from what was stored."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.rules import load_game
from tests.conftest import make_app
from tests.reports.pdftools import squash, text_of
from tests.web.keeper import Keeper, inputs
from tests.web.keeper import text_of as page_text
from tests.web.test_account_data import exported, upload
from tests.web.test_live import show_players

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
MARKERS = {"drop", "middle_drop", "full_count", "wrong_show"}


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def api(client, game_id: int) -> dict:
    return client.get(f"/api/v1/games/{game_id}").get_json()


def totals(client, game_id: int) -> dict[str, int]:
    return {p["name"]: p["total"] for p in api(client, game_id)["standings"]["players"]}


def deal(keeper: Keeper, game: int, went_out: str, hands: dict, number=None, **extra):
    """A deal as typed: a marker is a tap (``marker-<seat>``), the rest typed or counted."""
    seats = keeper.seats(game, number)
    markers = {n: h for n, h in hands.items() if isinstance(h, str) and h in MARKERS}
    typed = {n: ("" if n in markers else h) for n, h in hands.items()}
    data = keeper.round_data(game, went_out, typed, number, **extra)
    data.update({f"marker-{seats[n]}": m for n, m in markers.items()})
    url = f"/games/{game}/rounds/new" if number is None else f"/games/{game}/rounds/{number}"
    return url, data, keeper.post_form(url, data)


def test_the_new_game_form_fills_the_pools_numbers(keeper, client):
    night = keeper.night(PLAYERS)
    page = client.get(f"/nights/{night}/games/new?variant=pool").get_data(as_text=True)
    assert "Rejoin limit" in page and "Wrong show" in page and "Pot split" not in page
    # The pool's choices carry the numbers each fixes; the fields show 101's as placeholders.
    fills = re.search(r'data-fills="([^"]+)"', page)[1].replace("&#34;", '"')
    assert '"201": {"first_drop": 25, "middle_drop": 50' in fills
    assert re.search(r'name="rejoin_limit"[^>]*placeholder="79"', page)
    # A 201 pool with its numbers left as they are: 201's; one number changed: kept.
    game = keeper.game(night, "pool", PLAYERS, pool="201", first_drop="30")
    settings = api(client, game)["record"]["settings"]
    assert (settings["pool"], settings["first_drop"], settings["middle_drop"]) == (201, 30, 50)
    assert settings["rejoin_limit"] == 174


def test_a_pool_game_with_a_rejoin_a_correction_and_a_split(keeper, client, tmp_path: Path):
    night = keeper.night(PLAYERS)
    game = keeper.game(night, "pool", PLAYERS, buy_in="5.00")
    sheet = page_text(client.get(f"/games/{game}"))
    assert "Deal 1 · 13 cards" in sheet and "Pool: 101: out at 101 or more" in sheet
    assert "Drops left 5 5 5 5" in sheet  # floor(100 / 20) each

    # Deal 1, sevens wild: Ann shows; Bob K 7 7 Q 10 = 10 + 0 + 0 + 10 + 10 = 30; Cy 79;
    # Dee taps Full: 80.
    form = client.get(f"/games/{game}/rounds/new").get_data(as_text=True)
    assert "Wrong show 80" in form and "Drop 20" in form and 'name="wild_rank"' in form
    _, _, r = deal(
        keeper, game, "Ann", {"Bob": ["K", "7", "7", "Q", "10"], "Cy": 79, "Dee": "full_count"},
        wild_rank="7",
    )  # fmt: skip
    assert r.status_code == 302, page_text(r)
    assert totals(client, game) == {"Ann": 0, "Bob": 30, "Cy": 79, "Dee": 80}

    # Deal 2: Ann shows; Bob drops (20): 50; Cy 0: 79; Dee 21: 101, out. Nobody still in
    # is above 79: "Rejoin or out?", at 79 + 1 = 80 for $5.00 again.
    url, data, r = deal(keeper, game, "Ann", {"Bob": "drop", "Cy": 0, "Dee": 21})
    asked = page_text(r)
    assert r.status_code == 200
    assert "Dee reached 101. Rejoin for $5.00 (back at 80) or out?" in asked
    hidden = inputs(r.get_data(as_text=True))
    seat = keeper.seats(game)["Dee"]
    r = client.post(url, data={**data, **hidden, f"rejoin-{seat}": "rejoin"})
    assert r.status_code == 302, page_text(r)
    stored = api(client, game)
    assert totals(client, game) == {"Ann": 0, "Bob": 50, "Cy": 79, "Dee": 80}
    assert stored["record"]["rounds"][1]["rejoins"] == ["Dee"]
    assert stored["record"]["rounds"][1]["hands"]["Bob"] == "drop"
    assert stored["standings"]["pot"]["total"] == 2500  # 4 x $5.00 + Dee's $5.00 rejoin
    # Opened again for a correction: the tap and the rejoin as stored; deal 1's rank too.
    bob = keeper.seats(game, 2)["Bob"]
    again = client.get(f"/games/{game}/rounds/2").get_data(as_text=True)
    assert re.search(rf'name="marker-{bob}" value="drop"\s*checked', again)
    assert "Dee reached 101." in page_text(client.get(f"/games/{game}/rounds/2"))
    assert re.search(rf'name="rejoin-{seat}"[^>]*value="rejoin"[^>]*checked', again)
    first = client.get(f"/games/{game}/rounds/1").get_data(as_text=True)
    assert '<option value="7" selected>' in first

    # Deal 3: Bob shows; Ann 10; Cy taps Drop: 99; Dee 0: 80.
    _, _, r = deal(keeper, game, "Bob", {"Ann": 10, "Cy": "drop", "Dee": 0})
    assert r.status_code == 302, page_text(r)
    # Corrected: Cy had 22, not a drop: 79 + 22 = 101, out. Dee has 80, above 79: the
    # page says why nobody may rejoin, and the correction saves on Confirm.
    url, data, r = deal(keeper, game, "Bob", {"Ann": 10, "Cy": 22, "Dee": 0}, number=3)
    assert r.status_code == 200
    assert "Cy reached 101. Out: no rejoin, Dee has 80, above 79." in page_text(r)
    r = client.post(url, data={**data, **inputs(r.get_data(as_text=True))})
    assert r.status_code == 302, page_text(r)
    stored = api(client, game)["standings"]
    cy = next(p for p in stored["players"] if p["name"] == "Cy")
    assert (cy["total"], cy["in_contention"]) == (101, False)
    sheet = page_text(client.get(f"/games/{game}"))
    assert "out in deal 3" in sheet
    # Drops left: Ann floor(90 / 20) = 4; Bob floor(50 / 20) = 2; Cy out; Dee 20 / 20 = 1.
    assert "Drops left 4 2 – 1" in sheet
    assert "Split the pot" in sheet

    # The split, shares first. Pot $25.00 among Ann 10, Bob 50, Dee 80.
    # Equal: 2500 / 3 = 833, 1 cent over to Ann (lowest total): $8.34, $8.33, $8.33.
    # By drops left 4 : 2 : 1 of 7: Ann 10000 // 7 = 1428, Bob 5000 // 7 = 714,
    # Dee 2500 // 7 = 357; 2499, 1 cent over to Ann: $14.29, $7.14, $3.57.
    page = page_text(client.get(f"/games/{game}/split"))
    assert "Equal shares" in page and "By drops left" in page
    assert "Ann 10 4 $8.34" in page and "Dee 80 1 $8.33" in page
    assert "Ann 10 4 $14.29" in page and "Bob 50 2 $7.14" in page and "Dee 80 1 $3.57" in page
    r = keeper.post_form(f"/games/{game}/split", {"split": "drops"})
    assert r.status_code == 302, page_text(r)
    stored = api(client, game)
    assert stored["record"]["rounds"][-1] == {"split": "drops"}
    standings = stored["standings"]
    assert standings["finished"] and standings["winners"] == ["Ann", "Bob", "Dee"]
    assert standings["pot"]["balances"] == {
        "Ann": 1429 - 500,
        "Bob": 714 - 500,
        "Cy": -500,
        "Dee": 357 - 1000,
    }
    assert standings == load_game(stored["record"]).to_json()
    assert "Ann & Bob & Dee split the pot (by drops left) after 3 deals" in page_text(
        client.get(f"/games/{game}")
    )

    # Undo: the split goes like a deal; split equally instead.
    _, hidden = keeper.form(f"/games/{game}")
    r = client.post(f"/games/{game}/rounds/last/delete", data=hidden)
    assert r.status_code == 302
    assert not api(client, game)["standings"]["finished"]
    r = keeper.post_form(f"/games/{game}/split", {"split": "equal"})
    assert r.status_code == 302
    balances = api(client, game)["standings"]["pot"]["balances"]
    assert balances == {"Ann": 834 - 500, "Bob": 833 - 500, "Cy": -500, "Dee": 833 - 1000}

    # The players' live view and the TV show the same: the split, drops left, who is out.
    link = show_players(keeper, f"/games/{game}/live")
    for path in (link, f"{link}?tv=1"):
        live = page_text(client.get(path))
        assert "Ann & Bob & Dee split the pot (equal shares) after 3 deals" in live
        assert "Drops left 4 2 – 1" in live and "out in deal 3" in live

    history = page_text(client.get(f"/games/{game}/history"))
    assert "Dee rejoined" in history and "split the pot (equal)" in history
    payout = client.get(f"/nights/{night}/payout.txt").get_data(as_text=True)
    assert "Cy pays" in payout and "Dee pays" in payout

    filled = tmp_path / "filled.pdf"
    filled.write_bytes(client.get(f"/games/{game}/sheet.pdf").data)
    text = squash(text_of(filled))
    assert "Drops left" in text and "FC" in text and "RJ" in text and "Wild" in text
    assert "Round 2: Dee was out and rejoined for $5.00, back at 80." in text
    blank = tmp_path / "blank.pdf"
    blank.write_bytes(client.get(f"/games/{game}/blank.pdf").data)
    text = squash(text_of(blank))
    assert "Drops left" in text and "D 20, MD 40, FC 80, WS 80" in text


@pytest.fixture
def second(second_db_uri: str) -> Iterator[Flask]:
    app = make_app(second_db_uri)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_pool_game_goes_into_an_account_file_and_back(keeper, client, second):
    """A Pool game's markers, rejoin, correction and split survive the account file: the
    game elsewhere shows the same standings, sheet and history."""
    night = keeper.night(PLAYERS)
    game = keeper.game(night, "pool", PLAYERS, buy_in="2.00")
    deal(keeper, game, "Ann", {"Bob": 30, "Cy": 79, "Dee": "full_count"})
    url, data, r = deal(keeper, game, "Ann", {"Bob": "drop", "Cy": 0, "Dee": 21})
    seat = keeper.seats(game)["Dee"]
    r = client.post(
        url, data={**data, **inputs(r.get_data(as_text=True)), f"rejoin-{seat}": "rejoin"}
    )
    assert r.status_code == 302
    _, _, r = deal(keeper, game, "Bob", {"Ann": 10, "Cy": "drop", "Dee": 0})
    assert r.status_code == 302
    url, data, r = deal(keeper, game, "Bob", {"Ann": 10, "Cy": "middle_drop", "Dee": 0}, number=3)
    assert "Cy reached 119. Out: no rejoin, Dee has 80, above 79." in page_text(r)
    r = client.post(url, data={**data, **inputs(r.get_data(as_text=True))})
    assert r.status_code == 302, page_text(r)
    assert keeper.post_form(f"/games/{game}/split", {"split": "equal"}).status_code == 302
    before = api(client, game)
    pages = {p: page_text(client.get(f"/games/{game}{p}")) for p in ("", "/history")}

    elsewhere = Keeper(second.test_client())
    elsewhere.signup()
    assert upload(elsewhere, exported(client)).status_code == 302
    games = re.findall(r'href="/games/(\d+)"', elsewhere.client.get("/").get_data(as_text=True))
    copy = int(games[0]) if games else game
    after = elsewhere.client.get(f"/api/v1/games/{copy}").get_json()
    assert after["standings"] == before["standings"] and after["record"] == before["record"]
    # Cy: 79 + 40 (the middle drop, corrected) = 119, out; Dee back at 80 in deal 2.
    cy = next(p for p in after["standings"]["players"] if p["name"] == "Cy")
    assert (cy["total"], cy["in_contention"]) == (119, False)
    for path, text in pages.items():
        assert page_text(elsewhere.client.get(f"/games/{copy}{path}")) == text, path
