"""Every route, found by walking ``app.url_map`` so a new one cannot be forgotten: what
changes data refuses anonymous users, other users and requests without a CSRF token; what
shows data refuses anonymous users and other users. Also the security headers, the pages'
freedom from inline code, the cookies' flags and the limit on failed log-ins."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import select, update
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import (
    LedgerEntry,
    LoginAttempt,
    Night,
    Person,
    RegularMerge,
    User,
    utcnow,
)
from tests.conftest import make_app
from tests.web.checks import audit, snapshot
from tests.web.keeper import Keeper, inputs, text_of

CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
# The only routes that change something without a logged-in user. Nothing else may join:
# signing up, logging in, and the password reset (asking for a link by mail; choosing a
# new password with the link's token, which is the only key).
ANONYMOUS_ALLOWED = {"auth.signup", "auth.login", "auth.forgot_password", "auth.reset_password"}
# Pages anyone with a live link may read, with no account: a game's or a night's live
# view (web/live.py), found by an unguessable token alone. Read-only (GET only, no form,
# no cookie set, nothing changed), and an unknown or turned-off token shows nothing.
PUBLIC_READ_ONLY = {"live.game", "live.night"}
# What anyone with a night's live link may change, with no account (web/claims.py): a
# player's "I paid" and taking it back. Guarded by the link's own form token instead of a
# session's (the players' pages hold none): tests/web/test_claims.py.
PLAYERS_CHANGE = {"claims.claim", "claims.take_back"}
# The keeper link (web/keepers.py): whoever has it and logs in may join the night as a
# co-keeper, so another user is not refused there (tests/web/test_keepers.py); anonymous
# anonymous users read who invites to which night (the owner's email, the night's name and
# date, nothing of its games or people) and are offered log in and sign up; a token never
# made answers 404 like any unknown link.
KEEPER_LINK = {"keepers.open_link"}
# The stream engine's question before it lets a browser hold a keeper's sheet stream
# (deploy/nginx.conf, nchan_authorize_request): 204 or 403, never a page or a redirect
# (test_the_stream_question_says_yes_to_the_keepers_alone).
STREAM_AUTH = {"games.stream_auth"}
# What a co-keeper of the night may not do, though the URL names that night or its
# game: 404, as for a stranger. Every other page of the night is theirs too.
OWNER_ONLY = {
    "nights.delete",
    "nights.restore",
    "games.delete",
    "games.restore",
    "live.game_link",
    "live.night_link",
    "live.change_game_link",
    "live.change_night_link",
    "keepers.change_link",
    "keepers.remove",
    "keepers.let_back",
}
# Pages anyone may read (no one's data in them).
PUBLIC_PAGES = {
    "home.index",
    "home.help_page",
    "home.manifest",
    "offline.service_worker",  # the browser checks it for updates logged out too
    "auth.signup",
    "auth.login",
    "auth.forgot_password",
    "auth.reset_password",
    "static",
    "ops.healthz",  # the balancer's check: status and version, no one's data
    "ops.metrics",  # counts only, and only to this host or with the token (test_ops.py)
}


# ------------------------------------------------------------------------- the site ---
@dataclass
class Site:
    app: Flask
    owner: Keeper
    other: Keeper
    co: Keeper  # a co-keeper of the owner's night, by its keeper link
    ids: dict[str, int]
    plausible: dict[str, str]  # what a real form would send (hidden fields included)
    tokens: dict[str, str]  # the owner's live links, by the endpoint that shows them

    def anonymous(self) -> FlaskClient:
        return self.app.test_client()

    def url(self, rule: Rule, **override: Any) -> str:
        values = {}
        for arg in sorted(rule.arguments):
            if arg in override:
                values[arg] = override[arg]
            elif arg == "token" and rule.endpoint in self.tokens:
                values[arg] = self.tokens[rule.endpoint]
            elif arg in self.ids:
                values[arg] = self.ids[arg]
            else:
                pytest.fail(
                    f"{rule.rule}: no value for <{arg}>: add one to the site fixture of "
                    "tests/web/test_route_guard.py"
                )
        with self.app.test_request_context():
            return url_for(rule.endpoint, **values)


@pytest.fixture
def site(app: Flask, client: FlaskClient) -> Site:
    owner = Keeper(client)
    owner.signup("owner@example.com")
    night = owner.night(["Ann", "Bob", "Cy"])
    game = owner.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert owner.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    person, payee = (owner.person_ids(night)[name] for name in ("Bob", "Ann"))
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    other.night(["Mal", "Lory"])  # she has data of her own, with other ids
    _, hidden = owner.form(f"/games/{game}/rounds/new")
    plausible = {
        "version": hidden["version"],
        "submission": hidden["submission"],
        "went_out": "0",
        "hand-1": "5",
        "hand-2": "5",
        "name": "Dee",
        "new_name": "Dee",
        "action": "add",
        "paper": "A4",
        "record": owner.client.get(f"/games/{game}/export.json").get_data(as_text=True),
        "variant": "rummy",
        "first_dealer": "Ann",
        "seat-1": "1",
        "seat-2": "2",
        "people": "Dee",
        "played_on": "2026-11-20",
        "currency": "USD",
        "email": "owner@example.com",
        "password": "correct horse",
    }
    with app.app_context():
        people = db.session.get(Person, person)
        assert people is not None
        regular = people.regular_id
        later = Night(owner_id=people.night.owner_id, name="Later", played_on=date(2026, 11, 27))
        db.session.add(later)
        db.session.flush()
        carried = LedgerEntry(
            night_id=night,
            kind="carry",
            to_night_id=later.id,
            payer_id=regular,
            payee_id=db.session.get(Person, payee).regular_id,
            amount=100,
            user_id=people.night.owner_id,
        )
        db.session.add(carried)
        merge = RegularMerge(
            owner_id=people.night.owner_id,
            kept_id=regular,
            gone_id=carried.payee_id,
            moved={},
            user_id=people.night.owner_id,
            undone_at=utcnow(),
        )
        db.session.add(merge)
        db.session.commit()
        entry, merge_id = carried.id, merge.id
    ids = {
        "night_id": night,
        "game_id": game,
        "person_id": person,
        "number": 1,
        "change": "off",
        "regular_id": regular,
        "entry_id": entry,
        "merge_id": merge_id,
        "claim_id": entry,
    }
    co = Keeper(app.test_client())
    co.signup("carol@example.com")
    keep = keeper_token(owner, night)
    assert co.post_form(f"/keep/{keep}", {}).status_code == 302
    with app.app_context():
        ids["user_id"] = user_id("carol@example.com")
    tokens = {
        "live.game": live_token(owner, f"/games/{game}/live"),
        "live.night": live_token(owner, f"/nights/{night}/live"),
        "keepers.open_link": keep,
    }
    tokens.update(dict.fromkeys(PLAYERS_CHANGE, tokens["live.night"]))
    return Site(app, owner, other, co, ids, plausible, tokens)


def keeper_token(owner: Keeper, night: int) -> str:
    """The night's keeper link, made on its page; its token, read off the page."""
    response = owner.post_form(f"/nights/{night}", {}, action=f"/nights/{night}/keepers/open")
    assert response.status_code == 302, response.status_code
    html = owner.client.get(f"/nights/{night}").get_data(as_text=True)
    found = re.search(r'id="keeper-url" type="text" readonly value="[^"]*/keep/([^"/]+)"', html)
    assert found, html
    return found.group(1)


