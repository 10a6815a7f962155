"""Gin Rummy through every layer, none of which knows it by name: the new-game form (its
settings from the variant, exactly two players), the round form (who knocked, how, both
deadwoods), the sheet with its boxes and bonus lines, the live view, the blank and filled
PDFs, the history, the payout, export and import, the API."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from scorekeeper.rules import load_game
from tests.reports.pdftools import squash, text_of
from tests.web.keeper import Keeper, inputs
from tests.web.keeper import text_of as page_text


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def api(client, game_id: int) -> dict:
    return client.get(f"/api/v1/games/{game_id}").get_json()


def totals(client, game_id: int) -> dict[str, int]:
    return {p["name"]: p["total"] for p in api(client, game_id)["standings"]["players"]}


def show_players(keeper: Keeper, game: int) -> str:
    """Tap "Show players" on the game and read the link it shows."""
    page = f"/games/{game}/live"
    assert keeper.post_form(page, {}).status_code == 302
    html = keeper.client.get(page).get_data(as_text=True)
    found = re.search(r'id="live-url"[^>]* value="([^"]+)"', html)
    assert found, html
    return unescape(found[1]).removeprefix("http://localhost")


def test_the_new_game_form_offers_gin_for_two_players_only(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    page = page_text(client.get(f"/nights/{night}/games/new?variant=gin"))
    for label in ("Knock with at most", "Undercut bonus", "Big gin bonus", "Box bonus",
                  "Shutout multiplier", "Stake per point"):  # fmt: skip
        assert label in page
    url = f"/nights/{night}/games/new?variant=gin"
    seats = {f"seat-{pid}": str(i) for i, pid in enumerate(keeper.person_ids(night).values(), 1)}
    r = keeper.post_form(url, {"variant": "gin", "first_dealer": "Ann", **seats})
    assert r.status_code == 422
    assert (
        "Gin Rummy is played by exactly two players (got 3): give seats to two players only."
        in (page_text(r))
    )
    assert "Gin Rummy" not in page_text(client.get(f"/nights/{night}"))


def test_the_round_form_asks_who_knocked_how_and_both_deadwoods(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "gin", ["Ann", "Bob"])
    html = client.get(f"/games/{game}/rounds/new").get_data(as_text=True)
    page = page_text(client.get(f"/games/{game}/rounds/new"))
    assert "Who knocked? Then both deadwoods" in page
    assert "Nobody: a wash" in page
    assert re.findall(r'name="how" value="(\w+)"', html) == ["knock", "gin", "big_gin"]
    assert "data-out-keeps-hand" in html
    # The card counter counts Gin's values: A 1 ... K 10, no joker.
    keys = dict(re.findall(r'data-card="(\w+)"\s+aria-label="\w+ \((\d+) points\)"', html))
    assert keys["A"] == "1" and keys["K"] == "10" and keys["7"] == "7" and "JK" not in keys

    # Impossible hands come back as the engine's sentence, nothing saved.
    r = keeper.enter(game, "Ann", {"Ann": 0, "Bob": 20}, how="knock")
    assert r.status_code == 422
    assert "round 1: Ann knocked with 0 deadwood: that is gin, not a knock" in page_text(r)
    r = keeper.enter(game, "Ann", {"Ann": 12, "Bob": 20}, how="knock")
    assert "Ann knocked with 12 deadwood: a knock allows at most 10" in page_text(r)
    r = keeper.enter(game, "Ann", {"Ann": 4, "Bob": 20}, how="gin")
    assert "Ann went gin with 4 deadwood: gin leaves 0" in page_text(r)
    # "how" is a choice of the game's, checked on the server.
    r = keeper.enter(game, "Ann", {"Ann": 4, "Bob": 20}, how="rummy")
    assert r.status_code == 422
    assert "Tap how Ann knocked: knock, gin, big gin." in page_text(r)
    r = keeper.enter(game, "Ann", {"Ann": 4, "Bob": 20})
    assert "Tap how Ann knocked" in page_text(r)
    r = keeper.enter(game, "Ann", {"Bob": 20}, how="knock")
    assert "Ann: give the points left in the hand (0 if none)" in page_text(r)
    assert api(client, game)["record"]["rounds"] == []
    # A wash with its hands left empty is saved as one.
    r = keeper.enter(game, None, {}, how="knock")
    assert r.status_code == 302, page_text(r)
    assert api(client, game)["record"]["rounds"] == [{"went_out": None, "hands": {}}]


def test_a_gin_game_with_an_undercut_a_correction_and_a_shutout(keeper, client, tmp_path: Path):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "gin", ["Ann", "Bob"], stake="0.10", buy_in="1.00")
    sheet = page_text(client.get(f"/games/{game}"))
    assert "Stake: $0.10 a point of margin" in sheet
    assert "Knock: with 10 or less; undercut +25" in sheet

    hands = [
        ("Ann", "knock", {"Ann": 8, "Bob": 5}),  # undercut: Bob (8 - 5) + 25 = 28
        ("Bob", "gin", {"Ann": ["K", "Q", "J", "10"], "Bob": 0}),  # 25 + 40 = 65: Bob 93
        (None, None, {}),  # a wash
        ("Bob", "knock", {"Ann": 20, "Bob": 2}),  # 18: Bob 111 -- mistyped, corrected below
    ]
    for went_out, how, typed in hands:
        extra = {"how": how} if how else {}
        r = keeper.enter(game, went_out, typed, **extra)
        assert r.status_code == 302, page_text(r)
    data = api(client, game)
    assert data["standings"]["finished"]
    # As typed: Bob 28 + 65 + 18 = 111, Ann won no hand: shutout, 111 x 2 = 222 + 100 +
    # 3 x 25 = 397.
    assert totals(client, game) == {"Ann": 0, "Bob": 397}

    # The correction: Ann held 30 in hand 4, not 20 -> Bob 28: 28 + 65 + 28 = 121.
    r = keeper.enter(game, "Bob", {"Ann": 30, "Bob": 2}, number=4, how="knock")
    assert r.status_code == 302, page_text(r)
    data = api(client, game)
    # Shutout: Bob 121 x 2 = 242 + game 100 + 3 boxes x 25 = 75 -> 417; Ann 0. Margin 417.
    assert totals(client, game) == {"Ann": 0, "Bob": 417}
    assert data["standings"]["winners"] == ["Bob"]
    assert data["standings"] == load_game(data["record"]).to_json()
    assert data["record"]["rounds"][3] == {
        "went_out": "Bob",
        "hands": {"Ann": 30, "Bob": 2},
        "how": "knock",
    }
    # Money: 417 x $0.10 = $41.70 from Ann (stake), the pot $1 + $1 + $41.70 = $43.70 to
    # Bob: Bob nets +$42.70, Ann -$42.70.
    entries = [(e["player"], e["amount"], e["kind"]) for e in data["standings"]["pot"]["entries"]]
    assert entries == [
        ("Ann", -100, "buy_in"),
        ("Bob", -100, "buy_in"),
        ("Ann", -4170, "stake"),
        ("Bob", 4370, "payout"),
    ]
    assert data["standings"]["pot"]["balances"] == {"Ann": -4270, "Bob": 4270}
    payout = client.get(f"/nights/{night}/payout.txt").get_data(as_text=True)
    assert "Ann pays Bob $42.70" in payout

    # The sheet: each hand's line (★ who knocked, K G BG U —, the deadwoods), the boxes,
    # the bonus lines, the final scores, the margin and the stake.
    sheet = page_text(client.get(f"/games/{game}"))
    for line in (
        "Hand points 0 121",
        "Boxes 0 3",
        "Shutout ×2 0 242",
        "Game bonus 0 100",
        "Box bonus 0 75",
        "Final 0 417",
        "Margin 417",
        "Stake -$41.70 +$41.70",
        "1 0 +0 ★ (8) 28 +28 U (5)",  # hand 1: Ann knocked with 8, Bob undercut: +28
        "3 nobody out 0 — 93 —",
        "4 0 (30) 121 +28 ★ K (2)",
    ):
        assert line in sheet, line
    assert "★ went out (knocked)" in sheet and "U undercut the knocker" in sheet
    assert "— a wash" in sheet and "(n) deadwood left in hand" in sheet
    live_link = show_players(keeper, game)
    live = page_text(client.get(live_link))
    assert "Final 0 417" in live and "Shutout ×2 0 242" in live
    history = page_text(client.get(f"/games/{game}/history"))
    assert "Hand 4 corrected: Ann: 20 → 30" in history
    assert "Hand 2: Bob went out (gin); Ann K Q J 10, Bob 0" in history

    # Printed: the filled sheet with its hand lines, the bonus lines and the final scores;
    # the blank one with Gin's columns, footers and note.
    filled = tmp_path / "filled.pdf"
    filled.write_bytes(client.get(f"/games/{game}/sheet.pdf").data)
    text = squash(text_of(filled))
    for words in (
        "★(8) 0 U(5)⁺²⁸ 28",  # hand 1: Ann knocked with 8, Bob undercut with 5: +28
        "(40) 0 ★G(0)⁺⁶⁵ 93",
        "— 0 — 93",  # the wash
        "(30) 0 ★K(2)⁺²⁸ 121",
        "Boxes 0 3",
        "Shutout ×2 0 242",
        "Final 0 417",
        "Margin 417",
        "Stake -$41.70 +$41.70",
        "Winner: Bob",
        "stake on the margin $41.70",
    ):
        assert words in text, words
    blank = tmp_path / "blank.pdf"
    blank.write_bytes(client.get(f"/games/{game}/blank.pdf").data)
    text = squash(text_of(blank))
    assert "Boxes" in text and "Box bonus" in text and "Final" in text and "How" in text
    assert "U undercut" in text and "big gin +31" in text

    # /help: how Gin scores and the readings the app chose.
    help_page = page_text(client.get("/help"))
    assert "Gin Rummy scoring: exactly two players." in help_page
    assert "a tie is an undercut" in help_page
    assert "the final scores decide and the higher one is paid the difference" in help_page
    assert "a tie still wins the defender the hand (a box) for 0 points" in help_page

    # A finished game takes no more hands.
    r = client.get(f"/games/{game}/rounds/new")
    assert r.status_code == 302

    # Export, then import into another night: the same standings.
    exported = client.get(f"/games/{game}/export.json").get_json()
    assert exported["variant"] == "gin" and exported["settings"]["stake"] == 10
    other = keeper.night(["Ann", "Bob"], name="Copy")
    r = keeper.post_form(f"/nights/{other}/games/import", {"record": json.dumps(exported)})
    assert r.status_code == 302
    copy = int(r.headers["Location"].rsplit("/", 1)[-1])
    assert api(client, copy)["standings"] == data["standings"]


def test_a_correction_reopens_a_finished_game(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "gin", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Ann": 0, "Bob": 80}, how="gin").status_code == 302
    # Ann 25 + 80 = 105: over. Corrected to a knock 5 v 30 (25): the game goes on.
    assert api(client, game)["standings"]["finished"]
    form = client.get(f"/games/{game}/rounds/1").get_data(as_text=True)
    assert 'name="how" value="gin" checked' in form
    r = keeper.enter(game, "Ann", {"Ann": 5, "Bob": 30}, number=1, how="knock")
    assert r.status_code == 302, page_text(r)
    data = api(client, game)
    assert not data["standings"]["finished"]
    assert totals(client, game) == {"Ann": 25, "Bob": 0}
    assert data["standings"]["pot"]["entries"] == []
    assert inputs(client.get(f"/games/{game}/rounds/new").get_data(as_text=True))
