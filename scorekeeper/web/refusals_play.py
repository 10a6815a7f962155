"""The catalog's side of the engine's words around a game (``rules/said_play.py``, the
same ids): the sentences scripts/i18n extracts and each language translates, with
``%(name)s`` placeholders where the engine says ``{name}``. Merged into
``refusals.ENGINE`` by one line."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _lp

PLAY = {
    "variant.contract.title": _l("Contract Rummy"),
    "variant.contract.description": _l(
        "Seven deals, each with a contract to lay down before going out: two sets, a "
        "set and a run, ... three runs. Penalty points for what is left; low total "
        "wins."
    ),
    "variant.dummy.title": _l("Dummy Rummy"),
    "variant.dummy.description": _l(
        "Twelve contracts to lay down in order, each at your own pace; penalty points "
        "for what is left. First through contract 12 with the lowest total wins."
    ),
    "variant.gin.title": _l("Gin Rummy"),
    "variant.gin.description": _l(
        "Two players, hands to 100: knock, gin or big gin, undercuts, and the game, box "
        "and shutout bonuses at the end. The stake is paid on the margin."
    ),
    "variant.multiplayer.title": _l("Multiplayer Rummy"),
    "variant.multiplayer.description": _l(
        "Rummy for 2 to 4: going out scores the others' hands, double when you go rummy "
        "in one turn. First to the target wins."
    ),
    "variant.pool.title": _l("Pool Rummy"),
    "variant.pool.description": _l(
        "13 cards, low is good. Reach the pool (101, 201 or 61) and you are out; rejoin "
        "for the entry fee while nobody is close. Last one in wins the pot, or the "
        "table splits it."
    ),
    "variant.rummy.title": _l("Rummy"),
    "variant.rummy.description": _l(
        "Classic rummy: whoever goes out scores what is left in everyone else's hand. "
        "High total wins, first to the target or after a set number of deals."
    ),
    "variant.texas.title": _l("Texas Rummy"),
    "variant.texas.description": _l(
        "11 rounds of 3 to 13 cards, a new wild rank each round, the last three rounds "
        "doubled and tripled. Low total wins; going out earns a dime."
    ),
    "variant.vegas.title": _l("Vegas Rummy"),
    "variant.vegas.description": _l(
        "Penalty points, low is good. Reach the max score and you expire: re-buy to "
        "stay in. Last one under the max wins the pot."
    ),
    "word.round.one": _l("round"),
    "word.round.many": _l("rounds"),
    "word.round.head": _l("Round"),
    "word.deal.one": _l("deal"),
    "word.deal.many": _l("deals"),
    "word.deal.head": _l("Deal"),
    "word.hand.one": _l("hand"),
    "word.hand.many": _l("hands"),
    "word.hand.head": _l("Hand"),
    "hand.negative": _l("%(player)s's hand must be 0 points or more (got %(value)s)"),
    "hand.too_many_points": _l(
        "%(player)s's hand of %(value)s points is more than any hand can hold (at most %(most)s)"
    ),
    "hand.too_many_cards": _l("%(player)s's hand lists %(count)s cards (at most %(most)s)"),
    "hand.unknown_card": _l("%(player)s's hand has an unknown card %(card)s (use %(cards)s)"),
    "hand.not_a_hand": _l(
        "%(player)s's hand must be a whole number of points or a list of cards (got %(value)s)"
    ),
    "hand.not_a_hand_or_marker": _l(
        "%(player)s's hand must be a whole number of points or a list of cards, or one "
        "of %(markers)s (got %(value)s)"
    ),
    "hand.twice": _l("two hands are given for %(player)s"),
    "typed.empty": _l("give the points left in the hand (0 if none)"),
    "typed.too_many_points": _l("%(total)s points is more than any hand can hold"),
    "typed.negative": _l("points cannot be negative"),
    "typed.far_too_many_points": _l(
        "that is more points than any hand can hold (at most %(most)s)"
    ),
    "typed.not_a_hand": _l(
        "%(typed)s is not points or a card: type 12, 10+7, or cards like %(examples)s"
    ),
    "typed.not_a_card": _l("%(card)s is not a card of this game: tap or type %(cards)s"),
    "pot.winner_takes_all": _l("winner takes all"),
    "pot.place.1": _l("1st %(percent)s"),
    "pot.place.2": _l("2nd %(percent)s"),
    "pot.place.3": _l("3rd %(percent)s"),
    "pot.place": _l("%(place)sth %(percent)s"),
    "pot.then": _l("%(first)s / %(rest)s"),
    "mark.went_out": _l("went out"),
    "mark.going_rummy": _l("went rummy: scores double"),
    "mark.join": _l("joined this round (fee and starting total below)"),
    "mark.rebuy": _l(
        "expired and re-bought; the total shown is where they start again (on screen, "
        "after the total reached and an arrow)"
    ),
    "mark.rebuy.for": _l(
        "expired and re-bought for %(buy_in)s; the total shown is where they start "
        "again (on screen, after the total reached and an arrow)"
    ),
    "mark.drop": _l("expired and dropped out"),
    "mark.expire": _l("expired in the last round (no re-buy)"),
    "mark.contract": _l("laid down contract n this round"),
    "mark.dime": _l("took %(per_round)s from the pot for going out"),
    "mark.knock": _l("knocked and won the hand"),
    "mark.undercut": _l("undercut the knocker (equal or lower deadwood)"),
    "mark.gin": _l("went gin (no deadwood)"),
    "mark.big_gin": _l("went big gin (all 11 cards melded)"),
    "mark.wash": _l("a wash: nobody knocked, nobody scores"),
    "mark.deadwood": _l("deadwood left in hand"),
    "mark.first_drop": _l("first drop (before drawing)"),
    "mark.middle_drop": _l("middle drop (after drawing)"),
    "mark.full_count": _l("full count (gave up, everything counted)"),
    "mark.wrong_show": _l("wrong show (an invalid show)"),
    "mark.eliminate": _l("reached the pool: out"),
    "mark.rejoin": _l(
        "out, then rejoined; the total shown is where they came back (on screen, after "
        "the total reached and an arrow)"
    ),
    "mark.rejoin.for": _l(
        "out, then rejoined for %(buy_in)s; the total shown is where they came back (on "
        "screen, after the total reached and an arrow)"
    ),
    "mark.split": _l("shared the pot by agreement (their share beside it)"),
    "mark.went_out.knocked": _l("went out (knocked)"),
    "mark.went_out.dime": _l("went out (takes %(per_round)s from the pot)"),
    "wild.A": _l("aces"),
    "wild.2": _l("deuces"),
    "wild.3": _l("threes"),
    "wild.4": _l("fours"),
    "wild.5": _l("fives"),
    "wild.6": _l("sixes"),
    "wild.7": _l("sevens"),
    "wild.8": _l("eights"),
    "wild.9": _l("nines"),
    "wild.10": _l("tens"),
    "wild.J": _l("jacks"),
    "wild.Q": _l("queens"),
    "wild.K": _l("kings"),
    "wild.JK": _l("jokers"),
    "wild.and": _l("%(first)s, %(rest)s"),
    "rank.A": _l("Aces"),
    "rank.2": _l("Twos"),
    "rank.3": _l("Threes"),
    "rank.4": _l("Fours"),
    "rank.5": _l("Fives"),
    "rank.6": _l("Sixes"),
    "rank.7": _l("Sevens"),
    "rank.8": _l("Eights"),
    "rank.9": _l("Nines"),
    "rank.10": _l("Tens"),
    "rank.J": _l("Jacks"),
    "rank.Q": _l("Queens"),
    "rank.K": _l("Kings"),
    "rank.JK": _l("Jokers"),
    "contract.1": _l("two sets"),
    "contract.2": _l("one set and one run"),
    "contract.3": _l("two runs"),
    "contract.4": _l("three sets"),
    "contract.5": _l("two sets and one run"),
    "contract.6": _l("one set and two runs"),
    "contract.7": _l("three runs"),
    "banner.numbered": _l("%(word)s %(number)s"),
    "banner.cards": _l("%(count)s cards"),
    "banner.wild": _l("Wild: %(wilds)s"),
    "banner.rank_wild": _l("%(rank)s wild"),
    "banner.deal_of": _l("Deal %(number)s of %(deals)s"),
    "banner.contract_last": _l("Go out all at once, with no discard."),
    "banner.contracts": _l("Contracts: %(on)s"),
    "banner.vegas_flip": _l("Flip a card after the deal: it is wild this round."),
    "banner.pool_cut": _l("Cut a card after the deal: its rank is wild this deal, jokers too."),
    "warn.players": _l("%(game)s is best with %(low)s to %(high)s players; you have %(players)s."),
    "warn.texas_dry": _l(
        "The pot holds %(antes)s of antes (%(players)s × %(ante)s) but pays "
        "%(per_round)s to whoever goes out in each of %(rounds)s rounds (%(paid)s): it "
        "runs dry after %(dry)s rounds, and the winner may get nothing."
    ),
    "deck.one": _l("1 deck"),
    "deck.many": _l("%(count)s decks"),
    "deck.no_jokers": _l("%(decks)s, no jokers"),
    "deck.with_joker": _l("%(decks)s with %(count)s joker"),
    "deck.with_jokers": _l("%(decks)s with %(count)s jokers"),
    "fact.buy_in": _l("Buy-in"),
    "fact.cards": _l("Cards"),
    "fact.deck": _l("Deck"),
    "fact.pot": _l("Pot"),
    "fact.max_score": _l("Max score"),
    "fact.third_place": _l("3rd place"),
    "fact.aces": _l("Aces"),
    "fact.rebuy": _l("Re-buy"),
    "fact.melds": _l("Melds"),
    "fact.pool": _l("Pool"),
    "fact.drops": _l("Drops"),
    "fact.full_count": _l("Full count"),
    "fact.wrong_show": _l("Wrong show"),
    "fact.rejoin": _l("Rejoin"),
    "fact.deals": _lp("number of deals", "Deals"),
    "fact.target": _l("Target"),
    "fact.stake": _l("Stake"),
    "fact.knock": _l("Knock"),
    "fact.gin": _l("Gin"),
    "fact.end": _l("End"),
    "fact.ante": _l("Ante"),
    "fact.going_out": _l("Going out"),
    "fact.rounds": _l("Rounds"),
    "fact.jokers": _l("Jokers"),
    "fact.cards_each": _l("%(count)s each"),
    "fact.count": _l("count %(points)s"),
    "fact.third_place_gets": _l("gets a buy-in out of 2nd's share"),
    "fact.rebuy_back": _l("back to the highest total still under the max"),
    "fact.rebuy_for": _l("%(buy_in)s, back to the highest total still under the max"),
    "fact.wilds_stay": _l("wild cards stay in melds"),
    "fact.wilds_swap": _l("wild cards may be swapped out of melds"),
    "fact.one_wild": _l("one wild card per meld"),
    "fact.any_wilds": _l("any number of wild cards"),
    "fact.melds_both": _l("%(first)s; %(second)s"),
    "fact.again_to_rejoin": _l("%(buy_in)s, again to rejoin"),
    "fact.pool_pot": _l("the last one in takes it, or the table splits it"),
    "fact.pool_out": _l("%(pool)s: out at %(pool)s or more"),
    "fact.drops_are": _l("first %(first)s, middle %(middle)s"),
    "fact.full_count_is": _l("%(points)s (no hand scores more)"),
    "fact.rejoin_while": _l("while nobody in has more than %(limit)s"),
    "fact.deals_highest": _l("%(deals)s, highest total wins"),
    "fact.deals_lowest": _l("%(deals)s, lowest total wins"),
    "fact.first_to": _l("first to %(target)s"),
    "fact.stake_per_point": _l("%(stake)s a point of margin"),
    "fact.buy_in_all": _l("%(buy_in)s, winner takes all"),
    "fact.knock_with": _l("with %(most)s or less; undercut +%(bonus)s"),
    "fact.gin_bonus": _l("+%(gin)s, big gin +%(big_gin)s"),
    "fact.end_bonus": _l("game +%(game)s, box +%(box)s a hand, shutout ×%(shutout)s"),
    "fact.takes_dime": _l("takes %(per_round)s from the pot"),
    "fact.texas_pot": _l("after round 11 the rest goes to the lowest total"),
    "fact.texas_rounds": _l("11, ×2 in rounds 9 and 10, ×3 in round 11"),
    "fact.deal_by_deal": _l("%(cards)s (deal by deal)"),
    "fact.wild_count": _l("wild, count %(points)s"),
    "hint.contract": _l(
        "Everyone plays the same deal's contract; going out needs it laid down first. "
        "In the last deal (three runs) you go out all at once, with no discard."
    ),
    "hint.dummy": _l(
        "The game ends after the round in which someone lays down contract 12; among "
        "those, the lowest total wins."
    ),
    "hint.gin": _l(
        "Exactly two players. Each hand, record who knocked (or nobody: a wash), how, "
        "and both deadwoods; the game, box and shutout bonuses are added at the end."
    ),
    "hint.pool": _l(
        "Choosing the pool (101, 201 or 61) fills in its drops, full count, wrong show "
        "and rejoin limit; change any of them for your table. The buy-in is the entry "
        "fee, paid again by a player who rejoins."
    ),
    "hint.texas": _l(
        "A dime is paid to whoever goes out only while the pot still holds a full one; "
        "the lowest total after round 11 takes the rest."
    ),
    "hint.vegas": _l(
        'Re-buy is the default when someone expires; you choose "drop" for them when it '
        "happens. A late joiner pays the buy-in times the most expiries of anyone still "
        "in (at least one buy-in) and starts at that player's total."
    ),
    "split.equal": _l("Equal shares"),
    "split.drops": _l("By drops left"),
    "out.dropped": _l("dropped"),
    "out.out": _l("out"),
    "note.out_in_deal": _l("out in deal %(number)s"),
    "note.dropped_in": _l("dropped out in %(word)s %(number)s"),
    "figure.drops_left": _l("Drops left"),
    "setting.buy_in": _l("Buy-in"),
    "setting.max_score": _l("Max score"),
    "setting.cards_per_player": _l("Cards per player"),
    "setting.ace_points": _l("Aces count"),
    "setting.pot_split": _l("Pot split"),
    "setting.second_runner_up_buy_in": _l("Third place gets one buy-in from the runner-up"),
    "setting.meld_solidarity": _l("Meld solidarity (wild cards stay in melds)"),
    "setting.meld_strictness": _l("Meld strictness (one wild card per meld)"),
    "setting.currency": _l("Currency"),
    "setting.ante": _l("Ante"),
    "setting.per_round": _l("Per round"),
    "setting.target_score": _l("Target score"),
    "setting.deals": _l("Or a fixed number of deals"),
    "setting.deals.2": _lp("number of deals", "Deals"),
    "setting.cards": _l("Cards dealt in each deal"),
    "setting.joker_points": _l("Jokers count"),
    "setting.knock_max": _l("Knock with at most"),
    "setting.gin_bonus": _l("Gin bonus"),
    "setting.big_gin_bonus": _l("Big gin bonus"),
    "setting.undercut_bonus": _l("Undercut bonus"),
    "setting.game_bonus": _l("Game bonus"),
    "setting.box_bonus": _l("Box bonus"),
    "setting.shutout_multiplier": _l("Shutout multiplier"),
    "setting.stake": _l("Stake per point"),
    "setting.pool": _l("Pool"),
    "setting.first_drop": _l("First drop"),
    "setting.middle_drop": _l("Middle drop"),
    "setting.full_count": _l("Full count"),
    "setting.wrong_show": _l("Wrong show"),
    "setting.rejoin_limit": _l("Rejoin limit"),
    "setting_help.buy_in": _l("Paid by each player at the start."),
    "setting_help.pot_split": _l("Percentages for 1st, 2nd, ... adding to 100, e.g. 70/30."),
    "setting_help.ante": _l(
        "Each player's stake at the start: whoever goes out is paid from it each round, "
        "and what is left is paid out at the end."
    ),
    "setting_help.per_round": _l("Paid from the pot to whoever goes out."),
    "setting_help.buy_in.2": _l(
        "Only if your table plays one besides the ante (0: none): a second stake at the "
        "start, into the same pot."
    ),
    "setting_help.deals": _l("7, or 6 for Liverpool (which leaves out the last deal, three runs)."),
    "setting_help.cards": _l("One number per deal, e.g. 10 10 10 10 12 12 12."),
    "setting_help.knock_max": _l("Deadwood a knock allows."),
    "setting_help.undercut_bonus": _l("To the defender whose deadwood is equal or lower."),
    "setting_help.game_bonus": _l("To the winner."),
    "setting_help.box_bonus": _l("To each player for every hand won."),
    "setting_help.shutout_multiplier": _l(
        "The winner's hand points are multiplied by it when the loser won no hand."
    ),
    "setting_help.stake": _l("The loser pays it for every point of the margin (0: none)."),
    "setting_help.buy_in.3": _l("Paid by each player at the start; the winner takes it."),
    "setting_help.pool": _l("101, 201 or 61: out at that total; it fixes the numbers below."),
    "setting_help.first_drop": _l("Dropped before drawing."),
    "setting_help.middle_drop": _l("Dropped after drawing."),
    "setting_help.full_count": _l("Gave up with everything counted; no counted hand scores more."),
    "setting_help.wrong_show": _l("Declared an invalid show."),
    "setting_help.rejoin_limit": _l("A player out may rejoin only while nobody still in has more."),
    "tally.boxes": _l("Boxes"),
    "tally.hand_points": _l("Hand points"),
    "tally.shutout": _l("Shutout ×%(times)s"),
    "tally.game_bonus": _l("Game bonus"),
    "tally.box_bonus": _l("Box bonus"),
    "tally.final": _l("Final"),
    "tally.margin": _l("Margin"),
    "game.too_many_rounds": _l("a game holds at most %(most)s rounds: start a new game to play on"),
    "game.already_ended": _l(
        "the game already ended after round %(number)s; a finished game takes no more rounds"
    ),
    "round.must_go_out": _l("someone must go out in %(game)s: give went_out"),
    "round.out_not_in_game": _l("%(player)s went out but is not in the game"),
    "round.hand_not_player": _l("a hand is given for %(player)s, who is not a player in this game"),
    "round.hand_dropped": _l("a hand is given for %(player)s, who dropped out in round %(number)s"),
    "round.hand_went_out": _l("%(player)s went out, so no hand is given for %(player)s"),
    "round.no_hand": _l("no hand given for %(player)s"),
    "join.already_in": _l("%(name)s is already in the game."),
    "join.already_joining": _l("%(name)s is already joining next round."),
    "join.too_many": _l("A game takes at most %(most)s players."),
    "join.choose_after": _l("Choose whom %(name)s sits after from the players at the table."),
    "vegas.handicap": _l(
        "%(name)s's handicap of %(handicap)s must be below the max score (%(most)s)"
    ),
    "vegas.join_too_many": _l("%(name)s cannot join: a game takes at most %(most)s players"),
    "vegas.own_seat": _l("%(name)s comes back to their own seat: give no seat for them"),
    "vegas.join_already_in": _l("%(name)s cannot join: %(name)s is already in the game"),
    "vegas.ended_no_drop": _l("the game ended this round (%(name)s won), so nobody drops"),
    "vegas.not_in_game": _l("%(name)s is not in the game"),
    "vegas.did_not_expire": _l(
        "%(name)s did not expire this round (%(total)s points, max %(most)s)"
    ),
    "vegas.cannot_drop": _l("%(name)s cannot drop: %(why)s; only a player who expires can drop"),
    "vegas.sit_after": _l("%(name)s cannot sit after %(after)s: %(after)s is not at the table"),
    "plan.no_round": _l("there is no round %(number)s to edit"),
    "plan.needs_answer": _l("the change needs an answer from the keeper"),
    "handicap.too_large": _l("%(name)s's handicap of %(handicap)s is too large"),
    "split.none": _l("%(game)s has no split of the pot"),
    "pool.rejoin_limit": _l(
        "settings.rejoin_limit must be below the pool (%(pool)s); got %(value)s"
    ),
    "pool.rejoin_not_out": _l("%(name)s cannot rejoin: only a player out in this deal can rejoin"),
    "pool.rejoin_over": _l("%(name)s cannot rejoin: the game is over, %(last)s is the last one in"),
    "pool.split_first": _l("split the pot after a deal, not before the first one"),
    "gin.say_how": _l("%(name)s knocked: say how (knock, gin or big_gin)"),
    "gin.knock_zero": _l("%(name)s knocked with 0 deadwood: that is gin, not a knock"),
    "gin.knock_max": _l(
        "%(name)s knocked with %(deadwood)s deadwood: a knock allows at most %(most)s"
    ),
    "gin.gin_deadwood": _l("%(name)s went gin with %(deadwood)s deadwood: gin leaves 0"),
    "gin.big_gin_deadwood": _l(
        "%(name)s went big gin with %(deadwood)s deadwood: big gin leaves 0"
    ),
    "gin.no_handicap": _l("%(name)s has a handicap, but Gin Rummy takes none: both start at 0"),
    "dummy.out_contract": _l(
        "%(name)s went out, so %(name)s must have laid down the contract this round: "
        "add them to contracts"
    ),
    "dummy.not_in_game": _l("%(name)s laid down a contract but is not in the game"),
    "rummy.target_or_deals": _l("settings: give either target_score or deals, not both"),
    "contract.cards": _l(
        "settings.cards gives %(given)s deals' cards but the game has %(deals)s deals: "
        "give one number per deal"
    ),
    "record.names_list": _l("%(key)s must be a list of names"),
    "record.names_twice": _l("%(key)s names someone twice"),
    "record.round_object": _l("a round must be an object with went_out and hands"),
    "record.unknown_key": _l("unknown key %(key)s"),
    "record.key_of": _l("%(key)s is only recorded in %(owner)s, not in %(variant)s"),
    "record.went_out_missing": _l(
        "went_out is missing: give the player who went out, or null if nobody did"
    ),
    "record.going_rummy_flag": _l("going_rummy must be true or false"),
    "record.going_rummy_out": _l("going_rummy needs the player who went out"),
    "record.hands_object": _l("hands must be an object of player names and hands"),
    "record.wild_rank": _l(
        "wild %(wild)s is not a rank: write the rank cut for this deal, such as 7, 10 or Q"
    ),
    "record.wild_card": _l(
        "wild %(wild)s is not a card: write the rank and suit, such as 7C or QH, or JK for a joker"
    ),
    "record.split_alone": _l("a split ends the game by agreement: it takes no %(key)s"),
    "record.split_kind": _l('split must be "equal" or "drops" (got %(value)s)'),
    "record.how": _l("how must be knock, gin or big_gin (got %(value)s)"),
    "record.how_wash": _l("how is %(how)s but nobody knocked: a wash has no how"),
    "record.sit_after_self": _l("%(name)s cannot sit after themselves"),
}