def user_id(email: str) -> int:
    found = db.session.scalar(select(User.id).where(User.email == email))
    assert found is not None
    return found


def live_token(owner: Keeper, page: str) -> str:
    """Show players: the keeper's page makes the link; its token, read off the page."""
    response = owner.post_form(page, {})
    assert response.status_code == 302, response.status_code
    html = owner.client.get(page).get_data(as_text=True)
    found = re.search(
        r'id="live-url" type="text" readonly value="[^"]*/live/(?:night/)?([^"/]+)"', html
    )
    assert found, html
    return found.group(1)


def rules(app: Flask, methods: set[str]) -> list[Rule]:
    found = [r for r in app.url_map.iter_rules() if r.endpoint != "static" and r.methods & methods]
    assert found
    return sorted(found, key=lambda r: r.rule)


def token(client: FlaskClient, page: str = "/login") -> str:
    """A CSRF token of this client's own session."""
    response = client.get(page)
    return inputs(response.get_data(as_text=True))["csrf_token"]


def method_of(rule: Rule) -> str:
    return sorted(rule.methods & CHANGING)[0]


def is_login_redirect(response: TestResponse) -> bool:
    return response.status_code == 302 and response.headers["Location"].startswith("/login")


# ------------------------------------------------------------- routes that change ---
def test_the_allow_list_is_signup_login_and_the_password_reset_only(app):
    assert {
        "auth.signup", "auth.login", "auth.forgot_password", "auth.reset_password"
    } == ANONYMOUS_ALLOWED  # fmt: skip
    changing = {r.endpoint for r in rules(app, CHANGING)}
    assert changing >= ANONYMOUS_ALLOWED


