"""A least-recently-used cache bounded by bytes, safe across threads.

Every cache of the app is one of these, so none can grow with what keepers store: the
replayed standings of games and the rendered PDFs. Sizes are what the caller says an entry
costs (a PDF its length; a replay about 16 bytes per byte of its record's JSON, measured
with tracemalloc in tests/rules/test_cache.py)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class ByteBoundedCache(Generic[V]):
    def __init__(self, max_bytes: int, max_entries: int = 100_000) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        """Keep ``value`` (``size`` bytes); an entry larger than the whole cache is not kept."""
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._entries[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes or len(self._entries) > self.max_entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped

    def get_or_make(self, key: Hashable, make: Callable[[], tuple[V, int]]) -> V:
        """The value of ``key``, or ``make()`` it (outside the lock) and keep it."""
        found = self.get(key)
        if found is not None:
            return found
        value, size = make()
        self.put(key, value, size)
        return value

    @property
    def bytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries
