"""Issue 33, the foundation: each reader gets the app's words in their language. A keeper's
choice on the account page (stored, re-read), else the browser's footer choice (a
cookie), else its Accept-Language, else English; <html lang> follows; the password-reset
mail goes out in the keeper's language; an engine refusal is said in the reader's
language; the scripts get their sentences in it; money keeps the night's locale."""

from __future__ import annotations

import json
import re
from email.header import decode_header, make_header

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import User
from scorekeeper.web.locales import LANGUAGE_COOKIE
from tests.web.keeper import Keeper, text_of
from tests.web.test_password_reset import inbox, phone  # noqa: F401  (the SMTP fixture)

ANN = "ann@example.com"


def lang_of(response) -> str:
    found = re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True))
    assert found, response.get_data(as_text=True)[:200]
    return found.group(1)


def subject(message) -> str:
    return str(make_header(decode_header(message["Subject"])))


def stored_language(app: Flask, email: str = ANN) -> str | None:
    with app.app_context():
        return db.session.scalar(select(User.language).where(User.email == email))


def choose(client: FlaskClient, language: str):
    return Keeper(client).post_form("/account", {"language": language}, action="/account/language")


def test_a_keeper_who_chose_german_reads_the_account_and_login_pages_in_german(app, client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    assert lang_of(client.get("/account")) == "en"  # the test client asks for no language
    saved = choose(client, "de")
    assert saved.status_code == 302 and saved.headers["Location"] == "/account"
    assert stored_language(app) == "de"
    page = client.get("/account")
    text = text_of(page)
    assert lang_of(page) == "de"
    assert "Sprache gespeichert." in text  # the flash, in the language just chosen
    assert "Dein Konto" in text and "Passwort ändern" in text and "Aktuelles Passwort" in text
    assert "Überall sonst abmelden" in text and "Angemeldet am" in text
    assert "Change password" not in text and "Your account" not in text
    # The choice is the account's: another browser that logs in reads German too...
    other = app.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr-FR,fr;q=0.9"
    assert Keeper(other).login(ANN).status_code == 302
    assert lang_of(other.get("/account")) == "de"
    # ...and, logged out, that browser keeps it for the log-in page.
    Keeper(other).post_form("/account", {}, action="/logout")
    login = other.get("/login")
    assert lang_of(login) == "de"
    text = text_of(login)
    assert "Anmelden" in text and "Passwort vergessen?" in text and "Konto anlegen" in text
    assert "Auf diesem Handy angemeldet bleiben" in text


def test_german_form_errors_and_a_wrong_password(app, client):
    client.set_cookie(LANGUAGE_COOKIE, "de")
    refused = Keeper(client).post_form("/login", {"email": "", "password": ""})
    assert refused.status_code == 422
    assert "Dieses Feld muss ausgefüllt werden." in text_of(refused)
    Keeper(app.test_client()).signup(ANN)
    wrong = Keeper(client).post_form("/login", {"email": ANN, "password": "not it at all"})
    assert "Diese E-Mail-Adresse und dieses Passwort passen zu keinem Konto." in text_of(wrong)
    signup = Keeper(client).post_form("/signup", {"email": "ann", "password": "x", "confirm": "y"})
    text = text_of(signup)
    assert "Das ist keine E-Mail-Adresse." in text and "Mindestens 8 Zeichen." in text


def test_following_the_browser_again_and_a_language_that_is_not_one(app, client):
    Keeper(client).signup(ANN)
    choose(client, "hi")
    assert stored_language(app) == "hi"
    refused = choose(client, "xx")
    assert refused.status_code == 422 and "सूची में से कोई एक चुनें।" in text_of(refused)
    assert stored_language(app) == "hi"  # nothing changed
    assert choose(client, "").status_code == 302  # "As my browser asks"
    assert stored_language(app) is None
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es-MX,es;q=0.9,en;q=0.5"
    assert lang_of(client.get("/account")) == "es"
    assert "Tu cuenta" in text_of(client.get("/account"))


def test_a_visitor_whose_browser_asks_for_hindi_reads_hindi(client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi-IN,hi;q=0.9,en;q=0.6"
    for url, words in (
        ("/login", ["लॉग इन", "पासवर्ड भूल गए?", "अकाउंट बनाएँ", "ईमेल", "पासवर्ड"]),
        ("/signup", ["अपना अकाउंट बनाएँ", "पासवर्ड दोबारा", "साइन अप"]),
        ("/password/forgot", ["पासवर्ड भूल गए?"]),
    ):
        page = client.get(url)
        assert page.status_code == 200 and lang_of(page) == "hi", url
        text = text_of(page)
        assert all(word in text for word in words), (url, text)
        assert "Log in" not in text and "Password" not in text, (url, text)
    assert "accept-language" in client.get("/login").headers["Vary"].lower()


def test_a_language_no_one_offers_falls_back_to_english(client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ja-JP,ja;q=0.9"
    page = client.get("/login")
    assert lang_of(page) == "en" and "Forgot password?" in text_of(page)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-PT,pt;q=0.9"  # Portugal: Brazil's words
    assert lang_of(client.get("/login")) == "pt-BR"


def test_the_footer_switch_sets_the_cookie_and_the_page_answers_in_that_language(client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi"
    page = client.get("/login")
    html = page.get_data(as_text=True)
    assert 'action="/language"' in html and 'name="back" type="hidden" value="/login"' in html
    answer = Keeper(client).post_form("/login", {"language": "fr"}, action="/language")
    assert answer.status_code == 302 and answer.headers["Location"] == "/login"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == "fr" and cookie.http_only
    page = client.get("/login")
    assert lang_of(page) == "fr"  # the visitor's choice before the browser's
    text = text_of(page)
    assert "Se connecter" in text and "Mot de passe oublié ?" in text
    # A page elsewhere it was not made on: never off the site.
    away = Keeper(client).post_form("/login", {"language": "es", "back": "//evil.example/"},
                                    action="/language")  # fmt: skip
    assert away.headers["Location"] == "/"
    refused = Keeper(client).post_form("/login", {"language": "xx"}, action="/language")
    assert refused.status_code == 422 and client.get_cookie(LANGUAGE_COOKIE).value == "es"


def test_the_reset_mail_goes_out_in_the_keepers_language(app, inbox):  # noqa: F811
    owner = phone(app, "192.0.2.10")
    Keeper(owner).signup(ANN)
    choose(owner, "de")
    asker = phone(app)  # a browser asking in English
    asker.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en-US"
    asked = Keeper(asker).post_form("/password/forgot", {"email": ANN})
    assert asked.status_code == 302
    assert "A mail is on its way" in text_of(asker.get("/login"))  # the asker's language
    (message,) = inbox.messages
    assert subject(message) == "Setze dein Scorekeeper-Passwort zurück"
    body = message.get_payload(decode=True).decode()
    assert "Öffne diesen Link" in body and "innerhalb von 60 Minuten" in body
    assert "http://localhost/password/reset?token=" in body
    # An address with no account gets its note in the asker's language.
    hindi = phone(app, "198.51.100.7")
    hindi.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi"
    Keeper(hindi).post_form("/password/forgot", {"email": "nobody@example.com"})
    note = inbox.messages[-1].get_payload(decode=True).decode()
    assert "कोई अकाउंट नहीं है" in note
    assert subject(inbox.messages[-1]) == "अपना Scorekeeper पासवर्ड रीसेट करें"


def test_an_engine_refusal_from_the_settings_is_said_in_the_readers_language(client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    record = json.loads(client.get(f"/games/{game}/export.json").get_data(as_text=True))
    record["settings"]["target_score"] = 0
    sent = {"record": json.dumps(record)}
    english = keeper.post_form(f"/nights/{night}/games/import", sent)
    assert english.status_code == 422
    assert "Not imported: settings.target_score must be between" in text_of(english)
    choose(client, "de")
    german = keeper.post_form(f"/nights/{night}/games/import", sent)
    assert german.status_code == 422
    assert re.search(
        r"Nicht importiert: settings\.target_score muss zwischen \d+ und \d+ liegen "
        r"\(erhalten: 0\)",
        text_of(german),
    ), text_of(german)
    record["settings"] = {"target_score": 100, "ace_points": 1}  # not a rummy setting
    choose(client, "es")
    spanish = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert "No se importó: settings.ace_points no es un ajuste de rummy" in text_of(spanish)
    with client.application.app_context():  # nothing was imported
        assert len(client.get(f"/nights/{night}").get_data(as_text=True)) > 0


def test_the_keepers_pages_carry_offline_js_sentences_in_their_language(client):
    keeper = Keeper(client)
    keeper.signup(ANN)
    choose(client, "hi")
    html = client.get("/").get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="i18n">([^<]*)</script>', html)
    assert block, html[:500]
    words = json.loads(block.group(1))
    assert words["lang"] == "hi" and words["said"]["drop_out"] == "ड्रॉप"
    # A counting sentence: a form for each of Hindi's plural categories (CLDR: one, other).
    waiting = words["counted"]["waiting_sheet"]
    assert set(waiting) == {"one", "other"} and "%(count)s" in waiting["other"]
    choose(client, "es")
    words = json.loads(re.search(r'id="i18n">([^<]*)<', client.get("/").get_data(as_text=True))[1])
    assert set(words["counted"]["more_behind"]) == {"one", "many", "other"}
    # A visitor's page loads no offline.js: no table.
    assert 'id="i18n"' not in Flask.test_client(client.application).get("/login").get_data(
        as_text=True
    )


def test_money_keeps_the_nights_locale_whatever_the_language(app, client):
    """The reader's language changes words, never how money is written: that is the
    night's locale (English until a request finds its night)."""
    from scorekeeper.rules import format_money
    from scorekeeper.rules.money import use_money_locale

    for language in ("de", "hi", "fr"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            app.preprocess_request()
            assert format_money(123456, "USD") == "$1,234.56"
            use_money_locale("de_DE")
            assert format_money(123456, "EUR") == "1.234,56\u00a0€"
    Keeper(client).signup(ANN)
    night = Keeper(client).night(["Ann", "Bob"])
    choose(client, "hi")
    page = client.get(f"/nights/{night}")
    assert page.status_code == 200 and lang_of(page) == "hi"


def test_error_pages_speak_the_readers_language_and_the_api_english(client):
    Keeper(client).signup(ANN)
    choose(client, "de")
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and lang_of(missing) == "de"
    text = text_of(missing)
    assert "Nicht gefunden" in text and "Zurück zu deinen Abenden" in text
    api = client.get("/api/v1/games/999999")
    assert api.status_code == 404 and api.get_json() == {"error": "no such game among yours"}


def test_a_page_kept_in_one_language_is_not_answered_in_another(client):
    """The sheet's ETag (and its cached parts' key) carries the language: after a switch
    the phone's English copy is not confirmed with a 304, the page comes back in German."""
    keeper = Keeper(client)
    keeper.signup(ANN)
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    client.get("/")
    english = client.get(f"/games/{game}")
    etag = english.headers["ETag"]
    assert client.get(f"/games/{game}", headers={"If-None-Match": etag}).status_code == 304
    choose(client, "de")
    client.get("/account")  # the flash shown: the sheet may answer 304 again
    german = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert german.status_code == 200 and lang_of(german) == "de"
    assert german.headers["ETag"] != etag
    assert "Abmelden" in text_of(german)  # the layout's words, in German
