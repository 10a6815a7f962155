"""The account erased, everything of it, in one transaction."""

from __future__ import annotations

from sqlalchemy import delete, or_, select, update

from ...extensions import db
from ...models import (
    CoKeeper,
    Edit,
    Game,
    GameResult,
    GameRound,
    KeeperLink,
    KeeperRemoval,
    LedgerEntry,
    LiveLink,
    LoginAttempt,
    Night,
    PasswordReset,
    PaymentHandle,
    Person,
    Regular,
    RegularMerge,
    Seat,
    Submission,
    User,
    UserSession,
)
from ..base import lock_rows


# ------------------------------------------------------------------- deleting ---
def delete_account(user: User) -> None:
    """Erase the account and everything of it, in one transaction: its nights, games,
    rounds, history, seats, results, people, regulars, ways to pay, merges, ledger
    entries, live and keeper links, co-keepers and their removals, one-time form ids,
    logins, reset links and the log-in attempts of its email. Nothing is kept: its live
    and keeper links then answer as unknown ones."""
    user_id, email = user.id, user.email
    try:
        lock_rows(User, [user_id])
        nights = select(Night.id).where(Night.owner_id == user_id).scalar_subquery()
        games = select(Game.id).where(Game.night_id.in_(nights)).scalar_subquery()
        regulars = select(Regular.id).where(Regular.owner_id == user_id).scalar_subquery()
        # Co-keepers of its nights lose access with them, and its keeper links go (they
        # then answer as unknown ones); where it co-kept another account's night, it
        # stops, and what it recorded there stays, recorded by "a deleted account" (no
        # user): the history's entries and the ledger's alike, never re-attributed.
        statements = [
            delete(LiveLink).where(or_(LiveLink.game_id.in_(games), LiveLink.night_id.in_(nights))),
            delete(KeeperLink).where(KeeperLink.night_id.in_(nights)),
            delete(CoKeeper).where(or_(CoKeeper.night_id.in_(nights), CoKeeper.user_id == user_id)),
            delete(KeeperRemoval).where(
                or_(KeeperRemoval.night_id.in_(nights), KeeperRemoval.user_id == user_id)
            ),
            delete(GameResult).where(GameResult.game_id.in_(games)),
            delete(GameRound).where(GameRound.game_id.in_(games)),
            delete(Edit).where(Edit.game_id.in_(games)),
            delete(Seat).where(Seat.game_id.in_(games)),
            delete(Game).where(Game.id.in_(games)),
            delete(LedgerEntry).where(
                or_(LedgerEntry.night_id.in_(nights), LedgerEntry.to_night_id.in_(nights))
            ),
            delete(Person).where(Person.night_id.in_(nights)),
            delete(Night).where(Night.owner_id == user_id),
            delete(RegularMerge).where(RegularMerge.owner_id == user_id),
            delete(PaymentHandle).where(PaymentHandle.regular_id.in_(regulars)),
            update(Regular).where(Regular.owner_id == user_id).values(merged_into_id=None),
            delete(Regular).where(Regular.owner_id == user_id),
            update(Edit).where(Edit.user_id == user_id).values(user_id=None),
            update(LedgerEntry).where(LedgerEntry.user_id == user_id).values(user_id=None),
            update(LedgerEntry).where(LedgerEntry.undone_by == user_id).values(undone_by=None),
            delete(Submission).where(Submission.user_id == user_id),
            delete(UserSession).where(UserSession.user_id == user_id),
            delete(PasswordReset).where(
                or_(PasswordReset.user_id == user_id, PasswordReset.email == email)
            ),
            delete(LoginAttempt).where(LoginAttempt.email == email),
            delete(User).where(User.id == user_id),
        ]
        for statement in statements:
            db.session.execute(statement, execution_options={"synchronize_session": False})
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    db.session.expunge_all()
