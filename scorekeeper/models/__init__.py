"""Database models. The game record is the source of truth: a Game holds the record's
header (variant, settings, players, first dealer) and its rounds live in GameRound rows;
every total, expiry and payout is derived by replaying them with the rules engine.

    accounts  users, logins, log-in attempts, password resets, one-time form ids
    play      nights, regulars and their handles, people, games, seats, rounds, history
    ledger    payments, carries and write-offs; each game's stored results
    links     live links for the players at the table, keeper links, co-keepers and
              their removals
"""

from .accounts import (
    TOKEN_MAX,
    LoginAttempt,
    PasswordReset,
    Submission,
    User,
    UserSession,
    as_utc,
    utcnow,
)
from .ledger import GameResult, LedgerEntry
from .links import LIVE_TOKEN_BYTES, LIVE_TOKEN_MAX, CoKeeper, KeeperLink, KeeperRemoval, LiveLink
from .play import Edit, Game, GameRound, Night, PaymentHandle, Person, Regular, RegularMerge, Seat

__all__ = [
    "LIVE_TOKEN_BYTES",
    "LIVE_TOKEN_MAX",
    "TOKEN_MAX",
    "CoKeeper",
    "Edit",
    "Game",
    "GameResult",
    "GameRound",
    "KeeperLink",
    "KeeperRemoval",
    "LedgerEntry",
    "LiveLink",
    "LoginAttempt",
    "Night",
    "PasswordReset",
    "PaymentHandle",
    "Person",
    "Regular",
    "RegularMerge",
    "Seat",
    "Submission",
    "User",
    "UserSession",
    "as_utc",
    "utcnow",
]
