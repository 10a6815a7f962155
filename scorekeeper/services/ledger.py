"""The ledger: what people did with a night's money, and what is still to pay.

A night's money has two sources. Its finished games give each person a net (rounded to
the night's step when the table settles in steps). Its ledger entries record what people
did (:class:`~scorekeeper.models.LedgerEntry`): a payment, a debt carried to a later
night, a debt written off. What each person still owes or is owed is

    games' net (+ rounding) + carried in - carried out + paid - received
                            + written off for them - written off to them

and the plan of who pays whom is kept put while money is recorded against it
(``rules.payplan``: the fewest transfers of the games and the debts carried in; each
payment, carry out or write-off reduces the transfer it was made against, and the plan is
drawn again over what is left only when the games change or an entry fits none of its
transfers, and the page says why). People are regulars by id from the games' seats to the
pages; names are only shown. Nothing derived is stored: :func:`night_book` works it out
every time, so a payment stays paid and a carry carried whatever happens afterwards.

A carry counts while both of its nights do: deleting either night puts the debt back where
it was (the source keeps it when the target goes; nobody is charged a debt from a night
that is gone), and restoring it puts the carry back in force. Carries only go forward, to
a night played later (by date, then by order of creation), so a debt can never come back
to the night it left.
What people record (payments, write-offs, carries, undos) goes through services.settle.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlalchemy import func, or_, select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import LedgerEntry, Night, Regular
from ..rules import RecordError, Settlement, Standings, Transfer, format_money, name_key, payplan
from ..rules.errors import Said, say
from ..rules.payplan import Leg
from ..rules.settlement import round_by
from .nights import night_games
from .payments import PayOption, pay_options
from .plan_moved import PlanMoved, carried_in_said, edits_between
from .regulars import merged_since
from .said_night import night_where

PAYMENT, CARRY, WRITE_OFF = payplan.PAYMENT, payplan.CARRY, payplan.WRITE_OFF
KINDS = (PAYMENT, CARRY, WRITE_OFF)
#: A player's "I paid" from the players' page: an entry that moves no money; it counts
#: once the keeper confirms it with a payment (``LedgerEntry.claim_id``).
CLAIM = "claim"
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
        return self.said(night, players=players).english

    def said(self, night: Night, *, players: bool = False) -> Said:
        """What happened, as seen from ``night``; for the players' page (``players``) a
        carry's other night is named by its date only."""
        e, money = self.entry, format_money(self.amount, night.currency)
        who = {"payer": self.payer, "payee": self.payee, "money": money}
        if e.kind == PAYMENT:
            return say("ledger.paid_claimed" if e.claim_id else "ledger.paid", **who)
        if e.kind == WRITE_OFF:
            if self.counted is None or self.counted == self.amount:
                return say("ledger.wrote_off", **who)
            return say("ledger.wrote_off_now", **who,
                       now=format_money(self.counted, night.currency))  # fmt: skip
        other = self.other_night
        where = night_where(other.name if other else None, other.played_on if other else None,
                            players=players)  # fmt: skip
        kind = "ledger.carried_to" if e.night_id == night.id else "ledger.carried_from"
        return say(kind if self.counts else f"{kind}_gone", **who, where=where)


