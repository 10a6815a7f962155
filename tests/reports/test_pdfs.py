"""The PDFs themselves: rendered for real by WeasyPrint, read back with poppler's tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.reports import (
    LocalFetcher,
    blank_sheet_pdf,
    game_sheet_pdf,
    night_summary_pdf,
)
from scorekeeper.reports.pdf import STATIC, html_to_pdf
from scorekeeper.rules import CONTRACTS, Standings, load_game, parse_night
from tests import samples

from .pdftools import PAGE_SIZES, fonts_of, page_count, page_size, squash, text_of

WritePdf = Callable[[bytes], Path]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TEXAS_ROWS = [
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
]
BLANK_SETTINGS = {
    "vegas": {"buy_in": 200, "max_score": 150},
    "texas": {"ante": 100, "per_round": 25},
    "rummy": {"buy_in": 500, "target_score": 250},
    "multiplayer": {},
    "dummy": {"buy_in": 300},
}
# What each blank sheet must say about its settings, besides the rows.
BLANK_FACTS = {
    "vegas": [
        "Max score 150",
        "Buy-in $2.00",
        "1st 70% / 2nd 30%",
        "Joker 25",
        "Wild 25",
        "Re-buys",
    ],
    "texas": ["Ante $1.00", "takes $0.25 from the pot", "Joker 50", "×2", "×3"],
    "rummy": ["Buy-in $5.00", "first to 250", "winner takes all", "J Q K 10"],
    "multiplayer": ["first to 100", "scores double"],
    "dummy": ["Buy-in $3.00", "A 15", "3–9 5", "Joker 50", "twos and jokers"],
}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("variant", list(BLANK_SETTINGS))
def test_blank_sheet(variant: str, paper: str, pdf_file: WritePdf) -> None:
    pdf = blank_sheet_pdf(
        variant,
        PLAYERS,
        BLANK_SETTINGS[variant],
        title="Game 2",
        night_name="Friday night",
        date="2026-11-22",
        paper=paper,
    )
    path = pdf_file(pdf)
    assert page_count(path) == 1
    assert page_size(path) == PAGE_SIZES[paper]
    text = text_of(path)
    flat = squash(text)
    assert "FRIDAY NIGHT · 2026-11-22" in text
    assert "Game 2" in text
    header = next(line for line in text.splitlines() if "Ann" in line)
    assert header.split()[-4:] == PLAYERS
    for fact in BLANK_FACTS[variant]:
        assert fact in flat, fact
    lines = [line.split() for line in text.splitlines()]
    if variant == "texas":
        labels = [words[:2] for words in lines if words and words[0] in TEXAS_ROWS]
        assert labels == [
            [rank, str(cards)] for rank, cards in zip(TEXAS_ROWS, range(3, 14), strict=True)
        ]
    elif variant == "dummy":
        for number, contract in enumerate(CONTRACTS, 1):
            assert f"{number} {contract}" in flat or contract.split()[-1] in flat
        assert "two 3-of-a-kind" in flat and "one run of 10" in flat
    else:
        numbers = [int(words[0]) for words in lines if len(words) == 1 and words[0].isdigit()]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 20
    assert "Total" in text
    assert "Page 1 of 1" in text


def test_blank_sheet_with_long_names_stays_on_one_page(pdf_file: WritePdf) -> None:
    names = [
        "Alexandra Montgomery-Smythe",
        "Bartholomew Fitzwilliam",
        "Cy",
        "Dee",
        "Evangeline Rutherford",
        "Fay",
        "Gus",
        "Hal",
        "Ivy",
        "Jo",
    ]
    for variant in ("vegas", "texas", "dummy"):
        path = pdf_file(
            blank_sheet_pdf(
                variant, names, {}, title="", night_name=None, date=None, paper="Letter"
            )
        )
        assert page_count(path) == 1, variant


GAMES: dict[str, tuple[Callable[[], dict[str, object]], list[str]]] = {
    # variant: (record, what the filled sheet must show)
    "vegas": (
        samples.vegas_game,
        [
            "Finished after 4 rounds. Winner: Ann.",
            "R⁺⁴⁵ 50",
            "✗⁺⁵⁵ 105",
            "Total 40 105 129",
            "Re-buys 0 1 0",
            "Bob expired at 105 and dropped out",
            "$5.60",
            "$2.40",
            "-$4.00",
            "+$3.60",
            "$8.00 paid out in full",
            "7♣",
            "Q♥",
            "Joker",
        ],
    ),
    "texas": (
        samples.texas_game,
        [
            "Finished after 11 rounds. Winner: Bob.",
            "Threes 3 Ann",
            "Jacks 11 ×2",
            "Kings 13 ×3",
            "Total 121 65 93",
            "$1.50 paid out in full",
            "4 × going out $0.40",
            "payout $0.40",
        ],
    ),
    "rummy": (
        samples.rummy_game,
        [
            "Finished after 2 rounds. Winner: Ann.",
            "Total 100 0 0",
            "$9.00",
            "+$6.00",
        ],
    ),
    "multiplayer": (
        samples.multiplayer_game,
        [
            "Finished after 3 rounds. Winner: Dee.",
            "★!⁺⁹⁰ 90",
            "Total 110 12",
            "went rummy",
        ],
    ),
    "dummy": (
        samples.dummy_game,
        [
            "Finished after 12 rounds. Winner: Ann.",
            "★✓12",
            "Contract done 7",
            "all twelve contracts laid",
            "on contract 7",
            "laid down contract n",
        ],
    ),
}


@pytest.mark.parametrize("variant", list(GAMES))
def test_filled_sheet(variant: str, pdf_file: WritePdf) -> None:
    record, expected = GAMES[variant]
    standings = load_game(record())
    path = pdf_file(
        game_sheet_pdf(
            standings, title="Game 3", night_name="Friday night", date="2026-11-22", paper="A4"
        )
    )
    assert page_count(path) == 1
    text = text_of(path)
    flat = squash(text)
    header = next(
        line
        for line in text.splitlines()
        if line.split()[-1:] == [standings.players[-1].name] and "Deals" in line
    )
    assert header.split()[-len(standings.players) :] == [p.name for p in standings.players]
    for phrase in expected:
        assert phrase in flat, phrase
    assert "Game 3 · " + standings.variant.title in flat


def test_filled_sheet_of_a_game_in_progress(pdf_file: WritePdf) -> None:
    standings = load_game(samples.texas_game(5))
    path = pdf_file(
        game_sheet_pdf(standings, title="Texas Rummy", night_name=None, date=None, paper="Letter")
    )
    assert page_size(path) == PAGE_SIZES["Letter"]
    flat = squash(text_of(path))
    assert "In progress after 5 rounds. Next: round 6, Eights wild, 8 cards; Cy deals" in flat
    assert "Eights 8 Cy next round: Ann starts" in flat
    assert "Standing now" in flat
    assert "holds $1.00, not paid out yet" in flat
    assert "Texas Rummy · Texas Rummy" not in flat


@pytest.mark.slow
def test_long_game_spans_pages_with_the_names_on_each(
    long_vegas: Standings, pdf_file: WritePdf
) -> None:
    path = pdf_file(
        game_sheet_pdf(
            long_vegas, title="Game 1", night_name="Long night", date="2026-11-22", paper="A4"
        )
    )
    pages = page_count(path)
    assert pages >= 2
    names = [p.name for p in long_vegas.players]
    rounds_seen: list[int] = []
    for page in range(1, pages + 1):
        text = text_of(path, page)
        header = next(line for line in text.splitlines() if "Deals" in line)
        assert header.split()[-len(names) :] == names, page
        assert f"Page {page} of {pages}" in text
        assert "Long night · 2026-11-22 · Game 1 · Vegas Rummy" in text
        rounds_seen += [
            int(line.split()[0])
            for line in text.splitlines()
            if line.split() and line.split()[0].isdigit() and len(line.split()) > len(names)
        ]
    # Every round once, in order, and the next round after them.
    assert rounds_seen == list(range(1, 61))
    flat = squash(text_of(path))
    assert "In progress after 60 rounds" in flat
    assert f"61 {long_vegas.next_round.dealer} next round: " in flat  # type: ignore[union-attr]
    assert "dropped out" in flat and "joined for" in flat


@pytest.mark.slow
def test_long_game_on_letter(long_vegas: Standings, pdf_file: WritePdf) -> None:
    path = pdf_file(
        game_sheet_pdf(long_vegas, title="Game 1", night_name=None, date=None, paper="Letter")
    )
    assert page_size(path) == PAGE_SIZES["Letter"]
    assert page_count(path) >= 2


def test_many_players_turn_the_sheet_landscape(pdf_file: WritePdf) -> None:
    standings = load_game(samples.long_vegas(players=12, rounds=8))
    path = pdf_file(game_sheet_pdf(standings, title="", night_name=None, date=None, paper="A4"))
    width, height = page_size(path)
    assert width > height
    assert "Lu" in text_of(path)


def test_night_summary(pdf_file: WritePdf) -> None:
    currency, games = parse_night(samples.night())
    titled = [(f"Game {i}", g) for i, g in enumerate(games, 1)]
    path = pdf_file(night_summary_pdf("Friday night", "2026-11-22", currency, titled, "A4"))
    assert page_count(path) == 1
    flat = squash(text_of(path))
    for phrase in (
        "FRIDAY NIGHT · 2026-11-22",
        "Payout summary",
        "Game 1 · Vegas Rummy",
        "Ann wins $3.60, Cy wins $0.40.",
        "Bob $4.00 $0.00 -$4.00 buy-in $2.00, re-buy $2.00",
        "Game 2 · Rummy",
        "Ann $3.00 $9.00 +$6.00",
        "Game 3 · Texas Rummy",
        "In progress after 5 rounds: not settled",
        "Ann +$9.60 receives $9.60",
        "Cy -$2.60 pays $2.60",
        "Bob -$7.00 pays $7.00",
        "Bob pays Ann $7.00",
        "Cy pays Ann $2.60",
        "Not settled: Game 3, in progress after 5 rounds (its pot of $1.00 is left out).",
    ):
        assert phrase in flat, phrase


def test_fonts_are_embedded_and_the_print_css_applies(vegas: Standings, pdf_file: WritePdf) -> None:
    fetcher = LocalFetcher()
    path = pdf_file(
        game_sheet_pdf(vegas, title="", night_name=None, date=None, paper="A4", fetcher=fetcher)
    )
    fonts = fonts_of(path)
    assert fonts and all(emb == "yes" for _, emb in fonts), fonts
    names = {name.split("+")[-1] for name, _ in fonts}
    assert {"DejaVu-Sans", "DejaVu-Sans-Bold", "DejaVu-Sans-Mono"} <= names
    assert (STATIC / "print" / "sheet.css").as_uri() in fetcher.asked


HOSTILE = '<img src="http://example.com/x.png">'


def test_markup_in_names_is_text_and_nothing_is_fetched(pdf_file: WritePdf) -> None:
    record = samples.vegas_game()
    record["players"] = ["Ann", HOSTILE, "Cy"]
    record["rounds"] = [{"went_out": "Ann", "hands": {HOSTILE: 12, "Cy": 30}}]
    standings = load_game(record)
    fetchers = [LocalFetcher() for _ in range(3)]
    docs = [
        game_sheet_pdf(
            standings, title=HOSTILE, night_name=HOSTILE, date=None, paper="A4", fetcher=fetchers[0]
        ),
        blank_sheet_pdf(
            "vegas",
            ["Ann", HOSTILE],
            {},
            title=HOSTILE,
            night_name=None,
            date=None,
            paper="A4",
            fetcher=fetchers[1],
        ),
        night_summary_pdf(HOSTILE, None, "USD", [(HOSTILE, standings)], "A4", fetcher=fetchers[2]),
    ]
    for fetcher, pdf in zip(fetchers, docs, strict=True):
        assert fetcher.asked, "the print CSS is fetched through the fetcher"
        assert fetcher.network_urls == []
        assert not any("example.com" in url for url in fetcher.asked)
        assert b"/Subtype /Image" not in pdf
        # The name is printed as it was typed.
        assert 'src="http://example.com/x.png">' in text_of(pdf_file(pdf))


def test_the_fetcher_refuses_the_network_and_files_outside_static(pdf_file: WritePdf) -> None:
    fetcher = LocalFetcher()
    html = (
        '<p>x</p><img src="http://example.com/x.png"><img src="https://example.com/y.png">'
        '<img src="file:///etc/hostname">'
    )
    pdf = html_to_pdf(html, fetcher=fetcher)
    assert b"/Subtype /Image" not in pdf
    assert "http://example.com/x.png" in fetcher.network_urls
    assert "https://example.com/y.png" in fetcher.network_urls
    for url in (
        "http://127.0.0.1:9/",
        "ftp://example.com/a",
        "file:///etc/hostname",
        (STATIC / ".." / "pyproject.toml").as_uri(),
    ):
        with pytest.raises(ValueError, match="only local files"):
            fetcher.fetch(url)
    response = fetcher.fetch((STATIC / "print" / "sheet.css").as_uri())
    try:
        assert b"@page" in response.read()
    finally:
        response.close()
