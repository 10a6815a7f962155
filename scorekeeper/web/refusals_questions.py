"""The catalog's side of what the keeper is asked before a change to a game is saved
(``rules/said_questions.py``, the same ids): the sentences scripts/i18n extracts and each
language translates, with ``%(name)s`` placeholders where the engine says ``{name}``.
Merged into ``refusals.ENGINE`` by one line."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

QUESTIONS = {
    "question.and": _l("%(first)s and %(last)s"),
    "question.comma": _l("%(first)s, %(next)s"),
    "question.expired": _l("Expired this round"),
    "question.reached": _l("%(name)s reached %(points)s."),
    "question.rebuy_ask_price": _l("Re-buy for %(price)s (back to %(reset)s) or drop out?"),
    "question.rebuy_ask": _l("Re-buy (back to %(reset)s) or drop out?"),
    "question.rebuy_price": _l("Re-buy %(price)s, back to %(reset)s"),
    "question.rebuy": _l("Re-buy, back to %(reset)s"),
    "question.drop_out": _l("Drop out"),
    "question.played_on": _l("%(names)s played on"),
    "question.later_hint": _l(
        "Re-buying instead of dropping out keeps them in the game, so every later round "
        "needs the hand they had: points, or cards such as K 7 W."
    ),
    "question.later_hand": _l("%(name)s in round %(number)s"),
    "question.give_hand": _l("Round %(number)s: give %(player)s's hand."),
    "question.bad_hand": _l("Round %(number)s: %(player)s: %(problem)s"),
    "question.no_longer_plays": _l("%(name)s no longer plays"),
    "question.no_longer_play": _l("%(names)s no longer play"),
    "question.gone_hint": _l(
        "Dropping out here takes these hands off the later rounds; every round after this "
        "one is recomputed. Confirm and save to go ahead."
    ),
    "question.gone_hand": _l("Round %(number)s: %(name)s's hand of %(hand)s"),
    "question.out_legend": _l("Out this round"),
    "question.nobody_rejoins": _l("Nobody may rejoin: %(why)s."),
    "question.out_no_rejoin": _l("Out: no rejoin, %(why)s."),
    "question.rejoin_ask_price": _l("Rejoin for %(price)s (back at %(back)s) or out?"),
    "question.rejoin_ask": _l("Rejoin (back at %(back)s) or out?"),
    "question.rejoin_price": _l("Rejoin %(price)s, back at %(back)s"),
    "question.rejoin": _l("Rejoin, back at %(back)s"),
    "question.out": _l("Out"),
    "question.has_total": _l("%(name)s has %(total)s"),
    "question.above_limit": _l("%(who)s, above %(limit)s"),
    "question.cannot_rejoin": _l("%(name)s cannot rejoin: %(why)s"),
}
