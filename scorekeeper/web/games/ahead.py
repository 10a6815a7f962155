"""The rounds after the next one, as their banner would say them, for the phone to show
while rounds it typed offline wait to be sent (static/js/offline.js): the round being
entered, not the last one the server saw. Drawn into the sheet's banner and the round form
as data (``rounds_ahead``), so the phone needs no server to work them out.

Each is what the banner of that round will say if nobody joins, drops out or is dropped
in between (the deal passes clockwise among the players in the game): the same
``variant.display`` words the server draws, from the same engine calls."""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

from ...rules import Standings, table
from .blueprint import bp
from .words import words_text

AHEAD = 12  # rounds a phone may type offline before the banner stops following


@bp.app_template_global()
def rounds_ahead(s: Standings) -> Markup:
    """The next ``AHEAD`` rounds' banners as JSON (for a ``data-`` attribute): number,
    the banner's parts (its head first), who deals and starts, the notes under it."""
    settings, display = s.record.settings, s.variant.display
    return _attr(
        [
            {
                "number": ahead.number,
                "banner": [words_text(w) for w in display.banner_said(ahead, settings)],
                "dealer": ahead.dealer,
                "starts": ahead.starts,
                "notes": [words_text(w) for w in display.banner_notes_said(ahead, settings)],
            }
            for ahead in table.rounds_ahead(s, AHEAD)
        ]
    )


def _attr(value: Any) -> Markup:
    """JSON safe inside a double-quoted attribute."""
    text = json.dumps(value, ensure_ascii=False)
    return Markup(text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;"))
