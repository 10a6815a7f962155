"""What an operator reads: ``/healthz`` (the balancer's and systemd's check), ``/metrics``
(Prometheus, from this host or with the bearer token), a request id on every request and
every line the app logs during it, and each worker's guard against a database migrated
by a release it does not know (a rolling upgrade's old workers step aside)."""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
import time
import uuid

from flask import Blueprint, Flask, current_app, g, has_request_context, jsonify, request
from flask.logging import default_handler
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from .. import metrics
from ..services import health

bp = Blueprint("ops", __name__)

#: Routes outside the schema guard and the login: they must answer whatever state the
#: database is in.
UNGUARDED = frozenset({"ops.healthz", "ops.metrics", "static"})
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
SCHEMA_CHECK_SECONDS = 5.0
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
LOG_FORMAT = "[%(asctime)s] %(levelname)s request=%(request_id)s %(name)s: %(message)s"


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    found = health.health()
    return jsonify(found.to_json()), 503 if found.status == "down" else 200


@bp.get("/metrics", endpoint="metrics")
def metrics_page() -> Response:
    if not _may_read_metrics():
        return Response(
            "Metrics are served to this host only, or with the bearer token "
            "(SCOREKEEPER_METRICS_TOKEN).\n",
            403,
            mimetype="text/plain",
        )
    body, content_type = metrics.exposition()
    return Response(body, headers={"Content-Type": content_type, "Cache-Control": "no-store"})


def _may_read_metrics() -> bool:
    """With the configured token (``Authorization: Bearer <token>``), or from this host:
    a loopback client address (ProxyFix's, when PROXY_FIX trusts a proxy) that came with
    no forwarded address (a proxy on this host would make every client look local)."""
    token = str(current_app.config.get("METRICS_TOKEN") or "")
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    forwarded = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    if forwarded and not current_app.config.get("PROXY_FIX"):
        return False  # a proxy on this host, not trusted to say who the client is
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def _start() -> Response | None:
    """The request's id (an incoming X-Request-ID that looks like one, or a new one), its
    start time, and the schema guard."""
    sent = request.headers.get("X-Request-ID", "")
    g.request_id = sent if REQUEST_ID.fullmatch(sent) else uuid.uuid4().hex
    g.request_started = time.perf_counter()
    if request.endpoint in UNGUARDED:
        return None
    return _schema_guard()


def _schema_guard() -> Response | None:
    """At most every SCHEMA_CHECK_SECONDS per worker, one query: a database migrated past
    this release's head (a newer release is rolling out) or not yet up to it is not
    served by this worker, with one log line saying why; /healthz then says down, so the
    balancer sends its requests to the instances that know the schema."""
    guard = current_app.extensions.setdefault("scorekeeper_schema_guard", {"at": -1e9})
    now = time.monotonic()
    if now - guard["at"] >= SCHEMA_CHECK_SECONDS:
        guard["at"] = now
        try:
            state = health.schema()
        except SQLAlchemyError:
            state = None  # the request itself will fail and say so; not this guard's job
        refusal = state.sentence() if state is not None else ""
        if refusal and refusal != guard.get("refusal"):
            current_app.logger.error("not serving: %s", refusal)
        guard["refusal"] = refusal
    if not guard.get("refusal"):
        return None
    return Response(
        "This server is being upgraded: try again in a moment.\n",
        503,
        headers={"Retry-After": "5"},
        mimetype="text/plain",
    )


def _finish(response: Response) -> Response:
    response.headers["X-Request-ID"] = g.get("request_id", "")
    # Labels from a closed set: a client's made-up paths and methods add no series.
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    method = request.method if request.method in METHODS else "other"
    metrics.REQUESTS.labels(route, method, str(response.status_code)).inc()
    started = g.get("request_started")
    if started is not None:
        metrics.LATENCY.labels(route, method).observe(time.perf_counter() - started)
    return response


class RequestIdFilter(logging.Filter):
    """Puts the request's id on every record logged during it (``-`` outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        rid = g.get("request_id", "-") if has_request_context() else "-"
        record.request_id = rid
        return True


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.before_request(_start)
    app.after_request(_finish)
    app.jinja_env.globals["app_version"] = health.version()
    if not any(isinstance(f, RequestIdFilter) for f in default_handler.filters):
        default_handler.addFilter(RequestIdFilter())
        default_handler.setFormatter(logging.Formatter(LOG_FORMAT))
    # The app's logger (scorekeeper.app) and its modules' (scorekeeper.cache...) log
    # through the one handler, in the one format.
    package = logging.getLogger("scorekeeper")
    if default_handler not in package.handlers:
        package.addHandler(default_handler)
    if package.level == logging.NOTSET:
        package.setLevel(logging.INFO)
    app.logger.removeHandler(default_handler)
