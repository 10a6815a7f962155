"""The domain layer: what the views ask of the database, one job a module. Every function
that changes data is one transaction that commits or changes nothing
(:func:`base.transaction`), checked by the rules engine before anything is written.

- ``base``: the transaction, the refusals, one-time ids, a game's lock;
- ``state``: stamps, standings and their caches, the append (the speed machinery);
- ``nights``, ``games``, ``rounds``: the card nights, their games, their rounds;
- ``ledger``: a night's money book (``night_book`` settles it); ``settle``: recording
  payments, carries, write-offs and their undo;
- ``regulars``, ``stats``, ``results``: the keeper's people and what they won over time;
- ``live``: the players' links; ``streams``: the news of each commit pushed to their
  phones (and the keepers' sheets); ``payments``: handles and pay links (pure);
- ``accounts``: a whole account exported, checked and imported, deleted; ``logins``,
  ``resets``, ``mail``: log-in limits and password resets.

The names the views use most are importable from here (``services.create_night``).
"""

from .base import (
    AlreadySent,
    Conflict,
    Recorded,
    Refused,
    recorded,
    transaction,
)
from .games import create_game, delete_game, history_page, import_game, restore_game
from .nights import (
    add_person,
    create_night,
    delete_night,
    find_or_add_person,
    night_games,
    owned_night,
    rename_person,
    restore_night,
    set_locale,
    set_paper,
)
from .rounds import (
    add_joiner,
    cancel_joiner,
    join_candidates,
    plan_round,
    remove_last_round,
    save_planned_round,
    save_round,
    seat_choices,
)
from .state import (
    GameStamp,
    game_stamp,
    game_stamp_loading,
    login_from_stamp,
    owned_game,
    standings_at,
    standings_for,
    still_at,
)

__all__ = [
    "AlreadySent",
    "Conflict",
    "GameStamp",
    "Recorded",
    "Refused",
    "add_joiner",
    "add_person",
    "cancel_joiner",
    "create_game",
    "create_night",
    "delete_game",
    "delete_night",
    "find_or_add_person",
    "game_stamp",
    "game_stamp_loading",
    "history_page",
    "import_game",
    "join_candidates",
    "login_from_stamp",
    "night_games",
    "owned_game",
    "owned_night",
    "plan_round",
    "recorded",
    "remove_last_round",
    "rename_person",
    "restore_game",
    "restore_night",
    "save_planned_round",
    "save_round",
    "seat_choices",
    "set_locale",
    "set_paper",
    "standings_at",
    "standings_for",
    "still_at",
    "transaction",
]