def test_every_changing_route_refuses_anonymous_users(site):
    before = snapshot(site.app)
    reachable = set()
    for rule in rules(site.app, CHANGING):
        anonymous = site.anonymous()
        # With a valid token of the anonymous session: the login check, not CSRF, refuses.
        response = anonymous.open(
            site.url(rule), method=method_of(rule), data={"csrf_token": token(anonymous)}
        )
        assert response.status_code != 500, rule.rule
        if is_login_redirect(response) or response.status_code == 401:
            continue
        if rule.endpoint in PLAYERS_CHANGE:  # no login; without the page's form token: 400
            assert response.status_code == 400, (rule.rule, response.status_code)
            continue
        reachable.add(rule.endpoint)
        assert response.status_code in {200, 422}, (rule.rule, response.status_code)
    assert reachable == ANONYMOUS_ALLOWED
    assert snapshot(site.app) == before


def test_every_changing_route_with_ids_is_not_found_for_another_user(site):
    before = snapshot(site.app)
    checked = 0
    for rule in rules(site.app, CHANGING):
        if not rule.arguments or rule.endpoint in KEEPER_LINK | PLAYERS_CHANGE:
            continue  # nothing of anyone's in the URL (new night, log out), or a link
        client = site.other.client
        data = {**site.plausible, "csrf_token": token(client, "/")}
        response = client.open(site.url(rule), method=method_of(rule), data=data)
        assert response.status_code == 404, (rule.rule, response.status_code)
        assert "There is nothing here, or it is not yours to see." in text_of(response)
        checked += 1
    assert checked >= 8
    assert snapshot(site.app) == before


def test_every_changing_route_needs_the_csrf_token(site):
    before = snapshot(site.app)
    for rule in rules(site.app, CHANGING):
        client = site.owner.client
        response = client.open(site.url(rule), method=method_of(rule), data=site.plausible)
        assert response.status_code == 400, (rule.rule, response.status_code)
        assert "This form is out of date or was not sent from this app" in text_of(response)
        wrong = {**site.plausible, "csrf_token": token(site.other.client, "/")}
        response = client.open(site.url(rule), method=method_of(rule), data=wrong)
        assert response.status_code == 400, (rule.rule, "another session's token")
    for rule in rules(site.app, CHANGING):
        if rule.endpoint in ANONYMOUS_ALLOWED:
            response = site.anonymous().post(site.url(rule), data=site.plausible)
            assert response.status_code == 400, rule.rule
    assert snapshot(site.app) == before
    assert "Your card nights" in text_of(site.owner.client.get("/"))  # still logged in


# --------------------------------------------------------------- routes that show ---
def test_every_page_with_ids_is_for_its_owner_only(site):
    checked = 0
    for rule in rules(site.app, {"GET"}):
        if not rule.arguments or rule.endpoint in PUBLIC_READ_ONLY | KEEPER_LINK | STREAM_AUTH:
            continue  # the live views: see test_public_read_only_pages_*; the keeper link
        url = site.url(rule)
        owner = site.owner.client.get(url)
        assert owner.status_code == 200, (url, owner.status_code)
        other = site.other.client.get(url)
        assert other.status_code == 404, (url, other.status_code)
        anonymous = site.anonymous().get(url)
        if rule.rule.startswith("/api/"):
            assert anonymous.status_code == 401, url
            assert anonymous.get_json() == {"error": "log in to read your games"}
            assert other.get_json() == {"error": "no such game among yours"}
        else:
            assert is_login_redirect(anonymous), (url, anonymous.status_code)
            assert "There is nothing here, or it is not yours to see." in text_of(other)
        checked += 1
    assert checked >= 12


