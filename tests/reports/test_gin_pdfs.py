"""Gin Rummy's printed sheets, rendered by WeasyPrint and read back with pdftotext: the
blank sheet's hand and how columns, its footers and note; the filled sheet's hand lines
(who knocked, K G BG U —, both deadwoods, the points), the box tally and, at the end, the
bonus lines, the final scores, the margin and the stake."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.reports import blank_sheet_pdf, game_sheet_pdf
from scorekeeper.rules import load_game

from .pdftools import PAGE_SIZES, page_count, page_size, squash, text_of

WritePdf = Callable[[bytes], Path]


def gin(*rounds: dict, **settings) -> dict:
    return {
        "variant": "gin",
        "settings": settings,
        "players": ["Ann", "Bob"],
        "rounds": list(rounds),
    }


def hand(who: str | None, how: str | None, ann: int, bob: int) -> dict:
    if who is None:
        return {"went_out": None, "hands": {"Ann": ann, "Bob": bob}}
    return {"went_out": who, "how": how, "hands": {"Ann": ann, "Bob": bob}}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_blank_gin_sheet(paper: str, pdf_file: WritePdf) -> None:
    pdf = blank_sheet_pdf(
        "gin",
        ["Ann", "Bob"],
        {"stake": 5, "knock_max": 8},
        title="Gin",
        night_name="Friday night",
        date="2026-11-22",
        paper=paper,
    )
    path = pdf_file(pdf)
    assert page_count(path) == 1 and page_size(path) == PAGE_SIZES[paper]
    flat = squash(text_of(path))
    for phrase in (
        "Hand How Ann Bob",
        "Stake $0.05 a point of margin",
        "Knock with 8 or less; undercut +25",
        "Hand points",
        "Boxes",
        "Box bonus",
        "Final",
        "(K knock, G gin, BG big gin, U undercut, — a wash)",
        "shutout ×2",
    ):
        assert phrase in flat, phrase


def test_filled_gin_sheet_in_play_and_at_the_end(pdf_file: WritePdf) -> None:
    rounds = [
        hand("Ann", "knock", 4, 20),  # Ann 20 - 4 = 16
        hand("Bob", "knock", 6, 6),  # a tie: Ann undercuts, 0 + 25 = 25; Ann 41
        hand(None, None, 30, 12),  # a wash, both deadwoods written
        hand("Bob", "big_gin", 15, 0),  # Bob 31 + 15 = 46
    ]
    playing = load_game(gin(*rounds))
    flat = squash(text_of(pdf_file(game_sheet_pdf(
        playing, title="Gin", night_name=None, date=None, paper="A4"))))  # fmt: skip
    for phrase in ("★K(4)⁺¹⁶ 16 (20) 0", "U(6)⁺²⁵ 41 ★(6) 0", "—(30) 41 —(12) 0",
                   "(15) 41 ★BG(0)⁺⁴⁶ 46", "Boxes 2 1"):  # fmt: skip
        assert phrase in flat, phrase
    assert "Final" not in flat
    # Ann then goes gin v 40: 25 + 40 = 65, Ann 106 ends it. Boxes Ann 3, Bob 1.
    # Final: Ann 106 + 100 + 75 = 281; Bob 46 + 25 = 71. Margin 210, at 2 cents $4.20.
    done = load_game(gin(*rounds, hand("Ann", "gin", 0, 40), stake=2))
    flat = squash(text_of(pdf_file(game_sheet_pdf(
        done, title="Gin", night_name=None, date=None, paper="A4"))))  # fmt: skip
    for phrase in ("Hand points 106 46", "Boxes 3 1", "Game bonus 100 0", "Box bonus 75 25",
                   "Final 281 71", "Margin 210", "Stake +$4.20 -$4.20", "Winner: Ann"):  # fmt: skip
        assert phrase in flat, phrase
    assert "Shutout" not in flat
