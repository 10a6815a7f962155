"""What the app counts, in the Prometheus format (the official ``prometheus_client``).

Under gunicorn each sync worker is a process of its own: ``deploy/gunicorn.conf.py`` sets
``PROMETHEUS_MULTIPROC_DIR`` before any worker imports this module, each worker writes its
counts there, and ``/metrics`` (``web/ops.py``) adds up every worker's, the dead ones'
included (``child_exit`` marks them). Without it (``flask run``, the tests) the counts are
the process's own. Counted where the thing happens, once it is committed."""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter(
    "scorekeeper_http_requests_total",
    "HTTP requests answered, by route (the URL rule, not the path), method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "scorekeeper_http_request_duration_seconds",
    "Time from the request's start to its answer in the app, by route and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
ROUNDS_SAVED = Counter(
    "scorekeeper_rounds_saved_total",
    "Rounds saved: 'new' at the end of a game, 'correction' of an earlier one.",
    ["change"],
)
PAYMENTS_RECORDED = Counter(
    "scorekeeper_payments_recorded_total",
    "Payments recorded on settle-up pages (a suggested transfer marked paid, or any amount).",
)
PDFS_RENDERED = Counter(
    "scorekeeper_pdfs_rendered_total",
    "PDFs laid out by WeasyPrint (one served from a cache is not rendered again).",
)
LIVE_VIEWS = Counter(
    "scorekeeper_live_views_total",
    "Players' live views answered, by view (game, night) and answer (page, not_modified).",
    ["view", "answer"],
)


def exposition() -> tuple[bytes, str]:
    """The metrics as Prometheus scrapes them: every worker's added up when multiprocess."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
