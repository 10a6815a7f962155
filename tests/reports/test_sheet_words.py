"""Issue 33, the printed sheets' own words: the rules summary under a blank sheet, the
heads of the columns that label a round, the rows under the grid (Vegas' re-buys, Pool's
drops left, Gin's boxes and bonuses), the lines across the score chart and the table
rules in the heading speak the keeper's language. Each sheet is rendered in German and in
Hindi, read back with pdftotext, and checked for the translated words and for the
absence of the English; the command line's English stays word for word."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.reports import blank_sheet_pdf, game_sheet_pdf
from scorekeeper.reports.words import said, speaking
from scorekeeper.rules import get_variant, load_game
from scorekeeper.rules.errors import ENGLISH, Said
from tests import samples
from tests.reports.pdftools import text_of
from tests.reports.test_languages import says, squash

WritePdf = Callable[[bytes], Path]


def pool_game() -> dict[str, Any]:
    """Deal 2: Dee reaches 101 and rejoins for $5.00 at 80 (Cy's 79 + 1)."""

    def deal(**hands: Any) -> dict[str, Any]:
        return {"went_out": "Ann", "hands": hands}

    return {
        "variant": "pool",
        "settings": {"buy_in": 500},
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "rounds": [
            deal(Bob=30, Cy=79, Dee="full_count"),
            {**deal(Bob=10, Cy=0, Dee=21), "rejoins": ["Dee"]},
        ],
    }


def gin_game() -> dict[str, Any]:
    """Ann knocks, is undercut, a wash, Bob's big gin, Ann's gin ends it at 106."""

    def hand(who: str | None, how: str | None, ann: int, bob: int) -> dict[str, Any]:
        if who is None:
            return {"went_out": None, "hands": {"Ann": ann, "Bob": bob}}
        return {"went_out": who, "how": how, "hands": {"Ann": ann, "Bob": bob}}

    rounds = [
        hand("Ann", "knock", 4, 20), hand("Bob", "knock", 6, 6), hand(None, None, 30, 12),
        hand("Bob", "big_gin", 15, 0), hand("Ann", "gin", 0, 40),
    ]  # fmt: skip
    return {"variant": "gin", "settings": {"stake": 2}, "players": ["Ann", "Bob"], "rounds": rounds}


def contract_game() -> dict[str, Any]:
    rounds = [
        {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 20}},
        {"went_out": "Bob", "hands": {"Ann": 5, "Cy": 20}},
    ]
    return {
        "variant": "contract",
        "settings": {},
        "players": ["Ann", "Bob", "Cy"],
        "rounds": rounds,
    }


