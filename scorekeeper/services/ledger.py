"""The ledger: what people did with a night's money, and what is still to pay.

A night's money has two sources. Its finished games give each person a net (rounded to
the night's step when the table settles in steps). Its ledger entries record what people
did (:class:`~scorekeeper.models.LedgerEntry`): a payment, a debt carried to a later
night, a debt written off. What each person still owes or is owed is

    games' net (+ rounding) + carried in - carried out + paid - received
                            + written off for them - written off to them

and the suggested transfers are the fewest transfers of those balances. Nothing derived is
stored: :func:`night_book` works it out from the games and the entries every time, so a
payment stays paid and a carried debt stays carried whatever happens to the night's games
or rounding afterwards; only what is still to pay moves.

A carry counts while both of its nights do: deleting either night puts the debt back where
it was (the source keeps it when the target goes; nobody is charged a debt from a night
that is gone), and restoring it puts the carry back in force. Carries only go forward, to
a night played later (by date, then by order of creation), so a debt can never come back
to the night it left.

What people record (payments, write-offs, carries, undos) goes through
:mod:`scorekeeper.services.settle`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Edit, Game, LedgerEntry, Night, Regular, User
from ..rules import Settlement, Standings, Transfer, format_money, get_variant, name_key, settle
from ..rules.forgiving import forgiven
from ..rules.money import signed_money
from ..rules.settlement import net_by_person, round_to_unit
from .keepers import kept_by
from .nights import night_games
from .payments import PayOption, pay_options

PAYMENT, CARRY, WRITE_OFF = "payment", "carry", "write_off"
KINDS = (PAYMENT, CARRY, WRITE_OFF)
#: The most entries one night's book holds (recorded on it or carried into it, undone ones
#: too), as a game holds at most ``MAX_ROUNDS`` rounds: far beyond a table's evening (the
#: debts of 60 people settle in at most 59 transfers), and the payout page's statements
#: stay flat up to it (tests/web/test_queries.py; its time: benchmarks/ledger_cost.py).
MAX_ENTRIES_PER_NIGHT = 500


@dataclass(frozen=True, slots=True)
class EntryLine:
    """A ledger entry as one night shows it: names as the night spells them, and whether
    it counts there now (a carry whose other night is deleted does not)."""

    entry: LedgerEntry
    payer: str
    payee: str
    counts: bool
    other_night: Night | None = None  # a carry's other end
    counted: int | None = None  # what a write-off forgives now (None: its amount)

    @property
    def amount(self) -> int:
        return self.entry.amount

    @property
    def undone(self) -> bool:
        return self.entry.undone_at is not None

    @property
    def in_force(self) -> int:
        """What the entry moves on this night now: a write-off what it forgives now, a
        carry nothing while one of its nights is deleted."""
        if not self.counts:
            return 0
        return self.amount if self.counted is None else self.counted

    def sentence(self, night: Night, *, players: bool = False) -> str:
        """What happened, in words, as seen from ``night``; for the players' page
        (``players``) a carry's other night is named by its date only."""
        money = format_money(self.amount, night.currency)
        e = self.entry
        if e.kind == PAYMENT:
            return f"{self.payer} paid {self.payee} {money}"
        if e.kind == WRITE_OFF:
            said = f"{self.payee} wrote off the {money} {self.payer} owed"
            if self.counted is None or self.counted == self.amount:
                return said
            now = format_money(self.counted, night.currency)
            return f"{said} (counts {now} now: no more is owed between them on this night)"
        other = self.other_night
        where = "another night"
        if other is not None:
            day = other.played_on.isoformat()
            where = f"the night of {day}" if players else f"{other.name} ({day})"
        gone = "" if self.counts else " (that night is deleted: not counted)"
        if e.night_id == night.id:
            return f"{self.payer} owed {self.payee} {money}: carried to {where}{gone}"
        return f"{self.payer} owed {self.payee} {money} from {where}{gone}"


@dataclass(frozen=True, slots=True)
class OpenTransfer:
    """A transfer still to pay, with the regulars behind the names and how to pay."""

    transfer: Transfer
    payer: Regular | None
    payee: Regular | None
    options: tuple[PayOption, ...] = ()
    owed_back: bool = False  # the payee paid the payer more than they owed

    def sentence(self, currency: str) -> str:
        back = " back" if self.owed_back else ""
        return (
            f"{self.transfer.payer} pays {self.transfer.payee} "
            f"{format_money(self.transfer.amount, currency)}{back}"
        )


