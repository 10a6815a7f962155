"""The operator's view of accounts: find one, list them all, disable or enable one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update

from ...extensions import db
from ...models import Night, PasswordReset, User, UserSession, utcnow


# ------------------------------------------------------------------ operators ---
def find_user(email: str) -> User | None:
    return db.session.scalar(select(User).where(User.email == email.strip().lower()))


def set_disabled(user: User, disabled: bool) -> None:
    """Disable the account (it cannot log in; every login of it ends; its reset links
    stop working) or enable it again. Committed."""
    if disabled:
        if user.disabled_at is None:
            user.disabled_at = utcnow()
        db.session.execute(delete(UserSession).where(UserSession.user_id == user.id))
        db.session.execute(
            update(PasswordReset)
            .where(PasswordReset.user_id == user.id, PasswordReset.used_at.is_(None))
            .values(used_at=utcnow())
        )
    else:
        user.disabled_at = None
    db.session.commit()


@dataclass(frozen=True)
class AccountLine:
    email: str
    created_at: datetime
    disabled_at: datetime | None
    nights: int
    logins: int


def accounts() -> list[AccountLine]:
    """Every account, by email, with its number of nights and of live logins."""
    nights = (
        select(func.count()).select_from(Night).where(Night.owner_id == User.id)
    ).scalar_subquery()
    logins = (
        select(func.count())
        .select_from(UserSession)
        .where(UserSession.user_id == User.id, UserSession.expires_at > utcnow())
    ).scalar_subquery()
    rows = db.session.execute(
        select(User.email, User.created_at, User.disabled_at, nights, logins).order_by(User.email)
    ).all()
    return [AccountLine(*row) for row in rows]
