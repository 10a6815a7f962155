"""The printed documents: blank and filled score sheets, and a night's payout summary.

Pure rendering: the callers pass the engine's results in; nothing here touches the
database or needs a Flask app or request. What the documents show is worked out as plain
data, one module per document (:mod:`.blank`, :mod:`.filled`, :mod:`.summary`, and
:mod:`.common` for what they share); :mod:`.pdf` renders the templates in
``templates/reports/`` with WeasyPrint, :mod:`.files` names the downloads and caches rendered PDFs.

For the web app::

    key = pdf_cache_key("sheet", record.to_json(), paper=paper, title=title, night=name, date=day)
    pdf = cached_pdf(key, lambda: game_sheet_pdf(standings, title=title, night_name=name,
                                                 date=day, paper=paper))
    filename = pdf_filename("sheet", variant=record.variant, night_name=name, date=day)

and for the payout summary page, ``book_summary(ledger.night_book(night))`` rendered with
``{% include "reports/_summary.html" %}`` (it needs only ``summary``).
"""

from .files import (
    cached_pdf,
    cached_state_pdf,
    pdf_cache_key,
    pdf_filename,
    slugify,
    template_version,
)
from .pdf import (
    LocalFetcher,
    blank_sheet_pdf,
    game_sheet_pdf,
    night_summary_pdf,
    night_summary_text,
    summary_pdf,
)
from .summary import NightSummary, book_summary, night_summary_context

__all__ = [
    "LocalFetcher",
    "NightSummary",
    "blank_sheet_pdf",
    "book_summary",
    "cached_pdf",
    "cached_state_pdf",
    "game_sheet_pdf",
    "night_summary_context",
    "night_summary_pdf",
    "night_summary_text",
    "pdf_cache_key",
    "pdf_filename",
    "slugify",
    "summary_pdf",
    "template_version",
]
