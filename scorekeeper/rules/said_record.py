"""The refusals of a game or night record read at the edge (issue 33): the game record's
header and players (``rules/record.py``), a night record and its settlement
(``rules/settlement.py``), and the services' refusals around an import and the table
(``services/games.py``, ``services/ledger.py``, ``services/rounds.py``), each a message
id with its parameters (``rules.errors.Said``).

The command line and the API keep saying their English (``Said.english``, the same
sentences as before); the pages say them in the reader's language
(``web/refusals_record.py``, the same ids with ``%(name)s`` placeholders). A record's own
words (a key, a variant's name, a value as given) arrive quoted as they were written.
Merged into ``rules.errors.ENGLISH``."""

from __future__ import annotations

RECORD: dict[str, str] = {
    # rules/record.py: the game record, in the order a person reads it
    "game_record.object": "a game record must be a JSON object",
    "game_record.format": "format must be {wanted} (got {value})",
    "game_record.unknown_key": "unknown key {key} in the game record",
    "game_record.variant": "unknown variant {value}: use one of {choices}",
    "game_record.players_list": "players must be a list of names in seat order",
    "game_record.players_few": "a game needs at least {least} players (got {count})",
    "game_record.players_many": "a game takes at most {most} players (got {count})",
    "game_record.player": "player {number}",
    "game_record.player_key": "player {number}: unknown key {key}",
    "game_record.players_twice": (
        "two players are called {name} (names must differ, ignoring capitals)"
    ),
    "game_record.handicap": (
        "{name}'s handicap must be a whole number of points, 0 or more (got {value})"
    ),
    "game_record.first_dealer": "first_dealer {value} is not one of the players",
    "game_record.rounds_list": "rounds must be a list",
    "game_record.rounds_many": "a game holds at most {most} rounds (got {count})",
    "game_record.name_in": "a name in {key}",
    "game_record.in_round": "round {number}: {refusal}",
    "game_record.empty": "paste a game record or choose a file",
    "game_record.too_deep": "the record is nested too deeply",
    "game_record.number_long": "a number in the record is too long",
    # rules/games/gin.py
    "game_record.gin_two": "Gin Rummy is played by exactly two players (got {count})",
    # rules/settlement.py: a night's balances and its record
    "settlement.sum_off": ("the balances do not settle: they add up to {cents} cents, not 0"),
    "settlement.not_zero": "the balances do not settle: they do not add up to 0",
    "settlement.unfinished": (
        "game {number} ({game}) is not finished: its pot of {money} has not been paid out"
    ),
    "settlement.currency": "game {number} is played in {currency} but the night in {night}",
    "settlement.ledger": ("the ledger does not balance: what was paid is not what was received"),
    "night_record.object": "a night record must be a JSON object",
    "night_record.unknown_key": "unknown key {key} in the night record",
    "night_record.games": "games must be a list of game records",
    "night_record.game": "game {number}: {refusal}",
    # services/games.py: an import, a new game
    "import.currency": "the record is in {currency} but this night is in {night}",
    "games.most": "a night holds at most {most} games: start another night",
    "games.other_currency": "this game is in {currency} but the night is in {night}",
    "games.one_person": (
        "{other} and {name} are one person on tonight's list ({listed}): each person takes one seat"
    ),
    # services/accounts/checks.py: an account file that is not one
    "account_file.too_large": "the file is larger than {size}",
    "account_file.not_zip": "that is not a Scorekeeper account file (a zip file)",
    "account_file.games": "the file holds more than {most} games",
    "account_file.format": "this is not a {wanted} file (its format is {value})",
    # services/ledger.py
    "ledger.not_on_night": "{name} plays in {game} but is not on {night}",
    "ledger.other_currency": "game {number} is played in {currency}, the night in {night}",
    # services/rounds.py: the last round, a joiner
    "rounds.none_to_remove": "there is no round to remove",
    "joins.choose": "Choose who joins, or type a new name.",
    "joins.the_name": "the name",
    "joins.not_joining": "{name} is not joining next round.",
}