def test_a_co_keeper_reads_every_page_of_the_night_but_the_owners_alone(site):
    """Every GET route naming the owner's night, its game, person or ledger entry: the
    co-keeper reads it, except the owner's alone (OWNER_ONLY) and the owner's regulars
    and merges (named by their own ids), which answer 404 as to a stranger."""
    read, refused = set(), set()
    for rule in rules(site.app, {"GET"}):
        if not rule.arguments or rule.endpoint in PUBLIC_READ_ONLY | KEEPER_LINK | STREAM_AUTH:
            continue
        response = site.co.client.get(site.url(rule))
        assert response.status_code in {200, 404}, (rule.rule, response.status_code)
        (read if response.status_code == 200 else refused).add(rule.endpoint)
    regulars = {e for e in read | refused if e.startswith("regulars.")}
    assert refused == (OWNER_ONLY | regulars) & (read | refused)
    assert {"nights.show", "games.sheet", "games.history", "settle.payout"} <= read
    assert {"printouts.game_sheet", "printouts.payout_pdf", "games.new_round", "games.join"} <= read


def test_the_stream_question_says_yes_to_the_keepers_alone(site):
    (rule,) = [r for r in rules(site.app, {"GET"}) if r.endpoint in STREAM_AUTH]
    url = site.url(rule)
    assert site.owner.client.get(url).status_code == 204
    assert site.co.client.get(url).status_code == 204
    assert site.other.client.get(url).status_code == 403
    assert site.anonymous().get(url).status_code == 403
    assert site.owner.client.get(url.replace("/games/", "/games/9", 1)).status_code == 403


def test_a_co_keeper_is_not_found_on_the_owners_alone_and_nothing_changes(site):
    before = snapshot(site.app)
    checked = set()
    for rule in rules(site.app, CHANGING):
        if rule.endpoint not in OWNER_ONLY:
            continue
        client = site.co.client
        data = {**site.plausible, "csrf_token": token(client, "/")}
        response = client.open(site.url(rule), method=method_of(rule), data=data)
        assert response.status_code == 404, (rule.rule, response.status_code)
        assert NOT_FOUND in text_of(response)
        checked.add(rule.endpoint)
    assert checked == {e for e in OWNER_ONLY if "POST" in _methods(site.app, e)}
    assert snapshot(site.app) == before


def _methods(app: Flask, endpoint: str) -> set[str]:
    return {m for r in app.url_map.iter_rules() if r.endpoint == endpoint for m in r.methods}


def test_pages_without_ids_need_a_login_unless_public(site):
    for rule in rules(site.app, {"GET"}):
        if rule.arguments:
            continue
        response = site.anonymous().get(site.url(rule))
        if rule.endpoint in PUBLIC_PAGES:
            assert response.status_code == 200, rule.rule
        else:
            assert is_login_redirect(response), rule.rule


# ------------------------------------------------------------ public, read-only ---
NOT_FOUND = "There is nothing here, or it is not yours to see."


def test_the_only_pages_with_ids_anyone_may_read_are_the_live_views(site):
    """Walking every GET route with arguments as a stranger: only PUBLIC_READ_ONLY answer
    200 (with the owner's live links), and those answer GET alone; and the keeper link's
    invitation, which names the owner and the night and nothing of what is in it."""
    readable = set()
    for rule in rules(site.app, {"GET"}):
        response = site.anonymous().get(site.url(rule))
        if rule.arguments and response.status_code == 200:
            readable.add(rule.endpoint)
            if rule.endpoint in KEEPER_LINK:
                invitation = text_of(response)
                assert "invites you to keep" in invitation
                assert not any(name in invitation for name in ("Ann", "Bob", "Cy")), invitation
    assert readable == PUBLIC_READ_ONLY | KEEPER_LINK
    for rule in site.app.url_map.iter_rules():
        if rule.endpoint in PUBLIC_READ_ONLY:
            assert rule.methods <= {"GET", "HEAD", "OPTIONS"}, rule.rule
            assert rule.rule.startswith("/live/") and rule.arguments == {"token"}, rule.rule


