"""A player's "I paid" on the night's players' page (issue 34, point 4), through the test
client: it shows as claimed to everyone and counts only once the keeper confirms it on
the settle page; the player takes it back, the keeper confirms, undoes the confirmation,
or says it was not paid; a double tap claims once; a claim whose transfer moved is stale
and can no longer be confirmed; a form not from the page, or from another site, is
refused; the players' page still sets no cookie.

The night is issue 34's table (tests/web/test_plan_stays_put.py): Cy pays Bob 4.25, Dee
pays Ann 2.25, Dee pays Bob 0.25.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import LedgerEntry
from tests.web.keeper import Keeper, forms_of, text_of
from tests.web.test_plan_stays_put import the_night, transfer_form
from tests.web.test_settle_up import _live_link, payout, regular_ids

CY_CLAIMS = "Cy says they paid Bob $4.25: not counted until confirmed"


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def claim_form(phone, link: str, payer: int, payee: int):
    """The "I paid" form of the players' page on the transfer from payer to payee."""
    html = phone.get(link).get_data(as_text=True)
    for form in forms_of(html):
        values = form.values()
        if form.action.endswith("/claims") and (values["payer"], values["payee"]) == (
            str(payer),
            str(payee),
        ):
            return form
    return None


def form_to(html: str, ending: str, **match: str):
    for form in forms_of(html):
        values = form.values()
        if form.action.endswith(ending) and all(values.get(k) == v for k, v in match.items()):
            return form
    return None


def entries(app) -> list[tuple[str, int, int, int, bool, int | None]]:
    with app.app_context():
        rows = db.session.scalars(select(LedgerEntry).order_by(LedgerEntry.id)).all()
        return [
            (e.kind, e.payer_id, e.payee_id, e.amount, e.undone_at is None, e.claim_id)
            for e in rows
        ]


def test_i_paid_is_claimed_to_everyone_and_counts_once_confirmed(keeper, client, app):
    night, _ = the_night(keeper)
    ids = regular_ids(client)
    link = _live_link(keeper, night)
    phone = app.test_client()
    form = claim_form(phone, link, ids["Cy"], ids["Bob"])
    assert form is not None and "Cy: I paid" in phone.get(link).get_data(as_text=True)

    # Cy taps "I paid", twice (a double tap): one claim, and no cookie.
    for _ in range(2):
        r = phone.post(form.action, data=form.values())
        assert r.status_code == 303 and "Set-Cookie" not in r.headers
    assert entries(app) == [("claim", ids["Cy"], ids["Bob"], 425, True, None)]
    players = text_of(phone.get(link))
    assert CY_CLAIMS in players and "Cy pays Bob $4.25" in players  # it does not count yet
    assert claim_form(phone, link, ids["Cy"], ids["Bob"]) is None  # one open claim
    keeper_page = payout(client, night)
    assert CY_CLAIMS in keeper_page and "Cy pays Bob $4.25" in keeper_page
    # The form from before, sent again with another one-time id: the claim stands once.
    r = phone.post(form.action, data={**form.values(), "submission": "another-tap"})
    assert r.status_code == 409 and "Cy said already that they paid Bob $4.25" in text_of(r)
    assert len(entries(app)) == 1

    # Cy takes it back; the players' page offers "I paid" again.
    take_back = form_to(phone.get(link).get_data(as_text=True), "/undo")
    assert phone.post(take_back.action, data=take_back.values()).status_code == 303
    assert CY_CLAIMS not in text_of(phone.get(link))
    assert entries(app)[0][4] is False  # undone, kept

    # Cy claims again; the keeper confirms: a payment against that transfer.
    form = claim_form(phone, link, ids["Cy"], ids["Bob"])
    assert phone.post(form.action, data=form.values()).status_code == 303
    claim_id = len(entries(app))
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    confirm = form_to(html, "/transfers/mark", claim=str(claim_id))
    assert confirm is not None
    page = text_of(client.post(confirm.action, data=confirm.values(), follow_redirects=True))
    assert "Cy pays Bob $4.25: marked paid." in page
    assert "Cy paid Bob $4.25 (as they said on the players' page)" in page
    assert entries(app)[-1] == ("payment", ids["Cy"], ids["Bob"], 425, True, claim_id)
    assert "Cy pays Bob" not in text_of(phone.get(link))  # paid, for everyone
    # The player cannot take back what the keeper confirmed.
    r = phone.post(take_back.action.replace("/1/", f"/{claim_id}/"), data=take_back.values())
    assert r.status_code == 409 and "The keeper confirmed that payment" in text_of(r)

    # The keeper undoes the confirmation: the claim is open again, then "Not paid".
    payment_id = len(entries(app))
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    undo = form_to(html, f"/entries/{payment_id}/undo")
    assert client.post(undo.action, data=undo.values()).status_code == 302
    assert CY_CLAIMS in payout(client, night)
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    not_paid = form_to(html, f"/entries/{claim_id}/undo")
    assert "Not paid" in html
    assert client.post(not_paid.action, data=not_paid.values()).status_code == 302
    assert CY_CLAIMS not in payout(client, night)
    assert "Cy pays Bob $4.25" in payout(client, night)


