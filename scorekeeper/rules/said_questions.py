"""The words of what the keeper is asked before a change to a game is saved (issue 33):
each line, option, lead and error of ``rules/questions.py`` and Pool's reason for no
rejoin, as a message id and its English (``{name}`` a parameter), merged into
``errors.ENGLISH``; the web layer says them in the reader's language
(``web/refusals_questions.py``, the same ids), the command line and the API this English.

Money arrives as a parameter already written (``price``: ``format_money``), names as
typed, hands as the form writes them ("K 7 W")."""

from __future__ import annotations

QUESTIONS: dict[str, str] = {
    # a list of names or reasons: "Ann and Bob", "Ann, Bob and Cy"
    "question.and": "{first} and {last}",
    "question.comma": "{first}, {next}",
    # Vegas: re-buy or drop out? (RebuyOrDrop)
    "question.expired": "Expired this round",
    "question.reached": "{name} reached {points}.",
    "question.rebuy_ask_price": "Re-buy for {price} (back to {reset}) or drop out?",
    "question.rebuy_ask": "Re-buy (back to {reset}) or drop out?",
    "question.rebuy_price": "Re-buy {price}, back to {reset}",
    "question.rebuy": "Re-buy, back to {reset}",
    "question.drop_out": "Drop out",
    # a correction undoes a drop: the later hands (LaterHandsNeeded)
    "question.played_on": "{names} played on",
    "question.later_hint": (
        "Re-buying instead of dropping out keeps them in the game, so every later round "
        "needs the hand they had: points, or cards such as K 7 W."
    ),
    "question.later_hand": "{name} in round {number}",
    "question.give_hand": "Round {number}: give {player}'s hand.",
    "question.bad_hand": "Round {number}: {player}: {problem}",
    # a correction adds a drop: the later hands go (HandsThatGo)
    "question.no_longer_plays": "{name} no longer plays",
    "question.no_longer_play": "{names} no longer play",
    "question.gone_hint": (
        "Dropping out here takes these hands off the later rounds; every round after "
        "this one is recomputed. Confirm and save to go ahead."
    ),
    "question.gone_hand": "Round {number}: {name}'s hand of {hand}",
    # Pool: rejoin or out? (RejoinOrOut), and why nobody may
    "question.out_legend": "Out this round",
    "question.nobody_rejoins": "Nobody may rejoin: {why}.",
    "question.out_no_rejoin": "Out: no rejoin, {why}.",
    "question.rejoin_ask_price": "Rejoin for {price} (back at {back}) or out?",
    "question.rejoin_ask": "Rejoin (back at {back}) or out?",
    "question.rejoin_price": "Rejoin {price}, back at {back}",
    "question.rejoin": "Rejoin, back at {back}",
    "question.out": "Out",
    "question.has_total": "{name} has {total}",
    "question.above_limit": "{who}, above {limit}",
    "question.cannot_rejoin": "{name} cannot rejoin: {why}",
}
