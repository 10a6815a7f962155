"""What the documents show, before any rendering: the context built from the engine."""

from __future__ import annotations

import pytest

from scorekeeper.reports import night_summary_context, night_summary_text
from scorekeeper.reports.blank import blank_sheet_context
from scorekeeper.reports.common import card_values_text, fit_page, settings_facts
from scorekeeper.reports.filled import game_sheet_context
from scorekeeper.rules import RecordError, Standings, get_variant, load_game, parse_night, settle
from tests import samples

VARIANTS = ["vegas", "texas", "rummy", "multiplayer", "dummy"]


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("vegas", "A 1 · 2–10 face value · J Q K 10 · Joker 25 · Wild 25"),
        ("texas", "A 2 20 · 3–10 face value · J Q K 10 · Joker 50"),
        ("rummy", "A 1 · 2–10 face value · J Q K 10"),
        ("multiplayer", "A 1 · 2–10 face value · J Q K 10"),
        ("dummy", "A 15 · 2 50 · 3–9 5 · 10 J Q K 10 · Joker 50"),
    ],
)
def test_card_values_follow_the_engine(variant: str, expected: str) -> None:
    v = get_variant(variant)
    assert card_values_text(v, v.default_settings()) == expected


def test_ace_points_setting_shows_in_the_legend() -> None:
    v = get_variant("vegas")
    assert card_values_text(v, v.parse_settings({"ace_points": 13})).startswith("A 13 · ")


def facts(variant: str, settings: dict[str, object], players: int = 4) -> dict[str, str]:
    v = get_variant(variant)
    return {f.label: f.value for f in settings_facts(v, v.parse_settings(settings), players)}


def test_settings_facts_per_variant() -> None:
    vegas = facts("vegas", {"buy_in": 200, "max_score": 150, "meld_strictness": True})
    assert vegas["Max score"] == "150"
    assert vegas["Buy-in"] == "$2.00"
    assert vegas["Pot"] == "1st 70% / 2nd 30%"
    assert vegas["Re-buy"].startswith("$2.00, back to")
    assert vegas["Melds"] == "wild cards stay in melds; one wild card per meld"
    texas = facts("texas", {})
    assert texas["Ante"] == "$0.50"
    assert texas["Going out"] == "takes $0.10 from the pot"
    assert "Buy-in" not in texas
    assert facts("rummy", {"deals": 5})["Deals"] == "5, highest total wins"
    assert facts("rummy", {})["Target"] == "first to 100"
    assert facts("rummy", {}, players=2)["Cards"] == "10 each"
    assert facts("multiplayer", {"buy_in": 500})["Pot"] == "winner takes all"
    assert facts("dummy", {})["Deck"] == "2 decks with 4 jokers"
    assert facts("vegas", {"currency": "EUR", "buy_in": 150})["Buy-in"] == "€1.50"


def test_blank_rows_per_variant() -> None:
    def rows(variant: str) -> list[tuple[str, ...]]:
        sheet = blank_sheet_context(
            variant, ["Ann", "Bob"], {}, title="", night_name=None, date=None, paper="A4"
        )
        return [r.labels for r in sheet.rows]

    texas = rows("texas")
    assert [r[0] for r in texas] == [
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
    assert [r[1] for r in texas] == [str(n) for n in range(3, 14)]
    assert [r[2] for r in texas] == [""] * 8 + ["×2", "×2", "×3"]
    dummy = rows("dummy")
    assert len(dummy) == 12
    assert dummy[0] == ("1", "two 3-of-a-kind") and dummy[11] == ("12", "one run of 10")
    for variant in ("vegas", "rummy", "multiplayer"):
        numbered = rows(variant)
        assert len(numbered) >= 20
        assert [r[0] for r in numbered] == [str(n) for n in range(1, len(numbered) + 1)]


def test_a_blank_sheet_for_many_players_turns_landscape() -> None:
    names = [f"P{i}" for i in range(12)]
    sheet = blank_sheet_context(
        "rummy", names, {}, title="", night_name=None, date=None, paper="Letter"
    )
    assert sheet.page.landscape and sheet.page.size == "Letter landscape"


def test_bad_paper_and_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="A4 or Letter"):
        blank_sheet_context("vegas", ["Ann"], {}, title="", night_name=None, date=None, paper="A3")
    with pytest.raises(RecordError, match="pot_split"):
        blank_sheet_context(
            "vegas", ["Ann"], {"pot_split": [50]}, title="", night_name=None, date=None, paper="A4"
        )


