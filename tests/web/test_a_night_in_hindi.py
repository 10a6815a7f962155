"""Issue 33, done when: "a keeper with a Hindi phone plays a whole night, settles it,
prints it and resets a password without meeting an English word".

The keeper's phone asks for Hindi; the players have Devanagari names, so any word in Latin
letters on a page, a PDF, the group-chat text or the mail is one the app wrote in English
(less the few that are names in every language: the app's, the file formats', the
currency's code, the languages' own names in the footer's switch). The night: a Vegas game
of three where one player expires (the re-buy question is asked and answered), a round
corrected, a late hand in a Pool game with a player out at the pool asked to rejoin, the
night settled with a payment, every printout and the live views, then a password reset."""

from __future__ import annotations

import re
from email.header import decode_header, make_header

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.keeper import Keeper, forms_of, inputs, text_of
from tests.web.stateful_model import pdf_text
from tests.web.test_password_reset import inbox, phone  # noqa: F401  (the SMTP fixture)
from tests.web.test_settle_up import _live_link

EMAIL = "keeper@example.com"
HINDI = "hi-IN,hi;q=0.9"
PEOPLE = ["अनु", "बबलू", "चेतन"]
#: Latin words that are names in every language: the app's, formats, currency codes, the
#: ways to pay (brands), the languages of the footer's switch (each in its own language),
#: the joker's card code and the marks a sheet is written with (Gin's BG for big gin,
#: Pool's MD, FC, WS; the legend says them in words), Hindi's own am/pm, another name of
#: Contract Rummy, the keeper's address, and "ZZ", the hand the keeper mistyped (the
#: refusal quotes it).
NAMES = {
    "Scorekeeper", "PDF", "CSV", "JSON", "QR", "TV", "UTC", "zip",
    "AUD", "BHD", "CAD", "CHF", "DKK", "EUR", "GBP", "INR", "JPY", "KRW", "KWD", "MXN", "NOK",
    "NZD", "SEK", "USD", "BRL",
    "PayPal", "Venmo", "Revolut", "Cash", "App", "IBAN",
    "English", "Español", "Deutsch", "Français", "Português", "Brasil",
    "JK", "am", "pm", "ZZ", "BG", "MD", "FC", "WS", "Liverpool",
    "keeper", "example", "com",
}  # fmt: skip
LATIN = re.compile(r"[A-Za-zÀ-ÿ]{2,}")


def english_in(text: str) -> list[str]:
    """The Latin words of ``text`` that are not names (a URL's parts are not read)."""
    text = re.sub(r"\S*(?:https?://|/)\S*|\S+\.(?:md|me|json|csv|pdf|zip)\b", " ", text)
    return sorted({w for w in LATIN.findall(text) if w not in NAMES})


