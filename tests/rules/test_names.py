"""Player names: the same person however typed, and never disguised on the sheet."""

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
