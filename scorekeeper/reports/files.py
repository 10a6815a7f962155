"""File names for downloads, and an in-process cache of rendered PDFs."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable
from contextlib import suppress
from functools import cache, lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Literal

from ..cache import ByteBoundedCache, DocumentCache
from .pdf import STATIC, TEMPLATES
from .words import CATALOGS, language

Kind = Literal["sheet", "blank", "summary"]


def slugify(text: str, *, max_length: int = 60) -> str:
    """``"Friday Night @ Zoë's"`` -> ``"friday-night-zoes"``: ASCII letters, digits, hyphens."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower().replace("'", "")).strip("-")
    return slug[:max_length].rstrip("-")


@lru_cache(maxsize=1024)
def pdf_filename(
    kind: Kind,
    *,
    variant: str | None = None,
    night_name: str | None = None,
    date: str | None = None,
) -> str:
    """The download name of a document, e.g. ``2026-11-22-friday-night-vegas-sheet.pdf``,
    ``2026-11-22-friday-night-blank-texas-sheet.pdf``,
    ``2026-11-22-friday-night-payout-summary.pdf``. Parts that are missing are left out.
    Remembered: a cached download asks it again for the same labels."""
    what = {
        "sheet": [variant or "", "sheet"],
        "blank": ["blank", variant or "", "sheet"],
        "summary": ["payout", "summary"],
    }[kind]
    parts = [slugify(date or "", max_length=10), slugify(night_name or ""), *map(slugify, what)]
    return "-".join(p for p in parts if p) + ".pdf"


def files_digest(*folders: Path, extra: str = "") -> str:
    """A short hash of every file below ``folders`` (names and contents) and ``extra``:
    changes whenever a template or asset does, so caches keyed by it never go stale."""
    digest = hashlib.sha256(extra.encode())
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def template_version() -> str:
    """A hash of the print templates, the print CSS, the catalogs of their words and the
    WeasyPrint version: part of every cache key, so a changed template or translation is
    never served from the cache."""
    weasyprint = ""
    with suppress(PackageNotFoundError):
        weasyprint = version("weasyprint")
    return files_digest(TEMPLATES / "reports", STATIC / "print", CATALOGS, extra=weasyprint)


def pdf_cache_key(kind: Kind, record: Any, *, paper: str, **labels: Any) -> str:
    """A cache key for :func:`cached_pdf`: the document kind, a hash of the record (a game
    or night record as JSON data), the paper, the labels printed on it (title, night name,
    date...), the language its words speak (``words.language()``: the reader's) and
    :func:`template_version`."""
    said_in = language()
    payload = json.dumps(
        {"kind": kind, "record": record, "paper": paper, "labels": labels, "lang": said_in},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    record_hash = hashlib.sha256(payload.encode()).hexdigest()
    return f"{kind}:{paper}:{said_in}:{template_version()}:{record_hash}"


class PdfCache:
    """Rendered PDFs by key: least recently used out first, bounded by count and bytes."""

    def __init__(self, max_entries: int = 64, max_bytes: int = 32 * 1024 * 1024) -> None:
        self.documents = DocumentCache("pdf", max_bytes, max_entries)
        self._cache: ByteBoundedCache[bytes] = self.documents.local

    def get(self, key: str, render: Callable[[], bytes]) -> bytes:
        """The PDF for ``key``, or ``render()`` it and keep it."""
        return self.get_drawn(key, lambda: (render(), True))

    def get_drawn(self, key: str, render: Callable[[], tuple[bytes, bool]]) -> bytes:
        """The PDF for ``key``, or the one ``render()`` makes, kept only when it also says
        the PDF shows what the key names."""
        # Rendered outside the lock: two threads may render the same key once each.
        found: bytes | None = self.documents.get(key)
        if found is None:
            found, keep = render()
            if keep:
                self.documents.put(key, found, len(found))
        return found

    @property
    def hits(self) -> int:
        return self._cache.hits

    @property
    def misses(self) -> int:
        return self._cache.misses

    def clear(self) -> None:
        self._cache.clear()

    def __len__(self) -> int:
        return len(self._cache)

    def __contains__(self, key: object) -> bool:
        return key in self._cache


PDF_CACHE = PdfCache()


def cached_pdf(key: str, render: Callable[[], bytes]) -> bytes:
    """The PDF for ``key`` from the in-process cache, or ``render()`` it and keep it.

    The key must change whenever the document would: build it with :func:`pdf_cache_key`,
    which hashes the record, the paper, the labels and the template version (a hash of the
    print templates and CSS). A game that gets a new round has a new record, hence a new
    key; the cache holds at most 64 PDFs and 32 MiB, least recently used out first.
    """
    return PDF_CACHE.get(key, render)


def cached_state_pdf(key: str, render: Callable[[], tuple[bytes, bool]]) -> bytes:
    """:func:`cached_pdf` for a document drawn from a game's stored state, which may
    have moved on since its key was read: ``render()`` gives the PDF and whether it was
    drawn from the very state the key names (see ``services.standings_at``); only then
    is it kept."""
    return PDF_CACHE.get_drawn(key, render)
