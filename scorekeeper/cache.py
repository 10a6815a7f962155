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
unpickle (``services.state.STANDINGS_CACHE`` by the record's hash, ``DRAWN_STATES``
the last state of each game a worker drew, by its game).

The shared cache is only a cache: when its backend fails (Redis stopped, restarted,
unreachable), ``SharedCache`` logs one warning, and the worker uses its own caches until
the backend answers again (tried again every ``SharedCache.RETRY_SECONDS``), so a
request never fails for it."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from flask import current_app, has_app_context

V = TypeVar("V")
log = logging.getLogger(__name__)


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


class SharedCache:
    """The shared backend (a Flask-Caching ``Cache``, e.g. Redis) as the app uses it: a
    failed call is logged (once per outage, with the error) and reported as not done, and
    for ``RETRY_SECONDS`` after it the backend is not asked at all (a Redis that is gone
    would otherwise cost every request a failed connection); then the next call tries it
    again, and a success is logged as the end of the outage. One per app, i.e. per worker
    process."""

    RETRY_SECONDS = 5.0

    def __init__(self, backend: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.backend = backend
        self.clock = clock
        self._down_since: float | None = None  # monotonic time of the last failure
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        down = self._down_since
        return down is None or self.clock() - down >= self.RETRY_SECONDS

    def get(self, key: str) -> tuple[bool, Any]:
        """``(True, value or None)``, or ``(False, None)`` when the backend failed or is
        resting after a failure."""
        if not self.available:
            return False, None
        try:
            value = self.backend.get(key)
        except Exception as exc:  # any failure of a cache is a miss, never a 500
            self._failed(exc)
            return False, None
        self._worked()
        return True, value

    def set(self, key: str, value: Any) -> bool:
        if not self.available:
            return False
        try:
            self.backend.set(key, value)
        except Exception as exc:
            self._failed(exc)
            return False
        self._worked()
        return True

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            first = self._down_since is None
            self._down_since = self.clock()
        if first:
            log.warning(
                "shared cache unavailable (%s: %s): this worker uses its own caches until it "
                "answers again",
                type(exc).__name__,
                exc,
            )

    def _worked(self) -> None:
        if self._down_since is None:
            return
        with self._lock:
            self._down_since = None
        log.warning("shared cache answers again: this worker uses it again")


class DocumentCache:
    """Rendered documents by string key: the worker's own ``ByteBoundedCache`` (by
    default), or the shared Flask-Caching backend when the app configured one, and this
    worker's own again while that backend fails (see ``SharedCache``)."""

    def __init__(self, name: str, max_bytes: int, max_entries: int) -> None:
        self.name = name
        self.local: ByteBoundedCache[Any] = ByteBoundedCache(max_bytes, max_entries)

    @staticmethod
    def _shared() -> SharedCache | None:
        if not has_app_context():
            return None
        return current_app.extensions.get("scorekeeper_shared_cache")

    def get(self, key: str) -> Any:
        shared = self._shared()
        if shared is not None:
            done, value = shared.get(f"{self.name}:{key}")
            if done:
                return value
        return self.local.get(key)

    def put(self, key: str, value: Any, size: int) -> None:
        if size > self.local.max_bytes:  # the same bound on what one entry may cost
            return
        shared = self._shared()
        if shared is not None and shared.set(f"{self.name}:{key}", value):
            return
        self.local.put(key, value, size)

    def get_or_make(self, key: str, make: Callable[[], tuple[Any, int]]) -> Any:
        return _get_or_make(self, key, make)

    def clear(self) -> None:
        self.local.clear()
