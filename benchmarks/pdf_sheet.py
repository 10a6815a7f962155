"""How long the filled score sheet of a long game takes to render, against a plain table.

    .venv/bin/python benchmarks/pdf_sheet.py [--players 10] [--rounds 60] [--repeats 5]
                                             [--paper A4] [--layouts] [--save DIR]

Renders, in the same run, (1) the filled sheet of a Vegas game of ``players`` x ``rounds``
through the real API (context, Jinja, WeasyPrint: heading, grid, result and pot) and (2)
the baseline: a bare ``<table>`` with one ``<td>`` per cell holding the same text (round,
wild, dealer, and each player's marks, round score and total), laid out by WeasyPrint with
its default styles. The repeats take turns, so load from elsewhere slows both alike.
Prints the best of ``repeats`` for each and the ratio sheet / baseline (goal: 0.5 or less).

``--layouts`` also times other ways to lay out the same grid, each a bare page with just
the table, to show where the time goes (see benchmarks/README.md, "PDF sheet").
"""

from __future__ import annotations

import sys
from pathlib import Path

# The checkout's own scorekeeper (and tests.samples) come first.
sys.path[:] = [str(Path(__file__).resolve().parent.parent), *sys.path]

import argparse  # noqa: E402
import html  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from datetime import date  # noqa: E402

from weasyprint import HTML  # noqa: E402

from scorekeeper.reports import game_sheet_pdf  # noqa: E402
from scorekeeper.reports.filled import game_sheet_context  # noqa: E402
from scorekeeper.rules import Standings, load_game  # noqa: E402
from scorekeeper.rules.cards import describe_flipped_card  # noqa: E402
from tests.samples import long_vegas  # noqa: E402

Cell = tuple[str, str, str]  # marks, round score, total; all empty when not in the game


def grid_cells(standings: Standings) -> tuple[list[str], list[tuple[list[str], list[Cell]]]]:
    """The players, and per round its labels (number, wild, dealer) and players' cells."""
    names = [p.name for p in standings.players]
    rows = []
    for rnd in standings.rounds:
        cells: list[Cell] = []
        for name in names:
            total = rnd.totals.get(name)
            if total is None:
                cells.append(("", "", "·"))
                continue
            marks = "★" if rnd.went_out == name else ""
            marks += "".join(
                {"rebuy": "R", "drop": "✗", "join": "J"}.get(e.kind, "")
                for e in rnd.events_for(name)
            )
            cells.append((marks, f"+{rnd.scores.get(name, 0)}", str(total)))
        wild = describe_flipped_card(rnd.wild) if rnd.wild else ""
        rows.append(([str(rnd.number), wild, rnd.dealer], cells))
    return names, rows


def table_html(
    standings: Standings,
    *,
    css: str = "",
    cell: Callable[[Cell], str] | None = None,
    fixed: bool = False,
) -> str:
    """One ``<td>`` per cell. With no CSS and the default cell this is the baseline."""
    names, rows = grid_cells(standings)
    cell = cell or (lambda c: html.escape(f"{c[0]}{c[1]} {c[2]}".strip()))
    cols = ""
    if fixed:
        cols = "<colgroup><col><col><col>" + "<col>" * len(names) + "</colgroup>"
    out = [
        f"<table>{cols}<thead><tr><th>Round</th><th>Wild</th><th>Deals</th>"
        + "".join(f"<th>{html.escape(n)}</th>" for n in names)
        + "</tr></thead><tbody>"
    ]
    for labels, cells in rows:
        out.append(
            "<tr>"
            + "".join(f"<td>{html.escape(x)}</td>" for x in labels)
            + "".join(f"<td>{cell(c)}</td>" for c in cells)
            + "</tr>"
        )
    out.append("</tbody></table>")
    style = f"<style>{css}</style>" if css else ""
    return (
        f"<!doctype html><html><head><meta charset='utf-8'>{style}</head><body>"
        + "".join(out)
        + "</body></html>"
    )


FIXED_CSS = (
    "@page { size: A4; margin: 12mm 10mm } table { table-layout: fixed; width: 100%;"
    " border-collapse: collapse; font: 8pt 'DejaVu Sans' } td { text-align: right }"
    " tbody tr:nth-child(even) { background: #e9e9e9 }"
)


