"""Render the printed documents: Jinja templates with print CSS, laid out by WeasyPrint.

Nothing is fetched from the network while rendering: :class:`LocalFetcher` serves only
files under ``static/print/`` and the system's DejaVu fonts, and refuses every other URL.
The templates live in the project's top-level ``templates/reports/`` and are rendered by
a Jinja environment of their own, so the command line needs no Flask app or request.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jinja2
from markupsafe import Markup
from weasyprint import HTML, URLFetcher

from ..metrics import PDFS_RENDERED
from ..rules import Settings, Settlement, Standings, settle
from . import words
from .blank import BlankSheet, blank_sheet_context
from .common import Page, check_paper
from .filled import GameSheet, game_sheet_context
from .summary import NightSummary, night_summary_context
from .words import install, speaking


def _asset_dir(name: str) -> Path:
    """``templates/`` and ``static/`` at the top of the checkout, or inside a built wheel as
    ``scorekeeper/_<name>``: the same rule as the app factory's, without importing Flask."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / f"_{name}"
    return packaged if packaged.is_dir() else package.parent / name


TEMPLATES = _asset_dir("templates")
STATIC = _asset_dir("static")
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)


class LocalFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that never touches the network.

    ``file:`` URLs under ``static/print/`` and the font folders are served; ``data:`` URLs are
    decoded; anything else (``http:``, ``https:``, ``ftp:``, other files) is refused, which
    WeasyPrint reports as a warning and renders without. Every URL asked for is kept in
    :attr:`asked`, so a test can check what a template tried to load.
    """

    def __init__(self, roots: Sequence[Path] = (STATIC / "print", *FONT_DIRS)) -> None:
        super().__init__(timeout=1, allowed_protocols=("file", "data"))
        self.roots = tuple(r.resolve() for r in roots)
        self.asked: list[str] = []
        self._lock = threading.Lock()

    def fetch(self, url: str, headers: Any = None) -> Any:
        with self._lock:
            self.asked.append(url)
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme == "file" and parts.netloc in ("", "localhost"):
            path = Path(unquote(parts.path)).resolve()
            if any(path.is_relative_to(root) for root in self.roots) and path.is_file():
                return super().fetch(url, headers)
        raise ValueError(f"not fetched while rendering a PDF (only local files): {url}")

    @property
    def network_urls(self) -> list[str]:
        return [u for u in self.asked if not u.lower().startswith(("file:", "data:"))]


@functools.cache
def environment() -> jinja2.Environment:
    """The reports' Jinja environment: the project's templates, autoescaped HTML."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(("html",), default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    install(env)  # _() in the reader's language (reports/words.py)
    env.globals["html_lang"] = lambda: words.language().replace("_", "-")
    env.globals["page_counter"] = page_counter
    return env


def page_counter() -> Markup:
    """The page footer's ``Page 1 of 2`` in the reader's language, as a CSS ``content``
    value (its words as strings, the numbers as the page counters)."""
    said = words.gettext("Page %(page)s of %(pages)s", page="\x00", pages="\x01")
    parts = []
    for piece in re.split("([\x00\x01])", said):
        if piece in ("\x00", "\x01"):
            parts.append("counter(page)" if piece == "\x00" else "counter(pages)")
        elif piece:
            parts.append('"' + piece.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return Markup(" ".join(parts))


def render_html(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def html_to_pdf(html: str, *, fetcher: LocalFetcher | None = None) -> bytes:
    """Lay out ``html`` (relative URLs resolve under ``static/``) and return the PDF."""
    fetcher = fetcher or LocalFetcher()
    document = HTML(string=html, base_url=STATIC.as_uri() + "/", url_fetcher=fetcher)
    pdf = document.write_pdf()
    assert pdf is not None
    PDFS_RENDERED.inc()
    return pdf


def blank_sheet_pdf(
    variant_name: str,
    players: Sequence[str],
    settings: Settings | Mapping[str, Any],
    *,
    title: str,
    night_name: str | None = None,
    date: str | None = None,
    paper: str = "A4",
    fetcher: LocalFetcher | None = None,
    language: str | None = None,
) -> bytes:
    """A sheet to fill in by hand: the variant's rows, the players as column heads.

    ``settings`` is a :class:`Settings` or a record's ``settings`` object (cents).
    ``language`` is the one its words speak (None: the reader's, see reports/words.py).
    Raises RecordError on an unknown variant or bad settings, ValueError on bad paper.
    """
    with speaking(language):
        sheet = blank_sheet_context(
            variant_name, players, settings, title=title, night_name=night_name, date=date,
            paper=paper,
        )  # fmt: skip
        html = render_blank_sheet(sheet)
    return html_to_pdf(html, fetcher=fetcher)


def render_blank_sheet(sheet: BlankSheet) -> str:
    return render_html(
        "reports/blank_sheet.html", sheet=sheet, page=sheet.page, heading=sheet.heading
    )


def game_sheet_pdf(
    standings: Standings,
    *,
    title: str,
    night_name: str | None = None,
    date: str | None = None,
    paper: str = "A4",
    fetcher: LocalFetcher | None = None,
    language: str | None = None,
) -> bytes:
    """The filled score sheet of a game, finished or in progress, in ``language`` (None:
    the reader's)."""
    with speaking(language):
        sheet = game_sheet_context(
            standings, title=title, night_name=night_name, date=date, paper=paper
        )
        html = render_game_sheet(sheet)
    return html_to_pdf(html, fetcher=fetcher)


def render_game_sheet(sheet: GameSheet) -> str:
    return render_html(
        "reports/game_sheet.html", sheet=sheet, page=sheet.page, heading=sheet.heading
    )


def night_summary_pdf(
    night_name: str,
    date: str | None,
    currency: str,
    games: Sequence[tuple[str, Standings]],
    paper: str = "A4",
    *,
    fetcher: LocalFetcher | None = None,
    language: str | None = None,
) -> bytes:
    """The payout summary of a night: who pays whom, each person's net, each game's pot.

    ``games`` are (title, standings) in play order; unfinished games are listed as not
    settled and left out of the settlement. ``language``: as :func:`game_sheet_pdf`."""
    with speaking(language):
        settled = _settled(currency, games)
        summary = night_summary_context(night_name, date, currency, games, settled)
        return summary_pdf(summary, paper, fetcher=fetcher)


def summary_pdf(
    summary: NightSummary,
    paper: str = "A4",
    *,
    fetcher: LocalFetcher | None = None,
    language: str | None = None,
) -> bytes:
    """A night summary already built (with its carried debts and rounding) as a PDF."""
    with speaking(language):
        html = render_html(
            "reports/night_summary.html", summary=summary, page=Page(check_paper(paper))
        )
    return html_to_pdf(html, fetcher=fetcher)


def night_summary_text(
    night_name: str,
    date: str | None,
    currency: str,
    games: Sequence[tuple[str, Standings]],
    *,
    language: str | None = None,
) -> str:
    """The payout summary as plain text, for pasting into a group chat (same data and
    order as the PDF, from ``templates/reports/night_summary.txt``)."""
    with speaking(language):
        settled = _settled(currency, games)
        summary = night_summary_context(night_name, date, currency, games, settled)
        return render_summary_text(summary)


def _settled(currency: str, games: Sequence[tuple[str, Standings]]) -> Settlement:
    """A night record's settlement (no ledger): its finished games, exactly."""
    return settle([s for _, s in games if s.finished], currency)


def render_summary_text(summary: NightSummary) -> str:
    return render_html("reports/night_summary.txt", summary=summary).strip() + "\n"
