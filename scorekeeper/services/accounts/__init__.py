"""A whole account: everything of it as one file to take elsewhere (``export_account``,
format ``scorekeeper-account/1``, described in docs/scorekeeper-account.md), that file
restored into an empty account (``import_account``), the account erased
(``delete_account``), and the operator's ``disable`` / ``enable`` / ``list``.

The file is a zip of JSON: ``account.json`` holds the regulars (with their ways to pay),
the merges, the nights, their people, each game's place (night, deleted or not, joiners
waiting, history) and the ledger; each game is ``games/<id>.json``, a game record
(``scorekeeper-game/1``) that the game importer and ``flask standings`` read as they are.
Ids in the file are the old host's: they only tie its parts together, and an import
gives every row a new id. Live links, log-in data and one-time form ids stay behind.

An import is checked whole before anything is written (``checks``), as strictly as a
game record is: every reference must name a row the file carries (a person of a night
in the file, a carry into a night in the file, a game's players among its night's
people...), every name, amount, currency and setting is checked as the forms check it,
every game replays through the engine, and the file and its counts are bounded. A
refusal is one sentence saying what is wrong, and changes nothing. It goes only into an
account that has no nights and no regulars (so a file never mixes with what an account
holds), in one transaction (``importing``).

    export.py     the account as the file
    checks.py     the file read and checked whole: a plan of rows, or ImportRefused
    importing.py  the plan written with new ids, once per form
    deleting.py   the account erased
    operators.py  find, list, disable and enable accounts (the command line's)
"""

from .checks import ImportRefused, check_file
from .deleting import delete_account
from .export import FORMAT, export_account
from .importing import holdings, import_account
from .operators import AccountLine, accounts, find_user, set_disabled

__all__ = [
    "FORMAT",
    "AccountLine",
    "ImportRefused",
    "accounts",
    "check_file",
    "delete_account",
    "export_account",
    "find_user",
    "holdings",
    "import_account",
    "set_disabled",
]