def one_line_html(standings: Standings, paper: str) -> str:
    """The sheet's own grid (one preformatted line per round) on an otherwise bare page."""
    sheet = game_sheet_context(standings, title="", night_name=None, date=None, paper=paper)
    rows = "".join(
        f"<tr><td colspan='{len(sheet.label_columns) + len(sheet.players)}'>"
        f"{html.escape(r.text)}</td></tr>"
        for r in sheet.rows
    )
    head = "".join(f"<th>{html.escape(c.head)}</th>" for c in sheet.label_columns)
    head += "".join(f"<th>{html.escape(n)}</th>" for n in sheet.players)
    cols = "".join(f"<col style='width: {sheet.em(c.width_ch)}'>" for c in sheet.label_columns)
    cols += f"<col style='width: {sheet.em(sheet.player_ch)}'>" * len(sheet.players)
    css = (
        "@page { size: A4; margin: 12mm 10mm } table { table-layout: fixed;"
        " border-spacing: 0; font-family: 'DejaVu Sans Mono' } td { white-space: pre }"
        " tbody tr:nth-child(even) td { background: #e9e9e9 }"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head><body>"
        f"<table style='font-size: {sheet.page.font_pt}pt; width: {sheet.em(sheet.width_ch)}'>"
        f"<colgroup>{cols}</colgroup><thead><tr>{head}</tr></thead><tbody>{rows}</tbody>"
        "</table></body></html>"
    )


Timing = tuple[list[float], list[float], bytes]  # wall-clock seconds, CPU seconds, the PDF


def interleaved(repeats: int, renders: dict[str, Callable[[], bytes]]) -> dict[str, Timing]:
    """Time each render ``repeats`` times, taking turns, so a busy machine slows all alike.

    Both wall-clock and process CPU time: WeasyPrint renders on one thread, so CPU time is
    the steadier figure when other work shares the machine."""
    results: dict[str, Timing] = {name: ([], [], b"") for name in renders}
    for _ in range(repeats):
        for name, render in renders.items():
            wall, cpu = time.perf_counter(), time.process_time()
            pdf = render()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            walls, cpus, _ = results[name]
            results[name] = ([*walls, wall], [*cpus, cpu], pdf)
    return results


def pages(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as fh:
        fh.write(pdf)
        fh.flush()
        try:
            info = subprocess.run(
                ["pdfinfo", fh.name], capture_output=True, text=True, check=True
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            return "?"
    return next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "?")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--paper", default="A4", choices=("A4", "Letter"))
    parser.add_argument("--layouts", action="store_true", help="also time other layouts")
    parser.add_argument("--save", metavar="DIR", help="write the PDFs into DIR")
    args = parser.parse_args(argv)

    standings = load_game(long_vegas(args.players, args.rounds))

    def render(source: str) -> Callable[[], bytes]:
        return lambda: HTML(string=source).write_pdf()  # type: ignore[no-any-return]

    renders: dict[str, Callable[[], bytes]] = {
        "sheet": lambda: game_sheet_pdf(
            standings,
            title="Benchmark",
            night_name="Long night",
            date="2026-11-22",
            paper=args.paper,
        ),
        "baseline": render(table_html(standings)),
    }
    if args.layouts:
        renders |= {
            "table, fixed layout": render(table_html(standings, css=FIXED_CSS, fixed=True)),
            "table, fixed, <small> score": render(
                table_html(
                    standings,
                    css=FIXED_CSS,
                    fixed=True,
                    cell=lambda c: f"{html.escape(c[0])}<small>{c[1]}</small> {c[2]}",
                )
            ),
            "table, fixed, cell borders": render(
                table_html(
                    standings,
                    css=FIXED_CSS + " td { border: 0.4pt solid #777 }",
                    fixed=True,
                )
            ),
            "one line per round (grid only)": render(one_line_html(standings, args.paper)),
        }
    for warm_up in renders.values():  # fonts, templates, WeasyPrint's caches
        warm_up()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results = interleaved(args.repeats, renders)
    base_wall, base_cpu = min(results["baseline"][0]), min(results["baseline"][1])

    print(f"date      {date.today().isoformat()}")
    print(f"machine   {os.cpu_count()} CPUs (nproc), {cpu_model()}, load average {load:.1f}")
    print(f"python    {sys.version.split()[0]}, {platform.system()} {platform.release()}")
    print(
        f"game      Vegas, {args.players} players x {args.rounds} rounds, paper {args.paper}, "
        f"best of {args.repeats} interleaved repeats"
    )
    width = max(len(name) for name in results)
    print(f"{'':<{width}}  {'wall ms':>8} {'cpu ms':>8} {'x base':>7}  pages   KiB")
    for name, (walls, cpus, pdf) in results.items():
        print(
            f"{name:<{width}}  {min(walls) * 1000:8.1f} {min(cpus) * 1000:8.1f} "
            f"{min(cpus) / base_cpu:7.2f}  {pages(pdf):>5} {len(pdf) // 1024:5d}"
        )
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            slug = "".join(ch if ch.isalnum() else "-" for ch in name).strip("-")
            with open(os.path.join(args.save, f"{slug}.pdf"), "wb") as fh:
                fh.write(pdf)
    sheet_wall, sheet_cpu = min(results["sheet"][0]), min(results["sheet"][1])
    print(
        f"ratio     sheet / baseline: {sheet_wall / base_wall:.2f} wall-clock, "
        f"{sheet_cpu / base_cpu:.2f} CPU time (goal <= 0.50)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
