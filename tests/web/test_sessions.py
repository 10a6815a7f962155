"""Sessions: every login is a UserSession row whose token the session cookie and the
remember cookie carry. Logging out ends that row, so a copied cookie dies with it; changing
the password and "log out everywhere else" end every other row; an expired row logs no one
in. Also: the password is checked for unknown emails too, a failed-login attempt is
committed before the password is checked, and two sign-ups with one email store one
account and answer both the same."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_login.utils import encode_cookie
from sqlalchemy import event, func, insert, select, update

from scorekeeper.extensions import db
from scorekeeper.models import LoginAttempt, User, UserSession, utcnow
from scorekeeper.web import auth, load_user
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, inputs, text_of

ANN = "ann@example.com"
PASSWORD = "correct horse"
NEW_PASSWORD = "battery staple"


def logged_in(client: FlaskClient) -> bool:
    response = client.get("/account")
    assert response.status_code in {200, 302}, response.status_code
    return response.status_code == 200


def logout(client: FlaskClient) -> Any:
    response = client.post("/logout", data=inputs(client.get("/").get_data(as_text=True)))
    assert response.status_code == 302
    return response


def login(app: Flask, email: str = ANN, password: str = PASSWORD, remember: bool = False):
    """A new phone, logged in (with "Keep me logged in" ticked or not)."""
    keeper = Keeper(app.test_client())
    data = {"email": email, "password": password, **({"remember": "y"} if remember else {})}
    response = keeper.post_form("/login", data)
    assert response.status_code == 302, text_of(response)
    return keeper.client


def cookie(client: FlaskClient, name: str) -> str:
    found = client.get_cookie(name)
    assert found is not None, name
    return found.value


def with_cookie(app: Flask, name: str, value: str) -> FlaskClient:
    """A client holding nothing but this one cookie (copied from another phone)."""
    client = app.test_client()
    client.set_cookie(name, value)
    return client


def change_password(client: FlaskClient, current: str, new: str, again: str | None = None):
    return Keeper(client).post_form(
        "/account",
        {"current": current, "password": new, "confirm": new if again is None else again},
        action="/account/password",
    )


def session_rows(app: Flask) -> list[UserSession]:
    with app.app_context():
        rows = db.session.scalars(select(UserSession).order_by(UserSession.id)).all()
        db.session.expunge_all()
        return list(rows)


# ------------------------------------------------------------------ log out ends it ---
def test_a_copied_session_cookie_is_dead_after_logout(app, client):
    Keeper(client).signup(ANN)
    logout(client)
    phone = login(app)  # not remembered: the session cookie alone carries the login
    assert phone.get_cookie("remember_token") is None
    copied = cookie(phone, "session")
    thief = with_cookie(app, "session", copied)
    assert logged_in(thief)  # the copy works while the login lasts...
    logout(phone)
    assert not logged_in(thief)  # ...and dies with it
    assert not logged_in(with_cookie(app, "session", copied))
    assert not logged_in(phone)


def test_each_login_gets_a_new_remember_cookie_and_logout_ends_it(app, client):
    Keeper(client).signup(ANN)
    first = login(app, remember=True)
    second = login(app, remember=True)
    remembered = cookie(first, "remember_token")
    assert remembered != cookie(second, "remember_token")
    assert cookie(first, "session") != cookie(second, "session")
    assert logged_in(with_cookie(app, "remember_token", remembered))
    response = logout(first)
    assert "remember_token=;" in " ".join(response.headers.getlist("Set-Cookie"))
    assert first.get_cookie("remember_token") is None
    assert not logged_in(with_cookie(app, "remember_token", remembered))
    # The other logins of the account go on.
    assert logged_in(second) and logged_in(client)
    assert logged_in(with_cookie(app, "remember_token", cookie(second, "remember_token")))


def test_a_cookie_from_before_session_tokens_logs_no_one_in(app, client):
    Keeper(client).signup(ANN)
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.email == ANN))
    old = app.test_client()
    with old.session_transaction() as session:  # what Flask-Login stored: the user's id
        session.update(_user_id=str(user_id), _fresh=True)
    assert not logged_in(old)
    with app.test_request_context():
        old_remember = encode_cookie(str(user_id))
    assert not logged_in(with_cookie(app, "remember_token", old_remember))


def test_an_expired_session_is_refused(app, client):
    Keeper(client).signup(ANN)
    remembered = cookie(client, "remember_token")
    assert logged_in(client)
    with app.app_context():
        db.session.execute(update(UserSession).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    assert not logged_in(client)
    assert not logged_in(with_cookie(app, "remember_token", remembered))
    # Logging in again starts a new session and drops the expired row.
    login(app)
    assert len(session_rows(app)) == 1


def test_a_login_lasts_a_day_on_the_server_and_a_remembered_one_60_days(app, client):
    Keeper(client).signup(ANN)  # a sign-up is remembered
    login(app)
    login(app, remember=True)
    rows = session_rows(app)
    assert [r.remember for r in rows] == [True, False, True]
    lasts = [r.expires_at - r.created_at for r in rows]
    assert lasts == [timedelta(days=60), timedelta(days=1), timedelta(days=60)]
    assert len({r.token for r in rows}) == 3 and all(len(r.token) >= 40 for r in rows)


def test_the_user_loader_is_one_query_and_refuses_unknown_tokens(app, client):
    Keeper(client).signup(ANN)
    (row,) = session_rows(app)
    statements: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    with app.test_request_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            user = load_user(row.token)
            assert user is not None and user.email == ANN and user.get_id() == row.token
            assert len(statements) == 1
            assert load_user("x" * 43) is None
            assert load_user(str(row.user_id)) is None
            assert load_user("x" * 1000) is None  # not even looked up
            assert len(statements) == 3
        finally:
            event.remove(db.engine, "before_cursor_execute", count)


# ------------------------------------------------------------------- the account page ---
def test_the_account_page_lists_the_logins_and_marks_this_one(app, client):
    Keeper(client).signup(ANN)
    other = app.test_client()
    other.environ_base["HTTP_USER_AGENT"] = "Pixel phone\x00\x1b browser"
    Keeper(other).login(ANN)
    page = text_of(client.get("/account"))
    assert "This phone or browser" in page and "Pixel phone browser" in page
    assert page.count("Logged in ") == 2
    assert "Log out everywhere else" in page
    assert 'href="/account"' in client.get("/").get_data(as_text=True)


def test_changing_the_password_ends_every_other_session_and_keeps_this_one(app, client):
    Keeper(client).signup(ANN)
    other = login(app, remember=True)
    others_remember = cookie(other, "remember_token")
    bob = Keeper(app.test_client())
    bob.signup("bob@example.com")
    response = change_password(client, PASSWORD, NEW_PASSWORD)
    assert response.status_code == 302 and response.headers["Location"].endswith("/account")
    assert "Password changed. Every other phone and browser is logged out." in text_of(
        client.get("/account")
    )
    assert logged_in(client)
    assert not logged_in(other)
    assert not logged_in(with_cookie(app, "remember_token", others_remember))
    assert logged_in(bob.client)  # someone else's logins are not touched
    assert Keeper(app.test_client()).login(ANN, PASSWORD).status_code == 422
    assert logged_in(login(app, ANN, NEW_PASSWORD))


def test_a_wrong_current_password_changes_nothing(app, client):
    Keeper(client).signup(ANN)
    other = login(app)
    before = snapshot(app)
    response = change_password(client, "wrong horse", NEW_PASSWORD)
    assert response.status_code == 422
    assert "That is not your current password: nothing was changed." in text_of(response)
    response = change_password(client, PASSWORD, NEW_PASSWORD, again="battery stapler")
    assert response.status_code == 422 and "The new passwords differ." in text_of(response)
    response = change_password(client, PASSWORD, "short")
    assert response.status_code == 422 and "Use at least 8 characters." in text_of(response)
    assert snapshot(app) == before
    assert logged_in(client) and logged_in(other)
    assert logged_in(login(app, ANN, PASSWORD))


def test_guessing_the_current_password_is_limited_like_logging_in(app, client):
    """Counted for that login session: it cannot lock the owner's other phones out, of
    logging in or of changing the password."""
    app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"] = 2
    Keeper(client).signup(ANN)
    for _ in range(2):
        assert change_password(client, "wrong horse", NEW_PASSWORD).status_code == 422
    response = change_password(client, PASSWORD, NEW_PASSWORD)
    assert response.status_code == 429 and "Too many failed attempts" in text_of(response)
    assert int(response.headers["Retry-After"]) == 30
    assert logged_in(client)
    other = login(app, ANN, PASSWORD)
    assert change_password(other, PASSWORD, NEW_PASSWORD).status_code == 302


def test_log_out_everywhere_else(app, client):
    Keeper(client).signup(ANN)
    phones = [login(app), login(app, remember=True)]
    remembered = cookie(phones[1], "remember_token")
    bob = Keeper(app.test_client())
    bob.signup("bob@example.com")
    response = Keeper(client).post_form("/account", {}, action="/account/logout-others")
    assert response.status_code == 302
    page = text_of(client.get("/account"))
    assert "Every other phone and browser is logged out." in page
    assert page.count("Logged in ") == 1
    assert logged_in(client) and logged_in(bob.client)
    assert not any(logged_in(phone) for phone in phones)
    assert not logged_in(with_cookie(app, "remember_token", remembered))


# ------------------------------------------------------------------------ logging in ---
def test_an_unknown_email_costs_a_password_check_too(app, client, monkeypatch):
    Keeper(client).signup(ANN)
    logout(client)
    checked: list[str] = []
    real = auth.check_password_hash

    def spy(pwhash: str, password: str) -> bool:
        checked.append(pwhash)
        return real(pwhash, password)

    monkeypatch.setattr(auth, "check_password_hash", spy)
    for email in ("nobody@example.com", ANN):
        response = Keeper(app.test_client()).login(email, "wrong horse")
        assert response.status_code == 422 and auth.NO_MATCH in text_of(response)
    unknown, known = checked
    assert unknown != known
    # The same method and cost ("pbkdf2:sha256:1000$salt$hash"): the same time.
    assert unknown.split("$")[0] == known.split("$")[0] == app.config["PASSWORD_HASH_METHOD"]


def test_the_attempt_is_committed_before_the_password_is_checked(app, client, monkeypatch):
    app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"] = 2
    Keeper(client).signup(ANN)
    logout(client)
    committed_at_check: list[int] = []
    real = auth.check_password_hash

    def committed_attempts() -> int:
        with db.engine.connect() as conn:  # another connection: only committed rows
            return conn.scalar(
                select(func.count())
                .select_from(LoginAttempt)
                .where(LoginAttempt.email == ANN, LoginAttempt.ok.is_(False))
            )

    def spy(pwhash: str, password: str) -> bool:
        committed_at_check.append(committed_attempts())
        return real(pwhash, password)

    monkeypatch.setattr(auth, "check_password_hash", spy)
    for _ in range(2):
        assert Keeper(app.test_client()).login(ANN, "wrong horse").status_code == 422
    assert committed_at_check == [1, 2]  # each attempt counted itself before its check
    for _ in range(3):  # over the limit: no password is checked, even the right one
        response = Keeper(app.test_client()).login(ANN, PASSWORD)
        assert response.status_code == 429 and "Too many failed attempts" in text_of(response)
    assert committed_at_check == [1, 2]
    with app.app_context():
        assert committed_attempts() == 2  # a refused attempt does not lengthen the wait


def test_two_signups_with_one_email_at_once(app, client, monkeypatch):
    """The other sign-up is stored between this one's start and its write (what two
    phones, or two workers, do at the same instant): one account, the first one's, and
    this one answered as any sign-up is, logging nobody in."""
    real_hash = auth._hash

    def other_signup_lands(password: str) -> str:
        with db.engine.begin() as conn:
            conn.execute(
                insert(User).values(
                    email=ANN, password_hash=real_hash("other horse"), created_at=utcnow()
                )
            )
        return real_hash(password)

    monkeypatch.setattr(auth, "_hash", other_signup_lands)
    response = Keeper(client).post_form(
        "/signup", {"email": ANN, "password": PASSWORD, "confirm": PASSWORD}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=/nights/new"
    assert not logged_in(client)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(User)) == 1
        assert db.session.scalar(select(func.count()).select_from(UserSession)) == 0
    monkeypatch.setattr(auth, "_hash", real_hash)
    assert Keeper(app.test_client()).login(ANN, PASSWORD).status_code == 422
    assert Keeper(app.test_client()).login(ANN, "other horse").status_code == 302


def test_game_pages_check_the_login_in_their_one_query(app, client):
    """The sheet, its 304 and its PDFs read the login and the game in one query and skip
    Flask-Login's own loader when that query finds them: a copied session cookie still
    dies with its login there, an expired login is refused, and a remembered login (the
    remember cookie alone) still opens them."""
    keeper = Keeper(client)
    keeper.signup(ANN)
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    client.get("/")
    phone = login(app, remember=True)
    thief = with_cookie(app, "session", cookie(phone, "session"))
    remembered = with_cookie(app, "remember_token", cookie(phone, "remember_token"))
    urls = [f"/games/{game}", f"/games/{game}/sheet.pdf", f"/games/{game}/blank.pdf"]
    etag = thief.get(urls[0]).headers["ETag"]
    assert thief.get(urls[0], headers={"If-None-Match": etag}).status_code == 304
    for url in urls:
        assert thief.get(url).status_code == 200, url
    assert remembered.get(urls[0]).status_code == 200

    logout(phone)
    for who in (thief, with_cookie(app, "remember_token", cookie(remembered, "remember_token"))):
        assert who.get(urls[0], headers={"If-None-Match": etag}).status_code == 302
        for url in urls:
            r = who.get(url)
            assert r.status_code == 302 and "/login" in r.headers["Location"], url

    assert client.get(urls[0]).status_code == 200  # the keeper's own login goes on
    with app.app_context():
        db.session.execute(update(UserSession).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()
    for url in urls:
        assert client.get(url).status_code == 302, url


def test_the_user_made_from_the_stamp_is_the_sessions_own(app, client):
    """``login_from_stamp`` gives the ORM session's own ``User`` of that id, whether a
    query of the request loaded it first or not, and writes nothing."""
    from flask import g

    from scorekeeper import services

    keeper = Keeper(client)
    keeper.signup(ANN)
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    with app.test_request_context():
        token = db.session.scalar(select(UserSession.token))
        stamp = services.game_stamp(game, token=token)
        assert stamp is not None
        loaded = db.session.scalar(select(User).where(User.email == ANN))
        g.stamp_login = (token, stamp)
        made = load_user(token)
        assert made is loaded and made.session_token == token
        assert not (db.session.new or db.session.dirty)
        db.session.remove()
    with app.test_request_context():
        made = services.login_from_stamp(stamp, token)
        assert made.email == ANN and made.password_hash  # loads on first use
        assert db.session.scalar(select(User).where(User.id == made.id)) is made
        assert not (db.session.new or db.session.dirty)
        db.session.remove()