@dataclass(frozen=True, slots=True)
class OpenTransfer:
    """A transfer of the plan still to pay (``leg``: by regular id, as the plan drew it and
    what is left), with the names and regulars behind it, how to pay, and the stamp of the
    plan it belongs to: a form names it by the pair, that stamp and what it showed."""

    transfer: Transfer  # names, and what is left to pay
    payer: Regular | None
    payee: Regular | None
    options: tuple[PayOption, ...] = ()
    owed_back: bool = False  # the payee paid the payer more than they owed
    leg: Leg | None = None
    stamp: str = ""
    claims: tuple[ClaimLine, ...] = ()  # "I paid" said on the players' page, open ones

    def sentence(self, currency: str) -> str:
        return self.said(currency).english

    def said(self, currency: str) -> Said:
        t = self.transfer
        if not self.owed_back:
            return t.said(currency)
        money = format_money(t.amount, currency)
        return say("transfer.pays_back", payer=t.payer, payee=t.payee, money=money)

    def progress(self, currency: str) -> str | None:
        said = self.progress_said(currency)
        return said.english if said else None

    def progress_said(self, currency: str) -> Said | None:
        """What is left of a transfer paid in part: "$2.25 of $4.25 left"."""
        if self.leg is None or not self.leg.touched:
            return None
        left, drawn = (format_money(v, currency) for v in (self.leg.left, self.leg.amount))
        return say("transfer.left", left=left, drawn=drawn)

    @property
    def key(self) -> str:
        """The transfer as a form names it: payer and payee ids."""
        assert self.payer is not None and self.payee is not None
        return f"{self.payer.id}-{self.payee.id}"


@dataclass(frozen=True, slots=True)
class ClaimLine:
    """A player's "I paid" on a transfer: open (``fresh``: the transfer is still as it was
    when they said it; stale otherwise, and it never counts by itself), or confirmed by
    the keeper (``confirmed``: the payment that confirmed it)."""

    entry: LedgerEntry
    payer: str
    payee: str
    fresh: bool
    confirmed: LedgerEntry | None = None

    def sentence(self, currency: str) -> str:
        return self.said(currency).english

    def said(self, currency: str) -> Said:
        money = format_money(self.entry.amount, currency)
        kind = "confirmed" if self.confirmed is not None else "open" if self.fresh else "stale"
        return say(f"claim.{kind}", payer=self.payer, payee=self.payee, money=money)


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
    moved: PlanMoved | None = None  # why the plan was drawn again since money was recorded
    names: dict[int, str] = field(default_factory=dict)  # regular id -> name tonight
    plan: payplan.PayPlan = field(default_factory=lambda: payplan.PayPlan((), "", {}, ()))
    games_part: dict[int, int] = field(default_factory=dict)  # regular id -> games' net
    claims: list[LedgerEntry] = field(default_factory=list)  # "I paid", undone ones too
    stale_claims: list[ClaimLine] = field(default_factory=list)  # on no open transfer

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
        LedgerEntry.kind != CLAIM,  # a player's "I paid" moves nothing until confirmed
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
    """Each person's net from the games, after the night's rounding (by name)."""
    return {n: v + settlement.rounding.get(n, 0) for n, v in settlement.games.items()}


def _move(moved_by: dict[int, int], payer: int, payee: int, amount: int) -> None:
    moved_by[payer] = moved_by.get(payer, 0) + amount
    moved_by[payee] = moved_by.get(payee, 0) - amount


def _games_by_id(
    night: Night, finished: list[Standings], names: dict[int, str]
) -> tuple[dict[int, int], dict[int, int]]:
    """Each regular's net from the finished games and what the night's rounding adds. A
    game's player is the night's person of that name (the record's own key, which the
    seats write: game-record.md), never a spelling matched loosely."""
    person = {p.name: p.regular_id for p in night.people}
    nets: dict[int, int] = {}
    for s in finished:
        for name, amount in s.pot.balances.items():
            if name not in person:
                said = say("ledger.not_on_night", name=name, game=s.variant.title_said,
                           night=night.name)  # fmt: skip
                raise RecordError(said)
            nets[person[name]] = nets.get(person[name], 0) + amount
    rounded = round_by(nets, night.settle_unit or 1, names.__getitem__)
    return nets, {i: rounded[i] - nets[i] for i in nets if rounded[i] != nets[i]}


def _basis(
    part: dict[str, int] | None, carried: list[EntryLine], before: int, through: dict[int, int]
) -> dict[int, int] | None:
    """The balances the plan was drawn from when entry ``before`` was recorded: the games'
    part it kept (a regular merged away since counts as the one it went into: ``through``),
    and the debts carried in (and counting now) recorded before it."""
    if part is None:
        return None
    basis: dict[int, int] = {}
    for key, value in part.items():
        regular = through.get(int(key), int(key))
        basis[regular] = basis.get(regular, 0) + value
    for line in carried:
        if line.entry.id < before:
            _move(basis, line.entry.payer_id, line.entry.payee_id, -line.entry.amount)
    return basis


