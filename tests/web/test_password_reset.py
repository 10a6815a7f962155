"""Issue 25, part 2: a forgotten password. "Forgot password?" mails a link (to a real SMTP
server running in the test, aiosmtpd) that works once, for an hour; only its digest is
stored; using it ends every login of the account; asking tells nobody whether the email
has an account (the same answer, the same work) and is limited per email and per
address; a double tap asks once."""

from __future__ import annotations

import email
import re
import socket
from collections.abc import Iterator
from datetime import timedelta
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select, update

from scorekeeper.extensions import db
from scorekeeper.models import PasswordReset, User, UserSession, as_utc, utcnow
from scorekeeper.services import resets
from scorekeeper.web import auth
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, inputs, text_of

ANN = "ann@example.com"
PASSWORD = "correct horse"
NEW = "battery staple"


class Inbox:
    """What the SMTP server received, as parsed messages."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 Message accepted for delivery"

    def link(self, index: int = -1) -> str:
        body = self.messages[index].get_payload(decode=True).decode()
        found = re.search(r"http://localhost(/password/reset\?token=[A-Za-z0-9_-]+)", body)
        assert found, body
        return found.group(1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def inbox(app: Flask) -> Iterator[Inbox]:
    """A real SMTP server on this machine, and the app configured to send through it."""
    box = Inbox()
    port = free_port()
    server = Controller(box, hostname="127.0.0.1", port=port)
    server.start()
    app.config.update(
        MAIL_SERVER="127.0.0.1",
        MAIL_PORT=port,
        MAIL_USE_TLS=False,
        MAIL_SENDER="cards@example.org",
        PUBLIC_URL="http://localhost/",
    )
    yield box
    server.stop()


def phone(app: Flask, address: str = "203.0.113.5") -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def ask(app: Flask, email_address: str, address: str = "203.0.113.5") -> Any:
    return Keeper(phone(app, address)).post_form("/password/forgot", {"email": email_address})


def signed_up(app: Flask) -> FlaskClient:
    """Ann's phone, logged in."""
    client = phone(app, "192.0.2.10")
    Keeper(client).signup(ANN, PASSWORD)
    return client


def logged_in(client: FlaskClient) -> bool:
    return client.get("/account").status_code == 200


def choose(client: FlaskClient, link: str, password: str = NEW) -> Any:
    page = client.get(link)
    assert page.status_code == 200
    data = {**inputs(page.get_data(as_text=True)), "password": password, "confirm": password}
    return client.post("/password/reset", data=data)


def test_the_login_page_offers_it(client):
    assert 'href="/password/forgot"' in client.get("/login").get_data(as_text=True)


def test_a_mailed_link_sets_a_new_password_once_and_ends_every_login(app, inbox):
    owner = signed_up(app)
    other = phone(app, "192.0.2.11")
    assert Keeper(other).login(ANN, PASSWORD).status_code == 302
    response = ask(app, " Ann@Example.com ")
    assert response.status_code == 302 and response.headers["Location"] == "/login"
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    assert message["To"] == ANN and message["From"] == "cards@example.org"
    link = inbox.link()
    token = link.split("token=")[1]
    # Only the digest is stored: the token is nowhere in the database.
    assert token not in repr(snapshot(app))
    with app.app_context():
        assert db.session.scalar(select(PasswordReset.token_digest)) == resets.digest(token)

    stranger = phone(app, "198.51.100.20")
    done = choose(stranger, link)
    assert done.status_code == 302 and logged_in(stranger)  # the new password's login
    assert not logged_in(owner) and not logged_in(other)  # every other login ended
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(UserSession)) == 1
    assert Keeper(phone(app)).login(ANN, PASSWORD).status_code == 422
    assert Keeper(phone(app)).login(ANN, NEW).status_code == 302

    # Used once: the link now shows no form, and a post with it changes nothing.
    again = phone(app)
    page = again.get(link)
    assert auth.LINK_DEAD in text_of(page) and 'name="password"' not in page.get_data(as_text=True)
    before = snapshot(app)
    response = again.post("/password/reset", data={
        **inputs(again.get("/login").get_data(as_text=True)), "token": token,
        "password": "third horse", "confirm": "third horse"})  # fmt: skip
    assert response.status_code == 422 and auth.LINK_DEAD in text_of(response)
    assert snapshot(app) == before and not logged_in(again)