def sheet_lines(standings: Standings) -> list[str]:
    sheet = game_sheet_context(
        standings, title="Game 1", night_name="Friday night", date="2026-11-22", paper="A4"
    )
    return [r.text for r in sheet.rows]


def test_vegas_sheet_rows_carry_marks_and_reset_totals(vegas: Standings) -> None:
    lines = sheet_lines(vegas)
    # Every row is the same number of characters: the columns line up.
    assert len({len(line) for line in lines}) == 1
    r1, r2, r3, r4, total, place, rebuys = lines
    assert r1.split() == ["1", "7♣", "Ann", "★", "0", "⁺⁶⁰", "60", "⁺³⁰", "30"]
    # Round 2: Bob reaches 105 and re-buys, back to 50 (Cy's total).
    assert r2.split() == ["2", "Q♥", "Bob", "★", "0", "R⁺⁴⁵", "50", "⁺²⁰", "50"]
    # Round 3: Bob expires again and drops out; round 4 he is out of the game.
    assert r3.split() == ["3", "Joker", "Cy", "⁺⁴⁰", "40", "✗⁺⁵⁵", "105", "★", "50"]
    assert r4.split() == ["4", "3♠", "Ann", "★", "40", "·", "E⁺⁷⁹", "129"]
    assert total.split() == ["Total", "40", "105", "129"]
    assert place.split() == ["Place", "1st", "3rd", "2nd"]
    assert rebuys.split() == ["Re-buys", "0", "1", "0"]


def test_vegas_sheet_result_and_pot(vegas: Standings) -> None:
    sheet = game_sheet_context(
        vegas, title="Vegas Rummy", night_name=None, date=None, paper="Letter"
    )
    assert sheet.heading.title == "Vegas Rummy" and sheet.heading.subtitle is None
    assert sheet.status == "Finished after 4 rounds. Winner: Ann."
    assert [(p.place, p.name, p.total) for p in sheet.ranking] == [
        ("1st", "Ann", 40),
        ("2nd", "Cy", 129),
        ("3rd", "Bob", 105),
    ]
    bob = sheet.ranking[2]
    assert bob.note == "dropped out in round 3"
    assert bob.money is not None
    assert (bob.money.paid_in, bob.money.paid_out, bob.money.net) == ("$4.00", "$0.00", "-$4.00")
    assert bob.money.paid_in_detail == "buy-in $2.00, re-buy $2.00"
    assert sheet.ranking[0].money.paid_out_detail == "payout $5.60"  # type: ignore[union-attr]
    assert sheet.pot.paid_in == "$8.00" and sheet.pot.paid_out
    assert sheet.events == (
        "Round 3: Bob expired at 105 and dropped out.",
        "Round 4: Cy reached 129 in the last round (no re-buy).",
    )


def test_texas_sheet_labels_rows_by_wild_rank() -> None:
    lines = sheet_lines(load_game(samples.texas_game()))
    assert lines[0].split()[:3] == ["Threes", "3", "Ann"]
    assert lines[8].split()[:4] == ["Jacks", "11", "×2", "Cy"]
    assert lines[10].split()[:4] == ["Kings", "13", "×3", "Bob"]


def test_unfinished_game_shows_the_next_round() -> None:
    standings = load_game(samples.texas_game(5))
    sheet = game_sheet_context(standings, title="", night_name=None, date=None, paper="A4")
    assert sheet.status == (
        "In progress after 5 rounds. Next: round 6, Eights wild, 8 cards; Cy deals, Ann starts."
    )
    nxt = next(r for r in sheet.rows if r.kind == "next")
    assert nxt.text.split()[:3] == ["Eights", "8", "Cy"]
    assert "Ann starts" in nxt.text
    assert sheet.pot.holds == "$1.00" and not sheet.pot.paid_out


def test_handicaps_get_a_start_row() -> None:
    record = samples.vegas_game()
    record["players"] = ["Ann", {"name": "Bob", "handicap": 10}, "Cy"]
    record["rounds"] = record["rounds"][:1]
    lines = sheet_lines(load_game(record))
    assert lines[0].split() == ["Start", "0", "10", "0"]
    assert lines[1].split()[-4:] == ["⁺⁶⁰", "70", "⁺³⁰", "30"]


