"""Games: one blueprint, its routes in modules by what they do.

- :mod:`.setup`: choosing a game and starting it (the new-game form);
- :mod:`.sheet`: the score sheet (banner, grid, pot) and its conditional GET;
- :mod:`.round_entry`: entering, correcting and removing rounds, and late joiners;
- :mod:`.history`: the game's changes in words;
- :mod:`.records`: export and import of game records, delete and restore;
- :mod:`.ahead`: the banners of the rounds after the next (for rounds waiting offline);
- :mod:`.agreement`: a game ended by agreement (Pool's split of the pot), shares first;
- :mod:`.words`: the engine's words around a game, in the reader's language.

Each route reads its form, makes one service call and redirects or renders.
"""

from . import (  # noqa: F401  (their routes)
    agreement,
    ahead,
    history,
    records,
    round_entry,
    setup,
    sheet,
    words,
)
from .blueprint import bp, game_or_404

__all__ = ["bp", "game_or_404"]
