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
from ..rules.errors import Said, say
from ..rules.money import signed_money
from .said_night import joined


@dataclass(frozen=True, slots=True)
class PlanMoved:
    """Why the plan changed since money was last recorded against it: what moved it
    (``why``: "round 3 of Vegas Rummy was corrected by ann@example.com", the latest few;
    ``more_edits`` left out), and how much each person's balance moved (``changes``)."""

    since: datetime | None
    changes: tuple[tuple[str, int], ...]  # (name, how much their balance moved)
    why: tuple[Said, ...] = ()
    more_edits: int = 0

    def sentence(self, currency: str, where: str = "above") -> str:
        return self.said(currency, where).english

    def said(self, currency: str, where: str = "above") -> Said:
        """``where`` the transfers still to pay stand from this note: "above" (the chat
        text and the PDF, which list them first), "below" (the payout page) or "on the
        page" (a refusal)."""
        what = joined(list(self.why)) or say("moved.balances")
        if self.more_edits:
            more = "moved.more_one" if self.more_edits == 1 else "moved.more"
            what = say(
                more, what=what, **({"count": self.more_edits} if self.more_edits > 1 else {})
            )
        place = say({"above": "moved.above", "below": "moved.below"}.get(where, "moved.on_page"))
        moved = ", ".join(f"{n} {signed_money(c, currency)}" for n, c in self.changes)
        if not moved:
            return say("moved.note", what=what, where=place)
        return say("moved.note_changes", what=what, changes=moved, where=place)


#: The changes of a game that move its money, as the note words them (rules/said_night.py).
MOVING = {action: f"moved.{action}" for action in ("add", "edit", "remove", "import",
                                                    "delete", "restore")}  # fmt: skip
ROUNDS = ("add", "edit", "remove")  # the changes of one round, which the note numbers
EDITS_NAMED = 3


def edits_between(
    night: Night, since: datetime, until: datetime | None = None
) -> tuple[list[Said], int]:
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
        _edit(action, number, titles[game_id], variant, email)
        for action, number, game_id, variant, email in db.session.execute(query).all()
    ]
    latest = worded[-EDITS_NAMED:]
    return latest, len(worded) - len(latest)


def _edit(action: str, number: int | None, game: str, variant: str, email: str | None) -> Said:
    who = email or say("moved.deleted_account")
    if action not in ROUNDS:
        return say(MOVING[action], game=game, who=who)
    word = get_variant(variant).display.round_word
    return say(MOVING[action], word=word, number=number or 0, game=game, who=who)


def carried_in_said(payer: str, payee: str, amount: int, source: Night, currency: str) -> Said:
    """A debt carried into the night, as the note names it."""
    return say("moved.carried_in", payer=payer, payee=payee,
               money=format_money(amount, currency), night=source.name,
               day=source.played_on.isoformat())  # fmt: skip
