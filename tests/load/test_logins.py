"""Log-ins and sign-ups racing across gunicorn workers on PostgreSQL: the failed-login
limit holds when many wrong passwords for one email arrive at once (at most the limit of
them are checked against the password, every other one is refused with 429), and many
sign-ups with one email at once store one account and answer the others with a sentence
(422), never 500."""

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
TOO_MANY = "Too many failed attempts for this email. Wait 15 minutes and try again."
TAKEN = "There is already an account for this email: log in."


@pytest.fixture(scope="module")
def logins_server(pg_admin: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Four workers, a limit of 5, and the password hash production uses (scrypt): each
    check takes a while, so racing requests overlap their checks as they would for real."""
    log: Path = tmp_path_factory.mktemp("gunicorn-logins") / "gunicorn.log"
    env = {
        "SCOREKEEPER_PASSWORD_HASH_METHOD": "scrypt",
        "SCOREKEEPER_LOGIN_ATTEMPTS_PER_15_MINUTES": str(LIMIT),
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


@pytest.mark.parametrize("known", [True, False], ids=["an account", "no account"])
def test_parallel_wrong_passwords_for_one_email_are_held_to_the_limit(logins_server, known):
    email = f"guess-{uuid.uuid4().hex[:10]}@example.com"
    if known:
        phone, hidden = signup_form(logins_server.port)
        form = {**hidden, "email": email, "password": PASSWORD, "confirm": PASSWORD}
        assert phone.post("/signup", form).status == 302
    posts = []
    for _ in range(PARALLEL):  # each guess from a phone (a session, a CSRF token) of its own
        phone = Phone(logins_server.port)
        _, hidden = phone.form("/login")
        form = {**hidden, "email": email, "password": "wrong horse"}
        posts.append(lambda p=phone, f=form: p.post("/login", f))
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
            "SELECT count(*) FROM login_attempts WHERE email = %s", (email,)
        ).fetchone()
    assert kept == len(checked)  # the refused attempts were not kept
    # Even the right password waits now, once the limit was reached.
    if len(checked) == LIMIT and known:
        phone = Phone(logins_server.port)
        _, hidden = phone.form("/login")
        r = phone.post("/login", {**hidden, "email": email, "password": PASSWORD})
        assert r.status == 429


def test_parallel_signups_with_one_email_store_one_account(logins_server):
    for _ in range(3):
        email = f"twin-{uuid.uuid4().hex[:10]}@example.com"
        posts = []
        for _ in range(WORKERS * 2):
            phone, hidden = signup_form(logins_server.port)
            form = {**hidden, "email": email, "password": PASSWORD, "confirm": PASSWORD}
            posts.append(lambda p=phone, f=form: p.post("/signup", f))
        replies = race(*posts)
        statuses = Counter(r.status for r in replies)
        assert statuses[302] == 1 and statuses[422] == len(replies) - 1, (
            statuses,
            [page_text(r.text)[:200] for r in replies if r.status >= 500],
        )
        assert all(TAKEN in page_text(r.text) for r in replies if r.status == 422)
        with connect(logins_server.db_url) as conn:
            (stored,) = conn.execute(
                "SELECT count(*) FROM users WHERE email = %s", (email,)
            ).fetchone()
        assert stored == 1
    assert integrity_problems(logins_server.db_url) == []
    assert "Traceback" not in logins_server.log_text()
