"""The games blueprint, shared by the modules that hold its routes, and the ways a route
finds the game it is about (the logged-in keeper's own, or 404)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, g, request, session
from flask_login import current_user, login_required

from ... import services
from ...models import TOKEN_MAX, Game
from ...rules.money import use_money_locale

bp = Blueprint("games", __name__)


def game_or_404(
    game_id: int, *, deleted: bool = False, eager: bool = True, owner_only: bool = False
) -> Game:
    """A game of a night the logged-in user keeps (owner or co-keeper; the owner alone
    with ``owner_only``), or 404."""
    stamped: Game | None = g.get("stamped_game")
    if stamped is not None and stamped.id == game_id and not (eager or deleted or owner_only):
        return stamped  # loaded with the stamp, in this transaction (``owned_stamp``)
    game = services.owned_game(
        game_id, current_user, deleted=deleted, eager=eager, owner_only=owner_only
    )
    if game is None:
        abort(404)
    use_money_locale(game.night.locale)
    return game


def owned_stamp(game_id: int) -> services.GameStamp | None:
    """The session's login and the state of its keeper's game, in one query on a
    connection of its own (no ORM session, no ``User`` built): enough for a 304 or a
    cached document; a form sent (POST) reads it in the ORM session it goes on with.
    ``current_user``, when a view asks for it, is then made from the same row
    (``web.load_user``). None when the session holds no login, or the game is not theirs
    or is gone: the caller then takes the ordinary path (the login redirect, a 404),
    which decides what to answer."""
    if "_login_user" in g:  # the user was loaded already in this request
        if not current_user.is_authenticated:
            return None
        return services.game_stamp(game_id, user=current_user)
    token = session.get("_user_id")
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX:
        return None
    if request.method == "POST":  # it goes on to change the game, in the ORM session
        found = services.game_stamp_loading(game_id, token)
        stamp, g.stamped_game = found if found is not None else (None, None)
    else:
        stamp = services.game_stamp(game_id, token=token)
    if stamp is not None:
        g.stamp_login = (token, stamp)
    return stamp


def stamp_or_404(game_id: int) -> services.GameStamp:
    """The stamp ``with_stamp`` read, or (logged in by the remember cookie, when it read
    none) the same by the loaded user, in a second query; 404 when the game is not the
    user's or is gone."""
    stamp: services.GameStamp | None = g.stamp
    if stamp is None:
        stamp = services.game_stamp(game_id, user=current_user)
    if stamp is None:
        abort(404)
    use_money_locale(stamp.locale)
    return stamp


def with_stamp(view: Callable[..., Any]) -> Callable[..., Any]:
    """A login-required game route that first reads ``g.stamp`` (see ``owned_stamp``):
    the cheap answers (a 304, a cached page or PDF) need nothing more from the database.
    A stamp found by the session's token is itself the proof of a live login, so the view
    runs at once; without one, Flask-Login decides (the remember cookie, the redirect to
    log in), and the view reads the stamp by the user it loaded."""
    guarded = login_required(view)

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g.stamp = owned_stamp(kwargs["game_id"])
        if g.stamp is not None:
            use_money_locale(g.stamp.locale)
            return view(*args, **kwargs)
        return guarded(*args, **kwargs)

    return wrapper
