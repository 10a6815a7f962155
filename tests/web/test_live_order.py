"""Issue 36, point 2: on the night's live view (phone and TV alike: one page, the TV is a
class on it) the game in play comes first while one is running: its banner, grid and
totals, then who pays whom, then the finished games; once no game is running, money first
as before."""

from __future__ import annotations

from flask import Flask

from tests.web.keeper import Keeper, text_of
from tests.web.test_live import finished_vegas, import_game, keeper, show_players

__all__ = ["keeper"]  # the fixture, used by name


def test_the_running_game_comes_first_and_money_once_none_runs(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"], name="Friday")
    import_game(keeper, night, finished_vegas(["Ann", "Bob", "Cy"]))
    link = show_players(keeper, f"/nights/{night}/live")
    phone = app.test_client()

    # No game running: money first, then the finished game.
    text = text_of(phone.get(link))
    assert text.index("Who pays whom") < text.index("Vegas Rummy")

    # A game running: its banner, grid and totals first, then money, then the finished.
    playing = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(playing, "Bob", {"Ann": 9}).status_code == 302
    for url in (link, f"{link}?tv=1"):
        html = phone.get(url).get_data(as_text=True)
        text = text_of(phone.get(url))
        running = text.index("Rummy · after 1 deal")
        assert running < text.index("Leading: Bob with 9") < text.index("Who pays whom"), url
        assert text.index("Who pays whom") < text.index("Vegas Rummy Ann wins"), url
        assert html.index('class="grid') < html.index('id="settle-h"'), url
        assert html.index('class="totals') < html.index('id="settle-h"'), url
