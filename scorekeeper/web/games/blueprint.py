"""The games blueprint, shared by the modules that hold its routes, and the one way a
route finds the game it is about (the logged-in keeper's own, or 404)."""

from __future__ import annotations

from flask import Blueprint, abort
from flask_login import current_user

from ... import services
from ...models import Game

bp = Blueprint("games", __name__)


def game_or_404(game_id: int, *, deleted: bool = False) -> Game:
    game = services.load_game(game_id, current_user, deleted=deleted)
    if game is None:
        abort(404)
    return game
