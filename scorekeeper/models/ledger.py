"""Money facts: the ledger of payments, carries and write-offs, and each game's stored
results per person (the stats read them instead of replaying history)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .accounts import User, utcnow
from .play import Night, Regular


class LedgerEntry(Model):
    """What people did with a night's money, kept for ever with who recorded it and when.

    - ``payment``: on ``night``, ``payer`` paid ``payee`` ``amount`` (from a suggested
      transfer with one tap, or any amount typed: a partial or a cash payment).
    - ``carry``: the debt ``payer`` owed ``payee`` on ``night`` moves to ``to_night``, a
      night played later: it leaves this night's balances and joins that night's.
    - ``write_off``: on ``night``, ``payee`` forgave what ``payer`` owed them: counted as
      the payment that will never happen.
    - ``claim``: on the players' page, ``payer`` said they paid ``payee`` ``amount`` on
      that transfer of the plan ``plan``: it moves no money; it counts once the keeper
      confirms it with a payment whose ``claim_id`` is this entry.

    Each entry is made against a transfer of the night's plan: the pair (``payer``,
    ``payee``) within the plan whose stamp is ``plan`` (``rules.payplan``).

    What each person still owes or is owed is derived from these entries and the games
    every time (``ledger.night_book``); nothing derived is stored. An entry recorded by
    mistake is undone (``undone_at``, kept). ``submission`` makes a repeated form count
    once; ``games_part`` is the night's games part of the balances (by regular id) as it
    stood when the entry was recorded, so the payout page can say what moved since."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        UniqueConstraint("night_id", "submission", "payer_id", "payee_id"),
        CheckConstraint("amount > 0", name="ck_ledger_entries_amount"),
        CheckConstraint("payer_id <> payee_id", name="ck_ledger_entries_two_people"),
        CheckConstraint(
            "(kind = 'carry') = (to_night_id IS NOT NULL)", name="ck_ledger_entries_carry_target"
        ),
        Index("ix_ledger_entries_to_night_id", "to_night_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))  # payment, carry, write_off
    payer_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("regulars.id"))
    amount: Mapped[int] = mapped_column(BigInteger)  # minor units, > 0
    to_night_id: Mapped[int | None] = mapped_column(ForeignKey("nights.id"))
    #: Who recorded it; empty once that account was deleted (a co-keeper's: the entry
    #: stays on the owner's night, recorded by "a deleted account", never re-attributed).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    submission: Mapped[str | None] = mapped_column(String(64))
    games_part: Mapped[dict[str, int] | None] = mapped_column(JSON)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    undone_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    #: The stamp of the plan the entry was made against (None: recorded before plans had
    #: stamps, or imported so).
    plan: Mapped[str | None] = mapped_column(String(16))
    #: The player's claim this payment confirms (a payment only).
    claim_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_entries.id"))

    payer: Mapped[Regular] = relationship(foreign_keys=[payer_id])
    payee: Mapped[Regular] = relationship(foreign_keys=[payee_id])
    night: Mapped[Night] = relationship(foreign_keys=[night_id])
    to_night: Mapped[Night | None] = relationship(foreign_keys=[to_night_id])
    user: Mapped[User | None] = relationship(foreign_keys=[user_id])


class GameResult(Model):
    """One person's results of one game as the engine worked them out at the game's
    ``version``: a stored fact the stats read instead of replaying every game of a
    keeper's history (see :mod:`scorekeeper.services.results`, which keeps them up to date)."""

    __tablename__ = "game_results"
    __table_args__ = (UniqueConstraint("game_id", "person_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    finished: Mapped[bool] = mapped_column(Boolean)
    won: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    balance: Mapped[int] = mapped_column(BigInteger)  # minor units; 0 until finished
