"""Issue 33, the night, the money and the people: a keeper who reads German (or Hindi)
reads the night, its games, what was paid, what is still to pay and a player's "I paid"
in that language, with the money still written in the night's locale; the players' live
view of the night and of a game follows each phone's own Accept-Language, whatever the
keeper's account says, and a page kept rendered for one language is never served to
another; a service's refusal (a stale transfer) is said in the reader's language, on the
keeper's page and on a player's phone; a debt carried to another night reads right in
German on both nights and in Portuguese and Hindi on the players' page; a regular's page
and its refusals (a way to pay that is not one, a merge of one with itself) in French; a
co-keeper's invite, confirmation, removal and barred page in Spanish.

The night is issue 34's table (tests/web/test_plan_stays_put.py): Cy pays Bob 4.25, Dee
pays Ann 2.25, Dee pays Bob 0.25."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.web.keeper import Keeper, handle_rows, text_of
from tests.web.test_claims import claim_form
from tests.web.test_keepers import keeper_url
from tests.web.test_languages import choose, lang_of
from tests.web.test_live import show_players
from tests.web.test_plan_stays_put import the_night, transfer_form
from tests.web.test_regulars import post
from tests.web.test_settle_up import _live_link, carry, new_night, regular_ids, rummy


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def paid_and_claimed(keeper: Keeper, client: FlaskClient, app) -> tuple[int, list[int], str]:
    """The night with its games, a payment (Cy paid Bob $2.00 of $4.25) and a player's
    claim (Dee says they paid Ann $2.25), recorded while the keeper reads English."""
    night, games = the_night(keeper)
    ids = regular_ids(client)
    part = transfer_form(keeper, night, ids["Cy"], ids["Bob"], part=True)
    assert client.post(part.action, data={**part.values(), "paid": "2.00"}).status_code == 302
    link = _live_link(keeper, night)
    phone = app.test_client()
    form = claim_form(phone, link, ids["Dee"], ids["Ann"])
    assert form is not None
    assert phone.post(form.action, data=form.values()).status_code == 303
    return night, games, link


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return text_of(response)


def still_to_pay(client: FlaskClient, night: int) -> str:
    """The payout page's money section, from its heading to the payment form (the form
    fields' labels and the summary below are others' to translate)."""
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    start, end = html.index('<section id="settle"'), html.index('<details class="fold"')
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[start:end]))


ENGLISH = ("Still to pay", "Paid and carried", "pays", "not counted until confirmed",
           "Settle up", "left", "Confirm paid")  # fmt: skip


def test_a_night_with_money_reads_in_german_and_in_hindi(keeper, client, app):
    night, games, _ = paid_and_claimed(keeper, client, app)
    english = page(client, f"/nights/{night}/payout")
    assert "Cy paid Bob $2.00" in english and "Cy pays Bob $2.25" in english
    assert "Dee says they paid Ann $2.25: not counted until confirmed" in english

    choose(client, "de")
    payout = page(client, f"/nights/{night}/payout")
    assert "Abrechnen" in payout and "Noch zu zahlen" in payout
    assert "Cy zahlt Bob $2.25" in payout and "(noch $2.25 von $4.25)" in payout
    assert "Cy hat Bob $2.00 gezahlt" in payout  # what was paid, in the keeper's words
    assert "Dee sagt, Ann $2.25 gezahlt zu haben: zählt erst, wenn es bestätigt ist" in payout
    assert "Bezahlt bestätigen" in payout and "Gezahlt und übertragen" in payout
    assert "Als bezahlt markieren" in payout and "Erlassen" in payout
    assert "genau (ohne Rundung)" in payout and "in Schritten von $0.25" in payout
    section = still_to_pay(client, night)
    assert "Cy zahlt Bob $2.25" in section
    assert not [w for w in ENGLISH if re.search(rf"\b{w}\b", section)], section
    show = page(client, f"/nights/{night}")
    assert "Freitag, 20. November 2026" in show  # the night's date as German writes it
    assert "Spiele" in show and "Leute" in show and "Schreiber-Link" in show
    assert "Games" not in show and "People" not in show
    home = page(client, "/")
    assert "Deine Kartenabende" in home and "4 Personen" in home
    regulars = page(client, "/regulars")
    assert "Deine Stammspieler" in regulars and "Wer wem was schuldet" in regulars

    choose(client, "hi")
    payout = page(client, f"/nights/{night}/payout")
    assert "हिसाब करें" in payout and "अभी देना बाकी" in payout
    assert "Cy, Bob को $2.25 देंगे" in payout and "($4.25 में से $2.25 बाकी)" in payout
    assert "Cy ने Bob को $2.00 दिए" in payout
    assert "Dee कहते हैं कि उन्होंने Ann को $2.25 दे दिए: पक्का होने तक गिना नहीं जाएगा" in payout
    section = still_to_pay(client, night)
    assert "Cy, Bob को $2.25 देंगे" in section
    assert not [w for w in ENGLISH if re.search(rf"\b{w}\b", section)], section
    show = page(client, f"/nights/{night}")
    assert "शुक्रवार, 20 नवंबर 2026" in show and "लोग" in show  # money stays "$", digits Western
    game = page(client, f"/games/{games[0]}/live")
    assert "खिलाड़ियों के लिए लाइव व्यू" in game

    # A correction after the payment: the note on the plan says why, in German.
    choose(client, "de")
    assert keeper.enter(games[2], "Dee", {"Bob": 10}, number=1).status_code == 302
    note = page(client, f"/nights/{night}/payout")
    assert (
        "Der Plan hat sich geändert, denn keeper@example.com hat deal 1 von Rummy 3 korrigiert"
        ": Bob -$0.50, Dee +$0.50. Was gezahlt und übertragen wurde, bleibt, wie es war; "
        "was noch zu zahlen ist, wird unten neu berechnet." in note
    )


def test_the_players_live_view_follows_each_phones_language(keeper, client, app):
    _night, games, link = paid_and_claimed(keeper, client, app)
    choose(client, "de")  # the keeper reads German; the phones ask for their own
    hindi = app.test_client()
    hindi.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi-IN,hi;q=0.9,en;q=0.5"
    spanish = app.test_client()
    spanish.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es-MX,es;q=0.9"
    english = app.test_client()

    first = hindi.get(link)
    assert first.status_code == 200 and lang_of(first) == "hi"
    text = text_of(first)
    assert "कौन किसे देगा" in text and "लाइव" in text and "Cy, Bob को $2.25 देंगे" in text
    assert "Dee: मैंने चुका दिया" in text or "Cy: मैंने चुका दिया" in text
    assert "Who pays whom" not in text and "Wer zahlt an wen" not in text
    assert "accept-language" in first.headers["Vary"].lower()
    # The page kept rendered for Hindi is not the one the next phone gets.
    second = spanish.get(link)
    assert lang_of(second) == "es" and "Quién paga a quién" in text_of(second)
    assert "Cy paga a Bob $2.25" in text_of(second)
    assert second.headers["ETag"] != first.headers["ETag"]
    assert "Who pays whom" in text_of(english.get(link))
    # A phone that has its page is told nothing changed; asking in another language with
    # that page's tag gets the page in its own language.
    same = hindi.get(link, headers={"If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304
    other = spanish.get(link, headers={"If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200 and lang_of(other) == "es"

    # A game's live view too, while its keeper's own page of it stays German.
    game_link = show_players(keeper, f"/games/{games[0]}/live")
    assert "Live-Ansicht für die Spieler" in page(client, f"/games/{games[0]}/live")
    game = hindi.get(game_link)
    assert game.status_code == 200 and lang_of(game) == "hi"
    text = text_of(game)
    assert "लाइव" in text and "बड़े अक्षर" in text and "अपने आप अपडेट होता है।" in text
    assert "Updates by itself." not in text and "Large type" not in text
    assert "Se actualiza sola." in text_of(spanish.get(game_link))


def test_a_stale_transfer_is_refused_in_the_readers_language(keeper, client, app):
    night, _ = the_night(keeper)
    ids = regular_ids(client)
    link = _live_link(keeper, night)
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi"
    claim = claim_form(phone, link, ids["Cy"], ids["Bob"])
    choose(client, "de")
    whole = transfer_form(keeper, night, ids["Cy"], ids["Bob"], part=False)
    part = transfer_form(keeper, night, ids["Cy"], ids["Bob"], part=True)
    assert client.post(part.action, data={**part.values(), "paid": "2.00"}).status_code == 302
    flashed = text_of(client.get(f"/nights/{night}/payout"))
    assert "Cy hat Bob $2.00 gezahlt: noch $2.25 von $4.25." in flashed

    # The keeper's Mark paid from before the part payment: refused, said in German.
    refused = text_of(client.post(whole.action, data=whole.values(), follow_redirects=True))
    assert (
        "Diese Zahlung hat sich geändert, seit die Seite geladen wurde "
        "(jetzt: Cy zahlt Bob $2.25): Es wurde nichts eingetragen." in refused
    )
    assert "That transfer changed" not in refused
    # The player's "I paid" from before: refused on the phone, said in Hindi.
    answer = phone.post(claim.action, data=claim.values())
    assert answer.status_code == 409 and lang_of(answer) == "hi"
    said = text_of(answer)
    assert "पेज खुलने के बाद यह लेन-देन बदल गया (अब: Cy, Bob को $2.25 देंगे)" in said
    assert "शाम पर वापस" in said and "That transfer changed" not in said


def test_a_carried_debt_reads_in_german_portuguese_and_hindi(keeper, client, app):
    friday = new_night(keeper, "Friday", "2026-11-20", [], ["Ann", "Bob", "Dee"])
    game = rummy(keeper, friday, ["Ann", "Dee"], "2.00", 1)
    assert keeper.enter(game, "Ann", {"Dee": 5}).status_code == 302
    ids = regular_ids(client)
    saturday = new_night(keeper, "Saturday", "2026-11-21", [ids["Ann"], ids["Dee"]], [])
    choose(client, "de")
    flashed = carry(keeper, friday, saturday)  # the payout page it comes back to
    assert "$2.00 noch offen auf Saturday übertragen." in flashed
    assert "Dee schuldete Ann $2.00: übertragen zu Saturday (2026-11-21)" in flashed
    assert "Alle sind quitt: Niemand zahlt an jemanden (nach dem, was unten" in flashed
    there = page(client, f"/nights/{saturday}/payout")
    assert "Dee schuldete Ann $2.00 von Friday (2026-11-20)" in there
    assert "Dee zahlt Ann $2.00" in there

    link = _live_link(keeper, friday)
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR,pt;q=0.9"
    players = text_of(phone.get(link))
    assert "Dee devia $2.00 para Ann: levado para a noite de 2026-11-21" in players
    assert (
        "Todo mundo está quite: ninguém paga ninguém (depois do que foi pago e levado)." in players
    )
    assert "Saturday" not in players  # the players' page names no other night of the keeper
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "hi"
    players = text_of(phone.get(link))
    assert "Dee पर Ann के $2.00 बकाया थे: 2026-11-21 की शाम पर आगे ले जाए गए" in players


def test_a_regulars_page_and_its_refusals_read_in_french(keeper, client):
    keeper.night(["Ann", "Bob"])
    ids = regular_ids(client)
    choose(client, "fr")
    shown = page(client, f"/regulars/{ids['Ann']}")
    assert "Moyens de payer Ann" in shown and "Enregistrer les moyens de paiement" in shown
    assert "1 soirée" in shown and "Ways to pay" not in shown
    url = f"/regulars/{ids['Ann']}/handles"
    refused = post(keeper, url, handle_rows([("paypal", "ann.pays!"), ("venmo", "")]))
    assert (
        "moyen de paiement 1 : un nom PayPal.me est fait de lettres et de chiffres, 20 au plus"
        in refused
    )
    iban = "DE89 3704 0044 0532 0130 01"  # one digit off
    refused = post(keeper, url, handle_rows([("iban", iban)]))
    assert "moyen de paiement 1 : ce n'est pas un IBAN valide (vérifiez les chiffres)" in refused
    saved = post(keeper, url, handle_rows([("paypal", "annpays")]))
    assert "Moyens de paiement enregistrés." in saved
    merged = post(keeper, "/regulars/merge", {"keep": str(ids["Ann"]), "gone": str(ids["Ann"])})
    assert "choisissez deux habitués différents" in merged, merged


def test_a_co_keeper_is_invited_kept_and_removed_in_spanish(app, client):
    owner = Keeper(client)
    owner.signup("owner@example.com")
    night = owner.night(["Ann", "Bob"])
    choose(client, "es")
    link = keeper_url(owner, night)
    section = page(client, f"/nights/{night}")
    assert "Anotadores" in section and "Renovar enlace de anotador" in section
    visitor = app.test_client()
    visitor.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es-ES,es;q=0.9"
    invite = text_of(visitor.get(link))
    assert "owner@example.com te invita a anotar Friday" in invite
    assert "viernes, 20 de noviembre de 2026" in invite and "Crea una cuenta" in invite
    co = Keeper(visitor)
    co.signup("carol@example.com")
    confirm = text_of(visitor.get(link))
    assert "¿Anotar Friday con owner@example.com?" in confirm and "Anotar esta noche" in confirm
    assert co.post_form(link, {}).status_code == 302
    assert "Ahora anotas Friday con owner@example.com." in page(visitor, f"/nights/{night}")
    kept = page(visitor, "/")
    assert "Noches que anotas con otros" in kept and "anotada con owner@example.com" in kept

    carol = re.findall(r"/keepers/(\d+)/remove", page_html(client, night))[0]
    _, hidden = owner.form(f"/nights/{night}")
    assert client.post(f"/nights/{night}/keepers/{carol}/remove", data=hidden).status_code == 302
    shown = page(client, f"/nights/{night}")
    assert "carol@example.com ya no anota Friday." in shown and "Dejar volver" in shown
    barred = visitor.get(link)
    assert barred.status_code == 403
    assert "owner@example.com te quitó de Friday" in text_of(barred)


def page_html(client: FlaskClient, night: int) -> str:
    return client.get(f"/nights/{night}").get_data(as_text=True)
