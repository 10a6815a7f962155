"""The engine's words around a game, in the reader's language, for the templates: a
``Said`` rendered by the ``said`` filter, and the game's name, description and word for a
round (``game_title``, ``game_description``, ``round_word``) from the variant's ids
(``rules/said_play.py``, translated in ``web/refusals_play.py``)."""

from __future__ import annotations

from typing import Any

from ...rules import get_variant
from ...rules.display import Words
from ...rules.errors import RecordError, Said
from ...rules.variant import Variant
from ..refusals import said_text
from .blueprint import bp


def _variant(game: Any) -> Variant:
    """A variant from what a template holds: the variant, its name, or a game."""
    if isinstance(game, Variant):
        return game
    return get_variant(game if isinstance(game, str) else game.variant)


@bp.app_template_filter("said")
def words_text(value: Words) -> str:
    """One of the engine's sentences in the reader's language; text shown as it is."""
    return said_text(value) if isinstance(value, Said) else value


def detail_text(exc: RecordError) -> str:
    """A refusal's sentence without its round, in the reader's language."""
    return said_text(exc.said) if exc.said is not None else exc.detail


@bp.app_template_global()
def game_title(game: Any) -> str:
    """The game's name ("Vegas Rummy") in the reader's language."""
    return said_text(_variant(game).title_said)


@bp.app_template_global()
def game_description(game: Any) -> str:
    return said_text(_variant(game).description_said)


@bp.app_template_global()
def round_word(game: Any, form: str = "one") -> str:
    """The game's word for a round ("round", "deal", "hand"): ``form`` "one", "many" or
    "head" (at a line's start)."""
    return said_text(_variant(game).display.round_said(form))
