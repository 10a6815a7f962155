"""Why a night's plan of who pays whom was drawn again, in words: the games changed
between two entries (or since the last), a debt was carried in, or an entry fitted none
of the plan's transfers (``rules.payplan.Redrawn`` says which; this module names it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from ..extensions import db
from ..models import Edit, Game, Night, User
from ..rules import format_money, get_variant
from ..rules.money import signed_money


@dataclass(frozen=True, slots=True)
class PlanMoved:
    """Why the plan changed since money was last recorded against it: what moved it
    (``why``: "round 3 of Vegas Rummy was corrected by ann@example.com", the latest few;
    ``more_edits`` left out), and how much each person's balance moved (``changes``)."""

    since: datetime | None
    changes: tuple[tuple[str, int], ...]  # (name, how much their balance moved)
    why: tuple[str, ...] = ()
    more_edits: int = 0

    def sentence(self, currency: str, where: str = "above") -> str:
        """``where`` the transfers still to pay stand from this note: "above" (the chat
        text and the PDF, which list them first) or "below" (the payout page)."""
        what = "; ".join(self.why) or "the night's balances moved"
        if self.more_edits:
            what += f"; and {self.more_edits} more change{'s' if self.more_edits > 1 else ''}"
        moved = ", ".join(f"{n} {signed_money(c, currency)}" for n, c in self.changes)
        return (
            f"The plan changed because {what}{f': {moved}' if moved else ''}. What was paid"
            f" and carried stays as it was; what is still to pay is worked out again {where}."
        )


#: The changes of a game that move its money, as the note words them.
MOVING = {
    "add": "{word} {n} of {game} was entered",
    "edit": "{word} {n} of {game} was corrected",
    "remove": "{word} {n} of {game} was removed",
    "import": "{game} was imported",
    "delete": "{game} was deleted",
    "restore": "{game} was restored",
}
EDITS_NAMED = 3


def edits_between(
    night: Night, since: datetime, until: datetime | None = None
) -> tuple[list[str], int]:
    """The night's game changes after ``since`` (and before ``until``) that move money,
    the latest ``EDITS_NAMED`` worded (oldest first), and how many more there were. A game
    whose title another of the night's games shares is told apart by its place
    ("Rummy 2")."""
    games = db.session.execute(
        select(Game.id, Game.variant).where(Game.night_id == night.id).order_by(Game.id)
    ).all()
    titles: dict[int, str] = {}
    for game_id, variant in games:
        same = [g for g, v in games if v == variant]
        title = get_variant(variant).title
        titles[game_id] = f"{title} {same.index(game_id) + 1}" if len(same) > 1 else title
    query = (
        select(Edit.action, Edit.round_number, Edit.game_id, Game.variant, User.email)
        .join(Game, Game.id == Edit.game_id)
        .outerjoin(User, User.id == Edit.user_id)
        .where(Game.night_id == night.id, Edit.created_at > since)
        .where(Edit.action.in_(MOVING))
        .order_by(Edit.id)
    )
    if until is not None:
        query = query.where(Edit.created_at <= until)
    worded = [
        MOVING[action].format(
            word=get_variant(variant).display.round_word, n=number, game=titles[game_id]
        )
        + f" by {email or 'a deleted account'}"
        for action, number, game_id, variant, email in db.session.execute(query).all()
    ]
    latest = worded[-EDITS_NAMED:]
    return latest, len(worded) - len(latest)


def carried_in_said(payer: str, payee: str, amount: int, source: Night, currency: str) -> str:
    """A debt carried into the night, as the note names it."""
    return (
        f"{payer}'s debt of {format_money(amount, currency)} to {payee} was carried in from "
        f"{source.name} ({source.played_on.isoformat()})"
    )
