"""What a replay knows after each round (the variants' hooks read and change it), and what
it tells of each player and of the round ahead when it is done."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import Said
from .money import PAYMENTS_IN, Entry, EntryKind
from .names import name_key

EventKind = Literal[
    "join", "expire", "rebuy", "drop", "contract", "going_rummy", "dime",
    # Gin: who won the hand and how (the value: the points), a wash, each deadwood
    "knock", "undercut", "gin", "big_gin", "wash", "deadwood",
    # pool: a hand marker, out at the pool, back in for a fee, a share of a split pot
    "first_drop", "middle_drop", "full_count", "wrong_show", "eliminate", "rejoin", "split",
]  # fmt: skip


@dataclass(slots=True)
class PlayerState:
    name: str
    seat: int
    total: int
    scores: list[int | None] = field(default_factory=list)
    in_contention: bool = True
    expiries: int = 0
    contract: int = 1  # dummy: the contract being worked on; 13 once all twelve are laid
    joined_round: int = 0  # 0: from the start
    dropped_round: int | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened to a player in a round, shown in their cell on the sheet.

    ``value`` is points (expire: the total reached; rebuy: the reset total; join: the
    starting total; contract: the contract laid down) and ``amount_cents`` what was paid
    (a payment into the pot is negative, as in the ledger).
    """

    kind: EventKind
    player: str
    value: int | None = None
    amount_cents: int | None = None


@dataclass(slots=True)
class RoundResult:
    number: int
    dealer: str
    went_out: str | None
    scores: dict[str, int]
    hands: dict[str, int]  # the hand values counted, before any multiplier
    totals: dict[str, int]  # after the round, resets included
    multiplier: int = 1
    wild: str | None = None
    events: list[Event] = field(default_factory=list)
    split: str | None = None  # pool: the game ended here by agreement (no deal)

    def events_for(self, player: str) -> list[Event]:
        return [e for e in self.events if e.player == player]


@dataclass(slots=True)
class GameState:
    players: list[PlayerState]
    entries: list[Entry] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    dealer_seat: int | None = None  # seat of the last round's dealer
    pending_events: list[Event] = field(default_factory=list)  # before the round's result
    _by_key: dict[str, PlayerState] = field(default_factory=dict, repr=False)

    def player(self, name: str) -> PlayerState | None:
        """The player of that name (case and spacing ignored), looked up in an index."""
        if len(self._by_key) != len(self.players):
            self._by_key = {name_key(p.name): p for p in self.players}
        return self._by_key.get(name_key(name))

    @property
    def active(self) -> list[PlayerState]:
        """Players in the game (in contention), in seat order (a late joiner's column comes
        last, as on paper, but their seat may be between two others)."""
        return sorted((p for p in self.players if p.in_contention), key=lambda p: p.seat)

    def seat_after(self, neighbour: PlayerState) -> int:
        """Make room for a newcomer right after ``neighbour`` (clockwise): every seat
        after theirs moves one on, the last dealer's too. Returns the seat made free."""
        seat = neighbour.seat + 1
        for p in self.players:
            if p.seat >= seat:
                p.seat += 1
        if self.dealer_seat is not None and self.dealer_seat >= seat:
            self.dealer_seat += 1
        return seat

    @property
    def rounds_played(self) -> int:
        return len(self.rounds)

    @property
    def pot_cents(self) -> int:
        return -sum(e.amount for e in self.entries)

    def pay_in(self, player: str, amount: int, kind: EntryKind, round_number: int) -> None:
        assert kind in PAYMENTS_IN
        if amount:
            self.entries.append(Entry(player, -amount, kind, round_number))

    def pay_out(self, player: str, amount: int, kind: EntryKind, round_number: int) -> None:
        assert kind not in PAYMENTS_IN
        if amount:
            self.entries.append(Entry(player, amount, kind, round_number))

    def next_active_seat(self, after_seat: int | None) -> PlayerState:
        """The next player in the game clockwise after ``after_seat``."""
        active = self.active
        if after_seat is None:
            return active[0]
        for p in active:
            if p.seat > after_seat:
                return p
        return active[0]


@dataclass(frozen=True, slots=True)
class RejoinOffer:
    """Pool: the players out in a round and whether they may rejoin before the next: at
    ``back_at`` for ``fee`` (minor units), or ``refusal``, the reason they may not
    ("Cy has 80, above 79", a sentence)."""

    round: int
    players: tuple[tuple[str, int], ...]  # (name, the total reached)
    back_at: int
    fee: int
    refusal: Said | None = None


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    name: str
    seat: int
    total: int
    scores: tuple[int | None, ...]
    in_contention: bool
    expiries: int
    contract: int | None
    place: int
    joined_round: int
    dropped_round: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "scores": list(self.scores),
            "in_contention": self.in_contention,
            "expiries": self.expiries,
            "contract": self.contract,
            "place": self.place,
        }


@dataclass(frozen=True, slots=True)
class NextRound:
    number: int
    dealer: str
    starts: str
    cards_per_player: int
    wild: list[str] | None
    multiplier: int
    contracts: dict[str, int] | None
    label: str

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "starts": self.starts,
            "cards_per_player": self.cards_per_player,
            "wild": self.wild,
            "multiplier": self.multiplier,
            "contracts": self.contracts,
        }
