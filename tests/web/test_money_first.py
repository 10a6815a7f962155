"""Issue 22, point 8: money first where money is the point. On the payout page and the
night's live view, "who pays whom" comes first and once: one compact line a transfer with
its pay link (and, for the keeper, Mark paid), not again in a second list. A finished game
says who won what ("Dee wins $3.00": who ends up ahead, by the net), never "Pot: $0.00":
on the sheet, the live views and the payout summary; a game without stakes says so."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.keeper import Keeper, handle_rows, text_of
from tests.web.test_account_data import post
from tests.web.test_live import finished_vegas, import_game, show_players
from tests.web.test_settle_up import regular_ids


@pytest.fixture
def keeper(client: FlaskClient) -> Keeper:
    k = Keeper(client)
    k.signup()
    return k


def night_with_money(keeper: Keeper) -> tuple[int, int, int]:
    """Dee wins a finished Vegas pot ($1.00 each of four); a Rummy game still runs; Dee
    has a PayPal.me handle."""
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    finished = import_game(keeper, night, finished_vegas(["Dee", "Ann", "Bob", "Cy"]))
    running = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="1.00", deals="1")
    ids = regular_ids(keeper.client)
    saved = post(keeper, f"/regulars/{ids['Dee']}/handles", handle_rows([("paypal", "deepays")]))
    assert saved.status_code == 302
    return night, finished, running


def transfer_items(html: str) -> list[str]:
    return re.findall(r'<li class="pay">(.*?)</li>', html, re.S)


def test_the_payout_page_lists_each_transfer_once_on_one_line(
    keeper: Keeper, client: FlaskClient
) -> None:
    night, _, _ = night_with_money(keeper)
    page = client.get(f"/nights/{night}/payout")
    html, text = page.get_data(as_text=True), text_of(page)
    shown = text[: text.index("Text for the group chat")]  # the chat's text repeats it
    for payer in ("Ann", "Bob", "Cy"):
        assert shown.count(f"{payer} pays Dee $1.00") == 1, shown  # not again in a summary
    assert 'class="transfers"' not in html
    assert text.index("Still to pay") < text.index("Cy pays Dee") < text.index("Each person's")
    items = transfer_items(html)
    assert len(items) == 3
    for item in items:  # the sentence, the pay link with the amount, Mark paid: one item
        assert "https://paypal.me/deepays/1.00USD" in item
        assert ">Mark paid</button>" in item and "<p" not in item
        assert re.search(r"Pay Dee with </span>PayPal\.me</span></a>", item), item
    # The game says who won what; the rest of the summary is still there.
    assert "Dee wins $3.00." in text and "Winner: Dee. Pot" not in text
    assert "Dee +$3.00 receives $3.00" in text and "not paid out yet" in text


def test_a_finished_game_says_who_won_what(app: Flask, keeper: Keeper, client) -> None:
    night, finished, running = night_with_money(keeper)
    sheet = text_of(client.get(f"/games/{finished}"))
    assert "Dee wins $3.00" in sheet and "Pot: $0.00" not in sheet
    assert "Pot: $3.00" in text_of(client.get(f"/games/{running}"))  # still running
    game_link = show_players(keeper, f"/games/{finished}/live")
    night_link = show_players(keeper, f"/nights/{night}/live")
    phone = app.test_client()
    live_game = text_of(phone.get(game_link))
    assert "Dee wins $3.00" in live_game and "Pot: $0.00" not in live_game
    live_night = text_of(phone.get(night_link))
    assert "Vegas Rummy Dee wins $3.00 · after 1 round" in live_night
    assert "Pot: $0.00" not in live_night
    # Who pays whom comes first, once, each with its pay link.
    first_game = live_night.index("Vegas Rummy")
    assert live_night.index("Who pays whom") < live_night.index("Cy pays Dee $1.00") < first_game
    assert live_night.count("Cy pays Dee $1.00") == 1
    assert live_night.count("Pay Dee with PayPal.me") == 3


def test_a_split_pot_and_a_game_without_stakes(keeper: Keeper, client: FlaskClient) -> None:
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    split = finished_vegas(["Ann", "Bob", "Cy", "Dee"])
    split["settings"]["pot_split"] = [70, 30]
    split["rounds"] = [
        {"went_out": "Ann", "hands": {"Bob": 20, "Cy": 60, "Dee": 60}, "drops": ["Cy", "Dee"]},
        {"went_out": "Ann", "hands": {"Bob": 40}},
    ]
    game = import_game(keeper, night, split)
    assert "Ann wins $1.80 · Bob wins $0.20" in text_of(client.get(f"/games/{game}"))
    payout = text_of(client.get(f"/nights/{night}/payout"))
    assert "Ann wins $1.80, Bob wins $0.20." in payout
    free = keeper.game(night, "rummy", ["Ann", "Bob"], deals="1")
    assert keeper.enter(free, "Ann", {"Bob": 5}).status_code == 302
    sheet = text_of(client.get(f"/games/{free}"))
    assert "No stakes" in sheet and "Pot: $0.00" not in sheet
    assert "Ann wins (no stakes)." in text_of(client.get(f"/nights/{night}/payout"))
