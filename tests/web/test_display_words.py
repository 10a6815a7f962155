"""Issue 33, the game display's words (rules/said_display.py): the round form's (who went
out or knocked, how, Nobody, the card hint, Dummy's contract), the printed sheet's notes
beside a place (Dummy's contract, Pool's out), what is wild, and the help page's readings
speak the reader's language (the printed sheet the keeper's), in whole sentences, with no
English left in them; English stays word for word."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests import samples
from tests.reports.test_languages import says
from tests.web.keeper import Keeper, inputs, text_of
from tests.web.stateful_model import pdf_text

GERMAN = {"Accept-Language": "de"}
HINDI = {"Accept-Language": "hi-IN,hi;q=0.9"}


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def squash(text: str) -> str:
    return " ".join(text.split())


def _imported(keeper: Keeper, record: dict[str, Any]) -> int:
    night = keeper.night(list(record["players"]))
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert r.status_code == 302, text_of(r)
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def _pool_with_one_out() -> dict[str, Any]:
    """Deal 2: Ann shows, Cy reaches 160 and stays out (no rejoin)."""
    return {
        "format": "scorekeeper-game/1",
        "variant": "pool",
        "settings": {},
        "players": ["Ann", "Bob", "Cy"],
        "rounds": [{"went_out": "Ann", "hands": {"Bob": 30, "Cy": 80}}] * 2,
    }


def test_the_gin_round_page_asks_who_knocked_and_how_in_german_and_hindi(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "gin", ["Ann", "Bob"])
    url = f"/games/{game}/rounds/new"
    de = squash(text_of(client.get(url, headers=GERMAN)))
    assert "Wer hat geklopft? Dann beide Restpunkte" in de
    assert "Niemand: Remis" in de and "★ hat geklopft" in de
    assert "Wie? (nicht gefragt, wenn niemand geklopft hat)" in de
    assert "Klopfen Gin Big Gin" in de
    for english in ("Who knocked", "knocked", "Nobody", "a wash", "How?", "Knock", "Big gin"):
        assert english not in de, english
    hi = squash(text_of(client.get(url, headers=HINDI)))
    assert "किसने नॉक किया? फिर दोनों का डेडवुड" in hi and "कोई नहीं: वॉश" in hi
    assert "★ नॉक किया" in hi and "नॉक जिन बिग जिन" in hi and "हाथ 1" in hi
    for english in ("Who knocked", "knocked", "Nobody", "Knock", "Big gin", "Hand 1"):
        assert english not in hi, english
    en = squash(text_of(client.get(url)))
    assert "Who knocked? Then both deadwoods" in en and "Nobody: a wash" in en


def test_the_round_forms_refusals_are_whole_sentences_in_german(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "gin", ["Ann", "Bob"])
    url = f"/games/{game}/rounds/new"
    seats = keeper.seats(game)
    page = client.get(url, headers=GERMAN).get_data(as_text=True)
    sent = {**inputs(page), "went_out": seats["Ann"], "how": "rummy"}
    sent.update({f"hand-{seats['Ann']}": "4", f"hand-{seats['Bob']}": "20"})
    r = client.post(url, data=sent, headers=GERMAN)
    assert r.status_code == 422
    text = squash(text_of(r))
    assert "Tipp an, wie Ann rausging: Klopfen, Gin oder Big Gin." in text
    assert "Tap how" not in text and "knocked" not in text
    sent = {**inputs(page), "went_out": "nobody?"}
    text = squash(text_of(client.post(url, data=sent, headers=HINDI)))
    assert "जिसने नॉक किया, उस पर टैप करें (या कोई नहीं)।" in text and "Tap who" not in text


def test_the_dummy_round_page_offers_each_contract_in_german_and_hindi(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "dummy", ["Ann", "Bob"])
    url = f"/games/{game}/rounds/new"
    de = squash(text_of(client.get(url, headers=GERMAN)))
    assert "Ann · Kontrakt 1 ausgelegt:" in de and "Wer ist raus? Dann jede Hand" in de
    assert "Laid down" not in de and "Who went out" not in de and "went out" not in de
    hi = squash(text_of(client.get(url, headers=HINDI)))
    assert "Ann · कॉन्ट्रैक्ट 1 उतारा:" in hi and "किसने शो किया? फिर हर हाथ" in hi
    assert "Laid down" not in hi and "contract" not in hi


def test_the_round_page_gives_its_scripts_the_words_for_a_round(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "contract", ["Ann", "Bob"])
    html = client.get(f"/games/{game}/rounds/new", headers=GERMAN).get_data(as_text=True)
    assert 'data-round-word="Runde" data-round-words="Runden" data-round-head="Runde"' in html
    html = client.get(f"/games/{game}/rounds/new", headers=HINDI).get_data(as_text=True)
    assert 'data-round-word="डील" data-round-words="डील" data-round-head="डील"' in html
    table = json.loads(re.search(r'id="i18n">(.*?)</script>', html, re.S).group(1))
    assert table["said"]["word_many"] == "राउंड"


def test_the_help_pages_readings_in_german_and_hindi(client):
    de = squash(text_of(client.get("/help", headers=GERMAN)))
    assert "Wertung bei Gin-Rommé:" in de and "Nachkaufen bei Vegas" in de
    assert "Gin Rummy scoring" not in de and "Vegas re-buy" not in de
    assert "Pool Rummy split" not in de and "Dummy end" not in de
    hi = squash(text_of(client.get("/help", headers=HINDI)))
    assert "जिन रमी के अंक:" in hi and "वेगास में री-बाय" in hi and "पूल रमी में बँटवारा:" in hi
    assert "Gin Rummy scoring" not in hi and "Texas dimes" not in hi
    en = squash(text_of(client.get("/help")))
    assert "Gin Rummy scoring: exactly two players." in en and "Vegas re-buy is the default" in en


@pytest.mark.parametrize(
    ("language", "dummy", "pool", "english"),
    [
        (
            "de",
            ["alle zwölf Kontrakte ausgelegt", "bei Kontrakt 7", "Zweien und Joker"],
            ["raus in Runde 2", "gedruckte Joker und jede Karte"],
            ["all twelve contracts", "on contract", "twos and jokers"],
        ),
        (
            "hi",
            ["सभी बारह कॉन्ट्रैक्ट उतारे", "कॉन्ट्रैक्ट 7 पर", "दुक्की और जोकर"],
            ["डील 2 में बाहर", "गए रैंक का हर पत्ता; दोनों हाथ"],
            ["all twelve contracts", "on contract", "twos and jokers"],
        ),
    ],
)
def test_the_filled_sheets_notes_and_wild_rule_speak_the_keepers_language(
    keeper, client, language, dummy, pool, english
):
    dummy_game = _imported(keeper, samples.dummy_game())
    pool_game = _imported(keeper, _pool_with_one_out())
    before = squash(pdf_text(client.get(f"/games/{dummy_game}/sheet.pdf").data))
    assert "all twelve contracts laid" in before and "on contract 7" in before
    chosen = keeper.post_form("/account", {"language": language}, action="/account/language")
    assert chosen.status_code == 302
    text = squash(pdf_text(client.get(f"/games/{dummy_game}/sheet.pdf").data))
    assert all(says(text, words) for words in dummy), text
    assert not any(words in text for words in english), text
    text = squash(pdf_text(client.get(f"/games/{pool_game}/sheet.pdf").data))
    assert all(says(text, words) for words in pool), text
    assert "out in deal" not in text and "printed jokers" not in text
