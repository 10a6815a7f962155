"""The catalog's side of a record's refusals (``rules/said_record.py``, the same ids):
the sentences scripts/i18n extracts and each language translates, with ``%(name)s``
placeholders where the engine says ``{name}``. Merged into ``refusals.ENGINE`` by one
line."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

RECORD = {
    "game_record.object": _l("a game record must be a JSON object"),
    "game_record.format": _l("format must be %(wanted)s (got %(value)s)"),
    "game_record.unknown_key": _l("unknown key %(key)s in the game record"),
    "game_record.variant": _l("unknown variant %(value)s: use one of %(choices)s"),
    "game_record.players_list": _l("players must be a list of names in seat order"),
    "game_record.players_few": _l("a game needs at least %(least)s players (got %(count)s)"),
    "game_record.players_many": _l("a game takes at most %(most)s players (got %(count)s)"),
    "game_record.player": _l("player %(number)s"),
    "game_record.player_key": _l("player %(number)s: unknown key %(key)s"),
    "game_record.players_twice": _l(
        "two players are called %(name)s (names must differ, ignoring capitals)"
    ),
    "game_record.handicap": _l(
        "%(name)s's handicap must be a whole number of points, 0 or more (got %(value)s)"
    ),
    "game_record.first_dealer": _l("first_dealer %(value)s is not one of the players"),
    "game_record.rounds_list": _l("rounds must be a list"),
    "game_record.rounds_many": _l("a game holds at most %(most)s rounds (got %(count)s)"),
    "game_record.name_in": _l("a name in %(key)s"),
    "game_record.in_round": _l("round %(number)s: %(refusal)s"),
    "game_record.empty": _l("paste a game record or choose a file"),
    "game_record.too_deep": _l("the record is nested too deeply"),
    "game_record.number_long": _l("a number in the record is too long"),
    "game_record.gin_two": _l("Gin Rummy is played by exactly two players (got %(count)s)"),
    "settlement.sum_off": _l("the balances do not settle: they add up to %(cents)s cents, not 0"),
    "settlement.not_zero": _l("the balances do not settle: they do not add up to 0"),
    "settlement.unfinished": _l(
        "game %(number)s (%(game)s) is not finished: its pot of %(money)s has not been paid out"
    ),
    "settlement.currency": _l(
        "game %(number)s is played in %(currency)s but the night in %(night)s"
    ),
    "settlement.ledger": _l("the ledger does not balance: what was paid is not what was received"),
    "night_record.object": _l("a night record must be a JSON object"),
    "night_record.unknown_key": _l("unknown key %(key)s in the night record"),
    "night_record.games": _l("games must be a list of game records"),
    "night_record.game": _l("game %(number)s: %(refusal)s"),
    "import.currency": _l("the record is in %(currency)s but this night is in %(night)s"),
    "games.most": _l("a night holds at most %(most)s games: start another night"),
    "games.other_currency": _l("this game is in %(currency)s but the night is in %(night)s"),
    "games.one_person": _l(
        "%(other)s and %(name)s are one person on tonight's list (%(listed)s): each person "
        "takes one seat"
    ),
    "account_file.too_large": _l("the file is larger than %(size)s"),
    "account_file.not_zip": _l("that is not a Scorekeeper account file (a zip file)"),
    "account_file.games": _l("the file holds more than %(most)s games"),
    "account_file.format": _l("this is not a %(wanted)s file (its format is %(value)s)"),
    "ledger.not_on_night": _l("%(name)s plays in %(game)s but is not on %(night)s"),
    "ledger.other_currency": _l(
        "game %(number)s is played in %(currency)s, the night in %(night)s"
    ),
    "rounds.none_to_remove": _l("there is no round to remove"),
    "joins.choose": _l("Choose who joins, or type a new name."),
    "joins.the_name": _l("the name"),
    "joins.not_joining": _l("%(name)s is not joining next round."),
}
