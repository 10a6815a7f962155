"""Issue 35 with issue 33: the round page, its form's refusals and the forms moved beside
their views speak the reader's language (Accept-Language), and English stays English."""

from __future__ import annotations

import json
import re

import pytest

from tests.web.keeper import Keeper, inputs, text_of


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def _rummy(keeper) -> int:
    night = keeper.night(["Ann", "Bob"])
    return keeper.game(night, "rummy", ["Ann", "Bob"])


def _in(client, language: str, url: str, data: dict[str, str] | None = None):
    headers = {"Accept-Language": language}
    if data is None:
        return client.get(url, headers=headers)
    return client.post(url, data=data, headers=headers)


def test_the_round_page_speaks_german_and_hindi(keeper, client):
    game = _rummy(keeper)
    url = f"/games/{game}/rounds/new"
    page = _in(client, "de", url)
    de, html = text_of(page), page.get_data(as_text=True)
    assert "Eine Zahl allein sind Punkte." in de and "Abbrechen" in de
    assert 'aria-label="Letzte Karte entfernen"' in html
    assert "A number typed alone is points" not in de and "Cancel" not in de
    page = _in(client, "hi", url)
    hi, html = text_of(page), page.get_data(as_text=True)
    assert "रद्द करें" in hi and "पत्ते" in hi and 'aria-label="आख़िरी पत्ता हटाएँ"' in html
    assert "Remove last card" not in html
    en = text_of(client.get(url))
    assert "A number typed alone is points." in en and "Cancel" in en


def test_the_round_forms_refusals_name_the_player_in_german(keeper, client):
    game = _rummy(keeper)
    url = f"/games/{game}/rounds/new"
    before = client.get(f"/api/v1/games/{game}").get_json()
    page = _in(client, "de", url).get_data(as_text=True)
    seats = keeper.seats(game)
    sent = {**inputs(page), "went_out": str(seats["Ann"]), f"hand-{seats['Bob']}": "7+"}
    r = _in(client, "de", url, sent)
    assert r.status_code == 422
    text = text_of(r)
    assert "Nichts wurde gespeichert: korrigiere das markierte Feld." in text
    assert "Bob:" in text  # the player the error is about, whatever the language
    assert "Nothing was saved" not in text
    nobody = {**inputs(page), f"hand-{seats['Bob']}": "7"}
    nobody.pop("went_out", None)
    text = text_of(_in(client, "fr", url, nobody))
    assert "Touchez qui" in text and "Tap who" not in text
    assert client.get(f"/api/v1/games/{game}").get_json() == before  # nothing saved


def test_the_round_scripts_words_come_in_the_page_language(keeper, client):
    game = _rummy(keeper)
    html = _in(client, "es", f"/games/{game}/rounds/new").get_data(as_text=True)
    table = json.loads(re.search(r'id="i18n">(.*?)</script>', html, re.S).group(1))
    assert table["said"]["pad_next"] == "Siguiente"
    assert table["said"]["add_suit"].startswith("Añade el palo a %(rank)s")


def test_a_moved_form_speaks_portuguese(keeper, client):
    page = text_of(_in(client, "pt-BR", "/nights/new"))
    assert "Quem joga" in page and "Um nome por linha, ou separados por vírgulas." in page
    assert "Who is playing" not in page
