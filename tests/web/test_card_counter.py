"""The card counter's hidden field, on the server: while the visible hand text still shows
exactly the cards tapped, the hand is those cards (a tapped 7 is the seven, a tapped Texas
2 is 20 points); once the keeper types over them, the typed text counts. A correction keeps
a stored card hand as cards when it is saved unchanged."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from scorekeeper.rules import VARIANTS, get_variant
from scorekeeper.rules.hands import parse_hand_field, parse_hand_text
from tests.web.keeper import Keeper, inputs, text_of

TEXAS = get_variant("texas").card_codes
RUMMY = get_variant("rummy").card_codes
VEGAS = get_variant("vegas").card_codes


# ------------------------------------------------------------------ the rule itself ---
@pytest.mark.parametrize(
    ("text", "tapped", "hand"),
    [
        ("7 8", "7 8", ["7", "8"]),  # two number cards in a row: both count
        ("7", "7", ["7"]),  # a lone tapped 7 is the seven
        ("2", "2", ["2"]),
        ("k, 7 jk", "K 7 JK", ["K", "7", "JK"]),  # the words match, whatever the spelling
        (" 7  8 ", "7 8", ["7", "8"]),
    ],
)
def test_the_tapped_cards_are_the_hand_while_the_field_shows_them(text, tapped, hand):
    assert parse_hand_field(text, tapped, TEXAS) == hand


@pytest.mark.parametrize(
    ("text", "tapped", "hand"),
    [
        ("12", "7 8", 12),  # typed over the tapped cards: typed points win
        ("7", "7 8", 7),
        ("10+7", "K 7", 17),
        ("K 7 5", "K 7", ["K", "7", "5"]),  # typed cards win too
        ("7", "", 7),  # nothing tapped: a lone number is points, as always
        ("7", None, 7),
        ("8 7", "7 8", ["8", "7"]),  # another order is another text: read as typed
    ],
)
def test_typed_text_wins_when_it_differs_from_the_tapped_cards(text, tapped, hand):
    assert parse_hand_field(text, tapped, TEXAS) == hand
    assert parse_hand_field(text, tapped, TEXAS) == parse_hand_text(text, TEXAS)


def test_tapped_cards_are_read_strictly():
    with pytest.raises(ValueError, match="'12' is not a card of this game"):
        parse_hand_field("12", "12", TEXAS)  # a forged "card": never 12 points
    with pytest.raises(ValueError, match="'W' is not a card of this game"):
        parse_hand_field("K W", "K W", TEXAS)  # W is the Vegas flipped card only
    assert parse_hand_field("K W", "K W", VEGAS) == ["K", "W"]
    with pytest.raises(ValueError, match="'JK' is not a card of this game"):
        parse_hand_field("JK", "JK", RUMMY)
    with pytest.raises(ValueError, match="give the points left"):
        parse_hand_field("", "7", RUMMY)  # the field was emptied: typed text (nothing)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_counter_offers_exactly_the_cards_a_hand_may_hold(name):
    """The counter's buttons and the browser's sums come from card_values; the server
    accepts card_codes: the two must be the same cards in every round."""
    variant = get_variant(name)
    settings = variant.default_settings()
    for number in range(1, 14):
        assert set(variant.card_values(number, settings)) == variant.card_codes, number


# ----------------------------------------------------------------- through the form ---
@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def api(client, game_id):
    r = client.get(f"/api/v1/games/{game_id}")
    assert r.status_code == 200
    return r.get_json()


def sheet_cell(client, game_id: int, number: int, column: int) -> str:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    row = re.search(rf'<tr id="r{number}"[^>]*>(.*?)</tr>', html, re.S)
    assert row, number
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", cells[column]))).strip()


def visible_hands(html: str) -> dict[str, str]:
    return {k: unescape(v) for k, v in re.findall(r'name="(hand-\d+)" value="([^"]*)"', html)}


def post_round(keeper, game_id: int, went_out: str, hands: dict[str, tuple[str, str]]):
    """A new round as the phone posts it: per hand (visible text, hidden tapped cards)."""
    seats = keeper.seats(game_id)
    data = {"went_out": seats[went_out]}
    for name, (text, tapped) in hands.items():
        data[f"hand-{seats[name]}"] = text
        data[f"cards-{seats[name]}"] = tapped
    return keeper.post_form(f"/games/{game_id}/rounds/new", data)


def test_a_lone_tapped_texas_two_is_twenty_and_doubled_in_round_nine(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "texas", ["Ann", "Bob"])
    # Round 1: Bob's 2 tapped on the counter (hidden cards "2", the field shows "2").
    r = post_round(keeper, game, "Ann", {"Bob": ("2", "2")})
    assert r.status_code == 302, text_of(r)
    # Round 2: cards tapped (7 8), then typed over with 12: the typed points count.
    r = post_round(keeper, game, "Ann", {"Bob": ("12", "7 8")})
    assert r.status_code == 302, text_of(r)
    record = api(client, game)["record"]
    assert [rnd["hands"]["Bob"] for rnd in record["rounds"]] == [["2"], 12]
    for _ in range(6):
        assert keeper.enter(game, "Ann", {"Bob": 0}).status_code == 302
    # Round 9 (jacks wild, x2): a lone tapped 2 is 20 raw, 40 on the sheet.
    r = post_round(keeper, game, "Ann", {"Bob": ("2", "2")})
    assert r.status_code == 302, text_of(r)
    data = api(client, game)
    assert data["record"]["rounds"][8]["hands"]["Bob"] == ["2"]
    bob = next(p for p in data["standings"]["players"] if p["name"] == "Bob")
    assert bob["scores"] == [20, 12, 0, 0, 0, 0, 0, 0, 40]
    assert bob["total"] == 72
    assert sheet_cell(client, game, 9, 1) == "72 +40"


def test_a_correction_saved_unchanged_keeps_a_card_hand(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": ["7"]}).status_code == 302
    assert api(client, game)["record"]["rounds"][0]["hands"]["Bob"] == ["7"]
    url = f"/games/{game}/rounds/1"
    page = client.get(url).get_data(as_text=True)
    seat = keeper.seats(game, 1)["Bob"]
    hidden, shown = inputs(page), visible_hands(page)
    assert hidden[f"cards-{seat}"] == "7" and shown[f"hand-{seat}"] == "7"
    # Posted as the page was rendered (the browser sends the hidden field back).
    went_out = keeper.seats(game, 1)["Ann"]
    r = client.post(url, data={**hidden, **shown, "went_out": went_out})
    assert r.status_code == 302, text_of(r)
    assert api(client, game)["record"]["rounds"][0]["hands"]["Bob"] == ["7"]
    # Typed over: "9" is 9 points, the stale hidden "7" does not count.
    page = client.get(url).get_data(as_text=True)
    r = client.post(url, data={**inputs(page), f"hand-{seat}": "9", "went_out": went_out})
    assert r.status_code == 302, text_of(r)
    assert api(client, game)["record"]["rounds"][0]["hands"]["Bob"] == 9
    page = client.get(url).get_data(as_text=True)
    assert inputs(page)[f"cards-{seat}"] == ""  # points: no cards to keep


def test_a_texas_two_corrected_unchanged_stays_twenty(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "texas", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": ["2"]}).status_code == 302
    url = f"/games/{game}/rounds/1"
    page = client.get(url).get_data(as_text=True)
    seats = keeper.seats(game, 1)
    r = client.post(url, data={**inputs(page), **visible_hands(page), "went_out": seats["Ann"]})
    assert r.status_code == 302, text_of(r)
    data = api(client, game)
    assert data["record"]["rounds"][0]["hands"]["Bob"] == ["2"]
    assert {p["name"]: p["total"] for p in data["standings"]["players"]} == {"Ann": 0, "Bob": 20}


def test_a_refused_round_keeps_the_tapped_cards(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    seats = keeper.seats(game)
    r = post_round(keeper, game, "Ann", {"Bob": ("7 8", "7 8"), "Cy": ("twelve", "")})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert inputs(page)[f"cards-{seats['Bob']}"] == "7 8"
    assert visible_hands(page)[f"hand-{seats['Bob']}"] == "7 8"


def test_a_forged_card_or_seat_is_refused(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "texas", ["Ann", "Bob"])
    seats = keeper.seats(game)
    r = post_round(keeper, game, "Ann", {"Bob": ("W", "W")})
    assert r.status_code == 422
    assert "Bob: 'W' is not a card of this game" in text_of(r)
    r = keeper.post_form(
        f"/games/{game}/rounds/new",
        {"went_out": seats["Ann"], f"hand-{seats['Bob']}": "5", "cards-99": "5"},
    )
    assert r.status_code == 422 and "There is no seat 99 in this game" in text_of(r)
    assert api(client, game)["standings"]["rounds_played"] == 0


def test_the_counter_is_hidden_until_the_script_shows_it(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "vegas", ["Ann", "Bob"])
    page = client.get(f"/games/{game}/rounds/new").get_data(as_text=True)
    buttons = re.findall(r'<button type="button" class="count-cards"[^>]*>', page)
    pads = re.findall(r'<div class="cards-pad"[^>]*>', page)
    assert len(buttons) == len(pads) == 2
    assert all(tag.endswith(" hidden>") for tag in buttons + pads)
    assert re.search(r'<input type="hidden" name="cards-\d+" value="" data-cards>', page)
    assert 'aria-label="Remove last card"' in page
    grammar = json.loads(unescape(re.search(r'data-grammar="([^"]*)"', page).group(1)))
    assert grammar["maxPoints"] == 9999 and grammar["maxCards"] == 60
