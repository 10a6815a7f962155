"""Issue 33, the games: what a keeper sees of a game (the new-game page, the sheet with
its banner, table rules, legend and pot, the history, the split and delete pages) is in
the reader's language, the engine's words included (the games' names, the word for a
round, the table rules, the marks), while the API and the command line keep the engine's
English. Each page is read as text and checked for the translated words and for the
absence of the English sentences it used to show."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import parse_round
from scorekeeper.rules.errors import RecordError
from tests.web.keeper import Keeper, text_of

#: What the English pages said of a game, none of which a translated page may show.
ENGLISH = [
    "Table rules", "Max score", "Buy-in", "Remove last round", "Enter round", "went out",
    "Flip a card after the deal", "Score sheet", "Print sheet (PDF)", "History", "Blank sheet",
    "Paid in", "Pot:", "Vegas Rummy", "Cards for", "back to the highest total",
]  # fmt: skip


#: The same, less the labels of the new-game form's setting fields.
PAGE = [s for s in ENGLISH if s not in {"Max score", "Buy-in"}]


#: The same on the sheet (the score chart's lines included: reports/chart.py says them).
SHEET = ENGLISH


def reading(client: FlaskClient, language: str) -> Keeper:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    keeper = Keeper(client)
    keeper.signup()
    return keeper


def vegas(keeper: Keeper) -> tuple[int, int]:
    """A Vegas game of three with a $2 buy-in and two rounds: Bob re-buys in round 2."""
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="2.00")
    assert keeper.enter(game, "Ann", {"Bob": 60, "Cy": 30}, wild="7c").status_code == 302
    assert keeper.enter(game, "Cy", {"Ann": 20, "Bob": 45}).status_code == 302
    return night, game


def absent(text: str, sentences: list[str]) -> None:
    found = [s for s in sentences if s in text]
    assert found == [], found


def test_a_vegas_game_reads_in_german(client):
    keeper = reading(client, "de")
    night = keeper.night(["Ann", "Bob", "Cy"])
    new = text_of(client.get(f"/nights/{night}/games/new?variant=vegas"))
    assert "Neues Spiel: Vegas-Rommé" in new and "Spieler in Sitzreihenfolge" in new
    assert "Strafpunkte, wenig ist gut." in new  # the game's description
    assert "Wer überzieht, kauft standardmäßig nach" in new  # its setup hint
    assert "Karten für 3 Spieler: 1 Kartenspiel mit 2 Jokern." in new  # the deck advice
    # The setting fields' labels and help: SettingSpec.label_said, said as the page is drawn.
    assert "Höchstpunktzahl" in new and "Einsatz" in new
    absent(new, [*PAGE, "Players in seat order", "Start the game", "Penalty points"])
    absent(new, ["Max score", "Buy-in"])
    choose = text_of(client.get(f"/nights/{night}/games/new"))
    assert "Kontrakt-Rommé" in choose and "Gin-Rommé" in choose and "Pool-Rommé" in choose
    absent(choose, ["Contract Rummy", "pick the game", "Classic rummy"])

    _, game = vegas(keeper)
    sheet = text_of(client.get(f"/games/{game}"))
    assert "Vegas-Rommé" in sheet and "Runde 3" in sheet  # the banner's head
    assert "Nach dem Geben eine Karte aufdecken" in sheet  # the banner's note
    assert "Tischregeln" in sheet and "Höchstpunktzahl: 100" in sheet
    assert "Einsatz: $2.00 · Pott: 1. 70% / 2. 30% · 3. Platz: bekommt einen Einsatz" in sheet
    assert "Nachkauf: $2.00, zurück auf die höchste Summe" in sheet
    assert "Runde 3 eingeben" in sheet and "Letzte Runde entfernen" in sheet
    assert "Pott: $8.00" in sheet and "Bezahlt" in sheet and "Summe" in sheet
    assert "★ raus" in sheet  # the legend's marks
    assert "R überzogen und für $2.00 nachgekauft" in sheet
    absent(sheet, [*SHEET, "expired and re-bought", "Late joiner", "Delete game"])

    history = text_of(client.get(f"/games/{game}/history"))
    assert "Runde 2: Cy ist rausgegangen; Ann 20, Bob 45; Bob hat nachgekauft, zurück auf 30" in (
        history
    )
    assert "Begonnen mit Ann, Bob, Cy" in history and "jede Änderung, die neueste zuerst" in history
    absent(history, ["went out", "re-bought", "Started with", "every change"])

    delete = text_of(client.get(f"/games/{game}/delete"))
    assert "Dieses Spiel löschen?" in delete and "2 Runden" in delete
    absent(delete, ["Delete this game?", "2 rounds", "Keep it"])
    join = text_of(client.get(f"/games/{game}/join"))
    assert "Jemanden ab Runde 3 einsteigen lassen" in join
    absent(join, ["Deal someone in", "A late player buys in"])


def test_a_vegas_game_reads_in_hindi(client):
    keeper = reading(client, "hi")
    night, game = vegas(keeper)
    sheet = text_of(client.get(f"/games/{game}"))
    assert "वेगास रमी" in sheet and "राउंड 3" in sheet and "टेबल के नियम" in sheet
    assert "अधिकतम अंक: 100" in sheet and "पॉट: $8.00" in sheet
    assert "बाँटने के बाद एक पत्ता पलटें" in sheet
    absent(sheet, SHEET)
    history = text_of(client.get(f"/games/{game}/history"))
    assert "राउंड 2: Cy ने शो किया; Ann 20, Bob 45; Bob ने री-बाय किया, वापस 30 पर" in history
    new = text_of(client.get(f"/nights/{night}/games/new?variant=vegas"))
    assert "नया वेगास रमी" in new and "सीट के क्रम में खिलाड़ी" in new
    absent(new, [*PAGE, "Players in seat order", "Start the game"])


def test_a_pool_game_says_its_deals_and_drops_in_german_and_hindi(client):
    keeper = reading(client, "de")
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "pool", ["Ann", "Bob", "Cy"], buy_in="5.00")
    sheet = text_of(client.get(f"/games/{game}"))
    assert "Pool-Rommé" in sheet and "Runde 1" in sheet and "Verbleibende Ausstiege" in sheet
    assert "Pool: 101: raus ab 101" in sheet and "Nach dem Geben eine Karte abheben" in sheet
    assert "Einsatz: $5.00, erneut zum Wiedereinstieg" in sheet
    absent(sheet, [*SHEET, "Drops left", "Deal 1", "again to rejoin", "Cut a card"])
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi"
    sheet = text_of(client.get(f"/games/{game}"))  # the same cached game, another reader
    assert "पूल रमी" in sheet and "डील 1" in sheet and "बचे ड्रॉप" in sheet
    absent(sheet, [*SHEET, "Verbleibende Ausstiege", "Pool-Rommé", "Drops left"])


def test_the_sheet_cached_in_one_language_is_not_served_in_another(client):
    keeper = reading(client, "de")
    _, game = vegas(keeper)
    first = client.get(f"/games/{game}")
    assert "Tischregeln" in text_of(first)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    again = client.get(f"/games/{game}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200  # another language: not the German copy's 304
    assert "Table rules" in text_of(again) and "Tischregeln" not in text_of(again)


def bad_hand_record(client: FlaskClient, game: int) -> dict:
    record = json.loads(client.get(f"/games/{game}/export.json").get_data(as_text=True))
    record["rounds"][0]["hands"]["Bob"] = -5
    return record


def test_an_engine_refusal_is_german_on_the_page_and_english_in_the_cli(
    client, runner, tmp_path: Path
):
    keeper = reading(client, "de")
    night, game = vegas(keeper)
    record = bad_hand_record(client, game)
    page = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert page.status_code == 422
    text = text_of(page)
    assert (
        "Nicht importiert: Runde 1: die Hand von Bob muss 0 Punkte oder mehr haben "
        "(angegeben: -5)" in text
    ), text
    assert "must be 0 points" not in text and "Import a game" not in text
    missing = copy.deepcopy(record)  # the replay's refusal, in round 2
    del missing["rounds"][1]["hands"]["Bob"]
    missing["rounds"][0]["hands"]["Bob"] = 60
    page = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(missing)})
    assert "Nicht importiert: Runde 2: keine Hand für Bob angegeben" in text_of(page)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    said = runner.invoke(args=["standings", str(path)])
    assert said.exit_code == 1
    assert "round 1: Bob's hand must be 0 points or more (got -5)" in said.stderr
    # The API answers the German reader with the engine's own words: no sentence of ours.
    english = client.get(f"/api/v1/games/{game}").get_json()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert client.get(f"/api/v1/games/{game}").get_json() == english


@pytest.mark.parametrize(
    ("raw", "message_id"),
    [({"went_out": "Ann", "hands": {"Bob": 5}, "drops": [""]}, "names.blank"),
     ({"went_out": "Ann", "hands": {"Bob": -1}}, "hand.negative")],
)  # fmt: skip
def test_a_rounds_refusal_keeps_its_message_id(raw, message_id):
    """parse_round once re-raised a refusal with its English only: a page could not say
    it in its reader's language."""
    with pytest.raises(RecordError) as refused:
        parse_round(raw, number=2, variant="vegas", card_codes=frozenset({"K"}))
    assert refused.value.message_id == message_id and refused.value.round == 2


def test_a_gin_hand_reads_in_german(client):
    keeper = reading(client, "de")
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "gin", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Ann": 4, "Bob": 20}, how="knock").status_code == 302
    sheet = text_of(client.get(f"/games/{game}"))
    assert "Gin-Rommé" in sheet and "Hand 2" in sheet and "Boxen" in sheet
    assert "K hat geklopft und die Hand gewonnen" in sheet  # the legend's mark
    assert "Klopfen: mit 10 oder weniger; Unterbieten +" in sheet  # the table rules
    absent(sheet, [*SHEET, "Boxes", "knocked and won the hand", "Knock:"])


def test_a_texas_round_reads_in_hindi(client):
    keeper = reading(client, "hi")
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "texas", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 15}).status_code == 302
    sheet = text_of(client.get(f"/games/{game}"))
    assert "टेक्सास रमी" in sheet and "तिक्की" in sheet  # round 1's row: Threes
    assert "चौकी जोकर" in sheet and "राउंड 2" in sheet  # the banner: Fours wild
    assert "जोकर: चौकी, जोकर, दुक्की" in sheet  # what is wild, in the table's words
    absent(sheet, [*SHEET, "Threes", "Fours wild", "Wild: fours", "deuces"])