def test_an_expired_link_is_refused(app, inbox):
    signed_up(app)
    ask(app, ANN)
    link = inbox.link()
    with app.app_context():
        db.session.execute(update(PasswordReset).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    client = phone(app)
    page = client.get(link)
    assert auth.LINK_DEAD in text_of(page)
    before = snapshot(app)
    token = link.split("token=")[1]
    response = client.post("/password/reset", data={
        **inputs(client.get("/login").get_data(as_text=True)), "token": token,
        "password": NEW, "confirm": NEW})  # fmt: skip
    assert response.status_code == 422 and auth.LINK_DEAD in text_of(response)
    assert snapshot(app) == before
    assert Keeper(phone(app)).login(ANN, PASSWORD).status_code == 302


def test_a_link_lasts_an_hour(app, inbox):
    signed_up(app)
    ask(app, ANN)
    with app.app_context():
        row = db.session.scalars(select(PasswordReset)).one()
        lasts = as_utc(row.expires_at) - as_utc(row.created_at)
    assert lasts == timedelta(hours=1)


def test_a_new_link_makes_the_older_ones_useless_once_used(app, inbox):
    signed_up(app)
    ask(app, ANN)
    ask(app, ANN)
    first, second = inbox.link(0), inbox.link(1)
    assert first != second
    assert choose(phone(app), second).status_code == 302
    assert auth.LINK_DEAD in text_of(phone(app).get(first))


def test_a_bad_new_password_keeps_the_link(app, inbox):
    signed_up(app)
    ask(app, ANN)
    client = phone(app)
    response = choose(client, inbox.link(), password="short")
    assert response.status_code == 422 and "Use at least 8 characters." in text_of(response)
    assert choose(client, inbox.link()).status_code == 302


# ------------------------------------------------------- telling nobody anything ---
class Work:
    """The SQL statements a request runs (their text, parameters aside)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.statements: list[str] = []

    def __enter__(self) -> Work:
        with self.app.app_context():
            self.engine = db.engine
        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc: Any) -> None:
        event.remove(self.engine, "before_cursor_execute", self._seen)

    def _seen(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        self.statements.append(re.sub(r"\s+", " ", statement))


def test_asking_answers_and_works_the_same_whether_or_not_the_email_has_an_account(
    app, inbox, monkeypatch
):
    signed_up(app)
    made: list[str] = []
    real = resets.digest

    def spy(token: str) -> str:
        made.append(token)
        return real(token)

    monkeypatch.setattr(resets, "digest", spy)
    answers, works = [], []
    for address in (ANN, "nobody@example.com"):
        client = phone(app)
        keeper = Keeper(client)
        _, hidden = keeper.form("/password/forgot")
        with Work(app) as work:
            response = client.post("/password/forgot", data={**hidden, "email": address})
        works.append(work.statements)
        page = text_of(client.get(response.headers["Location"]))
        answers.append((response.status_code, response.headers["Location"],
                        page.replace(address, "EMAIL")))  # fmt: skip
    assert answers[0] == answers[1]
    assert auth.RESET_SENT % {"email": "EMAIL"} in answers[0][2]
    assert works[0] == works[1] and len(works[0]) > 5  # the same statements, in order
    assert len(made) == 2  # a token made and hashed either way
    assert [m["X-Envelope-To"] for m in inbox.messages] == [ANN, "nobody@example.com"]
    # The unknown address is told it has no account (no link); Ann gets her link.
    assert "has no account" in inbox.messages[1].get_payload(decode=True).decode()
    assert "token=" not in inbox.messages[1].get_payload(decode=True).decode()
    with app.app_context():
        rows = db.session.execute(select(PasswordReset.email, PasswordReset.user_id)).all()
        assert {r.email for r in rows} == {ANN, "nobody@example.com"}
        assert {r.email for r in rows if r.user_id is None} == {"nobody@example.com"}


def test_a_token_of_an_unknown_email_resets_nothing(app, inbox):
    ask(app, "nobody@example.com")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PasswordReset)) == 1
    Keeper(phone(app)).signup("nobody@example.com", PASSWORD)  # signs up afterwards
    # The note mailed carried no token; no stored row of no account resets this one.
    with app.app_context():
        row = db.session.scalars(select(PasswordReset)).one()
        assert row.user_id is None


def test_asking_is_limited_per_address_and_mails_per_email(app, inbox):
    """A 429 goes only to the address that asked too often. Past the mails an email may
    be sent in 15 minutes, strangers' asks are still answered (200, no 429) but send no
    mail; the owner's own phone (a browser that logged in to the account) still gets its
    link whoever asked before."""
    app.config.update(RESET_REQUESTS_PER_15_MINUTES=2, RESET_REQUESTS_PER_ADDRESS_PER_15_MINUTES=4)
    owner = signed_up(app)  # logged in once: a known device of Ann's
    for n in range(2):
        assert ask(app, ANN, f"198.51.100.{n}").status_code == 302
    assert len(inbox.messages) == 2
    # Someone types Ann's email again and again, from many addresses: never refused, but
    # no more mail goes to Ann's inbox in the window.
    for n in range(3, 8):
        capped = Keeper(phone(app, f"198.51.100.{n}")).post_form(
            "/password/forgot", {"email": ANN}, follow_redirects=True
        )
        assert capped.status_code == 200
        assert "no new mail goes to it for" in text_of(capped)
    assert len(inbox.messages) == 2
    # Ann, on her own phone, asks for her own reset: she gets it.
    mine = Keeper(owner).post_form("/password/forgot", {"email": ANN}, follow_redirects=True)
    assert mine.status_code == 200 and "A mail is on its way" in text_of(mine)
    assert len(inbox.messages) == 3
    # One address asking too often is refused (429), whatever the emails, and only it.
    for n in range(4):
        assert ask(app, f"someone{n}@example.com", "203.0.113.77").status_code == 302
    refused = ask(app, "someone4@example.com", "203.0.113.77")
    assert refused.status_code == 429 and "from this network" in text_of(refused)
    assert int(refused.headers["Retry-After"]) > 0
    assert ask(app, "someone4@example.com", "203.0.113.78").status_code == 302
    # Asking for links does not use up the owner's log-ins.
    assert Keeper(phone(app, "192.0.2.99")).login(ANN, PASSWORD).status_code == 302


def test_a_double_tap_asks_once(app, inbox):
    signed_up(app)
    client = phone(app)
    _, hidden = Keeper(client).form("/password/forgot")
    first = client.post("/password/forgot", data={**hidden, "email": ANN})
    second = client.post("/password/forgot", data={**hidden, "email": ANN})
    assert first.status_code == second.status_code == 302
    assert len(inbox.messages) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PasswordReset)) == 1


def test_a_mail_server_that_is_down_gets_a_sentence_either_way(app, inbox):
    signed_up(app)
    app.config["MAIL_PORT"] = free_port()  # nothing listens there
    for address in (ANN, "nobody@example.com"):
        response = ask(app, address)
        assert response.status_code == 503 and auth.MAIL_FAILED in text_of(response)


def test_without_mail_the_page_says_whom_to_ask(app):
    signed_up(app)
    page = phone(app).get("/password/forgot")
    assert page.status_code == 200 and "flask users reset-link" in text_of(page)
    before = snapshot(app)
    client = phone(app)
    response = client.post("/password/forgot", data={
        **inputs(client.get("/login").get_data(as_text=True)), "email": ANN})  # fmt: skip
    assert response.status_code == 422 and auth.NO_MAIL in text_of(response)
    assert snapshot(app) == before


def test_a_disabled_account_cannot_reset(app, inbox):
    signed_up(app)
    ask(app, ANN)
    with app.app_context():
        from scorekeeper.services.accounts import find_user, set_disabled

        user = find_user(ANN)
        assert user is not None
        set_disabled(user, True)
    assert auth.LINK_DEAD in text_of(phone(app).get(inbox.link()))
    with app.app_context():
        assert db.session.scalar(select(User.disabled_at)) is not None