def test_public_read_only_pages_change_nothing_and_set_no_cookie(site):
    before = snapshot(site.app)
    for endpoint in sorted(PUBLIC_READ_ONLY):
        rule = next(r for r in site.app.url_map.iter_rules() if r.endpoint == endpoint)
        url = site.url(rule)
        for client in (site.anonymous(), site.other.client, site.owner.client):
            for method in ("GET", "HEAD"):
                response = client.open(url, method=method)
                assert response.status_code == 200, (url, method)
                assert "Set-Cookie" not in response.headers, (url, method)
            for method in sorted(CHANGING):
                response = client.open(url, method=method, data=site.plausible)
                assert response.status_code in {400, 405}, (url, method, response.status_code)
        html = site.anonymous().get(url).get_data(as_text=True)
        assert "csrf_token" not in html, url
        # No way into the keeper's pages: links only to the page itself and its assets,
        # forms only to its own link's "I paid" (web/claims.py).
        for href in re.findall(r'(?:href|src)="([^"]*)"', html):
            assert href.startswith(("?", "/static/")), (url, href)
        for action in re.findall(r'action="([^"]*)"', html):
            assert action.startswith(f"{url}/claims"), (url, action)
    assert snapshot(site.app) == before


@pytest.mark.parametrize(
    "token",
    [
        "AAAAAAAAAAAAAAAAAAAAAA",  # well formed, never made
        "x",  # too short to be one
        "a" * 200,  # too long
        "%00%27%22",  # not the alphabet of a token
        "night",
    ],
)
def test_public_read_only_pages_show_nothing_for_an_unknown_token(site, token):
    for path in (f"/live/{token}", f"/live/night/{token}"):
        response = site.anonymous().get(path)
        assert response.status_code == 404, path
        assert NOT_FOUND in text_of(response)
        assert response.headers.get("X-Robots-Tag") == "noindex, nofollow"


def test_a_turned_off_link_answers_as_an_unknown_one(site):
    game_url = f"/live/{site.tokens['live.game']}"
    night_url = f"/live/night/{site.tokens['live.night']}"
    unknown = site.anonymous().get("/live/AAAAAAAAAAAAAAAAAAAAAA")
    for url, page in ((game_url, f"/games/{site.ids['game_id']}/live"),
                      (night_url, f"/nights/{site.ids['night_id']}/live")):  # fmt: skip
        assert site.anonymous().get(url).status_code == 200
        assert site.owner.post_form(page, {}, action=page + "/off").status_code == 302
        response = site.anonymous().get(url)
        assert response.status_code == 404
        assert response.get_data() == unknown.get_data()  # which of the two, it does not say


@pytest.mark.parametrize("bad", [0, 2**31, 2**63, 10**30])
def test_ids_out_of_range_are_not_found(site, bad):
    client = site.owner.client
    for rule in rules(site.app, {"GET", *CHANGING}):
        for arg in rule.arguments:
            if type(rule._converters[arg]).__name__ != "IdConverter":
                continue  # a word (live/<any(renew, off):change>) is no id
            url = site.url(rule, **{arg: bad})
            if "GET" in rule.methods:
                response = client.get(url)
            else:
                data = {**site.plausible, "csrf_token": token(client, "/")}
                response = client.open(url, method=method_of(rule), data=data)
            assert response.status_code == 404, (url, response.status_code)


# ------------------------------------------------------------- headers and pages ---
def csp_directives(response: TestResponse) -> dict[str, str]:
    policy = response.headers.get("Content-Security-Policy", "")
    out = {}
    for part in policy.split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            out[name] = value
    return out


