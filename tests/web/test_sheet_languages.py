"""Issue 33, the sheets and the times a keeper reads: the printed sheets the app serves
(the blank sheet's rules summary, the filled sheet's re-buys row and chart line), the
score chart on the page and the history's times speak the reader's language, and the
English keeps its own words."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from babel.dates import format_skeleton
from flask.testing import FlaskClient

from tests.reports.pdftools import squash, text_of
from tests.web.keeper import text_of as page_text
from tests.web.test_game_languages import reading, vegas


def pdf_text(client: FlaskClient, url: str, tmp_path: Path) -> str:
    response = client.get(url)
    assert response.status_code == 200 and response.data.startswith(b"%PDF-")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.data)
    return squash(text_of(path))


def test_a_german_keepers_sheets_and_chart(client: FlaskClient, tmp_path: Path) -> None:
    keeper = reading(client, "de")
    _, game = vegas(keeper)
    blank = pdf_text(client, f"/games/{game}/blank.pdf", tmp_path)
    assert "Bei 100 oder mehr hast du überzogen: für $2.00 nachkaufen" in blank
    assert "Nachkäufe" in blank and "Höchstpunktzahl 100" in blank
    assert "At 100 or more" not in blank and "Re-buys" not in blank and "Max score" not in blank
    filled = pdf_text(client, f"/games/{game}/sheet.pdf", tmp_path)
    assert "Nachkäufe" in filled and "Höchstpunktzahl: 100" in filled  # the chart's line
    assert "Re-buys" not in filled and "Max score" not in filled
    sheet = page_text(client.get(f"/games/{game}"))
    assert "Höchstpunktzahl: 100" in sheet and "Max score" not in sheet  # the chart on the page


def test_the_history_writes_its_month_in_the_readers_language(client: FlaskClient) -> None:
    keeper = reading(client, "de")
    _, game = vegas(keeper)
    now = datetime.now(UTC)
    history = page_text(client.get(f"/games/{game}/history"))
    german = format_skeleton("MMMd", now, tzinfo=UTC, locale="de")  # "28. Nov."
    assert german in history, history
    assert now.strftime("%d %b ") not in history  # the English "28 Nov"


def test_the_history_in_english_reads_as_before(client: FlaskClient) -> None:
    keeper = reading(client, "en")
    _, game = vegas(keeper)
    now = datetime.now(UTC)
    history = page_text(client.get(f"/games/{game}/history"))
    assert now.strftime("%d %b ") in history