#: (variant, settings) of each blank sheet; what German and Hindi must say; the English gone.
BLANK: dict[str, tuple[dict[str, Any], dict[str, tuple[str, ...]], tuple[str, ...]]] = {
    "vegas": (
        {"buy_in": 200},
        {
            "de": ("Bei 100 oder mehr hast du überzogen: für $2.00 nachkaufen", "Nachkäufe",
                   "Summe", "Joker", "Höchstpunktzahl"),
            "hi": ("100 या उससे ज़्यादा पर सीमा पार", "$2.00 में री-बाय", "कुल", "अधिकतम अंक"),
        },
        ("At 100 or more you expire", "Re-buys", "Total", "Wild ", "Max score", "Round"),
    ),
    "pool": (
        {},
        {
            "de": ("Wer rausgeht, schreibt 0", "Raus bei 101", "Verbleibende", "Ausstiege",
                   "Runde"),
            "hi": ("जो शो करे उसे 0", "101 पर बाहर", "बचे ड्रॉप", "डील"),
        },
        ("Whoever shows scores 0", "Drops left", "Total", "Deal", "rejoin while"),
    ),
    "gin": (
        {"knock_max": 8},
        {
            "de": ("Klopfen mit 8 oder weniger", "Schneider ×2", "Handpunkte", "Boxen",
                   "Box-Bonus", "Wie"),
            "hi": ("8 या कम पर नॉक", "शटआउट ×2", "हाथों के अंक", "बॉक्स", "कैसे"),
        },
        ("Each hand: who knocked", "Hand points", "Boxes", "Box bonus", "How", "Knock with"),
    ),
    "texas": (
        {},
        {"de": ("Kreise die Punkte", "Dreien", "Karten"), "hi": ("गोला बनाएँ", "पत्ते")},
        ("Circle the score", "Cards"),  # "Threes": the rows' own (the wild rule says it too)
    ),
    "dummy": (
        {},
        {"de": ("zwei 3er-Sätze", "eine 10er-Folge", "Kontrakt"),
         "hi": ("3 के दो सेट", "10 का एक सीक्वेंस")},
        ("two 3-of-a-kind", "one run of 10", "Write each round's points"),
    ),
    "contract": (
        {},
        {"de": ("Kontrakt", "Asse 15"), "hi": ("कॉन्ट्रैक्ट", "इक्के 15")},
        ("Whoever goes out scores 0", "two sets", "Deal", "Cards"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("language", ["de", "hi"])
@pytest.mark.parametrize("variant", sorted(BLANK))
def test_a_blank_sheet_in_the_keepers_language(
    variant: str, language: str, pdf_file: WritePdf
) -> None:
    settings, wanted, english = BLANK[variant]
    pdf = blank_sheet_pdf(variant, ["Ann", "Bob", "Cy"], settings, title="", language=language)
    text = text_of(pdf_file(pdf))
    for words in wanted[language]:
        assert says(text, words), words
    for words in english:
        assert words not in squash(text), words


#: The filled sheets: what German and Hindi must say (footers, chart lines, heading).
FILLED: dict[str, tuple[Callable[[], dict[str, Any]], dict[str, tuple[str, ...]], tuple[str, ...]]]
FILLED = {
    "vegas": (
        samples.vegas_game,
        {
            "de": ("Nachkäufe", "Höchstpunktzahl 100", "Höchstpunktzahl: 100", "Einsatz $2.00",
                   "Joker", "Platz 1. 3. 2.", "Nr."),
            "hi": ("री-बाय", "अधिकतम अंक: 100", "एंट्री $2.00", "पहला", "दूसरा"),
        },
        ("Re-buys", "Max score", "Buy-in", "expired and re-bought", "Rd ", "1st", "2nd"),
    ),
    "pool": (
        pool_game,
        {
            "de": ("Verbleibende Ausstiege", "Grenze zum Wiedereinstieg: 79", "Pool: 101"),
            "hi": ("बचे ड्रॉप", "पूल: 101"),
        },
        ("Drops left", "Rejoin limit", "again to rejoin", "Deal 3"),
    ),
    "gin": (
        gin_game,
        {
            "de": ("Boxen", "Handpunkte", "Ziel: 100", "geklopft"),
            "hi": ("बॉक्स", "लक्ष्य: 100"),
        },
        ("Boxes", "Target", "Hand points", "knocked and won"),
    ),
    "contract": (
        contract_game,
        {"de": ("Satz+Folge", "2 Folgen", "Kontrakt"), "hi": ("सेट+सीक्वेंस", "कॉन्ट्रैक्ट")},
        ("set+run", "2 runs", "Contract Cards"),
    ),
    "texas": (  # a row's label as long as its word: Sechsen, Siebenen
        lambda: samples.texas_game(7),
        {"de": ("Sechsen 6", "Siebenen 7", "Runde Karten"), "hi": ("राउंड पत्ते",)},
        ("Sixes", "Sevens", "Round Cards", "Sechs…"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("language", ["de", "hi"])
@pytest.mark.parametrize("variant", sorted(FILLED))
def test_a_filled_sheet_in_the_keepers_language(
    variant: str, language: str, pdf_file: WritePdf
) -> None:
    record, wanted, english = FILLED[variant]
    pdf = game_sheet_pdf(load_game(record()), title="", language=language)
    text = text_of(pdf_file(pdf))
    for words in wanted[language]:
        assert says(text, words), words
    for words in english:
        assert words not in squash(text), words


def test_the_english_sheets_keep_their_words(pdf_file: WritePdf) -> None:
    vegas = squash(text_of(pdf_file(game_sheet_pdf(load_game(samples.vegas_game()), title=""))))
    for words in ("Re-buys", "Max score 100", "Max score: 100", "Rd Wild", "Place 1st 3rd 2nd"):
        assert words in vegas, words
    blank = squash(text_of(pdf_file(blank_sheet_pdf("pool", ["Ann", "Bob"], {}, title=""))))
    for words in ("Whoever shows scores 0", "Drops left", "Deal Wild"):
        assert words in blank, words


def test_the_command_line_prints_a_sheet_in_the_language_asked(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    runner = app.test_cli_runner()
    game = tmp_path / "game.json"
    game.write_text(json.dumps(samples.vegas_game()), encoding="utf-8")
    german = tmp_path / "german.pdf"
    result = runner.invoke(args=["pdf", str(game), "--language", "de", "-o", str(german)])
    assert result.exit_code == 0, result.output
    text = squash(text_of(german))
    assert "Nachkäufe" in text and "Höchstpunktzahl" in text and "Re-buys" not in text


def _example(message_id: str) -> Said:
    names = set(re.findall(r"\{(\w+)\}", ENGLISH[message_id]))
    return Said(message_id, {n: 7 for n in names})


@pytest.mark.parametrize("language", ["de", "hi", "fr"])
def test_the_sheets_say_the_engine_as_the_pages_do(language: str) -> None:
    """reports/words.py ``said`` finds each engine sentence in the catalog as
    web/refusals.py does (the same msgid, the same context)."""
    from scorekeeper.web.refusals import said_text

    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    with app.test_request_context(headers={"Accept-Language": language}):
        page = {m: said_text(_example(m)) for m in ENGLISH}
    with speaking(language):
        paper = {m: said(_example(m)) for m in ENGLISH}
    assert paper == page
    assert paper["sheet.column.wild"] != "Wild" and paper["sheet.row.rebuys"] != "Re-buys"


def test_english_is_the_engines_own() -> None:
    with speaking("en"):
        assert said(_example("sheet.note.pool")) == _example("sheet.note.pool").english


def test_the_chart_lines_and_notes_are_message_ids() -> None:
    """The engine says its sheet words as sentences (the pages and the PDFs translate
    them); their English is what the command line prints."""
    vegas = get_variant("vegas")
    settings = vegas.parse_settings({"buy_in": 200})
    note = vegas.display.blank_note(settings)
    assert isinstance(note, Said) and note.id == "sheet.note.vegas_for"
    assert note.english.startswith("At 100 or more you expire: re-buy for $2.00 (back to")
    (line,) = vegas.display.chart_lines(settings)
    assert isinstance(line.label, Said) and line.label.english == "Max score"


def test_paper_draws_an_indic_chart_line_by_its_value() -> None:
    """WeasyPrint's SVG text does not shape Devanagari: on paper a Hindi line's label is
    left to the list under the chart (tested above: अधिकतम अंक: 100), the line says 100."""
    from scorekeeper.reports.chart import Rule

    assert Rule("अधिकतम अंक", 100, 0.0).paper_text == "100"
    assert Rule("Höchstpunktzahl", 100, 0.0).paper_text == "Höchstpunktzahl 100"
    assert Rule("Max score", 100, 0.0).paper_text == Rule("Max score", 100, 0.0).text


def test_the_contracts_said_are_the_games_own() -> None:
    from scorekeeper.rules.games.contract import SHORT_CONTRACTS
    from scorekeeper.rules.games.dummy import CONTRACTS

    assert [ENGLISH[f"sheet.dummy.{i}"] for i in range(1, 13)] == list(CONTRACTS)
    assert [ENGLISH[f"sheet.short.{i}"] for i in range(1, 8)] == list(SHORT_CONTRACTS)


def test_the_summary_says_who_pays_whom_in_the_keepers_language() -> None:
    from scorekeeper.reports import night_summary_text
    from scorekeeper.rules import parse_night

    currency, games = parse_night(samples.night())
    night = [(f"{i}", g) for i, g in enumerate(games, 1)]
    german = night_summary_text("Friday", "2026-11-22", currency, night, language="de")
    assert "Bob zahlt Ann $7.00" in german and "pays" not in german
    english = night_summary_text("Friday", "2026-11-22", currency, night)
    assert "Bob pays Ann $7.00" in english
