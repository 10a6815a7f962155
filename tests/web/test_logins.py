"""Accounts against strangers (issue 20, item 8): sign-up does not tell whether an email
has an account; failed log-ins are limited per email and per client address with a
doubling wait, and a stranger's failures never lock the owner out (a browser or an
address that logged in before still gets in with the right password); old attempts are
pruned, on every attempt and by ``flask prune-logins``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, insert, select

from scorekeeper.extensions import db
from scorekeeper.models import LoginAttempt, User, UserSession, utcnow
from scorekeeper.services import logins
from scorekeeper.web import auth
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, inputs, text_of

ANN = "ann@example.com"
PASSWORD = "correct horse"
OWNER_HOME = "192.0.2.10"
STRANGER = "203.0.113.66"


def phone(app: Flask, address: str = STRANGER) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def log_in(client: FlaskClient, email: str = ANN, password: str = PASSWORD):
    return Keeper(client).login(email, password)


def failures(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(LoginAttempt).where(LoginAttempt.ok.is_(False))
        )


def older(app: Flask, by: timedelta) -> None:
    """Every attempt made ``by`` earlier (time passes)."""
    with app.app_context():
        for attempt in db.session.scalars(select(LoginAttempt)):  # SQLite has no date math
            attempt.created_at = attempt.created_at - by
        db.session.commit()


@pytest.fixture
def owner(app: Flask) -> FlaskClient:
    """Ann's phone: signed up and logged in at home (its browser now known), then
    logged out."""
    app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"] = 3
    client = phone(app, OWNER_HOME)
    Keeper(client).signup(ANN)
    assert client.get_cookie(logins.DEVICE_COOKIE, path="/login") is not None
    r = client.post("/logout", data=inputs(client.get("/").get_data(as_text=True)))
    assert r.status_code == 302
    return client


# -------------------------------------------------------------------------- sign-up ---
def _sign_up(app: Flask, email: str, password: str):
    client = phone(app)
    response = Keeper(client).post_form(
        "/signup", {"email": email, "password": password, "confirm": password}
    )
    return client, response


def test_sign_up_answers_the_same_whether_or_not_the_email_has_an_account(app, owner, monkeypatch):
    hashed: list[str] = []
    real = auth.generate_password_hash

    def spy(password: str, method: str = "scrypt", salt_length: int = 16) -> str:
        hashed.append(method)
        return real(password, method=method, salt_length=salt_length)

    monkeypatch.setattr(auth, "generate_password_hash", spy)
    before = snapshot(app)
    taken_client, taken = _sign_up(app, "ANN@Example.com", "another horse")
    assert snapshot(app) == before  # nothing made, nothing changed, nobody logged in
    new_client, new = _sign_up(app, "bob@example.com", "another horse")
    assert hashed == [app.config["PASSWORD_HASH_METHOD"]] * 2  # the same work either way
    assert taken.status_code == new.status_code == 302
    assert taken.headers["Location"] == new.headers["Location"] == "/login?next=/nights/new"
    assert taken.get_data() == new.get_data()
    names = [h.split("=", 1)[0] for h in taken.headers.getlist("Set-Cookie")]
    assert names == [h.split("=", 1)[0] for h in new.headers.getlist("Set-Cookie")]
    pages = [text_of(c.get("/login?next=/nights/new")) for c in (taken_client, new_client)]
    assert pages[0] == pages[1] and auth.SIGNED_UP in pages[0]
    for client in (taken_client, new_client):
        assert client.get("/account").status_code == 302  # nobody is logged in
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(UserSession)) == 0
        assert set(db.session.scalars(select(User.email))) == {ANN, "bob@example.com"}
    # Ann's account is untouched: her password logs in, the stranger's does not.
    assert log_in(phone(app, "198.51.100.1"), ANN, "another horse").status_code == 422
    assert log_in(owner).status_code == 302
    assert log_in(phone(app), "bob@example.com", "another horse").status_code == 302


# ---------------------------------------------------------------------- throttling ---
def test_a_stranger_cannot_lock_the_owner_out(app, owner):
    for _ in range(8):  # a stranger guesses Ann's password, again and again
        assert log_in(phone(app), ANN, "guess").status_code in (422, 429)
    # Strangers must wait now, even with the right password, from anywhere.
    for somewhere in (STRANGER, "198.51.100.23"):
        refused = log_in(phone(app, somewhere))
        assert refused.status_code == 429
        assert "Too many failed attempts for this email." in text_of(refused)
        assert logins.KNOWN_STILL_GETS_IN in text_of(refused)
    # Ann's phone gets in, from home and from anywhere else (its known-device cookie).
    owner.environ_base["REMOTE_ADDR"] = "198.51.100.99"
    assert log_in(owner).status_code == 302
    # So does any browser at her home address, which logged in before.
    assert log_in(phone(app, OWNER_HOME)).status_code == 302
    # Her successes did not reset the stranger's failures.
    assert log_in(phone(app)).status_code == 429


def test_the_owners_own_typos_are_limited_too(app, owner):
    for _ in range(3):
        assert log_in(owner, ANN, "typo typo").status_code == 422
    refused = log_in(owner)
    assert refused.status_code == 429
    assert logins.KNOWN_STILL_GETS_IN not in text_of(refused)
    # A stranger's allowance is another one: a stranger's typos are not the owner's.
    assert log_in(phone(app), ANN, "guess").status_code == 422


def test_the_wait_doubles_past_the_allowance(app, owner):
    for _ in range(3):
        assert log_in(phone(app), ANN, "guess").status_code == 422
    waits = []
    for _ in range(4):  # 30 + 60 + 120 + 240 s: the first failures are still in the window
        refused = log_in(phone(app), ANN, "guess")
        assert refused.status_code == 429
        waits.append(int(refused.headers["Retry-After"]))
        assert log_in(phone(app), ANN, "guess").status_code == 429  # asking again: same wait
        older(app, timedelta(seconds=waits[-1] + 1))
        assert log_in(phone(app), ANN, "guess").status_code == 422  # waited: checked
    assert waits == [30, 60, 120, 240]
    assert "Wait 8 minutes" in text_of(log_in(phone(app), ANN, "guess"))
    older(app, timedelta(minutes=16))  # the failures run out
    assert log_in(phone(app), ANN, "guess").status_code == 422
    # However many failures the window holds, the wait is 15 minutes at most.
    with app.app_context():
        db.session.execute(insert(LoginAttempt), [{"email": ANN, "remote_addr": STRANGER}] * 20)
        db.session.commit()
    refused = log_in(phone(app), ANN, "guess")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "900"
    assert "Wait 15 minutes" in text_of(refused)


def test_one_address_is_limited_across_emails(app, owner):
    app.config["LOGIN_ATTEMPTS_PER_ADDRESS_PER_15_MINUTES"] = 4
    for n in range(4):  # one email each: no email's allowance is reached
        assert log_in(phone(app), f"user{n}@example.com", "guess").status_code == 422
    refused = log_in(phone(app), "user9@example.com", "guess")
    assert refused.status_code == 429
    assert "Too many failed attempts from this network." in text_of(refused)
    assert log_in(phone(app, "198.51.100.5"), "user9@example.com", "guess").status_code == 422
    # Ann's phone, at that address now, is known: the address's limit is for strangers.
    owner.environ_base["REMOTE_ADDR"] = STRANGER
    assert log_in(owner).status_code == 302


def test_a_device_cookie_is_known_only_for_the_email_it_logged_in_to(app, owner):
    Keeper(phone(app, "192.0.2.77")).signup("bob@example.com")
    token = owner.get_cookie(logins.DEVICE_COOKIE, path="/login").value
    for _ in range(3):
        log_in(phone(app), "bob@example.com", "guess")
    borrowed = phone(app, "198.51.100.8")
    borrowed.set_cookie(logins.DEVICE_COOKIE, token, path="/login")
    assert log_in(borrowed, "bob@example.com").status_code == 429  # Ann's device, not Bob's
    forged = phone(app, "198.51.100.8")
    forged.set_cookie(logins.DEVICE_COOKIE, logins.new_device_token(), path="/login")
    for _ in range(3):
        log_in(phone(app), ANN, "guess")
    assert log_in(forged).status_code == 429  # a token that never logged in is nobody's
    with app.app_context():
        stored = set(db.session.scalars(select(LoginAttempt.device)))
    assert token not in stored and logins.digest(token) in stored  # kept as a digest


# ------------------------------------------------------------------------- pruning ---
def _old_rows(app: Flask) -> None:
    now = utcnow()
    with app.app_context():
        known_for = logins.known_for()
    rows = [
        {"email": "x@example.com", "remote_addr": "192.0.2.1", "ok": False,
         "created_at": now - timedelta(minutes=16)},
        {"email": "x@example.com", "remote_addr": "192.0.2.1", "ok": True,
         "created_at": now - known_for - timedelta(days=1)},
        {"email": "x@example.com", "remote_addr": "192.0.2.1", "ok": True,
         "created_at": now - timedelta(days=300)},  # still makes its device known
    ]  # fmt: skip
    with app.app_context():
        db.session.execute(insert(LoginAttempt), rows)
        db.session.commit()


def test_old_attempts_are_pruned_on_every_attempt(app, owner):
    _old_rows(app)
    log_in(phone(app), ANN, "guess")
    with app.app_context():
        kept = db.session.execute(
            select(LoginAttempt.email, LoginAttempt.ok).order_by(LoginAttempt.id)
        ).all()
    assert sorted(kept) == sorted([(ANN, True), ("x@example.com", True), (ANN, False)])


def test_prune_logins_deletes_what_is_past_its_time(app, runner):
    _old_rows(app)
    result = runner.invoke(args=["prune-logins"])
    assert result.exit_code == 0, result.output
    assert result.output == "2 old log-in attempts deleted.\n"
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginAttempt)) == 1
    assert runner.invoke(args=["prune-logins"]).output == "0 old log-in attempts deleted.\n"


def test_a_stranger_hammering_cannot_grow_the_table(app, owner):
    for _ in range(200):
        log_in(phone(app), ANN, "guess")
    # The allowance's failures, and the one the first wait let through: refused attempts
    # are not kept, checked ones run out after 15 minutes.
    assert failures(app) <= 3 + 1
    older(app, timedelta(minutes=16))
    log_in(phone(app), "someone@example.com", "guess")
    assert failures(app) == 1


def test_register_says_whether_it_made_the_account_and_writes_either_way(app, owner):
    """What a mail would need (made, or taken), with one row written either way so that
    both commits cost the same; a taken email's account is not changed."""
    with app.app_context():
        before = db.session.execute(select(User.password_hash, User.created_at)).one()
    written: list[str] = []
    with app.test_request_context():
        from tests.web.test_queries import listening

        def note(conn, cursor, statement, *args):
            if statement.lstrip().upper().startswith("INSERT"):
                written.append(statement)

        with listening(app, "before_cursor_execute", note):
            assert auth.register("zoe@example.com", "a password") is True
            assert auth.register(ANN, "a password") is False
    assert len(written) == 2 and all("ON CONFLICT" in s for s in written)
    with app.app_context():
        after = db.session.execute(
            select(User.password_hash, User.created_at).where(User.email == ANN)
        ).one()
    assert after == before