@dataclass(frozen=True, slots=True)
class MovedSince:
    """The games' part of the balances moved after money was last recorded: by whom and
    how (``edits``: "round 3 of Vegas Rummy corrected by ann@example.com", the latest
    few), and how much for each person."""

    since: datetime
    changes: tuple[tuple[str, int], ...]  # (name, how much their games' part moved)
    edits: tuple[str, ...] = ()
    more_edits: int = 0  # changes left out of ``edits``

    def sentence(self, currency: str, where: str = "above") -> str:
        """``where`` the transfers still to pay stand from this note: "above" (the chat
        text and the PDF, which list them first) or "below" (the payout page)."""
        moved = ", ".join(f"{n} {signed_money(c, currency)}" for n, c in self.changes)
        what = "; ".join(self.edits)
        if self.more_edits:
            what += f"; and {self.more_edits} more change{'s' if self.more_edits > 1 else ''}"
        return (
            f"The games changed after money was last recorded here"
            f"{f' ({what})' if what else ''}: {moved}. What was paid and carried stays as it"
            f" was; what is still to pay is worked out again {where}."
        )


#: The changes of a game that move its money, as the note words them.
MOVING = {
    "add": "{word} {n} of {game} entered",
    "edit": "{word} {n} of {game} corrected",
    "remove": "{word} {n} of {game} removed",
    "import": "{game} imported",
    "delete": "{game} deleted",
    "restore": "{game} restored",
}
EDITS_NAMED = 3


def _edits_since(night: Night, since: datetime) -> tuple[tuple[str, ...], int]:
    """The night's game changes after ``since`` that move money, the latest
    ``EDITS_NAMED`` worded (oldest first), and how many more there were. A game whose
    title another of the night's games shares is told apart by its place ("Rummy 2")."""
    games = db.session.execute(
        select(Game.id, Game.variant).where(Game.night_id == night.id).order_by(Game.id)
    ).all()
    titles: dict[int, str] = {}
    for game_id, variant in games:
        same = [g for g, v in games if v == variant]
        title = get_variant(variant).title
        titles[game_id] = f"{title} {same.index(game_id) + 1}" if len(same) > 1 else title
    rows = db.session.execute(
        select(Edit.action, Edit.round_number, Edit.game_id, Game.variant, User.email)
        .join(Game, Game.id == Edit.game_id)
        .outerjoin(User, User.id == Edit.user_id)
        .where(Game.night_id == night.id, Edit.created_at > since)
        .where(Edit.action.in_(MOVING))
        .order_by(Edit.id)
    ).all()
    worded = [
        MOVING[action].format(
            word=get_variant(variant).display.round_word, n=number, game=titles[game_id]
        )
        + f" by {email or 'a deleted account'}"
        for action, number, game_id, variant, email in rows
    ]
    latest = worded[-EDITS_NAMED:]
    return tuple(latest), len(worded) - len(latest)


@dataclass
class NightBook:
    """A night's money: its games, its ledger, and what is still to pay."""

    night: Night
    games: list[tuple[str, Standings]]
    settlement: Settlement
    transfers: list[OpenTransfer]
    payments: list[EntryLine] = field(default_factory=list)
    carried_out: list[EntryLine] = field(default_factory=list)
    carried_in: list[EntryLine] = field(default_factory=list)
    written_off: list[EntryLine] = field(default_factory=list)
    undone: list[EntryLine] = field(default_factory=list)
    moved: MovedSince | None = None
    names: dict[int, str] = field(default_factory=dict)  # regular id -> name tonight

    @property
    def currency(self) -> str:
        return self.night.currency

    @property
    def recorded(self) -> list[EntryLine]:
        """Everything recorded that is in force, oldest first."""
        lines = self.payments + self.carried_out + self.carried_in + self.written_off
        return sorted(lines, key=lambda line: line.entry.id)

    @property
    def has_entries(self) -> bool:
        return bool(self.recorded)

    @property
    def parties(self) -> list[tuple[int, str]]:
        """Who may pay or be paid on this night: (regular id, name), by name."""
        return sorted(self.names.items(), key=lambda kv: kv[1].casefold())


