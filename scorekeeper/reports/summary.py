"""A night's payout summary: what is still to pay, what was paid and carried, each
person's net and each game's pot.

One :class:`NightSummary` feeds the web page, the PDF and the plain text for the group
chat, so the three say the same things in the same order. It formats a settlement worked
out elsewhere (``ledger.night_book`` for a night of the app, ``rules.settle`` for a night
record); nothing here settles anything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from babel.dates import format_datetime, format_skeleton

from ..rules import Settlement, Standings, format_money
from ..rules.money import signed_money
from .common import PotSummary, names_text, pot_summary
from .words import count_of, language, ngettext, said
from .words import gettext as _

if TYPE_CHECKING:
    from ..services.ledger import NightBook, OpenTransfer


@dataclass(frozen=True, slots=True)
class GameMoney:
    number: int
    title: str
    variant_title: str
    finished: bool
    status: str
    pot: PotSummary

    @property
    def heading(self) -> str:
        """The title, with the variant unless the title names it already."""
        if self.variant_title.casefold() in self.title.casefold():
            return self.title
        return f"{self.title} · {self.variant_title}"


@dataclass(frozen=True, slots=True)
class PersonNet:
    name: str
    net_cents: int  # from the night's games, after its rounding
    net: str  # "+$10.00", "-$7.00", "$0.00"
    words: str  # what is still to happen: "receives $10.00", "pays $7.00", "is settled"
    balance_cents: int = 0  # what is still to happen, in minor units (+: to receive)

    @property
    def moved_on(self) -> bool:
        """What is still to happen is not the games' net (paid, carried, written off)."""
        return self.balance_cents != self.net_cents


def rounding_rule(unit: int, currency: str, effect: Mapping[str, int] | None = None) -> str | None:
    """The rule for settling in steps, in words, with what it changed for whom (None:
    exactly)."""
    if unit <= 1:
        return None
    step = format_money(unit, currency)
    rule = _(
        "Settled in steps of %(step)s: each net from the games is rounded to the nearest "
        "%(step)s; where that leaves the total off, those rounded the furthest are rounded the "
        "other way, so what is paid still adds up to what is received. Payments and carried "
        "debts are never rounded.",
        step=step,
    )  # fmt: skip
    if effect:
        changes = ", ".join(
            f"{name} {signed_money(cents, currency)}" for name, cents in sorted(effect.items())
        )
        rule += " " + _("The rounding changed: %(changes)s.", changes=changes)
    return rule


@dataclass(frozen=True, slots=True)
class NightSummary:
    """The payout summary of a night; the web app renders it with
    ``templates/reports/_summary.html`` (plain data and Jinja built-ins only)."""

    night_name: str
    date: str | None
    currency: str
    games: tuple[GameMoney, ...]
    people: tuple[PersonNet, ...]  # best net first
    transfers: tuple[str, ...]  # still to pay: "Bob pays Ann $7.00"
    unsettled: tuple[str, ...]  # the games left out of the settlement, in words
    settled_games: int
    settlement: Settlement
    recorded: tuple[str, ...] = ()  # paid, carried and written off, in words
    rounding: str | None = None  # the rule for steps, in words
    moved: str | None = None  # what the games moved since money was last recorded

    @property
    def title(self) -> str:
        return _("Payout summary")

    @property
    def kicker(self) -> str:
        return " · ".join(x for x in (self.night_name, self.date) if x)

    @property
    def games_with_money(self) -> tuple[GameMoney, ...]:
        """The games that had stakes (the text for the chat leaves the others out)."""
        return tuple(g for g in self.games if not g.pot.empty)


def _who_won_what(s: Standings) -> str:
    """A finished game's money in words: "Ann wins $3.60, Cy wins $0.40." (each player who
    ends up ahead, by their net, best placed first: a Texas dime is no win), or its
    winners when it had no stakes."""
    cur = s.pot.currency
    won = [
        _("%(name)s wins %(money)s", name=name, money=format_money(s.pot.balances[name], cur))
        for name in s.ranking
        if s.pot.balances[name] > 0
    ]
    if won:
        return _("%(wins)s.", wins=", ".join(won))
    return ngettext(
        "%(names)s wins (no stakes).", "%(names)s win (no stakes).", len(s.winners),
        names=names_text(s.winners),
    )  # fmt: skip


def _title(title: str, s: Standings) -> str:
    """A game's title as the documents say it: the variant's name ("Vegas Rummy", the
    engine's English the services hand on) in the documents' language, else as given."""
    return said(s.variant.title_said) if title in ("", s.variant.title) else title


