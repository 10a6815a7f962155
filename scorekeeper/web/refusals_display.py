"""The catalog's side of the game display's words (``rules/said_display.py``, the same
ids): the round form's, the printed sheet's notes, what is wild and the help page's
readings, with ``%(name)s`` placeholders where the engine says ``{name}``. Merged into
``refusals.ENGINE`` by one line."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp

DISPLAY = {
    "marker.drop": _lp("Pool hand marker", "Drop"),
    "marker.middle_drop": _lp("Pool hand marker", "Middle"),
    "marker.full_count": _lp("Pool hand marker", "Full"),
    "marker.wrong_show": _lp("Pool hand marker", "Wrong show"),
    "round.who.went_out": _l("Who went out? Then each hand"),
    "round.who.knocked": _l("Who knocked? Then both deadwoods"),
    "round.out.went_out": _l("went out"),
    "round.out.knocked": _l("knocked"),
    "round.nobody.went_out": _lp("round form choice", "Nobody"),
    "round.nobody.knocked": _l("Nobody: a wash"),
    "round.tap_who.went_out": _l("Tap who went out."),
    "round.tap_who.knocked": _l("Tap who knocked."),
    "round.tap_who_or_nobody.went_out": _l("Tap who went out (or Nobody)."),
    "round.tap_who_or_nobody.knocked": _l("Tap who knocked (or Nobody)."),
    "round.how.knocked": _l("How? (not asked when nobody knocked)"),
    "round.tap_how.knocked": _l("Tap how %(name)s knocked: knock, gin, big gin."),
    "how.knock": _l("Knock"),
    "how.gin": _l("Gin"),
    "how.big_gin": _l("Big gin"),
    "round.card_hint.vegas": _l("K 7 W — W is the flipped wild card"),
    "round.card_hint.pool": _l("K 7 JK — JK and the deal's wild rank count 0"),
    "round.contract": _l("Laid down contract %(contract)s: %(what)s"),
    "round.contract_laid": _l("Laid down contract"),
    "note.on_contract": _l("on contract %(contract)s"),
    "note.all_contracts": _l("all twelve contracts laid"),
    "rule.wild.none": _l("none"),
    "rule.wild.jokers": _l("jokers"),
    "rule.wild.dummy": _l("twos and jokers"),
    "rule.wild.texas": _l(
        "twos, jokers and the round's rank (Threes in round 1 ... Kings in round 11); the "
        "round's rank counts 20 in hand"
    ),
    "rule.wild.vegas": _l(
        "the card flipped after the deal, every copy of it (a joker flipped: only jokers); "
        "it counts 25 in hand"
    ),
    "rule.wild.pool": _l(
        "printed jokers and every card of the deal's cut rank; both count 0 in hand"
    ),
    "help.contract.deals": _l(
        "<strong>Contract Rummy</strong> plays the seven contracts of RULES.md in order, one "
        "a deal, whatever each player laid down: two sets; a set and a run; two runs; three "
        "sets; two sets and a run; a set and two runs; three runs (going out all at once, no "
        "discard). Liverpool is the same game with six deals. A set is three or more cards "
        "of one rank, a run four or more in suit sequence; jokers are wild."
    ),
    "help.contract.scoring": _l(
        "<strong>Contract Rummy scoring:</strong> whoever goes out scores 0; every other "
        "hand counts 2 to 9 at face value, tens and picture cards 10, aces and jokers as set "
        "(15 and 25 by default). A deal nobody goes out of is allowed: every hand counts. "
        "The lowest total after the last deal wins; a tie shares the place."
    ),
    "help.dummy.end": _l(
        "<strong>Dummy end:</strong> the game ends after the round in which someone lays "
        "down contract 12; among those, the lowest total wins. Whoever goes out has laid "
        "down their contract that round: the app ticks it for them."
    ),
    "help.gin.scoring": _l(
        "<strong>Gin Rummy scoring:</strong> exactly two players. A knock (deadwood 1 to 10 "
        "by default) scores the knocker the difference in deadwood; if the defender has as "
        "little or less after laying off, that is an <em>undercut</em> (a tie is an "
        "undercut) and the defender scores the difference plus 25. Gin (no deadwood) scores "
        "25 plus the defender's whole deadwood, big gin (all 11 cards melded) 31 plus it. A "
        "wash (nobody knocked) scores nothing. Whoever scored a hand won it (the defender on "
        "an undercut)."
    ),
    "help.gin.end": _l(
        "<strong>Gin Rummy end:</strong> the game ends after the hand in which a total "
        "reaches 100. The winner adds the game bonus (100), each player 25 a hand won (the "
        "boxes); if the loser won no hand, the winner's hand points are doubled first (the "
        "shutout). The stake is paid on the margin, the winner's final score minus the "
        "loser's. How the app reads what the rules leave open: should the boxes put the "
        "loser's final score above the winner's, the final scores decide and the higher one "
        "is paid the difference; equal final scores pay nothing and share any buy-in. A "
        "knock with 0 deadwood is refused (that is gin), as is gin or big gin with any "
        "deadwood. With an undercut bonus of 0, a tie still wins the defender the hand (a "
        "box) for 0 points. A wash is saved with both deadwoods or with none. Gin takes no "
        "handicaps: both start at 0."
    ),
    "help.pool.scoring": _l(
        "<strong>Pool Rummy scoring:</strong> 13 cards each; a card is cut after the deal "
        "and its rank is wild for that deal, printed jokers too. Whoever shows scores 0. "
        "Every other hand counts A K Q J 10 as 10, 2 to 9 at face value, jokers and the "
        "deal's wild rank 0, but never more than the full count (a hand counted at 95 scores "
        "80 in a 101 pool). Instead of a count a hand may be marked: Drop (before drawing, "
        "20 in a 101 pool), Middle (a middle drop, 40), Full (gave up with everything "
        "counted, 80) or Wrong show (declared an invalid show, 80). A total at the pool or "
        "more is out."
    ),
    "help.pool.rejoin": _l(
        "<strong>Pool Rummy rejoin:</strong> a player out may rejoin before the next deal "
        "only while nobody still in has more than the rejoin limit (79 in a 101 pool); they "
        "come back at the highest total still in plus 1 and pay the buy-in again into the "
        "pot. The app asks 'Rejoin or out?' for each player who goes out (out is chosen "
        "until you say rejoin, as paying again is theirs to decide); when rejoining is not "
        "allowed it says who is over the limit. When only one player is left in, the game is "
        "over at once: nobody rejoins, the last one in takes the pot. Correcting a deal to "
        "add or take off a rejoin works while no later deal holds that player's hands."
    ),
    "help.pool.split": _l(
        "<strong>Pool Rummy split:</strong> between deals, the players still in may agree to "
        "split the pot (Split the pot on the sheet shows every share before you confirm): "
        "equally, or by drops left, the first drops each could still take and stay in. If "
        "nobody has a drop left the split is equal. Shares are rounded down to the cent and "
        "the cents left over go to the lowest total (the earliest seat on a tie). A split "
        "needs at least one deal played, and Undo takes it back like a deal."
    ),
    "help.pool.places": _l(
        "<strong>Pool Rummy places:</strong> the players still in (or sharing a split) by "
        "total, then the players out, the later out first; players out in the same deal by "
        "their totals, lower first. A player who rejoined is placed by their last time out."
    ),
    "help.texas.dimes": _l(
        "<strong>Texas dimes</strong> are paid to whoever goes out only while the pot still "
        "holds a full one. Round 11's dime is paid before the lowest total takes the rest; a "
        "tie splits it."
    ),
    "help.vegas.rebuy": _l(
        "<strong>Vegas re-buy</strong> is the default when someone expires; you mark a drop "
        "explicitly. Everyone who expires in the same round resets to the same total: the "
        "highest total among those still in who did not expire. A drop can be undone: "
        "correcting that round to a re-buy keeps the player in, so the app asks the hands "
        "they had in each later round and saves the correction and those rounds together. "
        "The other way, correcting a re-buy to a drop takes that player's hands off the "
        "later rounds (shown first, saved on Confirm); if they went out in a later round, "
        "correct that round first."
    ),
    "help.vegas.final": _l(
        "<strong>Vegas final round:</strong> the win check comes first. When only one player "
        "is left under the max, the game is over: nobody re-buys or drops that round, and "
        "the others are ranked by their final totals."
    ),
    "help.vegas.join": _l(
        "<strong>Vegas late join:</strong> a newcomer pays the buy-in times the most "
        "expiries of anyone still in, but at least one buy-in, and starts at that player's "
        "total (with no expiries yet: the highest total). A dropped player who comes back "
        "pays again as a newcomer; what they paid before stays in the pot. A newcomer sits "
        "where they sit: the keeper says after whom (the last seat unless told), every seat "
        "after theirs moves one on, and the deal passes clockwise as usual, so a newcomer "
        "seated after this round's dealer deals the next. A returning player keeps their own "
        "seat. On the sheet the newcomer's column comes last, as on paper."
    ),
    "help.vegas.flipped": _l(
        "<strong>Vegas flipped card:</strong> only the flipped card itself is wild (every "
        "copy of it when several decks are used); write it as <code>W</code> in a counted "
        "hand. Other cards of the same rank count their face value."
    ),
    "help.vegas.ranking": _l(
        "<strong>Vegas ranking:</strong> the winner, then the players still in by total, "
        "then dropped players (who are not paid), the latest to drop first."
    ),
}
