"""The live view through the test client: the keeper shows players a game or a night
(a link and a QR code), turns it off, renews it; anyone with the link reads the game or the
night with no account, answered 304 while nothing changed (one query for a game, two for a
night) and 200 once a round is saved; nothing of other games, nights or the keeper's
account; a deleted game or night shows nothing; the night's settlement with pay links."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import unquote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import LiveLink
from tests.web.keeper import Keeper, handle_rows, inputs, text_of
from tests.web.test_queries import counting

NOT_FOUND = "There is nothing here, or it is not yours to see."


@pytest.fixture
def keeper(client: FlaskClient) -> Keeper:
    k = Keeper(client)
    k.signup("keeper@example.com")
    return k


def show_players(keeper: Keeper, page: str) -> str:
    """Tap "Show players" (a POST to the keeper's live page) and read the link it shows."""
    response = keeper.post_form(page, {})
    assert response.status_code == 302 and response.headers["Location"] == page
    return shown_link(keeper, page)


def shown_link(keeper: Keeper, page: str) -> str:
    html = keeper.client.get(page).get_data(as_text=True)
    found = re.search(r'id="live-url"[^>]* value="([^"]+)"', html)
    assert found, text_of(keeper.client.get(page))
    return unescape(found.group(1)).removeprefix("http://localhost")


def change(keeper: Keeper, page: str, what: str) -> None:
    response = keeper.post_form(page, {}, action=f"{page}/{what}")
    assert response.status_code == 302 and response.headers["Location"] == page


def finished_vegas(names: list[str], currency: str = "USD") -> dict:
    """Round 1: the first goes out, the others hold 60 and expire (max 50): the game ends,
    the first wins the pot of the buy-ins (winner takes all)."""
    return {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"max_score": 50, "buy_in": 100, "pot_split": [100], "currency": currency},
        "players": names,
        "first_dealer": names[0],
        "rounds": [{"went_out": names[0], "hands": dict.fromkeys(names[1:], 60)}],
    }


def import_game(keeper: Keeper, night: int, record: dict) -> int:
    url = f"/nights/{night}/games/import"
    r = keeper.post_form(url, {"record": json.dumps(record)})
    assert r.status_code == 302, text_of(r)
    return int(r.headers["Location"].split("?")[0].rstrip("/").split("/")[-1])


