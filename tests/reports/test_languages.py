"""The printed documents speak the language they are made in (README "Languages"): a
game sheet and a night's payout summary in German and in Hindi, read back with
pdftotext, say their own words and not the English; the Hindi is drawn in a Devanagari
font that the PDF embeds (the text comes back as Devanagari, not as empty boxes); the
group-chat text and the command line's ``--language`` follow too."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.reports import game_sheet_pdf, night_summary_pdf, night_summary_text
from scorekeeper.reports.words import gettext, speaking
from scorekeeper.rules import Standings, parse_night
from tests import samples
from tests.reports.pdftools import fonts_of, text_of

WritePdf = Callable[[bytes], Path]


def squash(text: str) -> str:
    return " ".join(text.split())


def letters(text: str) -> str:
    """The text's letters only. pdftotext gives Devanagari back with its vowel signs moved
    (the sign of *i* is drawn before its consonant, and read back after the next one) and
    spaces inside words; its consonants and vowels come back in order."""
    return "".join(
        c for c in unicodedata.normalize("NFC", text)
        if not c.isspace() and unicodedata.category(c) not in ("Mn", "Mc")
    )  # fmt: skip


def says(document: str, words: str) -> bool:
    return words in squash(document) or letters(words) in letters(document)


def _night() -> tuple[str, list[tuple[str, Standings]]]:
    currency, games = parse_night(samples.night())
    return currency, [(f"{i}", g) for i, g in enumerate(games, 1)]


#: What each language's sheet and summary must say; the English they must not.
SHEET = {
    "de": ("Endstand", "Sieger", "Bezahlt", "Platz", "Punkteverlauf", "Seite 1 von 1"),
    "hi": ("नतीजा", "विजेता", "जमा किया", "स्थान", "पूरा बँट गया", "पेज 1 / 1"),
}
SUMMARY = {
    "de": ("Abrechnung", "Das Ergebnis jeder Person für den Abend", "bekommt $9.60",
           "Nicht abgerechnet", "Währung"),
    "hi": ("भुगतान का सारांश", "शाम के लिए हर व्यक्ति का नेट", "$9.60 पाएगा",
           "हिसाब नहीं हुआ", "करेंसी"),
}  # fmt: skip


@pytest.mark.parametrize("language", ["de", "hi"])
def test_a_game_sheet_in_the_keepers_language(
    vegas: Standings, pdf_file: WritePdf, language: str
) -> None:
    pdf = game_sheet_pdf(
        vegas, title="", night_name="Friday", date="2026-11-22", paper="A4", language=language
    )
    text = text_of(pdf_file(pdf))
    for words in SHEET[language]:
        assert says(text, words), words
    for english in ("Result", "Winner", "Paid in", "Score chart", "Page 1 of 1"):
        assert english not in squash(text), english


@pytest.mark.parametrize("language", ["de", "hi"])
def test_a_night_summary_in_the_keepers_language(pdf_file: WritePdf, language: str) -> None:
    currency, games = _night()
    pdf = night_summary_pdf("Friday", "2026-11-22", currency, games, "A4", language=language)
    text = text_of(pdf_file(pdf))
    for words in SUMMARY[language]:
        assert says(text, words), words
    for english in ("Payout summary", "receives", "Not settled", "Each person's net"):
        assert english not in squash(text), english


def test_hindi_is_drawn_in_an_embedded_devanagari_font(
    vegas: Standings, pdf_file: WritePdf
) -> None:
    path = pdf_file(game_sheet_pdf(vegas, title="", night_name=None, date=None, language="hi"))
    fonts = dict(fonts_of(path))
    devanagari = [name for name in fonts if "Lohit" in name or "Devanagari" in name]
    assert devanagari and all(fonts[name] == "yes" for name in devanagari), fonts
    text = unicodedata.normalize("NFC", text_of(path))
    assert "नतीजा" in text and "पॉट" in text  # whole words, read back as Devanagari
    # (a word with the vowel sign of *i* may come back without it: pdftotext's reading
    # of a sign drawn before its consonant, not the drawing)
    assert says(text, "विजेता")
    assert "\ufffd" not in text  # no glyph came back as a box


def test_the_group_chat_text_in_german_and_english() -> None:
    currency, games = _night()
    german = night_summary_text("Friday", "2026-11-22", currency, games, language="de")
    assert "Abrechnen:" in german and "Ergebnis des Abends:" in german
    assert "Settle up:" not in german and "Net for the night" not in german
    english = night_summary_text("Friday", "2026-11-22", currency, games)
    assert "Settle up:" in english and "Abrechnen" not in english


def test_the_language_is_only_the_documents_being_made() -> None:
    with speaking("de"):
        assert gettext("Payout summary") == "Abrechnung"
    assert gettext("Payout summary") == "Payout summary"


def test_the_command_line_prints_in_the_language_asked(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    runner = app.test_cli_runner()
    night = tmp_path / "night.json"
    night.write_text(json.dumps(samples.night()), encoding="utf-8")
    hindi, english = tmp_path / "hindi.pdf", tmp_path / "english.pdf"
    result = runner.invoke(args=["pdf", str(night), "--language", "hi", "-o", str(hindi)])
    assert result.exit_code == 0, result.output
    text = text_of(hindi)
    assert says(text, "भुगतान का सारांश") and says(text, "गेम 1")
    assert "Payout summary" not in text
    result = runner.invoke(args=["pdf", str(night), "-o", str(english)])  # English unless asked
    assert result.exit_code == 0, result.output
    assert "Payout summary" in squash(text_of(english))


def test_a_hindi_row_label_keeps_the_grid_in_line(vegas: Standings) -> None:
    """The monospaced font has no Devanagari: a Hindi label is drawn in another font, so
    it is fitted to the characters it was padded for, and the totals stay under their
    columns (an English line stays one run of text)."""
    from scorekeeper.reports.filled import game_sheet_context
    from scorekeeper.reports.pdf import render_game_sheet

    with speaking("hi"):
        sheet = game_sheet_context(vegas, title="", night_name=None, date=None, paper="A4")
        html = render_game_sheet(sheet)
    total = next(r for r in sheet.rows if r.kind == "total")
    (label, fitted), (rest, plain) = total.runs[:2]
    assert (label, fitted, plain) == ("कुल", True, False)
    assert total.text.index(rest) == len(label)  # its columns start where English's do
    assert '<span class="fit" style="width: 1.8062em">कुल</span>' in html
    english = game_sheet_context(vegas, title="", night_name=None, date=None, paper="A4")
    assert all(len(row.runs) == 1 for row in english.rows)
