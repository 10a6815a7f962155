"""Log-ins and sign-ups racing across gunicorn workers on PostgreSQL: the failed-login
limit holds when many wrong passwords for one email arrive at once from strangers (at
most the limit of them are checked against the password, every other one is refused with
429), the owner's browser still logs in after that, and many sign-ups with one email at
once store one account and answer every one the same (they do not tell that the email
has an account), never 500. The server trusts one proxy, so each phone's address is the
``X-Forwarded-For`` it sends."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import database
from .harness import PASSWORD, Phone, Server, connect, integrity_problems, page_text, race

pytestmark = pytest.mark.slow
LIMIT = 5
PARALLEL = 24
WORKERS = 4
NO_MATCH = "That email and password do not match an account."
TOO_MANY = "Too many failed attempts for this email."
OWNER = {"X-Forwarded-For": "192.0.2.10"}
STRANGER = {"X-Forwarded-For": "203.0.113.5"}


@pytest.fixture(scope="module")
def logins_server(pg_admin: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Four workers, a limit of 5, and the password hash production uses (scrypt): each
    check takes a while, so racing requests overlap their checks as they would for real."""
    log: Path = tmp_path_factory.mktemp("gunicorn-logins") / "gunicorn.log"
    env = {
        "SCOREKEEPER_PASSWORD_HASH_METHOD": "scrypt",
        "SCOREKEEPER_LOGIN_ATTEMPTS_PER_15_MINUTES": str(LIMIT),
        "SCOREKEEPER_PROXY_FIX": "1",
    }
    with database(pg_admin) as url:
        srv = Server(url, log, workers=WORKERS, env=env)
        try:
            srv.start()
            yield srv
        finally:
            srv.stop()


def signup_form(port: int) -> tuple[Phone, dict[str, str]]:
    phone = Phone(port)
    _, hidden = phone.form("/signup")
    return phone, hidden


def log_in(phone: Phone, email: str, password: str, address: dict[str, str]) -> Any:
    _, hidden = phone.form("/login")
    form = {**hidden, "email": email, "password": password}
    return phone.request("POST", "/login", form=form, headers=address)


@pytest.mark.parametrize("known", [True, False], ids=["an account", "no account"])
def test_parallel_wrong_passwords_for_one_email_are_held_to_the_limit(logins_server, known):
    email = f"guess-{uuid.uuid4().hex[:10]}@example.com"
    owner = Phone(logins_server.port)
    if known:
        phone, hidden = signup_form(logins_server.port)
        form = {**hidden, "email": email, "password": PASSWORD, "confirm": PASSWORD}
        assert phone.post("/signup", form).status == 302
        assert log_in(owner, email, PASSWORD, OWNER).status == 302  # the owner's browser
        _, hidden = owner.form("/account")
        assert owner.post("/logout", hidden).status == 302
    posts = []
    for _ in range(PARALLEL):  # each guess from a phone (a session, a CSRF token) of its own
        phone = Phone(logins_server.port)
        _, hidden = phone.form("/login")
        form = {**hidden, "email": email, "password": "wrong horse"}
        posts.append(lambda p=phone, f=form: p.request("POST", "/login", form=f, headers=STRANGER))
    replies = race(*posts)
    statuses = Counter(r.status for r in replies)
    assert set(statuses) <= {422, 429}, [page_text(r.text)[:200] for r in replies]
    checked = [r for r in replies if r.status == 422]
    assert all(NO_MATCH in page_text(r.text) for r in checked)
    assert all(TOO_MANY in page_text(r.text) for r in replies if r.status == 429)
    print(f"\n{len(checked)} of {PARALLEL} guesses checked (limit {LIMIT})")
    assert 1 <= len(checked) <= LIMIT, statuses
    with connect(logins_server.db_url) as conn:
        (kept,) = conn.execute(
            "SELECT count(*) FROM login_attempts WHERE email = %s AND NOT ok", (email,)
        ).fetchone()
    assert kept == len(checked)  # the refused attempts were not kept
    if len(checked) == LIMIT and known:
        # A stranger waits now, even with the right password...
        assert log_in(Phone(logins_server.port), email, PASSWORD, STRANGER).status == 429
        # ...but the owner's browser, logged in here before, gets in from anywhere.
        assert log_in(owner, email, PASSWORD, {"X-Forwarded-For": "198.51.100.4"}).status == 302


def test_parallel_signups_with_one_email_store_one_account(logins_server):
    for _ in range(3):
        email = f"twin-{uuid.uuid4().hex[:10]}@example.com"
        posts = []
        for _ in range(WORKERS * 2):
            phone, hidden = signup_form(logins_server.port)
            form = {**hidden, "email": email, "password": PASSWORD, "confirm": PASSWORD}
            posts.append(lambda p=phone, f=form: p.post("/signup", f))
        replies = race(*posts)
        assert {(r.status, r.location) for r in replies} == {(302, "/login?next=/nights/new")}, [
            page_text(r.text)[:200] for r in replies if r.status != 302
        ]
        with connect(logins_server.db_url) as conn:
            (stored,) = conn.execute(
                "SELECT count(*) FROM users WHERE email = %s", (email,)
            ).fetchone()
        assert stored == 1
    assert integrity_problems(logins_server.db_url) == []
    assert "Traceback" not in logins_server.log_text()
