"""Issue 36, point 4: the loose ends a keeper found at the table, through the test client:
the note after a correction names the game, the round and who changed it, and points the
right way; the two-phone conflict says "Ann went out"; a settled person reads as settled;
Contract and Rummy say "deal" wherever a round is meant. (The pay buttons' space and the
flipped card's rank alone: tests/browser/test_table_words.py.)"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.keeper import Keeper, forms_of, text_of
from tests.web.test_live import show_players

OWNER = "keeper@example.com"


@pytest.fixture
def keeper(client: FlaskClient) -> Keeper:
    k = Keeper(client)
    k.signup(OWNER)
    return k


def mark_paid(keeper: Keeper, night: int, sentence: str) -> None:
    html = keeper.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    for form in forms_of(html):
        if form.action.endswith("/transfers/mark") and form.values().get("action") == "payment":
            payer = form.values()["payer"]
            if (
                sentence.split(" pays ")[0]
                in html.split(f'name="payer" value="{payer}"')[0][-2000:]
            ):
                assert keeper.client.post(form.action, data=form.values()).status_code == 302
                return
    raise AssertionError(sentence)


def finished_rummy(keeper: Keeper, night: int) -> int:
    """One deal of Rummy, $1.00 each: Ann goes out and takes the pot ($3.00)."""
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="1.00", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302
    return game


def test_the_note_after_a_correction_names_game_round_and_who_and_points_down(
    app: Flask, keeper: Keeper
) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = finished_rummy(keeper, night)
    page = text_of(keeper.client.get(f"/nights/{night}/payout"))
    assert "Bob pays Ann $1.00" in page and "Cy pays Ann $1.00" in page
    mark_paid(keeper, night, "Bob pays Ann")
    # Deal 1 corrected: Bob went out, not Ann.
    assert keeper.enter(game, "Bob", {"Ann": 10, "Cy": 5}, number=1).status_code == 302
    page = text_of(keeper.client.get(f"/nights/{night}/payout"))
    note = re.search(r"The plan changed because.*?worked out again \w+", page)
    assert note, page
    said = note.group(0)
    assert f"deal 1 of Rummy was corrected by {OWNER}" in said, said
    # The note stands above what is still to pay: it points down to it.
    assert "worked out again below" in said and "above" not in said
    assert page.index(said) < page.index("pays Bob")
    # The chat text and the PDF list the transfers first: there it points up.
    text = keeper.client.get(f"/nights/{night}/payout.txt").get_data(as_text=True)
    squeezed = " ".join(text.split())
    assert f"deal 1 of Rummy was corrected by {OWNER}" in squeezed
    assert "worked out again above" in squeezed
    assert squeezed.index("pays Bob") < squeezed.index("worked out again above")


def test_the_two_phone_conflict_says_who_went_out(keeper: Keeper, client: FlaskClient) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    url = f"/games/{game}/rounds/new"
    _, phone_one = keeper.form(url)
    _, phone_two = keeper.form(url)
    first = keeper.round_data(game, "Ann", {"Bob": 20, "Cy": 3})
    assert client.post(url, data={**phone_one, **first}).status_code == 302
    r = client.post(url, data={**phone_two, **keeper.round_data(game, "Bob", {"Ann": 7, "Cy": 4})})
    assert r.status_code == 409
    page = text_of(r)
    assert "What you typed: Ann 7, Bob went out, Cy 4." in page, page
    assert " -," not in page and "Bob -" not in page


def test_someone_who_paid_what_they_owed_reads_as_settled(keeper: Keeper, app: Flask) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    finished_rummy(keeper, night)
    mark_paid(keeper, night, "Bob pays Ann")
    link = show_players(keeper, f"/nights/{night}/live")
    for page in (
        text_of(keeper.client.get(f"/nights/{night}/payout")),
        text_of(app.test_client().get(link)),
    ):
        squeezed = " ".join(page.split())
        assert "Bob -$1.00 is settled" in squeezed or "Bob −$1.00 is settled" in squeezed, squeezed
        assert "is even" not in squeezed
        assert "Cy -$1.00 pays $1.00" in squeezed or "Cy −$1.00 pays $1.00" in squeezed


ROUND = re.compile(r"\b[Rr]ounds?\b")


@pytest.mark.parametrize("variant", ["contract", "rummy", "pool"])
def test_contract_and_rummy_say_deal_wherever_a_round_is_meant(
    keeper: Keeper, client: FlaskClient, variant: str
) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    extra = {"deals": "5"} if variant == "rummy" else {}
    game = keeper.game(night, variant, ["Ann", "Bob", "Cy"], buy_in="1.00", **extra)
    said = []
    for went_out, hands, number in (
        ("Ann", {"Bob": 10, "Cy": 5}, None),
        ("Bob", {"Ann": 10, "Cy": 5}, None),
        ("Ann", {"Bob": 12, "Cy": 5}, 1),
    ):
        r = keeper.enter(game, went_out, hands, number=number)
        assert r.status_code == 302, text_of(r)
        said.append(text_of(client.get(r.headers["Location"])))
    _, hidden = keeper.form(f"/games/{game}")
    removed = client.post(f"/games/{game}/rounds/last/delete", data=hidden)
    said.append(text_of(client.get(removed.headers["Location"])))
    assert keeper.enter(game, "Bob", {"Ann": 10, "Cy": 5}).status_code == 302
    live = show_players(keeper, f"/games/{game}/live")
    night_live = show_players(keeper, f"/nights/{night}/live")
    for url in (
        f"/games/{game}",
        f"/games/{game}/history",
        f"/games/{game}/rounds/new",
        f"/games/{game}/rounds/1",
        live,
        night_live,
        f"/nights/{night}",
        f"/nights/{night}/payout",
        f"/nights/{night}/payout.txt",
    ):
        said.append(text_of(client.get(url)))
    # A stale form from another phone: the conflict says "deal" too.
    _, stale = keeper.form(f"/games/{game}/rounds/new")
    assert keeper.enter(game, "Ann", {"Bob": 1, "Cy": 1}).status_code == 302
    conflict = client.post(
        f"/games/{game}/rounds/new",
        data={**stale, **keeper.round_data(game, "Cy", {"Ann": 2, "Bob": 2})},
    )
    said.append(text_of(conflict))
    found = [t[max(0, m.start() - 50) : m.end() + 30] for t in said for m in ROUND.finditer(t)]
    assert not found, "\n".join(found)
    everything = " ".join(said)
    for words in ("Deal 1 corrected", "Deal 2 removed", "Enter deal", "Remove last deal"):
        assert words in everything, words
