"""The app's caches: least recently used out first, bounded by bytes, safe across threads.

Every cache of the app is a ``ByteBoundedCache`` in the worker's memory, so none can grow
with what keepers store: the replayed standings of games, the rendered sheets and PDFs.
Sizes are what the caller says an entry costs (a PDF its length; a replay about 16 bytes
per byte of its record's JSON, measured with tracemalloc in tests/rules/test_cache.py).

Rendered documents (``DocumentCache``: PDFs, the sheet's grid) can instead be shared by
every worker and host through Flask-Caching, when ``CACHE_TYPE`` is configured (for
example ``RedisCache`` with ``CACHE_REDIS_URL``; see the README's deploy section). The
keys name the stored state of what they render (game, version, templates), so a shared
entry is never stale: a change makes a new key, and old keys age out by the backend's
timeout. Replays stay per worker: they are Python objects, cheaper to rebuild than to
unpickle (``services.STANDINGS_CACHE`` by the record's hash, ``services.DRAWN_STATES``
the last state of each game a worker drew, by its game)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from flask import current_app, has_app_context

V = TypeVar("V")


def _get_or_make(cache: Any, key: Any, make: Callable[[], tuple[Any, int]]) -> Any:
    """``cache.get(key)``, or ``make()`` the value and its size and ``cache.put`` it."""
    found = cache.get(key)
    if found is not None:
        return found
    value, size = make()
    cache.put(key, value, size)
    return value


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
        return _get_or_make(self, key, make)

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


class DocumentCache:
    """Rendered documents by string key: the worker's own ``ByteBoundedCache`` (by
    default), or the shared Flask-Caching backend when the app configured one."""

    def __init__(self, name: str, max_bytes: int, max_entries: int) -> None:
        self.name = name
        self.local: ByteBoundedCache[Any] = ByteBoundedCache(max_bytes, max_entries)

    @staticmethod
    def _shared() -> Any:
        if not has_app_context():
            return None
        return current_app.extensions.get("scorekeeper_shared_cache")

    def get(self, key: str) -> Any:
        shared = self._shared()
        if shared is not None:
            return shared.get(f"{self.name}:{key}")
        return self.local.get(key)

    def put(self, key: str, value: Any, size: int) -> None:
        shared = self._shared()
        if shared is not None:
            if size <= self.local.max_bytes:  # the same bound on what one entry may cost
                shared.set(f"{self.name}:{key}", value)
            return
        self.local.put(key, value, size)

    def get_or_make(self, key: str, make: Callable[[], tuple[Any, int]]) -> Any:
        return _get_or_make(self, key, make)

    def clear(self) -> None:
        self.local.clear()
