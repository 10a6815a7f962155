"""What round.js (the round form: sums, the card counter, the flipped card) says, in the
reader's language: its table of ``web/script_words.py``. The flipped card's sentences are
the server's own (``web/games/round_form.py``), so the two say the same."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

ROUND: dict[str, object] = {
    "pad_done": _l("Done"),
    "pad_next": _l("Next"),
    "card_points": _l("%(code)s (%(points)s points)"),
    "add_suit": _l(
        "Add the suit to %(rank)s: %(rank)sC, %(rank)sD, %(rank)sH or %(rank)sS "
        "(or JK for a joker)."
    ),
    "flipped_card": _l(
        "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."
    ),
}
