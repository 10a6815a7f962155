"""The score chart's numbers (reports/chart.py), checked by hand on a small Vegas game, the
variants' declared lines, the SVG the partial draws from them, and the chart on the PDF."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.reports import game_sheet_pdf
from scorekeeper.reports.chart import game_chart, nice_step, player_totals, spread
from scorekeeper.reports.pdf import render_html
from scorekeeper.rules import get_variant, load_game
from scorekeeper.rules.display import ChartLine, in_english

from .pdftools import squash, text_of

SVG = "{http://www.w3.org/2000/svg}"


def small_vegas() -> dict[str, Any]:
    """Max score 50, $1 buy-in. Cy starts with a handicap of 5.

    round 1: Ann out; Bob 20, Cy 10            -> Ann 0, Bob 20, Cy 15
    round 2: Bob out; Ann 30, Cy 40            -> Cy reaches 55: expires, re-buys at 30
                                                  (the highest total still under: Ann 30)
    round 3: Ann out; Bob 40, Cy 5; Bob drops  -> Bob reaches 60 and drops; Cy 35
    round 4: Dee joins (starts at 35, the total of the most expiries still in: Cy's);
             Ann out; Cy 5, Dee 7              -> Ann 30, Cy 40, Dee 42
    """
    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"max_score": 50, "buy_in": 100},
        "players": ["Ann", "Bob", {"name": "Cy", "handicap": 5}],
        "first_dealer": "Ann",
        "rounds": [
            {"went_out": "Ann", "hands": {"Bob": 20, "Cy": 10}},
            {"went_out": "Bob", "hands": {"Ann": 30, "Cy": 40}},
            {"went_out": "Ann", "hands": {"Bob": 40, "Cy": 5}, "drops": ["Bob"]},
            {"went_out": "Ann", "hands": {"Cy": 5, "Dee": 7}, "joins": ["Dee"]},
        ],
    }


def test_running_totals_by_round_worked_by_hand() -> None:
    totals = player_totals(load_game(small_vegas()))
    assert totals == {
        "Ann": [[(0, 0), (1, 0), (2, 30), (3, 30), (4, 30)]],
        "Bob": [[(0, 0), (1, 20), (2, 20), (3, 60)]],  # stops where he dropped out
        "Cy": [[(0, 5), (1, 15), (2, 55), (2, 30), (3, 35), (4, 40)]],  # up to 55, back to 30
        "Dee": [[(3, 35), (4, 42)]],  # from the round before the join, at her start
    }


def test_the_chart_in_its_own_units_worked_by_hand() -> None:
    chart = game_chart(load_game(small_vegas()), uid="c1")
    assert chart is not None
    # y: totals 0..60 (Bob's 60 is the highest), a step of 20; the ticks' widest label is
    # two characters: left = 6 + 2 x 10 x 0.62 = 18.4. The names at the right: "Ann 30" is
    # six characters of 11 units: right = 360 - 8 - 6 x 11 x 0.62 = 311.08.
    assert (chart.width, chart.left, chart.right) == (360, 18.4, 311.1)
    # Four players need less than the least plot height of 150: 10 to 160, +22 for the axis.
    assert (chart.top, chart.bottom, chart.height) == (10.0, 160.0, 182)
    assert [(t.at, t.label) for t in chart.y_ticks] == [
        (160.0, "0"), (110.0, "20"), (60.0, "40"), (10.0, "60"),
    ]  # fmt: skip
    # x: round r at 18.4 + 292.68 r / 4.
    assert [(t.at, t.label) for t in chart.x_ticks] == [
        (18.4, "0"), (91.6, "1"), (164.7, "2"), (237.9, "3"), (311.1, "4"),
    ]  # fmt: skip
    # y(v) = 160 - 150 v / 60: 5 -> 147.5, 15 -> 122.5, 55 -> 22.5, 30 -> 85, 35 -> 72.5.
    ann, bob, cy, dee = chart.series
    assert cy.segments == ("18.4,147.5 91.6,122.5 164.7,22.5 164.7,85 237.9,72.5 311.1,60",)
    assert bob.segments == ("18.4,160 91.6,110 164.7,110 237.9,10",)
    assert dee.segments == ("237.9,72.5 311.1,55",)
    assert [s.final for s in chart.series] == [30, 60, 40, 42]
    assert [s.label for s in chart.series] == ["Ann 30", "Bob 60", "Cy 40", "Dee 42"]
    assert [s.note for s in chart.series] == ["leading", "out of the game", "", ""]
    assert ann.leading and not any(s.leading for s in (bob, cy, dee))
    assert [s.slot for s in chart.series] == [0, 1, 2, 3]
    # The max score, declared by Vegas, at y(50) = 35.
    assert [(r.label, r.value, r.y) for r in chart.lines] == [("Max score", 50, 35.0)]
    assert "Max score: 50." in chart.desc
    assert "Now: Ann 30 (leading), Bob 60 (out of the game), Cy 40, Dee 42." in chart.desc


def test_names_at_the_right_edge_never_overlap() -> None:
    # Cy 40 and Dee 42 want to sit 5 units apart: they are moved 12 apart, in order.
    chart = game_chart(load_game(small_vegas()))
    assert chart is not None
    ys = sorted(s.label_y for s in chart.series)
    assert all(b - a >= 11.8 for a, b in pairwise(ys))
    assert spread([50, 50, 50], 10, 0, 100) == [50, 60, 70]
    assert spread([95, 99, 99], 10, 0, 100) == [80, 90, 100]  # pushed back up from the bottom
    assert spread([30, 10], 10, 0, 100) == [30, 10]  # already apart: unchanged


def test_twenty_tied_players_fit_one_above_the_other() -> None:
    names = [f"P{i:02d}" for i in range(20)]
    record = {
        "format": "scorekeeper-game/1",
        "variant": "dummy",
        "players": names,
        "first_dealer": names[0],
        "rounds": [
            {"went_out": names[0], "hands": dict.fromkeys(names[1:], 0), "contracts": names[:1]}
        ],
    }
    chart = game_chart(load_game(record))
    assert chart is not None
    ys = sorted(s.label_y for s in chart.series)
    assert all(b - a >= 11.8 for a, b in pairwise(ys))
    assert chart.top <= ys[0] and ys[-1] <= chart.bottom + 11
    assert [s.dash for s in chart.series[:8]] == [""] * 8  # colours first, then dashes
    assert chart.series[8].dash and chart.series[8].slot == 0
    assert chart.lines == ()  # Dummy declares no line


def test_nice_steps() -> None:
    assert [nice_step(x) for x in (0, 4, 5, 6, 11, 60, 101, 260, 999)] == [
        1, 1, 1, 2, 5, 20, 50, 100, 200,
    ]  # fmt: skip


def test_no_chart_before_the_first_round() -> None:
    record = {**small_vegas(), "rounds": []}
    assert game_chart(load_game(record)) is None


@pytest.mark.parametrize(
    ("variant", "settings", "lines"),
    [
        ("vegas", {"max_score": 150}, [ChartLine("Max score", 150)]),
        ("rummy", {"target_score": 250}, [ChartLine("Target", 250)]),
        ("rummy", {"deals": 10}, []),
        ("multiplayer", {"target_score": 300}, [ChartLine("Target", 300)]),
        ("texas", {}, []),
        ("dummy", {}, []),
        ("contract", {}, []),
        ("gin", {"target_score": 150}, [ChartLine("Target", 150)]),
        ("pool", {"pool": 61}, [ChartLine("Pool", 61), ChartLine("Rejoin limit", 44)]),
    ],
)
def test_each_variant_declares_its_chart_lines(
    variant: str, settings: dict[str, Any], lines: list[ChartLine]
) -> None:
    v = get_variant(variant)
    said = v.display.chart_lines(v.parse_settings(settings))
    assert [(in_english(line.label), line.value) for line in said] == [
        (line.label, line.value) for line in lines
    ]


def test_the_partial_draws_valid_svg_with_a_title_and_a_description() -> None:
    chart = game_chart(load_game(small_vegas()), uid="c7")
    html = render_html("reports/_chart.html", chart=chart)
    assert "style=" not in html and "<script" not in html
    start, end = html.index('<svg class="chart-svg"'), html.index("</svg>", html.index("<desc"))
    svg = ET.fromstring(html[start : end + len("</svg>")])
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "c7-t c7-d"
    assert svg.find(f"{SVG}title").text == "Score chart: running totals by round"  # type: ignore[union-attr]
    assert "Max score: 50" in (svg.find(f"{SVG}desc").text or "")  # type: ignore[union-attr]
    polylines = svg.findall(f".//{SVG}polyline")
    assert [p.get("points") for p in polylines][2] == (
        "18.4,147.5 91.6,122.5 164.7,22.5 164.7,85 237.9,72.5 311.1,60"
    )
    assert polylines[0].get("stroke-width") == "3"  # the leader's line is the thicker
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert {"Ann 30", "Bob 60", "Cy 40", "Dee 42", "Max score 50"} <= set(labels)
    # The same in words under the drawing (the text a screen reader or a search finds).
    for words in ("Ann: 30 (leading)", "Bob: 60 (out of the game)", "Dee: 42", "Max score: 50"):
        assert words in html, words


def test_the_filled_pdf_shows_the_chart(pdf_file: Callable[[bytes], Path]) -> None:
    standings = load_game(small_vegas())
    path = pdf_file(
        game_sheet_pdf(standings, title="Game 1", night_name="Friday", date=None, paper="A4")
    )
    flat = squash(text_of(path))
    assert "Score chart: running totals by round" in flat
    for words in (
        "Ann: 30 (leading)", "Bob: 60 (out of the game)", "Cy: 40", "Dee: 42", "Max score: 50"
    ):  # fmt: skip
        assert words in flat, words
    assert "Max score 50" in flat  # the label on the line itself, drawn by WeasyPrint


def test_no_chart_on_the_pdf_of_a_game_not_started(pdf_file: Callable[[bytes], Path]) -> None:
    standings = load_game({**small_vegas(), "rounds": []})
    path = pdf_file(game_sheet_pdf(standings, title="", night_name=None, date=None, paper="A4"))
    assert "Score chart" not in text_of(path)


def test_the_words_give_the_final_score_where_bonuses_follow_the_last_hand() -> None:
    """Gin's lines draw the hand points; the final score adds the bonuses after the last
    hand (RULES.md). Hand 1: Bob knocks 2 v 40, 38; hand 2: Bob big gin v 50, 31 + 50 =
    81; Bob 119 in hands, Ann none (a shutout): 119 x 2 + 100 + 2 x 25 = 388."""
    hands = [
        {"went_out": "Bob", "how": "knock", "hands": {"Ann": 40, "Bob": 2}},
        {"went_out": "Bob", "how": "big_gin", "hands": {"Ann": 50, "Bob": 0}},
    ]
    s = load_game(
        {
            "format": "scorekeeper-game/1",
            "variant": "gin",
            "players": ["Ann", "Bob"],
            "rounds": hands,
        }
    )
    chart = game_chart(s)
    assert chart is not None
    assert "Final: Ann 0, Bob 388 (won; the line ends at 119)." in chart.desc