# ---------------------------------------------------------------------- reading ---
def _live(night: Night | None) -> bool:
    return night is not None and night.deleted_at is None


def entries_of(night_id: int) -> list[LedgerEntry]:
    """Every entry recorded on the night or carried into it, undone ones too, oldest
    first, with their people and nights."""
    query = (
        select(LedgerEntry)
        .where(or_(LedgerEntry.night_id == night_id, LedgerEntry.to_night_id == night_id))
        .options(
            selectinload(LedgerEntry.payer),
            selectinload(LedgerEntry.payee),
            selectinload(LedgerEntry.night),
            selectinload(LedgerEntry.to_night),
            selectinload(LedgerEntry.user),  # who recorded it, on the payout page
        )
        .order_by(LedgerEntry.id)
    )
    return list(db.session.scalars(query))


def entry_count(night_id: int) -> int:
    """How many entries the night's book holds (recorded on it or carried into it, undone
    ones too): what :data:`MAX_ENTRIES_PER_NIGHT` bounds."""
    query = select(func.count(LedgerEntry.id)).where(
        or_(LedgerEntry.night_id == night_id, LedgerEntry.to_night_id == night_id)
    )
    return int(db.session.scalar(query) or 0)


def money_recorded(night_id: int) -> bool:
    """Whether money was recorded on the night (paid, carried in or out, written off)."""
    query = select(LedgerEntry.id).where(
        or_(LedgerEntry.night_id == night_id, LedgerEntry.to_night_id == night_id),
        LedgerEntry.undone_at.is_(None),
    )
    return db.session.scalar(query.limit(1)) is not None


MONEY_MOVES = "Money was paid or carried on this night already: this changes what is still to pay."


def money_moves(night_id: int, finished: bool) -> str | None:
    """The line a page that changes a game shows before saving, when the change moves
    money people already acted on: only a finished game counts in what is still to pay
    (a running one moves nothing until it ends), and only once money was recorded."""
    return MONEY_MOVES if finished and money_recorded(night_id) else None


def _names(night: Night, entries: list[LedgerEntry]) -> dict[int, str]:
    """Each regular's name on this night: their spelling on the night's list, else their
    own (with a ``*`` where one of the night's people has that name already)."""
    names = {p.regular_id: p.name for p in night.people}
    taken = {name_key(n) for n in names.values()}
    for e in entries:
        for regular in (e.payer, e.payee):
            if regular.id not in names:
                name = regular.name
                while name_key(name) in taken:
                    name += "*"
                names[regular.id] = name
                taken.add(name_key(name))
    return names


def _load_handles(regular_ids: set[int]) -> dict[int, Regular]:
    if not regular_ids:
        return {}
    query = (
        select(Regular).where(Regular.id.in_(regular_ids)).options(selectinload(Regular.handles))
    )
    return {r.id: r for r in db.session.scalars(query)}


def games_part(settlement: Settlement) -> dict[str, int]:
    """Each person's net from the games, after the night's rounding."""
    return {n: v + settlement.rounding.get(n, 0) for n, v in settlement.games.items()}


def _move(moved_by: dict[str, int], payer: str, payee: str, amount: int) -> None:
    moved_by[payer] = moved_by.get(payer, 0) + amount
    moved_by[payee] = moved_by.get(payee, 0) - amount


def _forgive(
    finished: list[Standings], unit: int, moved_by: dict[str, int], lines: list[EntryLine]
) -> list[EntryLine]:
    """The night's write-offs, each forgiving what it forgives now
    (:func:`~scorekeeper.rules.forgiving.forgiven`: at most what is still owed between
    the two, never less than nothing), added to ``moved_by``."""
    if not lines:
        return lines
    rounded = round_to_unit(net_by_person(s.pot.balances for s in finished), unit)
    before = net_by_person([rounded, moved_by])
    parts = forgiven(before, [(x.payer, x.payee, x.amount) for x in lines])
    for line, part in zip(lines, parts, strict=True):
        if part:
            _move(moved_by, line.payer, line.payee, part)
    return [replace(line, counted=part) for line, part in zip(lines, parts, strict=True)]


