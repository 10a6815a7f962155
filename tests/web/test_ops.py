"""What an operator reads: /healthz, /metrics (who may read them, what they count), the
request id on every answer and every log line of its request, each worker's schema guard
(a rolling upgrade's old workers step aside), and the optional error reporter."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from prometheus_client import REGISTRY
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.services import health
from tests.conftest import make_app
from tests.web.keeper import Keeper
from tests.web.test_settle_up import pay, regular_ids


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def set_revision(app: Flask, revision: str) -> None:
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})


# ------------------------------------------------------------------------ /healthz ---
def test_healthz_ok_with_the_version(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json == {
        "status": "ok",
        "version": health.version(),
        "schema": health.migrations().head,
        "checks": {"database": "ok", "schema": "ok", "cache": "off"},
    }
    assert re.fullmatch(r"\d+\.\d+\.\d+", health.version())


def test_the_version_is_in_every_page_footer(client):
    assert f"Scorekeeper {health.version()}" in client.get("/login").get_data(as_text=True)


def test_healthz_is_degraded_not_down_without_redis(db_uri):
    app = make_app(
        db_uri, CACHE_TYPE="RedisCache", CACHE_REDIS_URL="redis://127.0.0.1:1/0"
    )  # nothing listens on port 1
    r = app.test_client().get("/healthz")
    assert r.status_code == 200
    assert r.json["status"] == "degraded" and r.json["checks"]["cache"] == "degraded"


def test_healthz_is_down_without_the_database(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.sqlite3'}")
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    assert r.json["status"] == "down" and r.json["checks"]["database"] == "down"


@pytest.mark.parametrize(
    ("revision", "state", "advice"),
    [
        ("0011_accounts", "behind", "run `flask --app scorekeeper db upgrade`"),
        ("0013_from_a_newer_release", "ahead", "a newer release migrated it"),
    ],
)
def test_a_worker_does_not_serve_a_schema_it_was_not_built_for(
    app, caplog, revision, state, advice
):
    """A rolling upgrade: the new release migrated the database; a worker of the old one
    answers 503 (and /healthz says down, so the balancer passes it by) with one log line,
    instead of writing what the new code would misread."""
    set_revision(app, revision)
    client = app.test_client()
    page = client.get("/login")
    assert page.status_code == 503 and page.headers["Retry-After"] == "5"
    assert "being upgraded" in page.get_data(as_text=True)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("not serving")]
    assert len(said) == 1 and revision in said[0] and advice in said[0], said
    assert client.get("/login").status_code == 503
    assert len([r for r in caplog.records if r.getMessage().startswith("not serving")]) == 1
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json["checks"]["schema"] == state
    set_revision(app, health.migrations().head)  # the fixture's database, as it was


# ------------------------------------------------------------------------ /metrics ---
def test_metrics_count_requests_rounds_payments_pdfs_and_live_views(client):
    keeper = Keeper(client)
    keeper.signup()
    before = {
        "rounds": sample("scorekeeper_rounds_saved_total", change="new"),
        "corrections": sample("scorekeeper_rounds_saved_total", change="correction"),
        "payments": sample("scorekeeper_payments_recorded_total"),
        "pdfs": sample("scorekeeper_pdfs_rendered_total"),
        "live": sample("scorekeeper_live_views_total", view="game", answer="page"),
        "logins": sample(
            "scorekeeper_http_requests_total", route="/healthz", method="GET", status="200"
        ),
    }
    client.get("/healthz")
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], buy_in="5.00", deals="2")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    assert keeper.enter(game, "Bob", {"Ann": 7}, number=1).status_code == 302  # a correction
    ids = regular_ids(client)
    pay(keeper, night, ids["Bob"], ids["Ann"], "1.00")
    assert client.get(f"/games/{game}/sheet.pdf").status_code == 200
    keeper.post_form(f"/games/{game}/live", {})
    link = re.search(
        r'id="live-url"[^>]* value="[^"]*?(/live/[^"]+)"',
        client.get(f"/games/{game}/live").get_data(as_text=True),
    )
    assert link
    assert client.get(link[1]).status_code == 200

    page = client.get("/metrics")
    assert page.status_code == 200 and page.mimetype == "text/plain"
    assert sample("scorekeeper_rounds_saved_total", change="new") == before["rounds"] + 1
    assert (
        sample("scorekeeper_rounds_saved_total", change="correction") == before["corrections"] + 1
    )
    assert sample("scorekeeper_payments_recorded_total") == before["payments"] + 1
    assert sample("scorekeeper_pdfs_rendered_total") == before["pdfs"] + 1
    assert sample("scorekeeper_live_views_total", view="game", answer="page") == before["live"] + 1
    assert (
        sample("scorekeeper_http_requests_total", route="/healthz", method="GET", status="200")
        >= before["logins"] + 1
    )
    text_ = page.get_data(as_text=True)
    assert (
        sample(
            "scorekeeper_http_request_duration_seconds_count",
            route="/games/<id:game_id>/sheet.pdf",
            method="GET",
        )
        >= 1
    )
    assert "scorekeeper_http_request_duration_seconds_bucket{" in text_
    assert "scorekeeper_payments_recorded_total" in text_


def test_made_up_paths_and_methods_add_no_series(client):
    before = sample("scorekeeper_http_requests_total", route="unmatched", method="other",
                    status="405")  # fmt: skip
    assert client.get("/no/such/page/4711").status_code == 404
    assert client.open("/login", method="BREW").status_code == 405
    page = client.get("/metrics").get_data(as_text=True)
    labels = " ".join(re.findall(r"\{[^}]*\}", page))  # a sample's value may hold 4711
    assert "4711" not in labels and "BREW" not in labels
    assert sample("scorekeeper_http_requests_total", route="unmatched", method="GET",
                  status="404") >= 1  # fmt: skip
    assert sample("scorekeeper_http_requests_total", route="unmatched", method="other",
                  status="405") == before + 1  # fmt: skip


@pytest.mark.parametrize(
    ("environ", "headers", "config", "status"),
    [
        ({}, {}, {}, 200),  # the host itself
        ({"REMOTE_ADDR": "203.0.113.5"}, {}, {}, 403),
        (
            {"REMOTE_ADDR": "203.0.113.5"},
            {"Authorization": "Bearer s3cret"},
            {"METRICS_TOKEN": "s3cret"},
            200,
        ),
        (
            {"REMOTE_ADDR": "203.0.113.5"},
            {"Authorization": "Bearer wrong"},
            {"METRICS_TOKEN": "s3cret"},
            403,
        ),
        ({"REMOTE_ADDR": "203.0.113.5"}, {"Authorization": "Bearer "}, {}, 403),
        # a proxy on this host, not trusted: every client would look local
        ({}, {"X-Forwarded-For": "203.0.113.5"}, {}, 403),
        ({}, {"X-Forwarded-For": "127.0.0.1"}, {}, 403),
        # a trusted proxy (PROXY_FIX=1): the client it names
        ({}, {"X-Forwarded-For": "203.0.113.5"}, {"PROXY_FIX": 1}, 403),
        ({}, {"X-Forwarded-For": "127.0.0.1, 203.0.113.5"}, {"PROXY_FIX": 1}, 403),
        ({}, {"X-Forwarded-For": "127.0.0.1"}, {"PROXY_FIX": 1}, 200),
    ],
)
def test_metrics_only_to_this_host_or_with_the_token(db_uri, environ, headers, config, status):
    app = make_app(db_uri, **config)
    r = app.test_client().get("/metrics", headers=headers, environ_base=environ)
    assert r.status_code == status
    assert (b"scorekeeper_http_requests_total" in r.data) == (status == 200)


# ---------------------------------------------------------------------- request ids ---
def test_the_request_id_is_answered_and_on_every_log_line_of_its_request(db_uri):
    app = make_app(db_uri, PROPAGATE_EXCEPTIONS=False)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("kaboom")

    client = app.test_client()
    assert (
        client.get("/login", headers={"X-Request-ID": "lb-42.a"}).headers["X-Request-ID"]
        == "lb-42.a"
    )
    made = client.get("/login", headers={"X-Request-ID": "not one of ours"}).headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert re.fullmatch(r"[0-9a-f]{32}", client.get("/login").headers["X-Request-ID"])
    errors = io.StringIO()
    r = client.get("/boom", headers={"X-Request-ID": "rid-31"}, errors_stream=errors)
    assert r.status_code == 500 and r.headers["X-Request-ID"] == "rid-31"
    logged = errors.getvalue()
    assert "ERROR request=rid-31 scorekeeper.app: Exception on /boom [GET]" in logged, logged
    assert "RuntimeError: kaboom" in logged


def test_sentry_sees_an_unhandled_error_with_the_request_id(db_uri):
    import sentry_sdk
    from sentry_sdk.transport import Transport

    sent: list[dict] = []

    class Kept(Transport):
        def capture_envelope(self, envelope) -> None:
            sent.extend(item.payload.json for item in envelope.items if item.payload.json)

    app = make_app(
        db_uri,
        PROPAGATE_EXCEPTIONS=False,
        SENTRY_DSN="https://key@sentry.example.invalid/1",
        SENTRY_OPTIONS={"transport": Kept},
    )

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("kaboom")

    try:
        r = app.test_client().get("/boom", headers={"X-Request-ID": "rid-sentry"})
        assert r.status_code == 500
        sentry_sdk.flush()
        events = [e for e in sent if e.get("exception")]
        assert len(events) == 1, sent
        assert events[0]["tags"]["request_id"] == "rid-sentry"
        assert events[0]["release"] == f"scorekeeper@{health.version()}"
        assert events[0]["exception"]["values"][0]["value"] == "kaboom"
    finally:
        sentry_sdk.init()  # off again: no DSN


def test_no_error_reporter_without_a_dsn(client):
    import sentry_sdk

    assert client.get("/login").status_code == 200
    assert sentry_sdk.get_client().dsn is None and sentry_sdk.get_client().transport is None
