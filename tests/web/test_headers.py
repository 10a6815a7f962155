"""The headers every response carries (``scorekeeper/web/headers.py``), added at the WSGI
edge: the security headers on everything, HSTS only over HTTPS, and on pages (not static
files) who may cache them and what they vary on; a header a view set itself is kept."""

from __future__ import annotations

from scorekeeper.web.headers import CSP, add_headers
from tests.web.keeper import Keeper


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",") if v.strip()}


def test_a_page_a_304_and_a_static_file(client):
    Keeper(client).signup()
    page = client.get("/")
    assert page.headers["Content-Security-Policy"] == CSP
    assert page.headers["Cache-Control"] == "private, no-cache"
    assert {"cookie", "accept-encoding"} <= vary(page)
    assert "Strict-Transport-Security" not in page.headers  # plain http: a local install

    night = Keeper(client).night(["Ann", "Bob"])
    game = Keeper(client).game(night, "rummy", ["Ann", "Bob"])
    client.get("/")
    etag = client.get(f"/games/{game}").headers["ETag"]
    unchanged = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    # A 304 carries what the page it confirms would: the same Vary, the same policies.
    assert {"cookie", "accept-encoding"} <= vary(unchanged)
    assert unchanged.headers["Content-Security-Policy"] == CSP
    assert unchanged.headers["X-Frame-Options"] == "DENY"
    assert unchanged.headers.getlist("Vary") == [unchanged.headers["Vary"]]  # one header

    static = client.get("/static/css/app.css")
    assert static.status_code == 200
    assert static.headers["X-Content-Type-Options"] == "nosniff"
    assert "private" not in static.headers.get("Cache-Control", "")  # the same for everyone


def test_hsts_only_over_https(app):
    secure = app.test_client().get("/login", base_url="https://scores.example")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in app.test_client().get("/login").headers


def test_a_header_the_response_set_is_kept_and_vary_is_merged():
    headers = [
        ("Content-Type", "text/html"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("Vary", "Accept-Encoding"),
    ]
    add_headers(headers, secure=False, page=True)
    names = [name.lower() for name, _ in headers]
    assert len(names) == len(set(names))  # nothing twice
    found = dict(headers)
    assert found["Referrer-Policy"] == "no-referrer" and found["Cache-Control"] == "no-store"
    assert found["Vary"] == "Accept-Encoding, Cookie, Accept-Language"
    assert found["X-Frame-Options"] == "DENY"

    plain: list[tuple[str, str]] = []
    add_headers(plain, secure=True, page=True)
    assert dict(plain)["Vary"] == "Cookie, Accept-Encoding, Accept-Language"
    assert "Strict-Transport-Security" in dict(plain)
    static: list[tuple[str, str]] = []
    add_headers(static, secure=False, page=False)
    assert "Vary" not in dict(static) and "Cache-Control" not in dict(static)


def test_the_public_headers_cover_exactly_the_players_live_views(app, client):
    """The middleware picks the live views by their path: every route under /live/ is a
    public live view or a change the players may make from one ("I paid"), and every
    public live view is under /live/, so none is missed."""
    from scorekeeper.web.claims import PLAYERS_CHANGE
    from scorekeeper.web.live import PUBLIC

    under = {rule.endpoint for rule in app.url_map.iter_rules() if rule.rule.startswith("/live/")}
    assert under == PUBLIC | PLAYERS_CHANGE
    for path in ("/live/no-such-token", "/live/night/no-such-token"):
        r = client.get(path)
        assert r.status_code == 404
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert r.headers["X-Robots-Tag"] == "noindex, nofollow"
        assert r.headers["Cache-Control"] == "private, no-cache"
    assert client.get("/login").headers["Referrer-Policy"] == "same-origin"
    assert "X-Robots-Tag" not in client.get("/login").headers


def test_behind_a_proxy_https_is_seen_only_when_the_proxy_is_trusted(app, db_uri):
    """``PROXY_FIX=1``: the proxy's X-Forwarded-Proto says HTTPS, so HSTS is sent and
    links made for other phones (the live link) start with https://. Without it the
    header is ignored: anyone could send it."""
    from scorekeeper.extensions import db
    from tests.conftest import make_app

    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}
    direct = app.test_client().get("/login", headers=forwarded)
    assert "Strict-Transport-Security" not in direct.headers
    proxied = make_app(db_uri, PROXY_FIX=1)
    client = proxied.test_client()
    assert client.get("/login", headers=forwarded).headers["Strict-Transport-Security"]
    # A phone behind the proxy: its requests arrive forwarded, its forms with a referrer
    # (Flask-WTF checks it over HTTPS).
    client.environ_base.update(
        HTTP_X_FORWARDED_PROTO="https",
        HTTP_X_FORWARDED_HOST="scores.example",
        HTTP_REFERER="https://scores.example/",
    )
    keeper = Keeper(client)
    keeper.signup("proxied@example.com")
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    token = keeper.form(f"/games/{game}/live")[1]["csrf_token"]
    assert client.post(f"/games/{game}/live", data={"csrf_token": token}).status_code == 302
    page = client.get(f"/games/{game}/live").get_data(as_text=True)
    assert 'value="https://scores.example/live/' in page
    with proxied.app_context():
        db.session.remove()
        db.engine.dispose()
