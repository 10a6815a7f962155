"""The blank score sheet: a page to fill in by hand, the players as column heads and the
rows the game fixes (Texas: Threes ... Kings; Dummy: the twelve contracts; Contract Rummy:
its deals) or numbered rounds, as many as fit the page."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Settings, get_variant
from ..rules.display import Column, Words, in_english
from .common import MM_PT, Heading, Page, check_paper, make_heading
from .words import said


@dataclass(frozen=True, slots=True)
class BlankColumn:
    head: str
    width_mm: float
    kind: str = ""  # a CSS class: "num", "rank", "box", "text"


@dataclass(frozen=True, slots=True)
class BlankRow:
    labels: tuple[str, ...]  # one per label column, in the sheet's language
    emphasis: bool = False  # Texas ×2 / ×3 rows


@dataclass(frozen=True, slots=True)
class BlankSheet:
    heading: Heading
    page: Page
    players: tuple[str, ...]
    label_columns: tuple[BlankColumn, ...]
    rows: tuple[BlankRow, ...]
    row_height_mm: float
    footer_rows: tuple[str, ...]  # "Total", "Re-buys"...
    footer_height_mm: float
    note: str | None


BLANK_FIXED_MM = 54  # heading, legend, table header and note, as measured on the page
BLANK_ROW_MM = 7.5  # a numbered round: room for a score and a running total
BLANK_TALL_ROW_MM = 15.0  # the largest row height when the rows are fixed (Texas, Dummy)
BLANK_FOOTER_MM = 9.0
BLANK_NAME_CHAR_MM = 2.1  # the widest average letter of a name in the header (9pt bold)
BLANK_NAME_LINE_MM = 4.2


BLANK_MM_PER_CH = 2.4  # a label column's width in mm per character the variant gives


def _columns(own: Sequence[Column], rows: Sequence[Sequence[Words]]) -> list[BlankColumn]:
    """The label columns in the sheet's language: a head or a row's label longer than
    its English widens its column by the difference (the English sheet as it was)."""
    out = []
    for i, c in enumerate(own):
        head = said(c.head)
        longer = [len(said(row[i])) - len(in_english(row[i])) for row in rows]
        width = max(c.width, len(head)) + max([0, *longer])
        out.append(BlankColumn(head, round(width * BLANK_MM_PER_CH, 1), c.kind))
    return out


def blank_sheet_context(
    variant_name: str,
    players: Sequence[str],
    settings: Settings | Mapping[str, Any],
    *,
    title: str,
    night_name: str | None,
    date: str | None,
    paper: str,
) -> BlankSheet:
    """A sheet to fill in by hand, on one page: the rows the game fixes, or numbered
    rounds as many as fit."""
    variant = get_variant(variant_name)
    if not isinstance(settings, Settings):
        settings = variant.parse_settings(dict(settings))
    names = tuple(players)
    page = Page(check_paper(paper), landscape=len(names) > 10)
    footer = [said(row) for row in variant.display.blank_footers()]
    fixed = variant.display.blank_rows(len(names), settings)
    columns = _columns(variant.display.blank_columns(), fixed or [])
    # Long names wrap in the table header: leave room for the extra lines.
    labels_mm = sum(c.width_mm for c in columns)
    column_mm = (page.width_pt / MM_PT - labels_mm) / max(1, len(names))
    chars_per_line = max(1, int((column_mm - 2) / BLANK_NAME_CHAR_MM))
    name_lines = max([1, *(math.ceil(len(n) / chars_per_line) for n in names)])
    room_mm = (
        page.height_mm
        - BLANK_FIXED_MM
        - BLANK_FOOTER_MM * len(footer)
        - BLANK_NAME_LINE_MM * (name_lines - 1)
    )
    if fixed is None:
        count = max(10, int(room_mm // BLANK_ROW_MM))
        rows = [BlankRow((str(n),) + ("",) * (len(columns) - 1)) for n in range(1, count + 1)]
        row_mm = BLANK_ROW_MM
    else:
        rows = [
            BlankRow(tuple(said(x) for x in labels), variant.multiplier(i) > 1)
            for i, labels in enumerate(fixed, 1)
        ]
        row_mm = min(BLANK_TALL_ROW_MM, int(room_mm / len(rows) * 2) / 2)
    heading = make_heading(
        variant, settings, len(names), title=title, night_name=night_name, date=date
    )
    return BlankSheet(
        heading=heading,
        page=page,
        players=names,
        label_columns=tuple(columns),
        rows=tuple(rows),
        row_height_mm=row_mm,
        footer_rows=tuple(footer),
        footer_height_mm=BLANK_FOOTER_MM,
        note=said(variant.display.blank_note(settings)),
    )