def check_headers(label: str, response: TestResponse) -> None:
    csp = csp_directives(response)
    script_src = csp.get("script-src", csp.get("default-src"))
    assert script_src is not None, label
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, label
    assert "'unsafe-inline'" not in csp.get("style-src", csp.get("default-src", "")), label
    assert csp.get("frame-ancestors") == "'none'", label
    assert csp.get("object-src") == "'none'", label
    assert response.headers.get("X-Frame-Options") == "DENY", label
    assert response.headers.get("X-Content-Type-Options") == "nosniff", label
    # The live views send no referrer at all (their URL is their key); the rest same-origin.
    referrer = "no-referrer" if "/live/" in label else "same-origin"
    assert response.headers.get("Referrer-Policy") == referrer, label


def every_page(site: Site) -> Iterator[tuple[str, TestResponse]]:
    """Every GET route as its owner and as a stranger, and the states a page can be in."""
    owner = site.owner.client
    for rule in rules(site.app, {"GET"}):
        yield rule.rule, owner.get(site.url(rule))
        yield f"anonymous {rule.rule}", site.anonymous().get(site.url(rule))
    night, game = site.ids["night_id"], site.ids["game_id"]
    for variant in ("vegas", "texas", "rummy", "multiplayer", "dummy"):
        yield variant, owner.get(f"/nights/{night}/games/new?variant={variant}")
    yield "saved", owner.get(f"/games/{game}?saved=1")
    yield "404", owner.get("/nowhere")
    yield "405", owner.get("/logout")
    yield "400 csrf", owner.post(f"/nights/{night}/people", data={"name": "Dee"})
    yield "413", owner.post(f"/nights/{night}/games/import", data={"record": "x" * 3_000_000})
    yield "round errors", site.owner.post_form(f"/games/{game}/rounds/new", {"hand-1": "-1"})
    expiring = {"went_out": "0", "hand-1": "100", "hand-2": "5"}  # Bob 5 + 100 expires
    expiry = site.owner.post_form(f"/games/{game}/rounds/new", expiring)
    assert "Re-buy" in text_of(expiry)
    yield "expiry step", expiry
    yield "join errors", site.owner.post_form(f"/games/{game}/join", {"new_name": "ann"})
    yield "import errors", site.owner.post_form(f"/nights/{night}/games/import",
                                                {"record": "{"})  # fmt: skip
    yield "night errors", site.owner.post_form("/nights/new", {"name": ""})
    stranger = Keeper(site.anonymous())
    yield "login errors", stranger.post_form("/login", {"email": "x@example.com"})
    yield "signup errors", stranger.post_form("/signup", {"email": "x"})


def test_security_headers_and_no_inline_code_on_every_page(site):
    seen_html = 0
    for label, response in every_page(site):
        assert response.status_code != 500, label
        check_headers(label, response)
        if response.mimetype == "text/html":
            html = response.get_data(as_text=True)
            problems, _tags = audit(html)
            assert problems == [], label
            # Scripts only from static/js, each once: app.js, the round form's round.js,
            # the live view's live.js.
            scripts = [
                re.search(r'\bsrc="([^"?]+)', a) for a in re.findall(r"<script\b([^>]*)>", html)
            ]
            assert all(scripts), label
            names = [m.group(1) for m in scripts if m]
            allowed = {f"/static/js/{name}.js" for name in ("app", "round", "live")}
            assert set(names) <= allowed and len(names) == len(set(names)), (label, names)
            assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), label
            seen_html += 1
    assert seen_html >= 40


def test_the_policy_has_no_inline_allowance_at_all(client):
    csp = csp_directives(client.get("/"))
    assert all("'unsafe-inline'" not in v and "'unsafe-eval'" not in v for v in csp.values())
    assert csp["default-src"] == "'self'" and csp["base-uri"] == "'none'"
    assert csp["form-action"] == "'self'"


# ------------------------------------------------------------------------ cookies ---
@pytest.fixture
def secure_client(app: Flask, db_uri: str) -> Iterator[FlaskClient]:
    """The app as deployed behind HTTPS: SECURE_COOKIES=True (``app`` emptied the database)."""
    secure = make_app(db_uri, SECURE_COOKIES=True)
    yield secure.test_client()
    with secure.app_context():
        db.session.remove()
        db.engine.dispose()


