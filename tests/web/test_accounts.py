"""Accounts: sign up, log in, log out, the login limit, and owner-only access."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.web.keeper import Keeper, inputs, text_of


def test_signup_then_log_in_leads_to_a_new_night(client):
    """Signing up logs nobody in (the answer must not tell whether the email had an
    account): it leads to the log-in page, which says so; logging in leads on."""
    k = Keeper(client)
    _, hidden = k.form("/signup")
    r = client.post(
        "/signup",
        data={
            **hidden,
            "email": "Ann@Example.com",
            "password": "correct horse",
            "confirm": "correct horse",
        },
    )
    assert r.status_code == 302 and r.headers["Location"] == "/login?next=/nights/new"
    page = client.get(r.headers["Location"])
    assert "Sign-up received: now log in with your email and the password you chose" in (
        text_of(page)
    )
    # The email just typed is in the log-in form (issue 34), once: not on a later visit.
    assert re.search(r'name="email"[^>]*value="Ann@Example.com"', page.get_data(as_text=True))
    assert 'value="Ann@Example.com"' not in client.get("/login").get_data(as_text=True)
    assert "Sign up" in text_of(client.get("/"))  # not logged in
    r = client.post(
        r.headers["Location"],
        data={**inputs(page.get_data(as_text=True)), "email": "ann@example.com",
              "password": "correct horse"},
    )  # fmt: skip
    assert r.status_code == 302 and r.headers["Location"] == "/nights/new"
    assert "Your card nights" in text_of(client.get("/"))


def test_a_refused_email_says_why(client):
    """Issue 34: "Invalid email address." told nobody what to change."""
    k = Keeper(client)
    for typed, why in [
        ("ann@example", "The part after the @-sign is not valid. It should have a period."),
        ("ann.example.com", "An email address must have an @-sign."),
        ("ann@cards.test", "special-use or reserved name that cannot be used with email"),
    ]:
        r = k.post_form("/signup", {"email": typed, "password": "long enough", "confirm":
                                    "long enough"})  # fmt: skip
        assert r.status_code == 422 and why in text_of(r), typed


def test_signup_refuses_a_short_password(client):
    k = Keeper(client)
    r = k.post_form(
        "/signup", {"email": "bob@example.com", "password": "short", "confirm": "short"}
    )
    assert r.status_code == 422 and "at least 8" in text_of(r)


def test_login_logout_and_wrong_password(client):
    k = Keeper(client)
    k.signup("ann@example.com")
    client.post("/logout", data=inputs(client.get("/").get_data(as_text=True)))
    assert "Sign up" in text_of(client.get("/"))
    r = k.login("ann@example.com", "wrong password")
    assert r.status_code == 422 and "do not match" in text_of(r)
    r = k.login("ann@example.com")
    assert r.status_code == 302
    assert "Your card nights" in text_of(client.get("/"))


def test_login_is_limited_after_repeated_failures(app, client):
    app.config["LOGIN_ATTEMPTS_PER_15_MINUTES"] = 3
    k = Keeper(client)
    k.signup("ann@example.com")
    client.post("/logout", data=inputs(client.get("/").get_data(as_text=True)))
    for _ in range(3):
        assert k.login("ann@example.com", "nope nope").status_code == 422
    r = k.login("ann@example.com")  # even the right password waits now
    assert r.status_code == 429 and "Too many failed attempts" in text_of(r)
    assert r.headers["Retry-After"] == "30"  # then 1 minute, 2, 4... (tests/web/test_logins.py)


def test_session_survives_as_a_remember_cookie(client):
    k = Keeper(client)
    k.signup("ann@example.com")
    cookies = {c.key for c in client._cookies.values()}
    assert "remember_token" in cookies


def test_logout_needs_csrf(client):
    Keeper(client).signup()
    r = client.post("/logout")
    assert r.status_code == 400
    assert "Your card nights" in text_of(client.get("/"))


def test_pages_need_login(client):
    for url in ("/nights/new", "/nights/1", "/games/1", "/games/1/rounds/new"):
        r = client.get(url)
        assert r.status_code == 302 and "/login" in r.headers["Location"], url
    assert client.get("/api/v1/games/1").status_code == 401


def test_help_page_states_the_rule_choices(client):
    page = text_of(client.get("/help"))
    assert "Vegas re-buy is the default when someone expires" in page
    assert "odd cents go to the earliest seat" in page
    assert "Texas dimes are paid to whoever goes out only while the pot still holds" in page


def test_home_shows_tonights_games_with_their_state_and_earlier_nights(client):
    k = Keeper(client)
    k.signup()
    earlier = k.night(["Ann", "Bob"], name="Last week")
    k.game(earlier, "rummy", ["Ann", "Bob"])
    tonight = k.night(["Ann", "Bob", "Cy"], name="Tonight")
    game = k.game(tonight, "texas", ["Ann", "Bob", "Cy"])
    k.enter(game, "Ann", {"Bob": 12, "Cy": 3})
    page = text_of(client.get("/"))
    assert "Tonight" in page and "Texas Rummy Round 1 played · Ann leading" in page
    assert "Earlier nights Last week" in page


def test_tonight_is_the_night_played_by_today_not_one_set_up_for_later(client):
    """Issue 34: a night set up for next week took the "Tonight" place (the home page took
    the latest date). Tonight is the latest night on or before today at the table (the
    phone's zone); a later one is listed under "Coming up"."""
    k = Keeper(client)
    k.signup()
    today = datetime.now(ZoneInfo("Pacific/Kiritimati")).date()  # UTC+14: a day ahead
    for name, day in [("Next week", today + timedelta(days=7)), ("Today", today),
                      ("Last week", today - timedelta(days=7))]:  # fmt: skip
        r = k.post_form("/nights/new", {"name": name, "played_on": day.isoformat(),
                        "currency": "USD", "paper": "Letter", "people": "Ann\nBob"})  # fmt: skip
        assert r.status_code == 302, text_of(r)
    client.set_cookie("tz", "Pacific/Kiritimati")
    html = client.get("/").get_data(as_text=True)
    tonight = html.split("Tonight", 1)[1].split("<h3>Games</h3>", 1)[0]
    assert "<strong>Today</strong>" in tonight
    page = text_of(client.get("/"))
    assert "Coming up Next week" in page and "Earlier nights Last week" in page


def test_a_new_night_is_dated_today_at_the_table(client):
    """The new-night form's date is the phone's today (the server's UTC date was a day
    behind or ahead near midnight)."""
    k = Keeper(client)
    k.signup()
    client.set_cookie("tz", "Pacific/Kiritimati")
    today = datetime.now(ZoneInfo("Pacific/Kiritimati")).date().isoformat()
    html = client.get("/nights/new").get_data(as_text=True)
    assert re.search(rf'name="played_on"[^>]*value="{today}"', html), html