# ------------------------------------------------------------------- the keeper ---
def test_show_players_makes_one_link_and_a_qr_code(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"])
    page = f"/games/{game}/live"
    before = text_of(keeper.client.get(page))
    assert "The live view is off" in before and "Show players" in before
    sheet = keeper.client.get(f"/games/{game}").get_data(as_text=True)
    assert f'action="{page}"' in sheet  # "Show players" on the sheet
    link = show_players(keeper, page)
    assert re.fullmatch(r"/live/[A-Za-z0-9_-]{22}", link), link
    assert show_players(keeper, page) == link  # a second tap: the same link
    with app.app_context():
        assert db.session.query(LiveLink).count() == 1
    html = keeper.client.get(page).get_data(as_text=True)
    qr = re.search(r'<img src="data:image/svg\+xml;charset=utf-8,([^"]+)" alt="QR code', html)
    assert qr, html
    svg = unquote(unescape(qr.group(1)))
    assert svg.startswith("<svg") and "<script" not in svg and "style=" not in svg
    assert "Turn off" in text_of(keeper.client.get(page))
    night_page = keeper.client.get(f"/nights/{night}").get_data(as_text=True)
    assert f'action="/nights/{night}/live"' in night_page  # "Live view for players"
    assert show_players(keeper, f"/nights/{night}/live").startswith("/live/night/")


def test_turn_off_and_renew(client: FlaskClient, keeper: Keeper, app: Flask) -> None:
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    page = f"/games/{game}/live"
    player = app.test_client()
    first = show_players(keeper, page)
    assert player.get(first).status_code == 200

    change(keeper, page, "renew")
    second = shown_link(keeper, page)
    assert second != first
    assert player.get(first).status_code == 404
    assert player.get(second).status_code == 200

    change(keeper, page, "off")
    assert "The live view is off" in text_of(keeper.client.get(page))
    assert player.get(second).status_code == 404
    change(keeper, page, "off")  # a second tap changes nothing

    third = show_players(keeper, page)  # shown again: a new link, the old ones stay off
    assert third not in (first, second)
    assert [player.get(u).status_code for u in (first, second, third)] == [404, 404, 200]
    with app.app_context():
        rows = db.session.query(LiveLink).order_by(LiveLink.id).all()
        assert [r.revoked_at is None for r in rows] == [False, False, True]


def test_another_keeper_cannot_show_turn_off_or_renew(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    link = show_players(keeper, f"/games/{game}/live")
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    token = inputs(other.client.get("/").get_data(as_text=True))["csrf_token"]
    for path in (f"/games/{game}/live", f"/nights/{night}/live"):
        assert other.client.get(path).status_code == 404
        for action in ("", "/renew", "/off"):
            r = other.client.post(path + action, data={"csrf_token": token})
            assert r.status_code == 404, (path + action, r.status_code)
    assert app.test_client().get(link).status_code == 200


# ------------------------------------------------------------------ the players ---
def test_players_see_the_game_with_no_account(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7})
    link = show_players(keeper, f"/games/{game}/live")
    response = app.test_client().get(link)
    assert response.status_code == 200
    text = text_of(response)
    # The banner (round, wild, cards, who deals and starts), the grid, the leader, the pot.
    assert "Round 2 · Fours wild · 4 cards" in text
    assert "Bob deals , Cy starts" in text
    assert "Leading: Ann with 0" in text
    assert "Total 0 12 7" in text
    assert "Pot: $1.40" in text, text  # antes of 50c, less Ann's dime of 10c
    assert "Score chart: running totals by round" in text
    html = response.get_data(as_text=True)
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in html
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert response.headers["ETag"].startswith('W/"')
    assert "Set-Cookie" not in response.headers
    # Nothing of the keeper's pages: no account, no log out, no link into the sheet.
    assert "keeper@example.com" not in html and "Log out" not in text
    assert f"/games/{game}" not in html and "Enter round" not in text


def test_a_saved_round_shows_after_304s_while_nothing_changed(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    link = show_players(keeper, f"/games/{game}/live")
    phone = app.test_client()
    first = phone.get(link)
    etag = first.headers["ETag"]
    assert "No deals yet." in text_of(first)
    assert "Score chart" not in text_of(first)  # nothing to draw yet
    for _ in range(3):
        again = phone.get(link, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
        assert again.headers["ETag"] == etag
    with counting(app) as statements:
        assert phone.get(link, headers={"If-None-Match": etag}).status_code == 304
    assert len(statements) == 1, statements  # the link and the game's version, one query

    keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7})
    after = phone.get(link, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    text = text_of(after)
    assert "Total 19 0 0" in text and "Leading: Ann with 19" in text
    assert phone.get(link, headers={"If-None-Match": after.headers["ETag"]}).status_code == 304
    # The large-type layout is another page: another ETag.
    tv = phone.get(link + "?tv=1")
    assert tv.status_code == 200 and tv.headers["ETag"] != after.headers["ETag"]
    assert 'class="live-page tv"' in tv.get_data(as_text=True)
    assert (
        phone.get(link + "?tv=1", headers={"If-None-Match": after.headers["ETag"]}).status_code
        == 200
    )


def test_the_game_link_shows_nothing_of_other_games_or_nights(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob", "Cy", "Dee", "Eve"], name="Friday")
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"])
    other_game = keeper.game(night, "rummy", ["Dee", "Eve"])
    keeper.enter(other_game, "Dee", {"Eve": 13})
    secret = keeper.night(["Zed", "Yan"], name="Secret Saturday")
    keeper.game(secret, "rummy", ["Zed", "Yan"])
    link = show_players(keeper, f"/games/{game}/live")
    text = text_of(app.test_client().get(link))
    assert "Ann" in text and "Vegas Rummy" in text and "Friday" in text
    for absent in ("Dee", "Eve", "Zed", "Yan", "Secret Saturday", "keeper@example.com"):
        assert absent not in text, absent

    night_link = show_players(keeper, f"/nights/{night}/live")
    text = text_of(app.test_client().get(night_link))
    assert "Vegas Rummy" in text and "Rummy" in text and "Dee" in text and "Eve" in text
    for absent in ("Zed", "Yan", "Secret Saturday", "keeper@example.com"):
        assert absent not in text, absent


def test_a_deleted_game_or_night_shows_nothing(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    game_link = show_players(keeper, f"/games/{game}/live")
    night_link = show_players(keeper, f"/nights/{night}/live")
    phone = app.test_client()
    etag = phone.get(game_link).headers["ETag"]
    unknown = phone.get("/live/AAAAAAAAAAAAAAAAAAAAAA")
    assert unknown.status_code == 404 and NOT_FOUND in text_of(unknown)

    r = keeper.post_form(f"/games/{game}/delete", {})
    assert r.status_code == 302
    for url in (game_link, game_link + "?tv=1"):
        gone = phone.get(url, headers={"If-None-Match": etag})
        assert gone.status_code == 404 and gone.data == unknown.data  # not a 304
    assert "Rummy" not in text_of(phone.get(night_link))  # the night goes on without it

    r = keeper.post_form(f"/nights/{night}", {}, action=f"/games/{game}/restore")
    assert r.status_code == 302
    assert phone.get(game_link).status_code == 200  # restored: its link works again

    r = keeper.post_form(f"/nights/{night}/delete", {})
    assert r.status_code == 302
    assert phone.get(night_link).status_code == 404
    assert phone.get(game_link).status_code == 404  # a game of a deleted night too
    assert keeper.client.get(f"/games/{game}/live").status_code == 404


# -------------------------------------------------------------------- the night ---
def regular_id(client: FlaskClient, name: str) -> int:
    html = client.get("/regulars").get_data(as_text=True)
    found = re.search(rf'<a href="/regulars/(\d+)">{re.escape(name)}</a>', html)
    assert found, html
    return int(found.group(1))


def set_handle(keeper: Keeper, name: str, kind: str, handle: str) -> None:
    rid = regular_id(keeper.client, name)
    r = keeper.post_form(
        f"/regulars/{rid}",
        handle_rows([(kind, handle), ("text", "")]),
        action=f"/regulars/{rid}/handles",
    )
    assert r.status_code == 302


def test_the_night_link_shows_the_games_and_who_pays_whom_with_pay_links(
    app: Flask, keeper: Keeper
) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"], name="Friday")
    import_game(keeper, night, finished_vegas(["Ann", "Bob", "Cy"]))
    playing = keeper.game(night, "rummy", ["Ann", "Bob"])
    keeper.enter(playing, "Bob", {"Ann": 9})
    set_handle(keeper, "Ann", "paypal", "annpays")
    link = show_players(keeper, f"/nights/{night}/live")
    phone = app.test_client()
    first = phone.get(link)
    text = text_of(first)
    assert "Friday" in text
    assert "Vegas Rummy Ann wins $2.00 · after 1 round" in text  # finished, folded
    assert "Pot: $0.00" not in text
    # The game in play first, then who pays whom, once, then the finished game.
    assert text.index("Leading: Bob") < text.index("Who pays whom") < text.index("Vegas Rummy")
    assert text.count("Bob pays Ann $1.00") == 1
    assert "Rummy · after 1 deal" in text and "Leading: Bob with 9" in text
    assert "Bob pays Ann $1.00" in text and "Cy pays Ann $1.00" in text
    html = first.get_data(as_text=True)
    pay = re.findall(r'<a class="button" href="(https://paypal\.me/[^"]+)"[^>]*>(.+?)</a>', html)
    pay = [(url, re.sub(r"<[^>]+>", "", label)) for url, label in pay]
    assert pay == [("https://paypal.me/annpays/1.00USD", "Pay Ann with PayPal.me")] * 2
    assert "Ann +$2.00 receives $2.00" in text
    assert "Mark paid" not in text  # the keeper marks, on his page; players say "I paid"
    assert all(a.endswith("/claims") for a in re.findall(r'<form[^>]*action="([^"]*)"', html))
    assert "/regulars/" not in html

    # Each change the page shows makes a new ETag; nothing else does.
    etag = first.headers["ETag"]
    with counting(app) as statements:
        assert phone.get(link, headers={"If-None-Match": etag}).status_code == 304
    assert len(statements) == 2, statements  # the night's stamp, then its ways to pay

    def changed() -> bool:
        nonlocal etag
        r = phone.get(link, headers={"If-None-Match": etag})
        if r.status_code == 304:
            return False
        etag = r.headers["ETag"]
        return True

    keeper.enter(playing, "Ann", {"Bob": 4})
    assert changed() and "Leading: Bob with 9" in text_of(phone.get(link))
    assert not changed()
    set_handle(keeper, "Ann", "paypal", "annpaid")  # the same length, edited in place
    assert changed() and "paypal.me/annpaid/" in phone.get(link).get_data(as_text=True)
    # Cy is no payee, but the night's regulars are read whole: a new ETag (never stale).
    set_handle(keeper, "Cy", "iban", "DE89 3704 0044 0532 0130 00")
    assert changed()
    payout = keeper.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    bob, ann = regular_id(keeper.client, "Bob"), regular_id(keeper.client, "Ann")
    r = keeper.client.post(f"/nights/{night}/transfers/mark", data={
        "csrf_token": inputs(payout)["csrf_token"], "payer": bob, "payee": ann,
        "amount": 100, "action": "payment", "submission": "tap-1",
        "plan": inputs(payout)["plan"]})  # fmt: skip
    assert r.status_code == 302
    assert changed()
    paid = text_of(phone.get(link))
    assert "Bob paid Ann $1.00" in paid and "Bob pays Ann" not in paid
    assert paid.count("Pay Ann with PayPal.me") == 1  # only Cy still has to pay


def test_the_night_link_copies_handles_that_are_not_links(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob"], name="Friday", currency="EUR")
    import_game(keeper, night, finished_vegas(["Ann", "Bob"], "EUR"))
    set_handle(keeper, "Ann", "iban", "DE89 3704 0044 0532 0130 00")
    link = show_players(keeper, f"/nights/{night}/live")
    html = app.test_client().get(link).get_data(as_text=True)
    assert "Bob pays Ann €1.00" in text_of(app.test_client().get(link))
    assert "IBAN of Ann: <code>DE89 3704 0044 0532 0130 00</code>" in html
    assert 'data-copy-text="DE89 3704 0044 0532 0130 00" hidden>Copy</button>' in html


def test_the_qr_code_says_the_link(keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob"])
    link = show_players(keeper, f"/nights/{night}/live")
    html = keeper.client.get(f"/nights/{night}/live").get_data(as_text=True)
    data = re.search(r'<img src="(data:image/svg\+xml[^"]+)"', html)
    assert data
    # The same link in the code as in the text (segno draws it; decoding a QR code is
    # beyond the standard library, so this compares with segno's own drawing of it).
    import segno

    expected = segno.make("http://localhost" + link, error="m").svg_data_uri(
        scale=6, border=4, dark="#000", light="#fff"
    )
    assert unescape(data.group(1)) == expected


# -------------------------------------------------------------------- the chart ---
def test_the_sheet_and_the_live_view_show_the_score_chart(app: Flask, keeper: Keeper) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], max_score="60")
    assert "Score chart" not in text_of(keeper.client.get(f"/games/{game}"))
    keeper.enter(game, "Ann", {"Bob": 20, "Cy": 10})
    keeper.enter(game, "Bob", {"Ann": 30, "Cy": 5})
    html = keeper.client.get(f"/games/{game}").get_data(as_text=True)
    fold = re.search(r'<details class="chart-fold" id="chart-fold"><summary>Score chart</summary>'
                     r"(.*?)</details>", html, re.S)  # fmt: skip
    assert fold, "the chart, folded, on the sheet"
    chart = fold.group(1)
    assert 'role="img" aria-labelledby="chart-t chart-d"' in chart
    assert '<title id="chart-t">Score chart: running totals by round</title>' in chart
    # Ann 0 -> 0 -> 30, Bob 0 -> 20 -> 20, Cy 0 -> 10 -> 15; the max score of 60 drawn.
    assert "Max score: 60. Now: Ann 30, Bob 20, Cy 15 (leading)." in chart
    assert chart.count("<polyline") == 3 and "Max score 60</text>" in chart
    assert "style=" not in chart
    link = show_players(keeper, f"/games/{game}/live")
    live = app.test_client().get(link).get_data(as_text=True)
    assert 'class="chart-fold live-chart" id="chart-fold-1"' in live
    assert "Max score: 60. Now: Ann 30, Bob 20, Cy 15 (leading)." in live
    tv = app.test_client().get(link + "?tv=1").get_data(as_text=True)
    assert 'class="chart-fold live-chart" id="chart-fold-1" open' in tv  # open on a TV


# ----------------------------------------------------------------- what a link costs ---
def test_a_state_is_rendered_once_whoever_asks_and_however(
    app: Flask, keeper: Keeper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20: without If-None-Match, or with any query string, the page of a state
    already rendered comes from the kept page: no replay, nothing rendered again."""
    from scorekeeper.web import live as live_view

    live_view.LIVE_PAGES.clear()
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    keeper.enter(game, "Ann", {"Bob": 5})
    link = show_players(keeper, f"/games/{game}/live")
    night_link = show_players(keeper, f"/nights/{night}/live")
    stranger = app.test_client()
    renders: list[str] = []
    real = live_view.render_template
    monkeypatch.setattr(
        live_view, "render_template", lambda name, **kw: renders.append(name) or real(name, **kw)
    )
    for url in (link, night_link):
        first = stranger.get(url)
        for query in ("", "?x=1", "?tv=0", "?a=b&c=d", "?" + "z" * 500):
            again = stranger.get(url + query)
            assert again.status_code == 200 and again.data == first.data
    assert renders == ["live/game.html", "live/night.html"]
    keeper.enter(game, "Bob", {"Ann": 7})  # a new state: drawn again, never the old page
    assert "Leading: Ann with 5" not in text_of(stranger.get(link))
    assert renders[-1] == "live/game.html" and len(renders) == 3


def test_a_night_page_draws_a_few_grids_and_a_line_for_the_rest(app: Flask, keeper: Keeper) -> None:
    from scorekeeper.web.live import FULL_GAMES

    night = keeper.night(["Ann", "Bob"])
    for _ in range(FULL_GAMES + 3):
        game = keeper.game(night, "rummy", ["Ann", "Bob"], deals="1")
        keeper.enter(game, "Ann", {"Bob": 5})
    playing = keeper.game(night, "rummy", ["Ann", "Bob"])
    keeper.enter(playing, "Bob", {"Ann": 3})
    html = (
        app.test_client().get(show_players(keeper, f"/nights/{night}/live")).get_data(as_text=True)
    )
    assert html.count('<table class="grid') == FULL_GAMES
    assert html.count("Ann won after 1 deal") == FULL_GAMES + 3  # every game is listed


def test_a_client_asking_too_much_is_refused_and_nobody_else(app: Flask, keeper: Keeper) -> None:
    """The limit counts what its abuser controls, their address, never the link every
    player holds: 40 phones on one link all polling get their pages, while one client
    asking too often gets 429 (on this link and any other), and the others still don't."""
    from scorekeeper.web.live import RATE

    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    link = show_players(keeper, f"/games/{game}/live")
    phones = []
    for n in range(40):
        phone = app.test_client()
        phone.environ_base["REMOTE_ADDR"] = f"198.51.100.{n + 1}"
        phones.append(phone)
    for _ in range(3):  # 120 requests on one link: more than a link answered before
        assert {p.get(link).status_code for p in phones} <= {200, 304}
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "203.0.113.66"
    answers = [stranger.get(link).status_code for _ in range(RATE + 5)]
    assert answers[:RATE] == [200] * RATE
    assert set(answers[RATE:]) == {429}
    limited = stranger.get(link)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    other = show_players(keeper, f"/nights/{night}/live")
    assert stranger.get(other).status_code == 429  # the client asked too much, any link
    assert {p.get(link).status_code for p in phones} <= {200, 304}  # the table reads on
    assert phones[0].get(other).status_code == 200
    # A table behind one address (one Wi-Fi): 20 phones polling every 4 s ask 50 times in
    # 10 s, well within what one address may ask.
    table = app.test_client()
    table.environ_base["REMOTE_ADDR"] = "192.0.2.44"
    assert {table.get(link).status_code for _ in range(50)} == {200}


@pytest.mark.parametrize("cookies", [("remember_token",), ("session", "remember_token")])
def test_a_live_page_opened_in_the_keepers_browser_sets_no_cookie_and_loads_no_login(
    app: Flask, keeper: Keeper, cookies: tuple[str, ...]
) -> None:
    """The keeper's own browser (logged in, or holding only the remember cookie after a
    restart) opens a live link: the page reads no login (no query of users or sessions)
    and sets no cookie, whether it is drawn, answered 304, or not found."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    links = [
        show_players(keeper, f"/games/{game}/live"),
        show_players(keeper, f"/nights/{night}/live"),
    ]
    browser = app.test_client()
    for name in cookies:
        browser.set_cookie(name, keeper.client.get_cookie(name).value)
    for link in [*links, "/live/" + "x" * 22, "/live/night/" + "x" * 22]:
        with counting(app) as statements:
            first = browser.get(link)
        assert first.status_code in (200, 404)
        assert "Set-Cookie" not in first.headers, (link, first.headers.get("Set-Cookie"))
        logins = [s for s in statements if re.search(r"\b(users|user_sessions)\b", s)]
        assert not logins, logins
        assert "Log out" not in text_of(first)
        if first.status_code == 200:
            again = browser.get(link, headers={"If-None-Match": first.headers["ETag"]})
            assert again.status_code == 304 and "Set-Cookie" not in again.headers
    # The same browser is still the keeper's on the keeper's pages.
    assert browser.get(f"/nights/{night}").status_code == 200


def test_renew_tapped_twice_renews_once(client: FlaskClient, keeper: Keeper, app: Flask) -> None:
    """A double tap on Renew (the same form sent twice) made two new links, turning off
    the one players had just scanned; its one-time id makes it renew once."""
    game = keeper.game(keeper.night(["Ann", "Bob"]), "rummy", ["Ann", "Bob"])
    page = f"/games/{game}/live"
    first = show_players(keeper, page)
    _, hidden = keeper.form(page)
    for _ in range(2):
        r = client.post(f"{page}/renew", data=hidden)
        assert r.status_code == 302 and r.headers["Location"] == page
    second = shown_link(keeper, page)
    assert second != first
    with app.app_context():
        rows = db.session.query(LiveLink).order_by(LiveLink.id).all()
        assert [r.revoked_at is None for r in rows] == [False, True]