def _plan(
    lines: dict[str, list[EntryLine]], part: dict[int, int], names: dict[int, str]
) -> tuple[payplan.PayPlan, list[EntryLine]]:
    """The plan in force (``rules.payplan``), from the night's balances and the entries
    recorded on it that count, in the order recorded; those entries as they count now."""
    carried = [x for x in lines["in"] if x.counts]
    now = dict(part)
    for line in carried:
        _move(now, line.entry.payer_id, line.entry.payee_id, -line.entry.amount)
    acted = sorted(
        (x for k in ("pay", "out", "off") for x in lines[k] if x.counts), key=lambda x: x.entry.id
    )
    through = merged_since({int(k) for x in acted for k in (x.entry.games_part or {})} - set(names))
    recorded = [
        payplan.Recorded(
            x.entry.kind, x.entry.payer_id, x.entry.payee_id, x.entry.amount,
            _basis(x.entry.games_part, carried, x.entry.id, through),
        )
        for x in acted
    ]  # fmt: skip
    plan = payplan.keep_plan(now, recorded, names.__getitem__)
    counted = {x.entry.id: c for x, c in zip(acted, plan.counted, strict=True)}
    lines["off"] = [replace(x, counted=counted.get(x.entry.id, 0)) for x in lines["off"]]
    return plan, acted


def night_book(night: Night, *, games: list[tuple[str, Standings]] | None = None) -> NightBook:
    """The night's money, worked out from its finished games and its ledger: the one place
    where a night is settled. The payout page, the players' page, the PDF, the text, the
    CSV and the stats all read it. People are regulars, by id, from the games' seats and
    the entries to the page; names are only shown."""
    games = night_games(night) if games is None else games
    entries = entries_of(night.id)
    names = _names(night, entries)
    lines, claims = _lines(night, entries, names)
    finished = [s for _, s in games if s.finished]
    for i, s in enumerate(finished, 1):
        if s.pot.currency != night.currency:
            raise RecordError(
                say("ledger.other_currency", number=i, currency=s.pot.currency,
                    night=night.currency)
            )  # fmt: skip
    nets, rounding = _games_by_id(night, finished, names)
    part = {i: nets[i] + rounding.get(i, 0) for i in nets}
    plan, acted = _plan(lines, part, names)
    moved_by = dict(plan.balances)
    for i, v in part.items():
        moved_by[i] = moved_by.get(i, 0) - v
    settlement = Settlement(
        night.currency,
        {names[i]: part.get(i, 0) + moved_by.get(i, 0) for i in {*part, *moved_by}},
        tuple(Transfer(names[x.payer], names[x.payee], x.left) for x in plan.open),
        games={names[i]: v for i, v in nets.items()},
        ledger={names[i]: v for i, v in moved_by.items() if v},
        rounding={names[i]: v for i, v in rounding.items()},
        unit=night.settle_unit or 1,
    )
    book = NightBook(
        night, games, settlement, [],
        payments=lines["pay"], carried_out=lines["out"], carried_in=lines["in"],
        written_off=lines["off"], undone=lines["undone"], names=names,
        plan=plan, games_part=part,
    )  # fmt: skip
    book.claims = claims
    book.transfers = _open_transfers(book, claims)
    shown = {c.entry.id for t in book.transfers for c in t.claims}
    book.stale_claims = [
        c for c in claim_lines(book, claims) if c.entry.id not in shown and c.confirmed is None
    ]
    book.moved = _why(night, plan, acted, lines["in"], names)
    return book