class Walk:
    """What the keeper met: each page's English words, by what was read."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.met: dict[str, list[str]] = {}

    def read(self, what: str, text: str) -> str:
        found = english_in(text)
        if found:
            self.met[what] = found
        return text

    def page(self, url: str) -> str:
        response = self.client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return self.read(url, text_of(response))

    def pdf(self, url: str) -> str:
        response = self.client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return self.read(url, pdf_text(response.data))

    def answer(self, what: str, response) -> str:
        """A page answered to a post (a question, a refusal) is read too."""
        if response.status_code in (200, 422):
            return self.read(what, text_of(response))
        assert response.status_code in (302, 303), (what, response.status_code)
        return ""


def play_vegas(keeper: Keeper, walk: Walk, night: int) -> int:
    a, b, c = PEOPLE
    game = keeper.game(night, "vegas", PEOPLE, buy_in="2.00", max_score="100")
    walk.page(f"/games/{game}")
    walk.page(f"/games/{game}/rounds/new")
    assert keeper.enter(game, a, {b: 60, c: 30}).status_code == 302
    # b passes the max score: the question (re-buy or drop?) is asked, in Hindi.
    data = keeper.round_data(game, c, {a: 20, b: 45})
    asked = keeper.post_form(f"/games/{game}/rounds/new", data)
    assert asked.status_code == 200
    walk.answer("the re-buy question", asked)
    r = keeper.client.post(
        f"/games/{game}/rounds/new", data={**data, **inputs(asked.get_data(as_text=True))}
    )
    assert r.status_code == 302, text_of(r)
    walk.page(f"/games/{game}/rounds/1")  # the correction form
    assert keeper.enter(game, a, {b: 60, c: 25}, number=1).status_code == 302
    refused = keeper.enter(game, a, {b: "zz", c: 5})
    assert refused.status_code == 422
    walk.answer("a refused hand", refused)
    for _ in range(8):  # to the end: a and c go past the max, one after the other
        r = keeper.enter(game, b, {a: 40, c: 40}, confirm_expiries=False)
        if r.status_code == 200 and "rebuy-or-drop:" in r.get_data(as_text=True):
            walk.answer("the re-buy question again", r)
            drops = {k: "drop" for k in inputs(r.get_data(as_text=True)) if k.startswith("x")}
            data = keeper.round_data(game, b, {a: 40, c: 40}, drops=[a, c])
            r = keeper.client.post(
                f"/games/{game}/rounds/new",
                data={**data, **inputs(r.get_data(as_text=True)), **drops},
            )
        assert r.status_code == 302, text_of(r)
        if "/rounds/new" not in keeper.client.get(f"/games/{game}").get_data(as_text=True):
            break
    walk.page(f"/games/{game}")
    walk.page(f"/games/{game}/history")
    return game


def play_pool(keeper: Keeper, walk: Walk, night: int) -> int:
    a, b, c = PEOPLE
    game = keeper.game(night, "pool", PEOPLE, buy_in="1.00", pool="101")
    walk.page(f"/games/{game}/rounds/new")
    for hands in ({b: 80, c: 20}, {b: 30, c: 10}):
        r = keeper.enter(game, a, hands, confirm_expiries=False)
        if r.status_code == 200:  # b out at the pool: rejoin or out?
            walk.answer("the rejoin question", r)
            for form in forms_of(r.get_data(as_text=True)):
                if form.action.endswith("/rounds/new"):
                    r = keeper.client.post(form.action, data=form.values())
                    break
        assert r.status_code in (200, 302), r.status_code
    walk.page(f"/games/{game}")
    walk.page(f"/games/{game}/split")
    return game


def test_a_keeper_with_a_hindi_phone_meets_no_english_word(app: Flask, inbox) -> None:  # noqa: F811
    client = phone(app, "192.0.2.20")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = HINDI
    keeper = Keeper(client)
    walk = Walk(client)
    walk.page("/signup")
    keeper.signup(EMAIL)
    walk.page("/")
    walk.page("/nights/new")
    night = keeper.night(PEOPLE, name="शुक्रवार")
    walk.page(f"/nights/{night}")
    walk.page(f"/nights/{night}/games/new")
    walk.page(f"/nights/{night}/games/new?variant=vegas")
    vegas = play_vegas(keeper, walk, night)
    pool = play_pool(keeper, walk, night)

    payout = walk.page(f"/nights/{night}/payout")
    assert "हिसाब" in payout
    for form in forms_of(client.get(f"/nights/{night}/payout").get_data(as_text=True)):
        if form.action.endswith("/transfers/mark") and form.values().get("action") == "payment":
            assert client.post(form.action, data=form.values()).status_code == 302
            break
    walk.page(f"/nights/{night}/payout")
    walk.read("the group-chat text", client.get(f"/nights/{night}/payout.txt").get_data(True))
    for game in (vegas, pool):
        walk.pdf(f"/games/{game}/sheet.pdf")
        walk.pdf(f"/games/{game}/blank.pdf")
    walk.pdf(f"/nights/{night}/payout.pdf")
    link = _live_link(keeper, night)
    walk.page(link)
    walk.page("/help")
    walk.page("/account")
    walk.page("/regulars")

    client.post("/logout", data=inputs(client.get("/account").get_data(as_text=True)))
    walk.page("/password/forgot")
    asked = Keeper(client).post_form("/password/forgot", {"email": EMAIL})
    assert asked.status_code == 302
    walk.page("/login")
    (message,) = inbox.messages
    walk.read("the reset mail's subject", str(make_header(decode_header(message["Subject"]))))
    walk.read("the reset mail", message.get_payload(decode=True).decode())
    walk.page(inbox.link().replace("http://localhost", ""))

    met = "\n".join(f"{what}: {' '.join(words)}" for what, words in walk.met.items())
    assert walk.met == {}, met


@pytest.mark.parametrize(
    "variant", ["vegas", "texas", "rummy", "multiplayer", "dummy", "contract", "pool", "gin"]
)
def test_every_games_pages_are_hindi(client: FlaskClient, variant: str) -> None:
    """Each game's new-game page, round form, sheet and blank sheet, before a round."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = HINDI
    keeper = Keeper(client)
    keeper.signup(EMAIL)
    walk = Walk(client)
    players = PEOPLE[:2] if variant == "gin" else PEOPLE
    night = keeper.night(PEOPLE, name="शुक्रवार")
    walk.page(f"/nights/{night}/games/new?variant={variant}")
    game = keeper.game(night, variant, players)
    walk.page(f"/games/{game}")
    walk.page(f"/games/{game}/rounds/new")
    walk.pdf(f"/games/{game}/blank.pdf")
    walk.pdf(f"/games/{game}/sheet.pdf")
    met = "\n".join(f"{what}: {' '.join(words)}" for what, words in walk.met.items())
    assert walk.met == {}, met


def test_money_formats_are_named_in_each_readers_language(client: FlaskClient) -> None:
    """The names were once cached by locale alone: the first reader's language stuck for
    everyone after (an English reader first, then a Hindi keeper read English names)."""
    Keeper(client).signup(EMAIL)
    english = text_of(client.get("/nights/new"))
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = HINDI
    hindi = text_of(client.get("/nights/new"))
    assert "German (Switzerland) · 1'234.50" in english
    assert "जर्मन (स्विट्ज़रलैंड) · 1'234.50" in hindi and "German (Switzerland)" not in hindi
