"""A night's payout summary: each game's pot, each person's net and the fewest transfers.

One :class:`NightSummary` feeds the web page, the PDF and the plain text for the group
chat, so the three say the same things in the same order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rules import Settlement, Standings, format_cents, settle
from .common import PotSummary, names_text, pot_summary, signed_cents


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
    net_cents: int
    net: str  # "+$10.00", "-$7.00", "$0.00"
    words: str  # "receives $10.00", "pays $7.00", "is even"


@dataclass(frozen=True, slots=True)
class CarriedDebt:
    """A debt left unpaid on an earlier night, carried into this one."""

    payer: str
    payee: str
    amount: int  # cents
    source: str  # where it comes from: "Friday, 2026-11-13"

    def sentence(self, currency: str) -> str:
        money = format_cents(self.amount, currency)
        return f"{self.payer} owed {self.payee} {money} from {self.source}"


def rounding_rule(unit: int, currency: str, effect: Mapping[str, int] | None = None) -> str | None:
    """The rule for settling in whole units, in words, with what it changed for whom
    (None: to the cent)."""
    if unit <= 1:
        return None
    step = format_cents(unit, currency)
    rule = (
        f"Settled in steps of {step}: each net is rounded to the nearest {step}; where that "
        "leaves the total off, those rounded the furthest are rounded the other way, so what "
        "is paid still adds up to what is received."
    )
    if effect:
        changes = ", ".join(
            f"{name} {signed_cents(cents, currency)}" for name, cents in sorted(effect.items())
        )
        rule += f" The rounding changed: {changes}."
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
    transfers: tuple[str, ...]  # "Bob pays Ann $7.00"
    unsettled: tuple[str, ...]  # the games left out of the settlement, in words
    settled_games: int
    settlement: Settlement
    carried: tuple[str, ...] = ()  # the debts carried in, in words
    rounding: str | None = None  # the rule for whole units, in words

    @property
    def title(self) -> str:
        return "Payout summary"

    @property
    def kicker(self) -> str:
        return " · ".join(x for x in (self.night_name, self.date) if x)

    @property
    def games_with_money(self) -> tuple[GameMoney, ...]:
        """The games that had stakes (the text for the chat leaves the others out)."""
        return tuple(g for g in self.games if not g.pot.empty)


def night_summary_context(
    night_name: str,
    date: str | None,
    currency: str,
    games: Sequence[tuple[str, Standings]],
    *,
    carried: Sequence[CarriedDebt] = (),
    unit: int = 1,
) -> NightSummary:
    """Each game's pot, each person's net and the fewest transfers; unfinished games are
    listed as not settled and left out. Debts carried in from earlier nights join the
    settlement; a table settling in whole units has its nets rounded (the rule in words).
    Raises RecordError when a finished game is played in another currency than the
    night."""
    money = []
    unsettled = []
    for i, (title, s) in enumerate(games, 1):
        cur = s.pot.currency
        if s.finished:
            status = (
                f"{'Winners' if len(s.winners) > 1 else 'Winner'}: "
                f"{names_text(s.winners)}. Pot {format_cents(s.pot.paid_in, cur)}."
            )
        else:
            rounds = f"{s.rounds_played} round{'s' if s.rounds_played != 1 else ''}"
            status = (
                f"In progress after {rounds}: not settled. The pot holds "
                f"{format_cents(s.pot.total, cur)}."
            )
            unsettled.append(
                f"{title or s.variant.title}, in progress after {rounds} (its pot of "
                f"{format_cents(s.pot.total, cur)} is left out)"
            )
        money.append(
            GameMoney(
                i, title or s.variant.title, s.variant.title, s.finished, status, pot_summary(s)
            )
        )
    finished = [s for _, s in games if s.finished]
    balances: dict[str, int] = {}
    for debt in carried:
        balances[debt.payer] = balances.get(debt.payer, 0) - debt.amount
        balances[debt.payee] = balances.get(debt.payee, 0) + debt.amount
    settlement = settle(finished, currency, carried=balances, unit=unit)
    people = sorted(settlement.people.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    nets = []
    for name, net in people:
        words = (
            f"receives {format_cents(net, currency)}"
            if net > 0
            else f"pays {format_cents(-net, currency)}"
            if net < 0
            else "is even"
        )
        nets.append(PersonNet(name, net, signed_cents(net, currency), words))
    return NightSummary(
        night_name=night_name,
        date=date or None,
        currency=currency,
        games=tuple(money),
        people=tuple(nets),
        transfers=tuple(t.sentence(currency) for t in settlement.transfers),
        unsettled=tuple(unsettled),
        settled_games=len(finished),
        settlement=settlement,
        carried=tuple(d.sentence(currency) for d in carried),
        rounding=rounding_rule(unit, currency, settlement.rounding),
    )