def set_cookies(response: TestResponse) -> dict[str, list[str]]:
    """Each cookie set by a response, with its attributes in lower case."""
    out: dict[str, list[str]] = {}
    for header in response.headers.getlist("Set-Cookie"):
        name, _, rest = header.partition("=")
        attributes = [a.strip().lower() for a in rest.split(";")[1:]]
        out[name] = [*out.get(name, []), *(a for a in attributes if a not in out.get(name, []))]
    return out


def _signup_and_login(client) -> dict[str, list[str]]:
    """The cookies set by the sign-up and log-in pages and posts."""
    page = client.get("/signup")
    signup = client.post("/signup", data={
        **inputs(page.get_data(as_text=True)), "email": "ann@example.com",
        "password": "correct horse", "confirm": "correct horse"})  # fmt: skip
    assert signup.status_code == 302
    form = client.get("/login")
    login = client.post("/login", data={
        **inputs(form.get_data(as_text=True)), "email": "ann@example.com",
        "password": "correct horse", "remember": "y"})  # fmt: skip
    assert login.status_code == 302
    return {**set_cookies(page), **set_cookies(signup), **set_cookies(form), **set_cookies(login)}


def test_secure_cookies_carry_secure_httponly_and_samesite_lax(secure_client):
    page = secure_client.get("/signup")
    assert set(set_cookies(page)) == {"session"}
    cookies = _signup_and_login(secure_client)
    assert set(cookies) == {"session", "remember_token", "known_device"}
    for name, attributes in cookies.items():
        assert "secure" in attributes, name
        assert "httponly" in attributes, name
        assert "samesite=lax" in attributes, name
    # Sent to the log-in page and the page that asks for a reset link only.
    paths = {a for a in cookies["known_device"] if a.startswith("path=")}
    assert paths == {"path=/login", "path=/password/forgot"}


def test_cookies_are_httponly_and_lax_without_https_too(client):
    cookies = _signup_and_login(client)
    assert set(cookies) == {"session", "remember_token", "known_device"}
    for name, attributes in cookies.items():
        assert "httponly" in attributes and "samesite=lax" in attributes, name
        assert "secure" not in attributes, name  # a local http:// install still logs in


# ------------------------------------------------------------- failed log-in limit ---
def login(app: Flask, email: str, password: str) -> TestResponse:
    return Keeper(app.test_client()).login(email, password)


TOO_MANY = "Too many failed attempts for this email."
NO_MATCH = "That email and password do not match an account."


def stranger(app: Flask, address: str = "203.0.113.9"):
    """A phone that never logged in, from an address that never did."""
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = address
    return phone


def test_failed_logins_are_limited_per_email_whatever_the_client(app, client):
    """Strangers (no known device, no known address) share one allowance per email,
    whatever the phone: the email's case and spaces make no other email."""
    app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"] = 3
    Keeper(client).signup("ann@example.com")
    Keeper(app.test_client()).signup("bob@example.com")
    for email in ("ann@example.com", "ANN@example.com", " Ann@Example.com "):
        r = Keeper(stranger(app)).login(email, "wrong horse")
        assert r.status_code == 422 and NO_MATCH in text_of(r)
    r = Keeper(stranger(app, "198.51.100.7")).login("ann@example.com")  # right password
    assert r.status_code == 429 and TOO_MANY in text_of(r)
    assert "Log in" in text_of(r)
    assert Keeper(stranger(app)).login("bob@example.com").status_code == 302
    # Unknown emails are refused in the same words, and limited the same way.
    for _ in range(3):
        r = Keeper(stranger(app)).login("nobody@example.com", "wrong horse")
        assert r.status_code == 422 and NO_MATCH in text_of(r)
    r = Keeper(stranger(app)).login("nobody@example.com", "wrong horse")
    assert r.status_code == 429 and TOO_MANY in text_of(r)


