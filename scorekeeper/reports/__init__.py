"""The printed documents: blank and filled score sheets, and a night's payout summary.

Pure rendering: the callers pass the engine's results in; nothing here touches the
database or needs a Flask request. See :mod:`.pdf` for rendering and :mod:`.context` for
what the templates are given.
"""

from .context import night_summary_context
from .pdf import (
    LocalFetcher,
    blank_sheet_pdf,
    game_sheet_pdf,
    night_summary_pdf,
    night_summary_text,
)

__all__ = [
    "LocalFetcher",
    "blank_sheet_pdf",
    "game_sheet_pdf",
    "night_summary_context",
    "night_summary_pdf",
    "night_summary_text",
]