def test_a_claim_on_a_transfer_that_moved_is_stale_and_never_counts(keeper, client, app):
    night, _ = the_night(keeper)
    ids = regular_ids(client)
    link = _live_link(keeper, night)
    phone = app.test_client()
    form = claim_form(phone, link, ids["Dee"], ids["Ann"])
    assert phone.post(form.action, data=form.values()).status_code == 303
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    confirm = form_to(html, "/transfers/mark", claim="1")
    # Meanwhile the keeper records $1.00 of Dee's $2.25 to Ann by hand.
    part = transfer_form(keeper, night, ids["Dee"], ids["Ann"], part=True)
    assert client.post(part.action, data={**part.values(), "paid": "1.00"}).status_code == 302
    stale = "Dee said they paid Ann $2.25, but that transfer changed since"
    assert stale in text_of(phone.get(link)) and stale in payout(client, night)
    html = client.get(f"/nights/{night}/payout").get_data(as_text=True)
    assert form_to(html, "/transfers/mark", claim="1") is None  # nothing to confirm
    assert "Dismiss" in html
    # The confirm form from before: refused, nothing recorded.
    before = entries(app)
    page = text_of(client.post(confirm.action, data=confirm.values(), follow_redirects=True))
    assert "That transfer changed since the page was drawn" in page
    assert entries(app) == before
    # Dee may say "I paid" again on what is left; the stale claim makes way.
    form = claim_form(phone, link, ids["Dee"], ids["Ann"])
    assert form is not None and form.values()["amount"] == "125"
    assert phone.post(form.action, data=form.values()).status_code == 303
    assert [e[4] for e in entries(app) if e[0] == "claim"] == [False, True]


def test_a_claim_not_sent_from_the_page_is_refused(keeper, client, app):
    night, _ = the_night(keeper)
    ids = regular_ids(client)
    link = _live_link(keeper, night)
    phone = app.test_client()
    form = claim_form(phone, link, ids["Cy"], ids["Bob"])
    without = {k: v for k, v in form.values().items() if k != "check"}
    assert phone.post(form.action, data=without).status_code == 400
    wrong = {**form.values(), "check": "0" * 32}
    assert phone.post(form.action, data=wrong).status_code == 400
    r = phone.post(form.action, data=form.values(), headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 400
    assert entries(app) == []
    # The link turned off: the page's forms find nothing.
    keeper.post_form(f"/nights/{night}/live", {}, action=f"/nights/{night}/live/off")
    assert phone.post(form.action, data=form.values()).status_code == 404
    assert entries(app) == []


def test_a_claim_taken_back_can_be_said_again_from_the_page_kept_before(keeper, client, app):
    """The players' page is one page for the table, kept while nothing changes (by the
    app and the front), so the "I paid" form a phone sends again after a take-back can
    carry the one-time id of the claim taken back: it is a new claim, not a double tap
    of the old one (which once answered as if saved, and saved nothing)."""
    night, _ = the_night(keeper)
    ids = regular_ids(client)
    link = _live_link(keeper, night)
    phone = app.test_client()
    form = claim_form(phone, link, ids["Cy"], ids["Bob"])
    assert phone.post(form.action, data=form.values()).status_code == 303
    take_back = form_to(phone.get(link).get_data(as_text=True), "/undo")
    assert phone.post(take_back.action, data=take_back.values()).status_code == 303
    assert CY_CLAIMS not in text_of(phone.get(link))

    assert phone.post(form.action, data=form.values()).status_code == 303  # the kept page
    assert CY_CLAIMS in text_of(phone.get(link))
    assert [e[4] for e in entries(app)] == [False, True]  # the first undone, the new in force
    # And that form sent once more is a double tap of the new claim: refused, once.
    r = phone.post(form.action, data=form.values())
    assert r.status_code == 409 and "Cy said already that they paid Bob $4.25" in text_of(r)
    assert len(entries(app)) == 2