def test_the_limit_lifts_after_15_minutes_and_a_success_clears_it(app, client):
    """From a device or address that logged in before, the owner's own failures are
    forgotten by their next success."""
    app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"] = 3
    Keeper(client).signup("ann@example.com")
    for _ in range(3):
        login(app, "ann@example.com", "wrong horse")
    assert login(app, "ann@example.com", "correct horse").status_code == 429
    with app.app_context():
        db.session.execute(
            update(LoginAttempt)
            .where(LoginAttempt.ok.is_(False))
            .values(created_at=utcnow() - timedelta(minutes=16))
        )
        db.session.commit()
    for _ in range(2):
        login(app, "ann@example.com", "wrong horse")
    assert login(app, "ann@example.com", "correct horse").status_code == 302
    # The success forgot the two recent failures: three more are allowed before the limit.
    for _ in range(3):
        assert login(app, "ann@example.com", "wrong horse").status_code == 422
    assert login(app, "ann@example.com", "correct horse").status_code == 429


# --------------------------------------------- a co-keeper sees only their night ---
SECRETS = {"zoe quill": "Zoë Quill", "xavi secret": "Xávi Secret", "yves hidden": "Yvès Hidden"}
SECRET_IBAN = "DE89 3704 0044 0532 0130 00"


def test_a_co_keeper_typing_names_learns_nothing_of_the_owners_other_regulars(site):
    """The owner has regulars who are not on the night, one with an IBAN. The co-keeper
    types their names (as a forgiving match would take them: other case, no accents)
    in every field that takes a name on the night they keep: a person added to the list,
    a late joiner, the players of an imported game (which then owes them money). On no
    page the co-keeper can read does a regular's own spelling or way to pay show: their
    names are matched only to the night's own people."""
    from tests.web.test_live import set_handle

    owner, co = site.owner, site.co
    night, game = site.ids["night_id"], site.ids["game_id"]
    for spelled in SECRETS.values():
        r = owner.post_form("/regulars", {"name": spelled})
        assert r.status_code == 302
        set_handle(owner, spelled, "iban", SECRET_IBAN)
    # The list of the night: a person added by name.
    r = co.post_form(f"/nights/{night}", {"name": "zoe quill"}, action=f"/nights/{night}/people")
    assert r.status_code == 302, text_of(r)
    # A late joiner of the Vegas game, by a new name.
    r = co.post_form(f"/games/{game}/join", {"new_name": "xavi secret", "person": ""})
    assert r.status_code == 302, text_of(r)
    # An imported game won by a name typed in its record: Ann owes that player money.
    record = {
        "format": "scorekeeper-game/1", "variant": "rummy",
        "settings": {"deals": 1, "buy_in": 500}, "players": ["Ann", "yves hidden"],
        "rounds": [{"went_out": "yves hidden", "hands": {"Ann": 9}}],
    }  # fmt: skip
    r = co.post_form(
        f"/nights/{night}/games/import",
        {"record": json.dumps(record)},
        action=f"/nights/{night}/games/import",
    )
    assert r.status_code == 302, text_of(r)
    payout = text_of(co.client.get(f"/nights/{night}/payout"))
    assert "Ann pays Yvès Hidden" not in payout, payout
    assert "Ann pays yves hidden" in payout  # the fields took the names, as typed
    assert "zoe quill" in text_of(co.client.get(f"/nights/{night}"))
    # Every page of the night the co-keeper reads, and every field that offers names.
    pages = 0
    for rule in rules(site.app, {"GET"}):
        if not rule.arguments or rule.endpoint in PUBLIC_READ_ONLY | KEEPER_LINK:
            continue
        response = co.client.get(site.url(rule))
        if response.status_code != 200 or response.mimetype == "application/pdf":
            continue  # (the PDFs draw what these pages say)
        pages += 1
        body = response.get_data(as_text=True)
        for spelled in SECRETS.values():
            assert spelled not in body, (rule.rule, spelled)
        assert "DE89" not in body and "3704" not in body, (rule.rule, "the IBAN")
    assert pages >= 10
    # The owner's own pages still know their regulars (and may merge the co-keeper's).
    assert "Zoë Quill" in text_of(owner.client.get("/regulars"))
