"""The rounds after the next one, as their banner would say them, for the phone to show
while rounds it typed offline wait to be sent (static/js/offline.js): the round being
entered, not the last one the server saw. Drawn into the sheet's banner and the round form
as data (``rounds_ahead``), so the phone needs no server to work them out.

Each is what the banner of that round will say if nobody joins, drops out or is dropped
in between (the deal passes clockwise among the players in the game): the same
``variant.display`` words the server draws, from the same engine calls."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from ...rules import Standings
from .blueprint import bp

AHEAD = 12  # rounds a phone may type offline before the banner stops following


@bp.app_template_global()
def rounds_ahead(s: Standings) -> Markup:
    """The next ``AHEAD`` rounds' banners as JSON (for a ``data-`` attribute): number,
    the banner's parts (its head first), who deals and starts, the notes under it."""
    nr = s.next_round
    if nr is None:
        return _attr([])
    active = [p.name for p in sorted(s.players, key=lambda p: p.seat) if p.in_contention]
    if nr.dealer not in active or len(active) < 2:
        return _attr([])
    settings, display, variant = s.record.settings, s.variant.display, s.variant
    first = active.index(nr.dealer)
    out: list[dict[str, Any]] = []
    last = _last_round(s)
    for k in range(AHEAD):
        number = nr.number + k
        if last is not None and number > last:
            break  # the game ends before this one
        ahead = replace(
            nr,
            number=number,
            dealer=active[(first + k) % len(active)],
            starts=active[(first + k + 1) % len(active)],
            cards_per_player=variant.cards_per_player(number, len(active), settings),
            wild=variant.wild(number),
            multiplier=variant.multiplier(number),
            label=variant.round_label(number),
        )
        out.append(
            {
                "number": number,
                "banner": display.banner(ahead, settings),
                "dealer": ahead.dealer,
                "starts": ahead.starts,
                "notes": display.banner_notes(ahead, settings),
            }
        )
    return _attr(out)


def _last_round(s: Standings) -> int | None:
    """The last round of a game of a fixed number of rounds (Texas's 11, Contract's
    deals, Rummy played to a number of deals), else None."""
    deals = getattr(s.variant, "deals", None)
    if callable(deals):
        return int(deals(s.record.settings))
    fixed = getattr(s.record.settings, "deals", None) or getattr(s.variant, "ROUNDS", None)
    return int(fixed) if fixed else None


def _attr(value: Any) -> Markup:
    """JSON safe inside a double-quoted attribute."""
    text = json.dumps(value, ensure_ascii=False)
    return Markup(text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;"))
