"""The engine's words a keeper reads around a game (issue 33): the games' names and
descriptions, the game's word for a round, and the refusals of a hand. Each is a message
id and its English (``{name}`` a parameter), merged into ``errors.ENGLISH``; the web layer
says them in the reader's language (``web/refusals_play.py``, the same ids), while the
command line and the API keep this English.

The games' ``title`` and ``description`` stay their English class attributes (the API,
the printed sheets); ``variant_title`` and ``variant_description`` name the same words as
sentences (tests/rules/test_said_play.py checks they are the same English)."""

from __future__ import annotations

PLAY: dict[str, str] = {
    # the games: rules/games/*.py, ``title`` and ``description``
    "variant.contract.title": "Contract Rummy",
    "variant.contract.description": (
        "Seven deals, each with a contract to lay down before going out: two sets, a set "
        "and a run, ... three runs. Penalty points for what is left; low total wins."
    ),
    "variant.dummy.title": "Dummy Rummy",
    "variant.dummy.description": (
        "Twelve contracts to lay down in order, each at your own pace; penalty points for "
        "what is left. First through contract 12 with the lowest total wins."
    ),
    "variant.gin.title": "Gin Rummy",
    "variant.gin.description": (
        "Two players, hands to 100: knock, gin or big gin, undercuts, and the game, box and "
        "shutout bonuses at the end. The stake is paid on the margin."
    ),
    "variant.multiplayer.title": "Multiplayer Rummy",
    "variant.multiplayer.description": (
        "Rummy for 2 to 4: going out scores the others' hands, double when you go rummy in "
        "one turn. First to the target wins."
    ),
    "variant.pool.title": "Pool Rummy",
    "variant.pool.description": (
        "13 cards, low is good. Reach the pool (101, 201 or 61) and you are out; rejoin for "
        "the entry fee while nobody is close. Last one in wins the pot, or the table splits it."
    ),
    "variant.rummy.title": "Rummy",
    "variant.rummy.description": (
        "Classic rummy: whoever goes out scores what is left in everyone else's hand. High "
        "total wins, first to the target or after a set number of deals."
    ),
    "variant.texas.title": "Texas Rummy",
    "variant.texas.description": (
        "11 rounds of 3 to 13 cards, a new wild rank each round, the last three rounds "
        "doubled and tripled. Low total wins; going out earns a dime."
    ),
    "variant.vegas.title": "Vegas Rummy",
    "variant.vegas.description": (
        "Penalty points, low is good. Reach the max score and you expire: re-buy to stay "
        "in. Last one under the max wins the pot."
    ),
    # the game's word for a round (``display.round_word``): alone, many, at a line's start
    "word.round.one": "round",
    "word.round.many": "rounds",
    "word.round.head": "Round",
    "word.deal.one": "deal",
    "word.deal.many": "deals",
    "word.deal.head": "Deal",
    "word.hand.one": "hand",
    "word.hand.many": "hands",
    "word.hand.head": "Hand",
    # rules/rounds.py: a hand that breaks a rule
    "hand.negative": "{player}'s hand must be 0 points or more (got {value})",
    "hand.too_many_points": (
        "{player}'s hand of {value} points is more than any hand can hold (at most {most})"
    ),
    "hand.too_many_cards": "{player}'s hand lists {count} cards (at most {most})",
    "hand.unknown_card": "{player}'s hand has an unknown card {card} (use {cards})",
    "hand.not_a_hand": (
        "{player}'s hand must be a whole number of points or a list of cards (got {value})"
    ),
    "hand.not_a_hand_or_marker": (
        "{player}'s hand must be a whole number of points or a list of cards, or one of "
        "{markers} (got {value})"
    ),
    "hand.twice": "two hands are given for {player}",
    # a hand as the round form's field has it (rules/hands.py, HandRefused)
    "typed.empty": "give the points left in the hand (0 if none)",
    "typed.too_many_points": "{total} points is more than any hand can hold",
    "typed.negative": "points cannot be negative",
    "typed.far_too_many_points": "that is more points than any hand can hold (at most {most})",
    "typed.not_a_hand": "{typed} is not points or a card: type 12, 10+7, or cards like {examples}",
    "typed.not_a_card": "{card} is not a card of this game: tap or type {cards}",
    # rules/display.py: the pot's split, the marks' legend, what is wild, the banner
    "pot.winner_takes_all": "winner takes all",
    "pot.place.1": "1st {percent}",
    "pot.place.2": "2nd {percent}",
    "pot.place.3": "3rd {percent}",
    # ``percent`` is the share with its sign ("60%")
    "pot.place": "{place}th {percent}",  # 4th to 20th (at most 20 players)
    "pot.then": "{first} / {rest}",
    "mark.went_out": "went out",
    "mark.going_rummy": "went rummy: scores double",
    "mark.join": "joined this round (fee and starting total below)",
    "mark.rebuy": (
        "expired and re-bought; the total shown is where they start again (on "
        "screen, after the total reached and an arrow)"
    ),
    "mark.rebuy.for": (
        "expired and re-bought for {buy_in}; the total shown is where they start "
        "again (on screen, after the total reached and an arrow)"
    ),
    "mark.drop": "expired and dropped out",
    "mark.expire": "expired in the last round (no re-buy)",
    "mark.contract": "laid down contract n this round",
    "mark.dime": "took {per_round} from the pot for going out",
    "mark.knock": "knocked and won the hand",
    "mark.undercut": "undercut the knocker (equal or lower deadwood)",
    "mark.gin": "went gin (no deadwood)",
    "mark.big_gin": "went big gin (all 11 cards melded)",
    "mark.wash": "a wash: nobody knocked, nobody scores",
    "mark.deadwood": "deadwood left in hand",
    "mark.first_drop": "first drop (before drawing)",
    "mark.middle_drop": "middle drop (after drawing)",
    "mark.full_count": "full count (gave up, everything counted)",
    "mark.wrong_show": "wrong show (an invalid show)",
    "mark.eliminate": "reached the pool: out",
    "mark.rejoin": (
        "out, then rejoined; the total shown is where they came back (on screen, "
        "after the total reached and an arrow)"
    ),
    "mark.rejoin.for": (
        "out, then rejoined for {buy_in}; the total shown is where they came back "
        "(on screen, after the total reached and an arrow)"
    ),
    "mark.split": "shared the pot by agreement (their share beside it)",
    "mark.went_out.knocked": "went out (knocked)",
    "mark.went_out.dime": "went out (takes {per_round} from the pot)",
    "wild.A": "aces",
    "wild.2": "deuces",
    "wild.3": "threes",
    "wild.4": "fours",
    "wild.5": "fives",
    "wild.6": "sixes",
    "wild.7": "sevens",
    "wild.8": "eights",
    "wild.9": "nines",
    "wild.10": "tens",
    "wild.J": "jacks",
    "wild.Q": "queens",
    "wild.K": "kings",
    "wild.JK": "jokers",
    "wild.and": "{first}, {rest}",
    "rank.A": "Aces",
    "rank.2": "Twos",
    "rank.3": "Threes",
    "rank.4": "Fours",
    "rank.5": "Fives",
    "rank.6": "Sixes",
    "rank.7": "Sevens",
    "rank.8": "Eights",
    "rank.9": "Nines",
    "rank.10": "Tens",
    "rank.J": "Jacks",
    "rank.Q": "Queens",
    "rank.K": "Kings",
    "rank.JK": "Jokers",
    "contract.1": "two sets",
    "contract.2": "one set and one run",
    "contract.3": "two runs",
    "contract.4": "three sets",
    "contract.5": "two sets and one run",
    "contract.6": "one set and two runs",
    "contract.7": "three runs",
    "banner.numbered": "{word} {number}",
    "banner.cards": "{count} cards",
    "banner.wild": "Wild: {wilds}",
    "banner.rank_wild": "{rank} wild",
    "banner.deal_of": "Deal {number} of {deals}",
    "banner.contract_last": "Go out all at once, with no discard.",
    "banner.contracts": "Contracts: {on}",
    "banner.vegas_flip": "Flip a card after the deal: it is wild this round.",
    "banner.pool_cut": "Cut a card after the deal: its rank is wild this deal, jokers too.",
    # what the new-game page warns of
    "warn.players": "{game} is best with {low} to {high} players; you have {players}.",
    "warn.texas_dry": (
        "The pot holds {antes} of antes ({players} × {ante}) but pays {per_round} to whoever "
        "goes out in each of {rounds} rounds ({paid}): it runs dry after {dry} rounds, and "
        "the winner may get nothing."
    ),
    # rules/variant.py DeckAdvice
    "deck.one": "1 deck",
    "deck.many": "{count} decks",
    "deck.no_jokers": "{decks}, no jokers",
    "deck.with_joker": "{decks} with {count} joker",
    "deck.with_jokers": "{decks} with {count} jokers",
    # the table rules (``display.table_rules``): labels, then values
    "fact.buy_in": "Buy-in",
    "fact.cards": "Cards",
    "fact.deck": "Deck",
    "fact.pot": "Pot",
    "fact.max_score": "Max score",
    "fact.third_place": "3rd place",
    "fact.aces": "Aces",
    "fact.rebuy": "Re-buy",
    "fact.melds": "Melds",
    "fact.pool": "Pool",
    "fact.drops": "Drops",
    "fact.full_count": "Full count",
    "fact.wrong_show": "Wrong show",
    "fact.rejoin": "Rejoin",
    "fact.deals": "Deals",
    "fact.target": "Target",
    "fact.stake": "Stake",
    "fact.knock": "Knock",
    "fact.gin": "Gin",
    "fact.end": "End",
    "fact.ante": "Ante",
    "fact.going_out": "Going out",
    "fact.rounds": "Rounds",
    "fact.jokers": "Jokers",
    "fact.cards_each": "{count} each",
    "fact.count": "count {points}",
    "fact.third_place_gets": "gets a buy-in out of 2nd's share",
    "fact.rebuy_back": "back to the highest total still under the max",
    "fact.rebuy_for": "{buy_in}, back to the highest total still under the max",
    "fact.wilds_stay": "wild cards stay in melds",
    "fact.wilds_swap": "wild cards may be swapped out of melds",
    "fact.one_wild": "one wild card per meld",
    "fact.any_wilds": "any number of wild cards",
    "fact.melds_both": "{first}; {second}",
    "fact.again_to_rejoin": "{buy_in}, again to rejoin",
    "fact.pool_pot": "the last one in takes it, or the table splits it",
    "fact.pool_out": "{pool}: out at {pool} or more",
    "fact.drops_are": "first {first}, middle {middle}",
    "fact.full_count_is": "{points} (no hand scores more)",
    "fact.rejoin_while": "while nobody in has more than {limit}",
    "fact.deals_highest": "{deals}, highest total wins",
    "fact.deals_lowest": "{deals}, lowest total wins",
    "fact.first_to": "first to {target}",
    "fact.stake_per_point": "{stake} a point of margin",
    "fact.buy_in_all": "{buy_in}, winner takes all",
    "fact.knock_with": "with {most} or less; undercut +{bonus}",
    "fact.gin_bonus": "+{gin}, big gin +{big_gin}",
    "fact.end_bonus": "game +{game}, box +{box} a hand, shutout ×{shutout}",
    "fact.takes_dime": "takes {per_round} from the pot",
    "fact.texas_pot": "after round 11 the rest goes to the lowest total",
    "fact.texas_rounds": "11, ×2 in rounds 9 and 10, ×3 in round 11",
    "fact.deal_by_deal": "{cards} (deal by deal)",
    "fact.wild_count": "wild, count {points}",
    # the new-game page's hint, the sheet's words for a split, a player out, Pool's drops
    "hint.contract": (
        "Everyone plays the same deal's contract; going out needs it laid down "
        "first. In the last deal (three runs) you go out all at once, with no "
        "discard."
    ),
    "hint.dummy": (
        "The game ends after the round in which someone lays down contract 12; among "
        "those, the lowest total wins."
    ),
    "hint.gin": (
        "Exactly two players. Each hand, record who knocked (or nobody: a wash), "
        "how, and both deadwoods; the game, box and shutout bonuses are added at the "
        "end."
    ),
    "hint.pool": (
        "Choosing the pool (101, 201 or 61) fills in its drops, full count, wrong "
        "show and rejoin limit; change any of them for your table. The buy-in is the "
        "entry fee, paid again by a player who rejoins."
    ),
    "hint.texas": (
        "A dime is paid to whoever goes out only while the pot still holds a full "
        "one; the lowest total after round 11 takes the rest."
    ),
    "hint.vegas": (
        'Re-buy is the default when someone expires; you choose "drop" for them when '
        "it happens. A late joiner pays the buy-in times the most expiries of anyone "
        "still in (at least one buy-in) and starts at that player's total."
    ),
    "split.equal": "Equal shares",
    "split.drops": "By drops left",
    "out.dropped": "dropped",
    "out.out": "out",
    "note.out_in_deal": "out in deal {number}",
    "note.dropped_in": "dropped out in {word} {number}",
    "figure.drops_left": "Drops left",
    # the games' settings on the new-game form (``SettingSpec.label`` and ``description``)
    "setting.buy_in": "Buy-in",
    "setting.max_score": "Max score",
    "setting.cards_per_player": "Cards per player",
    "setting.ace_points": "Aces count",
    "setting.pot_split": "Pot split",
    "setting.second_runner_up_buy_in": "Third place gets one buy-in from the runner-up",
    "setting.meld_solidarity": "Meld solidarity (wild cards stay in melds)",
    "setting.meld_strictness": "Meld strictness (one wild card per meld)",
    "setting.currency": "Currency",
    "setting.ante": "Ante",
    "setting.per_round": "Per round",
    "setting.target_score": "Target score",
    "setting.deals": "Or a fixed number of deals",
    "setting.deals.2": "Deals",
    "setting.cards": "Cards dealt in each deal",
    "setting.joker_points": "Jokers count",
    "setting.knock_max": "Knock with at most",
    "setting.gin_bonus": "Gin bonus",
    "setting.big_gin_bonus": "Big gin bonus",
    "setting.undercut_bonus": "Undercut bonus",
    "setting.game_bonus": "Game bonus",
    "setting.box_bonus": "Box bonus",
    "setting.shutout_multiplier": "Shutout multiplier",
    "setting.stake": "Stake per point",
    "setting.pool": "Pool",
    "setting.first_drop": "First drop",
    "setting.middle_drop": "Middle drop",
    "setting.full_count": "Full count",
    "setting.wrong_show": "Wrong show",
    "setting.rejoin_limit": "Rejoin limit",
    "setting_help.buy_in": "Paid by each player at the start.",
    "setting_help.pot_split": "Percentages for 1st, 2nd, ... adding to 100, e.g. 70/30.",
    "setting_help.ante": (
        "Each player's stake at the start: whoever goes out is paid from it each "
        "round, and what is left is paid out at the end."
    ),
    "setting_help.per_round": "Paid from the pot to whoever goes out.",
    "setting_help.buy_in.2": (
        "Only if your table plays one besides the ante (0: none): a second stake at "
        "the start, into the same pot."
    ),
    "setting_help.deals": "7, or 6 for Liverpool (which leaves out the last deal, three runs).",
    "setting_help.cards": "One number per deal, e.g. 10 10 10 10 12 12 12.",
    "setting_help.knock_max": "Deadwood a knock allows.",
    "setting_help.undercut_bonus": "To the defender whose deadwood is equal or lower.",
    "setting_help.game_bonus": "To the winner.",
    "setting_help.box_bonus": "To each player for every hand won.",
    "setting_help.shutout_multiplier": (
        "The winner's hand points are multiplied by it when the loser won no hand."
    ),
    "setting_help.stake": "The loser pays it for every point of the margin (0: none).",
    "setting_help.buy_in.3": "Paid by each player at the start; the winner takes it.",
    "setting_help.pool": "101, 201 or 61: out at that total; it fixes the numbers below.",
    "setting_help.first_drop": "Dropped before drawing.",
    "setting_help.middle_drop": "Dropped after drawing.",
    "setting_help.full_count": "Gave up with everything counted; no counted hand scores more.",
    "setting_help.wrong_show": "Declared an invalid show.",
    "setting_help.rejoin_limit": "A player out may rejoin only while nobody still in has more.",
    # Gin's rows under the grid (``GinDisplay.tally``)
    "tally.boxes": "Boxes",
    "tally.hand_points": "Hand points",
    "tally.shutout": "Shutout ×{times}",
    "tally.game_bonus": "Game bonus",
    "tally.box_bonus": "Box bonus",
    "tally.final": "Final",
    "tally.margin": "Margin",
    # rules/replay.py: a round the game cannot take
    "game.too_many_rounds": "a game holds at most {most} rounds: start a new game to play on",
    "game.already_ended": (
        "the game already ended after round {number}; a finished game takes no more rounds"
    ),
    "round.must_go_out": "someone must go out in {game}: give went_out",
    "round.out_not_in_game": "{player} went out but is not in the game",
    "round.hand_not_player": "a hand is given for {player}, who is not a player in this game",
    "round.hand_dropped": "a hand is given for {player}, who dropped out in round {number}",
    "round.hand_went_out": "{player} went out, so no hand is given for {player}",
    "round.no_hand": "no hand given for {player}",
    # rules/table.py: a late joiner the game cannot take
    "join.already_in": "{name} is already in the game.",
    "join.already_joining": "{name} is already joining next round.",
    "join.too_many": "A game takes at most {most} players.",
    "join.choose_after": "Choose whom {name} sits after from the players at the table.",
    # rules/games/vegas.py
    "vegas.handicap": "{name}'s handicap of {handicap} must be below the max score ({most})",
    "vegas.join_too_many": "{name} cannot join: a game takes at most {most} players",
    "vegas.own_seat": "{name} comes back to their own seat: give no seat for them",
    "vegas.join_already_in": "{name} cannot join: {name} is already in the game",
    "vegas.ended_no_drop": "the game ended this round ({name} won), so nobody drops",
    "vegas.not_in_game": "{name} is not in the game",
    "vegas.did_not_expire": "{name} did not expire this round ({total} points, max {most})",
    "vegas.cannot_drop": "{name} cannot drop: {why}; only a player who expires can drop",
    "vegas.sit_after": "{name} cannot sit after {after}: {after} is not at the table",
    # rules/plan.py, variant.py and the games' refusals
    "plan.no_round": "there is no round {number} to edit",
    "plan.needs_answer": "the change needs an answer from the keeper",
    "handicap.too_large": "{name}'s handicap of {handicap} is too large",
    "split.none": "{game} has no split of the pot",
    "pool.rejoin_limit": "settings.rejoin_limit must be below the pool ({pool}); got {value}",
    "pool.rejoin_not_out": "{name} cannot rejoin: only a player out in this deal can rejoin",
    "pool.rejoin_over": "{name} cannot rejoin: the game is over, {last} is the last one in",
    "pool.split_first": "split the pot after a deal, not before the first one",
    "gin.say_how": "{name} knocked: say how (knock, gin or big_gin)",
    "gin.knock_zero": "{name} knocked with 0 deadwood: that is gin, not a knock",
    "gin.knock_max": "{name} knocked with {deadwood} deadwood: a knock allows at most {most}",
    "gin.gin_deadwood": "{name} went gin with {deadwood} deadwood: gin leaves 0",
    "gin.big_gin_deadwood": "{name} went big gin with {deadwood} deadwood: big gin leaves 0",
    "gin.no_handicap": "{name} has a handicap, but Gin Rummy takes none: both start at 0",
    "dummy.out_contract": (
        "{name} went out, so {name} must have laid down the contract this round: add them to "
        "contracts"
    ),
    "dummy.not_in_game": "{name} laid down a contract but is not in the game",
    "rummy.target_or_deals": "settings: give either target_score or deals, not both",
    "contract.cards": (
        "settings.cards gives {given} deals' cards but the game has {deals} deals: give one "
        "number per deal"
    ),
    # rules/rounds.py: a round of a record that breaks a rule (the record's keys as written)
    "record.names_list": "{key} must be a list of names",
    "record.names_twice": "{key} names someone twice",
    "record.round_object": "a round must be an object with went_out and hands",
    "record.unknown_key": "unknown key {key}",
    "record.key_of": "{key} is only recorded in {owner}, not in {variant}",
    "record.went_out_missing": (
        "went_out is missing: give the player who went out, or null if nobody did"
    ),
    "record.going_rummy_flag": "going_rummy must be true or false",
    "record.going_rummy_out": "going_rummy needs the player who went out",
    "record.hands_object": "hands must be an object of player names and hands",
    "record.wild_rank": (
        "wild {wild} is not a rank: write the rank cut for this deal, such as 7, 10 or Q"
    ),
    "record.wild_card": (
        "wild {wild} is not a card: write the rank and suit, such as 7C or QH, or JK for a joker"
    ),
    "record.split_alone": "a split ends the game by agreement: it takes no {key}",
    "record.split_kind": 'split must be "equal" or "drops" (got {value})',
    "record.how": "how must be knock, gin or big_gin (got {value})",
    "record.how_wash": "how is {how} but nobody knocked: a wash has no how",
    "record.sit_after_self": "{name} cannot sit after themselves",
}

#: The forms of a round's word a sentence takes: alone ("round"), many ("rounds"), and at
#: the start of a line or as a column's head ("Round").
WORD_FORMS = ("one", "many", "head")
