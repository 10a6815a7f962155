"""The engine's smaller promises: names, join terms, the banner with joiners, pot lines."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RecordError, load_game


def record(*players: str) -> dict:
    return {"format": "scorekeeper-game/1", "variant": "rummy", "players": list(players)}


@pytest.mark.parametrize("name", ["Ann\u202eoB", "\u2066Bob\u2069", "Cy\u202d"])
def test_names_with_text_direction_overrides_are_refused(name):
    with pytest.raises(RecordError, match="text-direction control characters"):
        load_game(record("Dee", name))


def test_names_are_trimmed_and_inner_spaces_squeezed():
    standings = load_game(record("  Ann   Marie ", "Bob"))
    assert [p.name for p in standings.players] == ["Ann Marie", "Bob"]


def test_the_banner_of_a_round_with_a_late_joiner_names_the_dealer_the_replay_will():
    """Cy (last seat) dealt round 1; Dee joins at round 2 in the seat after Cy, so the deal
    passes to her, and Ann starts. The preview and the replay agree."""
    base = {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"buy_in": 100},
        "players": ["Ann", "Bob", "Cy"],
        "first_dealer": "Cy",
        "rounds": [{"went_out": "Ann", "hands": {"Bob": 10, "Cy": 20}}],
    }
    before = load_game(base)
    assert before.next_round.dealer == "Ann"  # without the joiner
    preview = before.upcoming(["Dee"])
    assert (preview.dealer, preview.starts) == ("Dee", "Ann")
    played = load_game(
        {
            **base,
            "rounds": [
                *base["rounds"],
                {"went_out": "Bob", "hands": {"Ann": 5, "Cy": 5, "Dee": 5}, "joins": ["Dee"]},
            ],
        }
    )
    assert played.rounds[1].dealer == "Dee"


def test_join_terms_shown_before_a_join_are_what_the_replay_charges():
    """Bob has expired twice (the reference player, total 40): a newcomer pays 2 x $1.00
    and starts at 40, and recording the join charges exactly that."""
    rounds = [
        {"went_out": "Ann", "hands": {"Bob": 100, "Cy": 40}},  # Bob expires: reset to 40
        {"went_out": "Ann", "hands": {"Bob": 60, "Cy": 0}},  # Bob 100 again: reset to 40
    ]
    base = {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"buy_in": 100},
        "players": ["Ann", "Bob", "Cy"],
        "rounds": rounds,
    }
    before = load_game(base)
    assert before.player("Bob").expiries == 2
    assert before.join_terms() == (2 * 100, 40)
    joined = load_game(
        {
            **base,
            "rounds": [
                *rounds,
                {"went_out": "Ann", "hands": {"Bob": 0, "Cy": 0, "Dee": 0}, "joins": ["Dee"]},
            ],
        }
    )
    [entry] = [e for e in joined.pot.entries if e.kind == "join"]
    assert (entry.player, -entry.amount) == ("Dee", 200)
    assert joined.rounds[2].totals["Dee"] == 40


def test_pot_paid_in_and_paid_out_per_player_texas():
    """Two players ante 50 cents each; Ann goes out twice and takes two dimes."""
    s = load_game(
        {
            "format": "scorekeeper-game/1",
            "variant": "texas",
            "players": ["Ann", "Bob"],
            "rounds": [{"went_out": "Ann", "hands": {"Bob": 5}}] * 2,
        }
    )
    assert (s.pot.paid_in_by("Ann"), s.pot.paid_out_to("Ann")) == (50, 2 * 10)
    assert (s.pot.paid_in_by("Bob"), s.pot.paid_out_to("Bob")) == (50, 0)
    assert s.pot.total == 100 - 20


@pytest.mark.parametrize(("players", "decks"), [(10, 3), (11, 4), (13, 4), (14, 5), (20, 6)])
def test_texas_deck_advice_beyond_ten_players_keeps_three_decks_per_ten(players, decks):
    """RULES.md stops at 7-10 players: three decks + 6 jokers. Beyond, the app keeps the
    same cards per player: ceil(players * 3 / 10) decks, two jokers each."""
    from scorekeeper.rules import get_variant

    texas = get_variant("texas")
    advice = texas.deck_advice(players, texas.default_settings())
    assert (advice.decks, advice.jokers) == (decks, 2 * decks)
