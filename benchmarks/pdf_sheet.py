"""How long the filled score sheet of a long game takes to render, against a plain table.

    .venv/bin/python benchmarks/pdf_sheet.py [--players 10] [--rounds 60] [--repeats 5]

Renders, in the same run, (1) the filled sheet of a Vegas game of ``players`` x ``rounds``
through the real API (context, Jinja, WeasyPrint) and (2) the baseline: a bare ``<table>``
with one ``<td>`` per cell holding the same text (round, wild, dealer, and each player's
marks, round score and total), laid out by WeasyPrint with its default styles. Prints the
best of ``repeats`` for each and the ratio sheet / baseline (the goal is 0.5 or less).
"""

from __future__ import annotations

import argparse
import html
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date

from weasyprint import HTML

from scorekeeper.reports import game_sheet_pdf
from scorekeeper.reports.samples import long_vegas
from scorekeeper.rules import Standings, load_game
from scorekeeper.rules.cards import describe_flipped_card


def baseline_html(standings: Standings) -> str:
    """The same cells as the sheet, one ``<td>`` each, and nothing else."""
    names = [p.name for p in standings.players]
    rows = [
        "<tr><th>Round</th><th>Wild</th><th>Deals</th>"
        + "".join(f"<th>{html.escape(n)}</th>" for n in names)
        + "</tr>"
    ]
    for rnd in standings.rounds:
        cells = []
        for name in names:
            total = rnd.totals.get(name)
            if total is None:
                cells.append("<td>·</td>")
                continue
            marks = "★" if rnd.went_out == name else ""
            marks += "".join(
                {"rebuy": "R", "drop": "✗", "join": "J"}.get(e.kind, "")
                for e in rnd.events_for(name)
            )
            cells.append(f"<td>{marks}+{rnd.scores.get(name, 0)} {total}</td>")
        wild = describe_flipped_card(rnd.wild) if rnd.wild else ""
        rows.append(
            f"<tr><td>{rnd.number}</td><td>{wild}</td><td>{html.escape(rnd.dealer)}"
            f"</td>{''.join(cells)}</tr>"
        )
    return (
        "<!doctype html><html><head><meta charset='utf-8'></head><body><table>"
        + "".join(rows)
        + "</table></body></html>"
    )


def interleaved(
    repeats: int, renders: dict[str, Callable[[], bytes]]
) -> dict[str, tuple[list[float], bytes]]:
    """Time each render ``repeats`` times, taking turns, so a busy machine slows all alike."""
    results: dict[str, tuple[list[float], bytes]] = {name: ([], b"") for name in renders}
    for _ in range(repeats):
        for name, render in renders.items():
            start = time.perf_counter()
            pdf = render()
            elapsed = time.perf_counter() - start
            results[name] = ([*results[name][0], elapsed], pdf)
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--paper", default="A4", choices=("A4", "Letter"))
    parser.add_argument("--save", metavar="DIR", help="write both PDFs into DIR")
    args = parser.parse_args(argv)

    standings = load_game(long_vegas(args.players, args.rounds))
    base = baseline_html(standings)

    def sheet() -> bytes:
        return game_sheet_pdf(
            standings,
            title="Benchmark",
            night_name="Long night",
            date="2026-11-22",
            paper=args.paper,
        )

    def baseline() -> bytes:
        return HTML(string=base).write_pdf()  # type: ignore[no-any-return]

    sheet(), baseline()  # warm up: fonts, templates, WeasyPrint's caches
    results = interleaved(args.repeats, {"sheet": sheet, "baseline": baseline})
    (sheet_times, sheet_pdf), (base_times, base_pdf) = results["sheet"], results["baseline"]
    sheet_best, base_best = min(sheet_times), min(base_times)
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        for name, pdf in (("sheet", sheet_pdf), ("baseline", base_pdf)):
            with open(os.path.join(args.save, f"{name}.pdf"), "wb") as fh:
                fh.write(pdf)

    print(f"date      {date.today().isoformat()}")
    print(f"machine   {os.cpu_count()} CPUs (nproc), {cpu_model()}")
    print(f"python    {sys.version.split()[0]}")
    print(f"game      Vegas, {args.players} players x {args.rounds} rounds, paper {args.paper}")
    print(
        f"sheet     best {sheet_best * 1000:7.1f} ms  median "
        f"{statistics.median(sheet_times) * 1000:7.1f} ms  {pages(sheet_pdf)} pages  "
        f"{len(sheet_pdf) // 1024} KiB"
    )
    print(
        f"baseline  best {base_best * 1000:7.1f} ms  median "
        f"{statistics.median(base_times) * 1000:7.1f} ms  {pages(base_pdf)} pages  "
        f"{len(base_pdf) // 1024} KiB"
    )
    print(
        f"ratio     {sheet_best / base_best:.2f} (sheet / baseline, best of {args.repeats}; "
        "goal <= 0.50)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
