"""JSON API: ``GET /api/v1/games/<id>`` returns the record and its standings (owner only)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import services

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _error(status: int, message: str) -> tuple[Response, int]:
    return jsonify({"error": message}), status


@bp.get("/games/<id:game_id>")
def game(game_id: int) -> Response | tuple[Response, int]:
    if not current_user.is_authenticated:
        return _error(401, "log in to read your games")
    found = services.owned_game(game_id, current_user)
    if found is None:
        return _error(404, "no such game among yours")
    standings = services.standings_for(found)
    return jsonify({"record": found.record_json(), "standings": standings.to_json()})
