"""Lighthouse (mobile, simulated throttling) on six pages of a freshly seeded Scorekeeper:
the sign-in page, a night, the sheet of a ten-player, sixty-round Vegas game, the
players' live view of that game (no login), the night's payout page (finished games,
transfers to pay) and the players' live view of the whole night (no login).

Run through run.sh, which installs Lighthouse first. Steps: a fresh directory under /tmp
holds the SQLite database (seed.py fills it); gunicorn serves the app as README.md's
deploy section does (the app compresses its own responses); Lighthouse audits each page (the
logged-in ones with the seeded session cookie in --extra-headers) into reports/; then a
table of performance, first contentful paint, accessibility and bytes transferred.

Goals: performance 100, FCP < 1 s (simulated), accessibility >= 95, and each page at most
30 KB transferred with its CSS and script; a keeper's page (logged in) registers the
service worker, so with the worker's script too (gzip, as sent). Exits 1 if a goal is
missed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VENV = ROOT / ".venv" / "bin"
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
GOALS = {"performance": 100, "fcp_ms": 1000, "accessibility": 95, "page_kb": 30}
OWN_TYPES = ("Document", "Stylesheet", "Script")  # "the page with its CSS and script"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


#: The browser's language (--language): sent with every request, so each page speaks it
#: (the seeded keeper's account follows the browser).
HEADERS: dict[str, str] = {}


def headers_for(cookie: str | None) -> dict[str, str]:
    return {**HEADERS, **({"Cookie": cookie} if cookie else {})}


def warm_up(url: str, cookie: str | None, times: int = 6) -> None:
    """A server that has been up a while has compiled its templates: ask each page a few
    times (every gunicorn worker) so the audit does not time a cold first request."""
    request = urllib.request.Request(url, headers=headers_for(cookie))
    for _ in range(times):
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()


def median_report(reports: list[dict]) -> dict:
    """Lighthouse's advice for variance: the run with the median performance score, ties by
    the median first contentful paint."""
    ordered = sorted(
        reports,
        key=lambda r: (
            r["categories"]["performance"]["score"],
            -r["audits"]["first-contentful-paint"]["numericValue"],
        ),
    )
    return ordered[len(ordered) // 2]


def lighthouse(url: str, out: Path, cookie: str | None, workdir: Path) -> dict:
    cmd = [
        str(LIGHTHOUSE),
        url,
        "--form-factor=mobile",
        "--throttling-method=simulate",
        "--only-categories=performance,accessibility",
        "--output=json",
        f"--output-path={out}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
    ]
    if headers_for(cookie):
        headers = workdir / "headers.json"
        headers.write_text(json.dumps(headers_for(cookie)))
        cmd.append(f"--extra-headers={headers}")
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(cmd, check=True, env=env, timeout=300)
    return json.loads(out.read_text())


def gzipped(url: str, cookie: str | None) -> int:
    """What the resource would weigh gzip-compressed (level 6, as nginx's default)."""
    request = urllib.request.Request(url, headers=headers_for(cookie))
    with urllib.request.urlopen(request, timeout=10) as response:
        return len(gzip.compress(response.read(), compresslevel=6))


def summarize(name: str, report: dict, cookie: str | None) -> dict:
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    by_type: dict[str, int] = {}
    own_gzip = 0
    for item in requests:
        kind = item.get("resourceType", "Other")
        by_type[kind] = by_type.get(kind, 0) + int(item.get("transferSize", 0))
        if kind in OWN_TYPES:
            own_gzip += gzipped(item["url"], cookie)
    own = sum(by_type.get(t, 0) for t in OWN_TYPES)
    failing = [
        f"{a['id']} ({a['title']})"
        for ref in report["categories"]["accessibility"]["auditRefs"]
        if (a := audits[ref["id"]]).get("score") is not None and a["score"] < 1 and ref["weight"]
    ]
    return {
        "page": name,
        "url": report["finalDisplayedUrl"],
        "performance": round(report["categories"]["performance"]["score"] * 100),
        "fcp_ms": round(audits["first-contentful-paint"]["numericValue"]),
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "accessibility": round(report["categories"]["accessibility"]["score"] * 100),
        "document_b": by_type.get("Document", 0),
        "css_b": by_type.get("Stylesheet", 0),
        "script_b": by_type.get("Script", 0),
        "own_b": own,
        "own_gzip_b": own_gzip,
        "total_b": round(audits["total-byte-weight"]["numericValue"]),
        "requests": len(requests),
        "failing_accessibility": failing,
        "lighthouse": report["lighthouseVersion"],
    }


def missed(row: dict) -> list[str]:
    out = []
    if row["performance"] < GOALS["performance"]:
        out.append(f"performance {row['performance']} < {GOALS['performance']}")
    if row["fcp_ms"] >= GOALS["fcp_ms"]:
        out.append(f"FCP {row['fcp_ms']} ms >= {GOALS['fcp_ms']} ms")
    if row["accessibility"] < GOALS["accessibility"]:
        out.append(f"accessibility {row['accessibility']} < {GOALS['accessibility']}")
    if row["own_b"] > GOALS["page_kb"] * 1024:
        out.append(f"{row['own_b'] / 1024:.1f} KB > {GOALS['page_kb']} KB")
    if row.get("with_sw_b", 0) > GOALS["page_kb"] * 1024:
        out.append(f"{row['with_sw_b'] / 1024:.1f} KB with sw.js > {GOALS['page_kb']} KB")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=Path, default=HERE / "reports")
    parser.add_argument("--keep", action="store_true", help="keep the /tmp instance")
    parser.add_argument("--runs", type=int, default=3, help="audits per page (median kept)")
    parser.add_argument(
        "--pages",
        nargs="*",
        default=[],
        help="audit only these (sign-in night sheet live payout night-live)",
    )
    parser.add_argument(
        "--gzip", action="store_true",
        help="serve through gzipped.py, as behind a proxy that compresses (for comparison: "
        "the app compresses its own responses, brotli or gzip)",
    )  # fmt: skip
    parser.add_argument(
        "--language", default="", help="the browser's language for every page (de, hi...)"
    )
    args = parser.parse_args()
    if args.language:
        HEADERS["Accept-Language"] = args.language
    suffix = ("-gzip" if args.gzip else "") + (f"-{args.language}" if args.language else "")
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run benchmarks/lighthouse/run.sh")
    args.reports.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-lighthouse-"))
    uri = f"sqlite:///{workdir / 'scorekeeper.sqlite3'}"
    secret = secrets.token_hex(32)
    seeded = subprocess.run(
        [str(VENV / "python"), str(HERE / "seed.py"), uri, secret],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    seed = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": uri,
        "SCOREKEEPER_SECRET_KEY": secret,
    }
    env.pop("DATABASE_URL", None)
    log = (workdir / "gunicorn.log").open("w")
    app = ["--pythonpath", str(HERE), "gzipped:create_app()"] if args.gzip else [
        "scorekeeper:create_app()"]  # fmt: skip
    server = subprocess.Popen(
        [str(VENV / "gunicorn"), "--workers", "2", "--bind", f"127.0.0.1:{port}", *app],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    rows = []
    try:
        wait_for(f"{base}/login")
        pages = [
            ("sign-in", "/login", None),
            ("night", f"/nights/{seed['night']}", seed["cookie"]),
            ("sheet 10x60", f"/games/{seed['game']}", seed["cookie"]),
            ("live 10x60", seed["live"], None),
            ("payout", f"/nights/{seed['night']}/payout", seed["cookie"]),
            ("night-live", seed["night_live"], None),
        ]
        pages = [p for p in pages if not args.pages or p[0].split()[0] in args.pages]
        for name, path, cookie in pages:
            warm_up(base + path, cookie)
            out = args.reports / f"{name.split()[0]}{suffix}.json"
            reports = []
            for run in range(args.runs):
                reports.append(lighthouse(base + path, out.with_suffix(f".{run}.json"),
                                          cookie, workdir))  # fmt: skip
            report = median_report(reports)
            out.write_text(json.dumps(report))
            for run in range(args.runs):
                out.with_suffix(f".{run}.json").unlink()
            if report["finalDisplayedUrl"].rstrip("/").endswith("/login") and cookie:
                raise SystemExit(f"{name}: redirected to log in: the cookie was not accepted")
            row = summarize(name, report, cookie)
            row["fcp_runs_ms"] = sorted(
                round(r["audits"]["first-contentful-paint"]["numericValue"]) for r in reports
            )
            if cookie:  # a keeper's page: it registers the service worker
                row["sw_gzip_b"] = gzipped(f"{base}/sw.js", None)
                row["with_sw_b"] = row["own_b"] + row["sw_gzip_b"]
            rows.append(row)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        if not args.keep:
            for path in sorted(workdir.rglob("*"), reverse=True):
                path.unlink() if path.is_file() else path.rmdir()
            workdir.rmdir()

    header = (
        f"{'page':<12} {'perf':>4} {'FCP ms':>7} {'LCP ms':>7} {'a11y':>4} {'HTML':>8} "
        f"{'CSS':>7} {'JS':>7} {'page+CSS+JS':>12} {'gzip':>8} {'all':>8} {'+sw.js':>8}"
    )
    served = "through gzipped.py" if args.gzip else "compressed by the app (as deployed)"
    print(f"Lighthouse {rows[0]['lighthouse']}, mobile, simulated throttling, median of "
          f"{args.runs} runs, {served}, language {args.language or 'en'}; reports in "
          f"{args.reports}")  # fmt: skip
    print(header)
    for r in rows:
        print(
            f"{r['page']:<12} {r['performance']:>4} {r['fcp_ms']:>7} {r['lcp_ms']:>7} "
            f"{r['accessibility']:>4} {r['document_b'] / 1024:>6.1f}KB {r['css_b'] / 1024:>5.1f}KB "
            f"{r['script_b'] / 1024:>5.1f}KB {r['own_b'] / 1024:>10.1f}KB "
            f"{r['own_gzip_b'] / 1024:>6.1f}KB {r['total_b'] / 1024:>6.1f}KB"
            + (f" {r['with_sw_b'] / 1024:>6.1f}KB" if "with_sw_b" in r else "")
        )
    status = 0
    for r in rows:
        print(f"  {r['page']}: FCP of each run {r['fcp_runs_ms']} ms")
    for r in rows:
        for problem in missed(r):
            print(f"MISSED {r['page']}: {problem}")
            status = 1
        for audit in r["failing_accessibility"]:
            print(f"  accessibility audit failing on {r['page']}: {audit}")
    summary = args.reports / f"summary{suffix}.json"
    summary.write_text(json.dumps(rows, indent=2))
    return status


if __name__ == "__main__":
    sys.exit(main())
