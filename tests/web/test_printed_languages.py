"""Issue 33, what is read away from the screens: the printed sheets, the payout summary
(PDF and the group-chat text) speak the keeper's language (the account's choice, else
the browser's), one cached PDF per language; the help page, the web app manifest and the
service worker's own pages speak the reader's."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from tests.web.keeper import Keeper, text_of
from tests.web.stateful_model import pdf_text

GERMAN = {"Accept-Language": "de"}
HINDI = {"Accept-Language": "hi-IN,hi;q=0.9"}


def _said(script: str, words: str) -> bool:
    """``words`` in a script as JSON writes them (non-ASCII as \\u escapes, or not)."""
    return json.dumps(words) in script or json.dumps(words, ensure_ascii=False) in script


def squash(text: str) -> str:
    return " ".join(text.split())


def _finished_night(keeper: Keeper) -> tuple[int, int]:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="2.00", deals="1")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    return night, game


def test_the_keepers_choice_prints_the_sheet_and_summary_in_german(client: FlaskClient) -> None:
    keeper = Keeper(client)
    keeper.signup()
    night, game = _finished_night(keeper)
    english = squash(pdf_text(client.get(f"/games/{game}/sheet.pdf").data))
    assert "Result" in english and "Winner: Ann." in english and "Page 1 of 1" in english
    chosen = keeper.post_form("/account", {"language": "de"}, action="/account/language")
    assert chosen.status_code == 302
    # The same game, unchanged: the cached English PDF is not the German one.
    sheet = squash(pdf_text(client.get(f"/games/{game}/sheet.pdf").data))
    assert "Endstand" in sheet and "Sieger: Ann." in sheet and "Seite 1 von 1" in sheet
    assert "Result" not in sheet and "Winner" not in sheet
    summary = squash(pdf_text(client.get(f"/nights/{night}/payout.pdf").data))
    assert "Abrechnung" in summary and "Ann gewinnt $4.00" in summary
    assert "Payout summary" not in summary and "wins" not in summary
    text = client.get(f"/nights/{night}/payout.txt").get_data(as_text=True)
    assert "Abrechnen:" in text and "Ergebnis des Abends:" in text
    assert "Settle up:" not in text and "Net for the night" not in text
    # The account's choice wins over the browser's.
    hindi = squash(pdf_text(client.get(f"/games/{game}/sheet.pdf", headers=HINDI).data))
    assert "Endstand" in hindi


def test_a_browser_in_hindi_gets_the_chat_text_and_blank_sheet_in_hindi(
    client: FlaskClient,
) -> None:
    keeper = Keeper(client)
    keeper.signup()
    night, game = _finished_night(keeper)
    text = client.get(f"/nights/{night}/payout.txt", headers=HINDI).get_data(as_text=True)
    assert "हिसाब:" in text and "शाम का नेट:" in text and "Settle up" not in text
    blank = pdf_text(client.get(f"/games/{game}/blank.pdf", headers=HINDI).data)
    assert "पेज 1 / 1" in squash(blank) and "Page 1 of 1" not in blank


def test_the_help_page_in_german_and_hindi(client: FlaskClient) -> None:
    german = text_of(client.get("/help", headers=GERMAN))
    assert "So zählt Scorekeeper" in german and "Für jedes Spiel" in german
    assert "Der Plan bleibt stehen." in german and "Spätere Änderung" in german
    assert "For every game" not in german and "The plan stays put" not in german
    hindi = text_of(client.get("/help", headers=HINDI))
    assert "Scorekeeper अंक कैसे गिनता है" in hindi and "हर गेम के लिए" in hindi
    assert "For every game" not in hindi
    english = text_of(client.get("/help"))
    assert "For every game" in english and "The plan stays put." in english


def test_the_manifest_and_the_service_worker_speak_the_readers_language(
    client: FlaskClient,
) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest", headers=GERMAN).data)
    assert manifest["lang"] == "de" and manifest["short_name"] == "Punkte"
    assert manifest["description"].startswith("Spielblock, Pott und Auszahlungen")
    assert json.loads(client.get("/manifest.webmanifest").data)["lang"] == "en"
    worker = client.get("/sw.js", headers=HINDI).get_data(as_text=True)
    assert _said(worker, "कनेक्शन नहीं है") and '"No connection"' not in worker
    assert _said(worker, "ऑफ़लाइन: {time} तक की स्कोर शीट दिख रही है।")
    assert 'const LANG = "hi";' in worker
    english = client.get("/sw.js").get_data(as_text=True)
    assert '"No connection"' in english and "Offline: showing the sheet as of {time}." in english