def _lines(
    night: Night, entries: list[LedgerEntry], names: dict[int, str]
) -> tuple[dict[str, list[EntryLine]], list[LedgerEntry]]:
    """The night's entries as it shows them, by what they are; and its claims."""
    lines: dict[str, list[EntryLine]] = {k: [] for k in ("pay", "out", "in", "off", "undone")}
    claims = []
    for e in entries:
        if e.kind == CLAIM:
            claims.append(e)
            continue
        outgoing = e.night_id == night.id
        other = e.to_night if outgoing else e.night
        counts = e.kind != CARRY or (_live(e.night) and _live(e.to_night))
        line = EntryLine(e, names[e.payer_id], names[e.payee_id], counts, other)
        if e.undone_at is not None:
            lines["undone"].append(line)
            continue
        slot = {PAYMENT: "pay", WRITE_OFF: "off"}.get(e.kind) or ("out" if outgoing else "in")
        lines[slot].append(line)
    return lines, claims


def _open_transfers(book: NightBook, claims: list[LedgerEntry]) -> list[OpenTransfer]:
    night, names = book.night, book.names
    regulars = _load_handles({i for leg in book.plan.open for i in leg.pair})
    note = f"{night.name} {night.played_on.isoformat()}"
    paid_pairs = {(x.entry.payer_id, x.entry.payee_id) for x in book.payments}
    claimed = claim_lines(book, claims)
    transfers = []
    for leg in book.plan.open:
        payee = regulars[leg.payee]
        handles = [(h.kind, h.value) for h in payee.handles]
        transfers.append(
            OpenTransfer(
                Transfer(names[leg.payer], names[leg.payee], leg.left),
                regulars[leg.payer],
                payee,
                tuple(pay_options(handles, leg.left, night.currency, note)),
                owed_back=(leg.payee, leg.payer) in paid_pairs,
                leg=leg,
                stamp=book.plan.stamp,
                claims=tuple(c for c in claimed if c.entry.payer_id == leg.payer
                             and c.entry.payee_id == leg.payee and c.confirmed is None),
            )
        )  # fmt: skip
    return transfers


def claim_lines(book: NightBook, claims: list[LedgerEntry]) -> list[ClaimLine]:
    """The night's claims in force (not undone), each fresh while its transfer is exactly
    as it was when it was said (the same plan, the same amount left), or confirmed by a
    payment in force."""
    confirming = {x.entry.claim_id: x.entry for x in book.payments if x.entry.claim_id}
    out = []
    for c in claims:
        if c.undone_at is not None:
            continue
        leg = book.plan.leg(c.payer_id, c.payee_id)
        fresh = leg is not None and c.plan == book.plan.stamp and leg.left == c.amount
        out.append(
            ClaimLine(c, book.names[c.payer_id], book.names[c.payee_id], fresh,
                      confirming.get(c.id))
        )  # fmt: skip
    return out


def _why(
    night: Night,
    plan: payplan.PayPlan,
    acted: list[EntryLine],
    carried: list[EntryLine],
    names: dict[int, str],
) -> PlanMoved | None:
    """Why the plan was drawn again since money was last recorded against it, in words."""
    redrawn = plan.redrawn
    if redrawn is None:
        return None
    if redrawn.misfit is not None:
        line = acted[redrawn.at]
        said = say("moved.misfit", entry=line.said(night), misfit=redrawn.misfit)
        return PlanMoved(line.entry.created_at, (), (said,))
    since = acted[redrawn.at - 1].entry
    until = acted[redrawn.at].entry if redrawn.at < len(acted) else None
    why, more = edits_between(night, since.created_at, until.created_at if until else None)
    for x in carried:
        if x.counts and since.id < x.entry.id and (until is None or x.entry.id < until.id):
            assert x.other_night is not None
            why.append(carried_in_said(x.payer, x.payee, x.amount, x.other_night, night.currency))
    changes = tuple(
        sorted(((names[i], v) for i, v in redrawn.moved.items()), key=lambda c: c[0].casefold())
    )
    return PlanMoved(since.created_at, changes, tuple(why), more)
