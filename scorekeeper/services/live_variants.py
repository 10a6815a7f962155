"""Which variants of a live link's page are being watched, so that a save can send each
of them its page in the stream's message (``services.streams``) instead of every phone
asking for it.

A variant is the language the page is drawn in and its layout (``de``, ``de-tv``): each
has its own stream channel (``live-<token>-<variant>``, the page's ``data-stream``), so a
German phone never hears an English page. The page's GET notes its variant
(:func:`seen`, at most once a minute per worker); a publish that finds no subscriber on a
variant's channel forgets it (:func:`heard`), unless it was seen in the last minute (its
page may not have opened its stream yet), and the page's next GET notes it again (the
phones of a table that all slept, back); a variant not seen for ``KEEP_SECONDS`` is
forgotten too, and a link keeps at most ``MAX_VARIANTS`` (the latest seen): a save draws
at most that many pages per link, typically one. Kept in the app's shared cache (Redis,
``CACHE_TYPE``) so every worker knows them, else in this worker's memory.

A variant that is not known (forgotten, the cache lost, another worker's memory) costs
nothing but speed: every page also hears the link's own channel (``live-<token>``), whose
message is the version only, and asks for itself once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from flask import current_app, has_app_context

from ..cache import ByteBoundedCache

KEEP_SECONDS = 6 * 60 * 60  # a variant unseen and unheard this long is forgotten
MAX_VARIANTS = 4  # per link: the pages a save draws for it at most
NOTE_EVERY = 60.0  # seconds: a worker notes the same (link, variant) at most this often
_KEY = "live-variants:"


def variant(language: str, tv: bool) -> str:
    """The variant of a page in ``language`` (``pt_BR``), large type or not."""
    return f"{language}-tv" if tv else language


def channel(token: str, name: str | None = None) -> str:
    """The stream channel of a link (every page hears it), or of one of its variants."""
    return f"live-{token}-{name}" if name else f"live-{token}"


class _Local:
    """This worker's own record (no shared cache), and what it noted lately."""

    def __init__(self) -> None:
        self.kept: ByteBoundedCache[dict[str, float]] = ByteBoundedCache(
            1024 * 1024, max_entries=5_000
        )
        self.noted: OrderedDict[tuple[str, str], float] = OrderedDict()
        self.lock = threading.Lock()

    def due(self, token: str, name: str, now: float) -> bool:
        """Whether (token, variant) is to be noted now (not noted in ``NOTE_EVERY``)."""
        with self.lock:
            last = self.noted.pop((token, name), None)
            if last is not None and now - last < NOTE_EVERY:
                self.noted[(token, name)] = last
                return False
            self.noted[(token, name)] = now
            while len(self.noted) > 10_000:
                self.noted.popitem(last=False)
            return True

    def forget(self, token: str, name: str) -> None:
        """Note (token, variant) again at its page's next GET in this worker."""
        with self.lock:
            self.noted.pop((token, name), None)


def _local() -> _Local:
    found = current_app.extensions.get("live_variants")
    if found is None:
        found = current_app.extensions["live_variants"] = _Local()
    return found


def _read(token: str) -> dict[str, float]:
    shared = current_app.extensions.get("scorekeeper_shared_cache")
    if shared is not None:
        done, value = shared.get(_KEY + token)
        if done:
            return dict(value) if isinstance(value, dict) else {}
    return dict(_local().kept.get(token) or {})


def _write(token: str, kept: dict[str, float]) -> None:
    shared = current_app.extensions.get("scorekeeper_shared_cache")
    if shared is not None and shared.set(_KEY + token, kept):
        return
    _local().kept.put(token, kept, 64 + 32 * len(kept))


def _pruned(kept: dict[str, float], now: float) -> dict[str, float]:
    fresh = sorted(
        ((when, name) for name, when in kept.items() if now - when < KEEP_SECONDS), reverse=True
    )
    return {name: when for when, name in fresh[:MAX_VARIANTS]}


def seen(token: str, name: str) -> None:
    """A page of the link was asked in this variant (its GET): keep it."""
    now = time.time()
    if not _local().due(token, name, time.monotonic()):
        return
    kept = _read(token)
    kept[name] = now
    _write(token, _pruned(kept, now))


def watched(token: str) -> list[str]:
    """The variants of the link to draw on a save, the latest seen first."""
    if not has_app_context():
        return []
    kept = _pruned(_read(token), time.time())
    return list(kept)


def heard(token: str, subscribers: dict[str, Any]) -> None:
    """What the engine said of each variant's channel after a publish (its number of
    subscribers, None when it did not say): a variant nobody holds is forgotten (unless
    seen within ``NOTE_EVERY``), the others are kept as seen now."""
    if not subscribers:
        return
    now = time.time()
    kept = _read(token)
    for name, count in subscribers.items():
        if count == 0 and now - kept.get(name, 0.0) >= NOTE_EVERY:
            kept.pop(name, None)
            _local().forget(token, name)
        elif count and name in kept:
            kept[name] = now
    _write(token, _pruned(kept, now))
