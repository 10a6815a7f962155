"""A card night: the games' balances netted per person, and the fewest transfers."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .errors import RecordError, Said, say
from .money import format_money
from .names import name_key
from .record import GameRecord
from .replay import Standings, replay

NIGHT_FORMAT = "scorekeeper-night/1"
EXACT_LIMIT = 16  # people with a balance; beyond this the split into groups is greedy

#: Whoever a balance belongs to: a name (a night record), or an opaque id (a night of the
#: app, by regular) ranked by the name beside it, so that ties fall the same way.
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: int  # cents, > 0

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}

    def sentence(self, currency: str = "USD") -> str:
        return self.said(currency).english

    def said(self, currency: str = "USD") -> Said:
        """Who pays whom ("Ann pays Bob $4.25") as a message id (rules/said_night.py), for
        a page to say in its reader's language; the amount in the night's locale."""
        return say("transfer.pays", payer=self.payer, payee=self.payee,
                   money=format_money(self.amount, currency))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Settlement:
    """Who pays whom at the end of a night.

    ``people`` is each person's balance: what they are still to receive (positive) or to
    pay (negative). It is their games' nets (``games``), rounded to the table's step when
    it settles in steps (``rounding``: what the rounding added), plus what the night's
    ledger moved for them (``ledger``: debts carried in and out, payments made and
    received, debts written off; never rounded). The transfers settle exactly these
    balances. All amounts are in the currency's minor unit."""

    currency: str
    people: dict[str, int]
    transfers: tuple[Transfer, ...]
    games: dict[str, int] = field(default_factory=dict)
    ledger: dict[str, int] = field(default_factory=dict)
    rounding: dict[str, int] = field(default_factory=dict)
    unit: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"people": dict(self.people), "transfers": [t.to_json() for t in self.transfers]}


