"""CSV exports people open in a spreadsheet: a night (each game's standings and money with
its status, each person's balance, the night's ledger, what is still to pay) and a
regular's history. Amounts are plain decimals in the currency's major unit ("12.50",
"500" yen), the currency in its own column, so a spreadsheet sums them exactly.

Every text cell that a spreadsheet would read as a formula (one starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return: a name like ``=HYPERLINK(...)``) is
neutralised as OWASP recommends, with a leading apostrophe; numbers are written as
numbers."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from ..rules import Standings
from ..rules.money import to_major

if TYPE_CHECKING:
    from ..services.ledger import EntryLine, NightBook

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A cell as written: numbers as they are, text that could start a formula behind an
    apostrophe (OWASP, "CSV Injection")."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Sheet:
    def __init__(self) -> None:
        self.out = io.StringIO()
        self._csv = csv.writer(self.out)

    def row(self, *cells: object) -> None:
        self._csv.writerow([safe_cell(c) for c in cells])

    def text(self) -> str:
        return self.out.getvalue()


def night_csv(book: NightBook, deleted: Sequence[tuple[str, Standings]] = ()) -> str:
    """The night as a spreadsheet: the games with their status (only finished games count
    in the nets; a running or deleted game's money is left empty), each person's balance,
    the ledger, and the transfers still to pay."""
    night, cur = book.night, book.currency

    def money(amount: int) -> Decimal:
        return to_major(amount, cur)

    sheet = _Sheet()
    sheet.row("night", night.name, night.played_on.isoformat(), cur)
    sheet.row()
    sheet.row("game", "status", "player", "place", "total", "paid in", "received", "net")
    games = [(t, "finished" if s.finished else "running", s) for t, s in book.games]
    games += [(t, "deleted", s) for t, s in deleted]
    for title, status, s in games:
        for p in s.players:
            counted = status == "finished"
            sheet.row(
                title, status, p.name, p.place, p.total,
                money(s.pot.paid_in_by(p.name)) if counted else "",
                money(s.pot.paid_out_to(p.name)) if counted else "",
                money(s.pot.balances.get(p.name, 0)) if counted else "",
            )  # fmt: skip
    settlement = book.settlement
    sheet.row()
    sheet.row("person", "net from games", "rounding", "paid, carried, written off", "balance")
    for name, balance in sorted(settlement.people.items(), key=lambda kv: kv[0].casefold()):
        sheet.row(
            name,
            money(settlement.games.get(name, 0)),
            money(settlement.rounding.get(name, 0)),
            money(settlement.ledger.get(name, 0)),
            money(balance),
        )
    sheet.row()
    sheet.row("entry", "recorded", "from", "to", "amount", "other night", "counts")
    for line in book.recorded:
        e = line.entry
        kind = (
            e.kind if e.kind != "carry" else ("carry out" if e.night_id == night.id else "carry in")
        )
        other = line.other_night
        sheet.row(
            kind,
            e.created_at.isoformat(timespec="minutes"),
            line.payer,
            line.payee,
            money(e.amount),
            f"{other.name} {other.played_on.isoformat()}" if other and e.kind == "carry" else "",
            _counts(line, money),
        )
    sheet.row()
    sheet.row("from", "to", "amount still to pay")
    for t in settlement.transfers:
        sheet.row(t.payer, t.payee, money(t.amount))
    return sheet.text()


def _counts(line: EntryLine, money: Callable[[int], Decimal]) -> object:
    """Whether an entry counts: yes, no (a carry whose other night is deleted), or what a
    write-off forgives now when that is less than its amount."""
    if not line.counts:
        return "no"
    if line.in_force != line.amount:
        return money(line.in_force)
    return "yes"


def history_csv(nights: Iterable[tuple[date, str, str, int, int, int, str]]) -> str:
    """A regular's nights: (date, night, played as, games, won, net, currency); the net is
    the night's games part after its rounding, in the currency's major unit."""
    sheet = _Sheet()
    sheet.row("date", "night", "played as", "games", "won", "net", "currency")
    for day, night, played_as, games, won, net, currency in nights:
        sheet.row(day.isoformat(), night, played_as, games, won, to_major(net, currency), currency)
    return sheet.text()


def csv_response_name(filename: str) -> str:
    """A download name safe in a Content-Disposition header."""
    return "".join(ch if ch.isalnum() or ch in "-._" else "-" for ch in filename)
