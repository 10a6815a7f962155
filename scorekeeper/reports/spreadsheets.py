"""CSV exports people open in a spreadsheet: a night (each game's standings and money,
then who pays whom) and a regular's history. Amounts are plain decimals ("12.50"), the
currency in its own column, so a spreadsheet sums them exactly."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date

from ..rules import Standings, Transfer
from ..rules.money import decimal_text


def night_csv(
    name: str,
    played_on: date,
    currency: str,
    games: Sequence[tuple[str, Standings]],
    transfers: Iterable[Transfer],
) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["night", name, played_on.isoformat(), currency])
    writer.writerow([])
    writer.writerow(["game", "player", "place", "total", "paid in", "received", "net"])
    for title, s in games:
        for p in s.players:
            writer.writerow(
                [
                    title,
                    p.name,
                    p.place,
                    p.total,
                    decimal_text(s.pot.paid_in_by(p.name)),
                    decimal_text(s.pot.paid_out_to(p.name)),
                    decimal_text(s.pot.balances.get(p.name, 0)),
                ]
            )
    writer.writerow([])
    writer.writerow(["from", "to", "amount"])
    for t in transfers:
        writer.writerow([t.payer, t.payee, decimal_text(t.amount)])
    return out.getvalue()


def history_csv(nights: Iterable[tuple[date, str, str, int, int, int, str]]) -> str:
    """A regular's nights: (date, night, played as, games, won, net cents, currency)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "night", "played as", "games", "won", "net", "currency"])
    for day, night, played_as, games, won, net, currency in nights:
        writer.writerow(
            [day.isoformat(), night, played_as, games, won, decimal_text(net), currency]
        )
    return out.getvalue()


def csv_response_name(filename: str) -> str:
    """A download name safe in a Content-Disposition header."""
    return "".join(ch if ch.isalnum() or ch in "-._" else "-" for ch in filename)