def net_by_person(balances: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Sum balances per person; a person is the same across games when names match."""
    people: dict[str, int] = {}
    names: dict[str, str] = {}
    for game in balances:
        for name, amount in game.items():
            shown = names.setdefault(name_key(name), name)
            people[shown] = people.get(shown, 0) + amount
    return people


def fewest_transfers(people: Mapping[str, int]) -> list[Transfer]:
    """Transfers that settle every balance, as few as possible (:func:`fewest_by`, people
    by name)."""
    return [Transfer(p, q, a) for p, q, a in fewest_by(people, str)]


def fewest_by(people: Mapping[K, int], rank: Callable[[K], str]) -> list[tuple[K, K, int]]:
    """Transfers ``(payer, payee, amount)`` that settle every balance, as few as possible;
    ``rank`` orders people (their name: ties fall by it), and no two people share one.

    The fewest transfers is the number of people with a balance minus the largest number
    of groups they split into whose balances each add up to zero (each group of k settles
    in k - 1 transfers). The split is searched exactly over subsets for up to 16 people
    with a balance, and otherwise found greedily (exact pairs first): never more than
    people - 1 transfers either way. Nobody both pays and receives, so a payer and payee
    pair is one transfer at most.
    """
    if sum(people.values()) != 0:
        raise RecordError(say("settlement.sum_off", cents=sum(people.values())))
    open_ = sorted(((n, a) for n, a in people.items() if a), key=lambda na: (rank(na[0]), na[1]))
    groups = _zero_sum_groups(open_) if len(open_) <= EXACT_LIMIT else _greedy_groups(open_)
    transfers: list[tuple[K, K, int]] = []
    for group in groups:
        transfers.extend(_settle_group(group, rank))
    return transfers


def _zero_sum_groups(items: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    n = len(items)
    if n == 0:
        return []
    size = 1 << n
    sums = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + items[low][1]
    # best[mask]: most zero-sum groups that the people of mask can be split into, when
    # mask adds up to zero; built by adding one person at a time.
    best = [0] * size
    parent = [0] * size
    for mask in range(1, size):
        top = -1
        b = 0
        m = mask
        while m:
            bit = m & -m
            if best[mask ^ bit] > b or top < 0:
                b = best[mask ^ bit]
                top = bit
            m ^= bit
        best[mask] = b + (1 if sums[mask] == 0 else 0)
        parent[mask] = top
    order: list[int] = []
    mask = size - 1
    while mask:
        bit = parent[mask]
        order.append(bit.bit_length() - 1)
        mask ^= bit
    order.reverse()  # the order in which people were added
    groups: list[list[tuple[K, int]]] = []
    current: list[tuple[K, int]] = []
    running = 0
    for i in order:
        current.append(items[i])
        running += items[i][1]
        if running == 0:
            groups.append(current)
            current = []
    assert not current
    return groups


def _greedy_groups(items: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    groups: list[list[tuple[K, int]]] = []
    rest = list(items)
    by_amount: dict[int, list[tuple[K, int]]] = {}
    for item in rest:
        by_amount.setdefault(item[1], []).append(item)
    paired: set[K] = set()
    for name, amount in items:
        if name in paired or amount <= 0:
            continue
        for other in by_amount.get(-amount, []):
            if other[0] not in paired:
                groups.append([(name, amount), other])
                paired.update({name, other[0]})
                break
    remaining = [i for i in items if i[0] not in paired]
    if remaining:
        groups.append(remaining)
    return groups


def _settle_group(group: list[tuple[K, int]], rank: Callable[[K], str]) -> list[tuple[K, K, int]]:
    """k people whose balances add up to zero settle in at most k - 1 transfers."""
    owe = {n: -a for n, a in group if a < 0}
    get = {n: a for n, a in group if a > 0}
    transfers: list[tuple[K, K, int]] = []
    while owe:
        payer = max(owe, key=lambda n: (owe[n], rank(n)))
        payee = max(get, key=lambda n: (get[n], rank(n)))
        amount = min(owe[payer], get[payee])
        transfers.append((payer, payee, amount))
        for book, name in ((owe, payer), (get, payee)):
            book[name] -= amount
            if not book[name]:
                del book[name]
    return transfers


def round_to_unit(people: Mapping[str, int], unit: int) -> dict[str, int]:
    """:func:`round_by` for people by name."""
    return round_by(people, unit, str)


def round_by(people: Mapping[K, int], unit: int, rank: Callable[[K], str]) -> dict[K, int]:
    """Nets rounded to whole ``unit`` cents (100: whole dollars) that still add up to zero.

    Each net is rounded to the nearest unit (a half away from zero). When the rounded nets
    do not add up to zero, the people whose nets were rounded the furthest are rounded the
    other way, one unit each, until they do (largest remainder; a tie goes by ``rank``, the
    name, without case): nobody
    moves more than one unit from their exact net, and the ledger still balances."""
    if unit <= 1:
        return dict(people)
    if sum(people.values()) != 0:
        raise RecordError(say("settlement.not_zero"))

    def nearest(amount: int) -> int:
        q, r = divmod(abs(amount), unit)
        whole = (q + (1 if 2 * r >= unit else 0)) * unit
        return whole if amount >= 0 else -whole

    rounded = {name: nearest(amount) for name, amount in people.items()}
    off = sum(rounded.values()) // unit  # units too many (positive) or too few
    if off:
        step = -unit if off > 0 else unit
        # Those rounded furthest in the direction of the excess go back first.
        order = sorted(
            people,
            key=lambda n: (-(rounded[n] - people[n]) * (1 if off > 0 else -1), rank(n).casefold()),
        )
        for name in order[: abs(off)]:
            rounded[name] += step
    assert sum(rounded.values()) == 0
    return rounded


def settle(
    standings: Iterable[Standings],
    currency: str = "USD",
    *,
    ledger: Mapping[str, int] | None = None,
    unit: int = 1,
) -> Settlement:
    """Settle finished games (an unfinished game's pot has not been paid out) in steps of
    ``unit`` minor units (1: exactly), then add what the night's ledger moved (``ledger``:
    by person, adding up to 0): a payment or a carried debt is an exact amount, never
    rounded, so no step can round it away."""
    games = list(standings)
    for i, s in enumerate(games, 1):
        if not s.finished:
            money = format_money(s.pot.total, s.pot.currency)
            game = s.variant.title_said
            raise RecordError(say("settlement.unfinished", number=i, game=game, money=money))
        if s.pot.currency != currency:
            raise RecordError(
                say("settlement.currency", number=i, currency=s.pot.currency, night=currency)
            )
    from_games = net_by_person(s.pot.balances for s in games)
    rounded = round_to_unit(from_games, unit)
    rounding = {n: rounded[n] - from_games[n] for n in rounded if rounded[n] != from_games[n]}
    moved = {n: a for n, a in (ledger or {}).items() if a}
    if sum(moved.values()) != 0:
        raise RecordError(say("settlement.ledger"))
    people = net_by_person([rounded, moved])
    return Settlement(
        currency,
        people,
        tuple(fewest_transfers(people)),
        games=from_games,
        ledger=moved,
        rounding=rounding,
        unit=unit,
    )


def parse_night(data: Any) -> tuple[str, list[Standings]]:
    """Parse and replay a night record: its currency and each game's standings."""
    if not isinstance(data, Mapping):
        raise RecordError(say("night_record.object"))
    if data.get("format") != NIGHT_FORMAT:
        raise RecordError(
            say("game_record.format", wanted=repr(NIGHT_FORMAT), value=repr(data.get("format")))
        )
    unknown = set(data) - {"format", "currency", "games", "name", "date"}
    if unknown:
        raise RecordError(say("night_record.unknown_key", key=repr(sorted(unknown)[0])))
    currency = data.get("currency", "USD")
    games = data.get("games")
    if not isinstance(games, list):
        raise RecordError(say("night_record.games"))
    standings = []
    for i, game in enumerate(games, 1):
        try:
            standings.append(replay(GameRecord.from_json(game)))
        except RecordError as exc:
            raise RecordError(say("night_record.game", number=i, refusal=_in_round(exc))) from exc
    return currency, standings


def _in_round(exc: RecordError) -> Said | str:
    """A refusal as its text says it: its sentence, after the round it names."""
    said = exc.said if exc.said is not None else exc.detail
    if exc.round is None:
        return said
    return say("game_record.in_round", number=exc.round, refusal=said)


def settle_night(data: Any) -> Settlement:
    currency, standings = parse_night(data)
    return settle(standings, currency)
