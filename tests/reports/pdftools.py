"""Reading PDFs back with poppler's command-line tools (pdftotext, pdfinfo, pdffonts)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

PAGE_SIZES = {"A4": (595, 842), "Letter": (612, 792)}


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def text_of(path: Path, page: int | None = None) -> str:
    """``pdftotext -layout`` of the whole document or of one page (1-based)."""
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return _run("pdftotext", "-layout", *pages, str(path), "-")


def page_count(path: Path) -> int:
    info = _run("pdfinfo", str(path))
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))  # type: ignore[union-attr]


def page_size(path: Path) -> tuple[int, int]:
    """Width and height of the first page in points, rounded."""
    info = _run("pdfinfo", str(path))
    m = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.M)
    assert m, info
    return round(float(m.group(1))), round(float(m.group(2)))


def fonts_of(path: Path) -> list[tuple[str, str]]:
    """(font name, embedded yes/no) for each font of the document."""
    lines = _run("pdffonts", str(path)).splitlines()[2:]
    out = []
    for line in lines:
        parts = line.split()
        # name type... encoding emb sub uni object ID: emb is the 5th field from the end.
        out.append((parts[0], parts[-5]))
    return out


def squash(text: str) -> str:
    """Runs of spaces to one, so phrases can be found across the layout's padding."""
    return re.sub(r"[ \t]+", " ", text)