def test_dummy_and_multiplayer_marks() -> None:
    dummy = sheet_lines(load_game(samples.dummy_game()))
    assert dummy[0].split() == ["1", "Ann", "★✓1", "0", "✓1⁺¹¹", "11"]
    assert dummy[1].split() == ["2", "Bob", "★✓2", "0", "⁺¹²", "23"]
    assert dummy[-1].split() == ["Contract", "done", "7"]
    multi = sheet_lines(load_game(samples.multiplayer_game()))
    assert multi[1].split() == ["2", "Eve", "★!⁺⁹⁰", "90", "12"]


def test_many_players_fit_by_font_then_landscape() -> None:
    assert fit_page("A4", 60).font_pt == 10.0
    narrow = fit_page("A4", 110)
    assert not narrow.landscape and 7 < narrow.font_pt < 8.5
    wide = fit_page("A4", 200)
    assert wide.landscape and wide.font_pt >= 6


def night() -> tuple[str, list[tuple[str, Standings]]]:
    currency, games = parse_night(samples.night())
    return currency, [(f"Game {i}", g) for i, g in enumerate(games, 1)]


def test_night_summary_settles_finished_games_only() -> None:
    currency, games = night()
    finished = [s for _, s in games if s.finished]
    summary = night_summary_context(
        "Friday night", "2026-11-22", currency, games, settle(finished, currency)
    )
    assert summary.transfers == ("Bob pays Ann $7.00", "Cy pays Ann $2.60")
    assert [(p.name, p.net, p.words) for p in summary.people] == [
        ("Ann", "+$9.60", "receives $9.60"),
        ("Cy", "-$2.60", "pays $2.60"),
        ("Bob", "-$7.00", "pays $7.00"),
    ]
    assert summary.settled_games == 2
    assert [g.finished for g in summary.games] == [True, True, False]
    assert summary.games[0].heading == "Game 1 · Vegas Rummy"
    assert summary.unsettled == (
        "Game 3, in progress after 5 rounds (its pot of $1.00 is left out)",
    )


def test_night_summary_text_for_a_group_chat() -> None:
    """Who pays whom first (issue 11), then the nets, then the games with money."""
    currency, games = night()
    text = night_summary_text("Friday night", "2026-11-22", currency, games)
    assert (
        text
        == """\
Payout summary: Friday night · 2026-11-22

Settle up:
- Bob pays Ann $7.00
- Cy pays Ann $2.60

Net for the night:
- Ann +$9.60
- Cy -$2.60
- Bob -$7.00

Game 1 · Vegas Rummy: Ann wins $3.60, Cy wins $0.40.
- Ann: paid in $2.00, received $5.60, net +$3.60
- Bob: paid in $4.00, received $0.00, net -$4.00
- Cy: paid in $2.00, received $2.40, net +$0.40

Game 2 · Rummy: Ann wins $6.00.
- Ann: paid in $3.00, received $9.00, net +$6.00
- Bob: paid in $3.00, received $0.00, net -$3.00
- Cy: paid in $3.00, received $0.00, net -$3.00

Game 3 · Texas Rummy: In progress after 5 rounds: not settled. The pot holds $1.00.

Not settled: Game 3, in progress after 5 rounds (its pot of $1.00 is left out).
"""
    )


def test_the_chat_text_leaves_out_games_with_no_money() -> None:
    free = load_game({"variant": "rummy", "players": ["Ann", "Bob"], "settings": {"deals": 1},
                      "rounds": [{"went_out": "Ann", "hands": {"Bob": 5}}]})  # fmt: skip
    text = night_summary_text("Tuesday", None, "USD", [("Free game", free)])
    assert "Free game" not in text
    assert "nobody owes anybody anything" in text


def test_a_night_with_nothing_finished_has_nothing_to_settle() -> None:
    standings = load_game(samples.texas_game(2))
    text = night_summary_text("Tuesday", None, "USD", [("Game 1", standings)])
    assert "No finished game yet: nothing to settle." in text
    assert text.startswith("Payout summary: Tuesday\n")