def night_book(night: Night, *, games: list[tuple[str, Standings]] | None = None) -> NightBook:
    """The night's money, worked out from its finished games and its ledger: the one place
    where a night is settled. The payout page, the players' page, the PDF, the text, the
    CSV and the stats all read it."""
    games = night_games(night) if games is None else games
    entries = entries_of(night.id)
    names = _names(night, entries)
    by_key = {name_key(n): rid for rid, n in names.items()}
    book_lines: dict[str, list[EntryLine]] = {k: [] for k in ("pay", "out", "in", "off", "undone")}
    moved_by: dict[str, int] = {}
    for e in entries:
        outgoing = e.night_id == night.id
        other = e.to_night if outgoing else e.night
        counts = e.kind != CARRY or (_live(e.night) and _live(e.to_night))
        line = EntryLine(e, names[e.payer_id], names[e.payee_id], counts, other)
        if e.undone_at is not None:
            book_lines["undone"].append(line)
            continue
        slot = {PAYMENT: "pay", WRITE_OFF: "off"}.get(e.kind) or ("out" if outgoing else "in")
        book_lines[slot].append(line)
        if not counts or e.kind == WRITE_OFF:
            continue
        # A payment or a debt carried out settles what the payer owed here; a debt
        # carried in is owed here.
        sign = -1 if e.kind == CARRY and not outgoing else 1
        _move(moved_by, line.payer, line.payee, sign * e.amount)
    finished = [s for _, s in games if s.finished]
    unit = night.settle_unit or 1
    book_lines["off"] = _forgive(finished, unit, moved_by, book_lines["off"])
    settlement = settle(finished, night.currency, ledger=moved_by, unit=unit)
    regulars = _load_handles({by_key[name_key(n)] for n in settlement.people if n})
    note = f"{night.name} {night.played_on.isoformat()}"
    paid_pairs = {(line.payer, line.payee) for line in book_lines["pay"]}
    transfers = []
    for t in settlement.transfers:
        payer = regulars.get(by_key.get(name_key(t.payer), -1))
        payee = regulars.get(by_key.get(name_key(t.payee), -1))
        handles = [(h.kind, h.value) for h in payee.handles] if payee else []
        transfers.append(
            OpenTransfer(
                t,
                payer,
                payee,
                tuple(pay_options(handles, t.amount, night.currency, note)),
                owed_back=(t.payee, t.payer) in paid_pairs,
            )
        )
    return NightBook(
        night,
        games,
        settlement,
        transfers,
        payments=book_lines["pay"],
        carried_out=book_lines["out"],
        carried_in=book_lines["in"],
        written_off=book_lines["off"],
        undone=book_lines["undone"],
        moved=_moved_since(night, entries, settlement, names),
        names=names,
    )


def _moved_since(
    night: Night, entries: list[LedgerEntry], settlement: Settlement, names: dict[int, str]
) -> MovedSince | None:
    """How the games' part moved since the last entry recorded on this night (each entry
    keeps the games' part as it was when it was recorded)."""
    last = next(
        (e for e in reversed(entries) if e.night_id == night.id and e.undone_at is None), None
    )
    if last is None or last.games_part is None:
        return None
    now = {name_key(n): v for n, v in games_part(settlement).items()}
    then = {int(k): v for k, v in last.games_part.items()}
    changes = []
    for regular_id, name in names.items():
        delta = now.get(name_key(name), 0) - then.get(regular_id, 0)
        if delta:
            changes.append((name, delta))
    if not changes:
        return None
    edits, more = _edits_since(night, last.created_at)
    ordered = tuple(sorted(changes, key=lambda c: c[0].casefold()))
    return MovedSince(last.created_at, ordered, edits, more)


def later_nights(night: Night, user: User) -> list[Night]:
    """Where this night's unpaid debts may be carried: the owner's nights in the same currency
    played after it that ``user`` keeps too (by date, then creation), soonest first."""
    query = (
        select(Night)
        .where(
            Night.owner_id == night.owner_id,
            kept_by(user.id),
            Night.deleted_at.is_(None),
            Night.currency == night.currency,
            or_(
                Night.played_on > night.played_on,
                (Night.played_on == night.played_on) & (Night.id > night.id),
            ),
        )
        .order_by(Night.played_on, Night.id)
        .limit(20)
    )
    return list(db.session.scalars(query))


def is_later(target: Night, night: Night) -> bool:
    return (target.played_on, target.id) > (night.played_on, night.id)