def _game_money(games: Sequence[tuple[str, Standings]]) -> tuple[list[GameMoney], list[str]]:
    money = []
    unsettled = []
    for i, (title, s) in enumerate(games, 1):
        cur = s.pot.currency
        if s.finished:
            status = _who_won_what(s)
        else:
            rounds = count_of(s.variant.display.round_word, s.rounds_played)
            pot = format_money(s.pot.total, cur)
            status = _(
                "In progress after %(rounds)s: not settled. The pot holds %(pot)s.",
                rounds=rounds, pot=pot,
            )  # fmt: skip
            unsettled.append(_(
                "%(game)s, in progress after %(rounds)s (its pot of %(pot)s is left out)",
                game=_title(title, s), rounds=rounds, pot=pot,
            ))  # fmt: skip
        money.append(
            GameMoney(
                i,
                _title(title, s),
                said(s.variant.title_said),
                s.finished,
                status,
                pot_summary(s),
            )
        )
    return money, unsettled


def night_summary_context(
    night_name: str,
    date: str | None,
    currency: str,
    games: Sequence[tuple[str, Standings]],
    settlement: Settlement,
    *,
    transfers: Sequence[str] | None = None,
    recorded: Sequence[str] = (),
    moved: str | None = None,
) -> NightSummary:
    """Each game's pot, each person's net and what is still to pay, as ``settlement``
    says; unfinished games are listed as not settled. ``transfers`` words the transfers
    still to pay (default: the settlement's, plainly), ``recorded`` what the night's
    ledger holds, ``moved`` what the games moved since money was last recorded."""
    money, unsettled = _game_money(games)
    nets = {n: v + settlement.rounding.get(n, 0) for n, v in settlement.games.items()}
    for name in settlement.people:
        nets.setdefault(name, 0)
    people = []
    for name, net in sorted(nets.items(), key=lambda kv: (-kv[1], kv[0].casefold())):
        balance = settlement.people.get(name, 0)
        # Nothing left to pay or receive: "even" when the night left them where they
        # started, "settled" when it did not and what moved (paid, carried) squared it.
        words = (
            _("receives %(money)s", money=format_money(balance, currency))
            if balance > 0
            else _("pays %(money)s", money=format_money(-balance, currency))
            if balance < 0
            else _("is even")
            if net == 0
            else _("is settled")
        )
        people.append(PersonNet(name, net, signed_money(net, currency), words, balance))
    if transfers is None:
        transfers = [said(t.said(currency)) for t in settlement.transfers]
    return NightSummary(
        night_name=night_name,
        date=date or None,
        currency=currency,
        games=tuple(money),
        people=tuple(people),
        transfers=tuple(transfers),
        unsettled=tuple(unsettled),
        settled_games=sum(1 for _, s in games if s.finished),
        settlement=settlement,
        recorded=tuple(recorded),
        rounding=rounding_rule(settlement.unit, currency, settlement.rounding),
        moved=moved,
    )


def _with_ways_to_pay(transfer: OpenTransfer, currency: str) -> str:
    """A transfer with the payee's ways to pay beside it, for the chat text and the PDF:
    "Bob pays Ann $4.25 (PayPal.me https://paypal.me/ann/4.25USD; IBAN DE89 ...)"."""
    ways = [f"{o.label} {o.url or o.handle}" for o in transfer.options]
    sentence = said(transfer.said(currency))
    progress = transfer.progress_said(currency)
    if progress:
        sentence += f" ({said(progress)})"
    return f"{sentence} ({'; '.join(ways)})" if ways else sentence


def _when(moment: datetime) -> str:
    """``28 Nov 21:43``, the day and month as the reader's language writes them
    (``28. Nov. 21:43``); the English as it always read."""
    said_in = language()
    if said_in == "en":
        return format_datetime(moment, "dd MMM HH:mm", locale="en")
    day = format_skeleton("MMMd", moment, locale=said_in)
    return f"{day} {format_datetime(moment, 'HH:mm', locale=said_in)}"


def book_summary(book: NightBook) -> NightSummary:
    """The summary of a night of the app: its games, its ledger, what is still to pay."""
    night = book.night
    recorded = [
        f"{said(line.said(night))} ({_when(line.entry.created_at)} UTC)" for line in book.recorded
    ]
    return night_summary_context(
        night.name,
        night.played_on.isoformat(),
        night.currency,
        book.games,
        book.settlement,
        transfers=[_with_ways_to_pay(t, night.currency) for t in book.transfers],
        recorded=recorded,
        moved=said(book.moved.said(night.currency)) if book.moved else None,
    )
