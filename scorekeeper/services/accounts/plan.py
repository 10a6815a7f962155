"""What an account file holds once checked (:mod:`.checks`), row by row, ready for
:mod:`.importing` to write."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...rules.seating import Seating


@dataclass
class GamePlan:
    row: dict[str, Any]
    record: dict[str, Any]  # the record as the engine writes it back
    seats: list[Seating]  # as the live app writes them
    deleted_at: datetime | None
    history: list[dict[str, Any]]


@dataclass
class Plan:
    regulars: list[dict[str, Any]] = field(default_factory=list)
    merges: list[dict[str, Any]] = field(default_factory=list)
    nights: list[dict[str, Any]] = field(default_factory=list)
    people: list[dict[str, Any]] = field(default_factory=list)
    games: list[GamePlan] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> str:
        return (
            f"{count(len(self.nights), 'night')}, {count(len(self.games), 'game')}, "
            f"{count(len(self.regulars), 'regular')} and "
            f"{count(len(self.ledger), 'ledger entry', 'ledger entries')}"
        )


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"
