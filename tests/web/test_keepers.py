"""Co-keepers (issue 25, part 1), through the test client as two phones would: the owner
hands out a keeper link, another account opens it, logs in or signs up, confirms, and
keeps the night with them: rounds entered, corrected, undone, late joiners, payments,
each recorded as theirs. Then what an attacker with a link or a removed co-keeper would
try, the link turned off and renewed, and the accounts deleted and exported."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import (
    CoKeeper,
    Edit,
    GameRound,
    KeeperLink,
    KeeperRemoval,
    LedgerEntry,
    User,
)
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, forms_of, inputs, text_of

OWNER, CO = "owner@example.com", "carol@example.com"
NOT_FOUND = "There is nothing here, or it is not yours to see."


def keeper_url(owner: Keeper, night: int, change: str = "open") -> str:
    """Make (or renew) the night's keeper link on its page; the path read off the page."""
    r = owner.post_form(f"/nights/{night}", {}, action=f"/nights/{night}/keepers/{change}")
    assert r.status_code == 302 and r.headers["Location"].endswith("#keepers")
    html = owner.client.get(f"/nights/{night}").get_data(as_text=True)
    found = re.search(r'id="keeper-url" type="text" readonly value="[^"]*(/keep/[^"/]+)"', html)
    assert found, html
    return found.group(1)


def join(co: Keeper, link: str) -> None:
    page = co.client.get(link)
    assert page.status_code == 200 and "Keep Friday with owner@example.com?" in text_of(page)
    done = co.post_form(link, {})
    assert done.status_code == 302, text_of(done)


@pytest.fixture
def table(app: Flask, client):
    """The owner's night Friday with a Rummy game of two rounds to play, another night of
    theirs (Saturday) with a game, and Carol keeping Friday by its link."""
    owner = Keeper(client)
    owner.signup(OWNER)
    night = owner.night(["Ann", "Bob", "Cy"])
    game = owner.game(night, "rummy", ["Ann", "Bob", "Cy"], buy_in="1.00", deals="3")
    other_night = owner.night(["Ann", "Dee"], name="Saturday")
    other_game = owner.game(other_night, "rummy", ["Ann", "Dee"], buy_in="1.00", deals="3")
    co = Keeper(app.test_client())
    co.signup(CO)
    link = keeper_url(owner, night)
    join(co, link)
    return owner, co, night, game, other_night, other_game, link


def page_of(response) -> str:
    """A page as its reader gets it, but the per-request CSRF token of its Log out form."""
    return re.sub(r'name="csrf_token" value="[^"]*"', "", response.get_data(as_text=True))


def count(app: Flask, model: type) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(model)) or 0)


def user_id(app: Flask, email: str) -> int:
    with app.app_context():
        found = db.session.scalar(select(User.id).where(User.email == email))
    assert found is not None
    return found


# ------------------------------------------------------------------ the link ---
def test_signing_up_by_the_link_comes_back_to_it_and_confirming_twice_adds_one(app, client):
    owner = Keeper(client)
    owner.signup(OWNER)
    night = owner.night(["Ann", "Bob"])
    link = keeper_url(owner, night)
    phone = app.test_client()
    # Not logged in: who invites to which night (issue 34: it was a bare log-in page),
    # with log in and sign up, each coming back to the link.
    first = phone.get(link)
    assert first.status_code == 200
    assert "owner@example.com invites you to keep Friday Friday, November 20, 2026" in (
        text_of(first)
    )
    invite = first.get_data(as_text=True)
    assert f'href="/login?next={link}"' in invite, invite
    signup = re.search(r'href="(/signup\?next=[^"]+)"', invite)
    assert signup, invite
    assert count(app, CoKeeper) == 0
    form = inputs(phone.get(signup.group(1).replace("&amp;", "&")).get_data(as_text=True))
    signed = phone.post(
        signup.group(1).replace("&amp;", "&"),
        data={**form, "email": CO, "password": "correct horse", "confirm": "correct horse"},
    )
    assert signed.status_code == 302 and signed.headers["Location"] == f"/login?next={link}"
    co = Keeper(phone)
    hidden = inputs(phone.get(signed.headers["Location"]).get_data(as_text=True))
    logged = phone.post(
        signed.headers["Location"], data={**hidden, "email": CO, "password": "correct horse"}
    )
    assert logged.status_code == 302 and logged.headers["Location"] == link
    page = phone.get(link)
    assert "Keep Friday with owner@example.com?" in text_of(page)
    assert count(app, CoKeeper) == 0  # a GET adds nobody
    hidden = inputs(page.get_data(as_text=True))
    for _ in range(2):  # a double tap: one co-keeper
        done = phone.post(link, data=hidden)
        assert done.status_code == 302 and done.headers["Location"] == f"/nights/{night}"
    assert count(app, CoKeeper) == 1
    assert "Friday Nov 20, 2026 · kept with owner@example.com" in text_of(phone.get("/"))
    assert "kept with owner@example.com" in text_of(co.client.get(f"/nights/{night}"))
    # The owner's page lists Carol; the owner opening the link just goes to the night.
    assert CO in text_of(client.get(f"/nights/{night}"))
    own = client.get(link)
    assert own.status_code == 302 and own.headers["Location"] == f"/nights/{night}"
    assert count(app, CoKeeper) == 1


def test_signing_up_keeps_only_a_path_of_this_site(client):
    hidden = inputs(client.get("/signup").get_data(as_text=True))
    data = {**hidden, "email": "x@example.com", "password": "correct horse"}
    r = client.post("/signup?next=//evil.example/", data={**data, "confirm": "correct horse"})
    assert r.status_code == 302 and r.headers["Location"] == "/login?next=/"


def test_renewed_turned_off_unknown_and_deleted_night_links_answer_the_same_404(app, table):
    owner, co, night, _, _, _, link = table
    stranger = Keeper(app.test_client())
    stranger.signup("dan@example.com")
    unknown = stranger.client.get("/keep/AAAAAAAAAAAAAAAAAAAAAA")
    assert unknown.status_code == 404 and NOT_FOUND in text_of(unknown)
    renewed = keeper_url(owner, night, "renew")
    assert renewed != link
    # Renew tapped twice (one form, one one-time id): renewed once.
    renew = next(
        f
        for f in forms_of(owner.client.get(f"/nights/{night}").get_data(as_text=True))
        if f.action == f"/nights/{night}/keepers/renew"
    )
    links = count(app, KeeperLink)
    for _ in range(2):
        assert owner.client.post(renew.action, data=renew.values()).status_code == 302
    assert count(app, KeeperLink) == links + 1
    assert "Renewed already (sent twice)" in text_of(owner.client.get(f"/nights/{night}"))
    assert stranger.client.get(renewed).status_code == 404
    renewed = keeper_url(owner, night)  # Make, with a link in force: the same link
    assert page_of(stranger.client.get(link)) == page_of(unknown)
    assert stranger.client.get(renewed).status_code == 200
    assert owner.post_form(f"/nights/{night}", {}, action=f"/nights/{night}/keepers/off")
    assert 'id="keeper-url"' not in owner.client.get(f"/nights/{night}").get_data(as_text=True)
    for url in (link, renewed, "/keep/x", "/keep/" + "a" * 200):
        response = stranger.client.get(url)
        assert response.status_code == 404, url
        assert page_of(response) == page_of(unknown), url
    # Carol keeps the night still (turning the link off is not removing her).
    assert co.client.get(f"/nights/{night}").status_code == 200
    again = keeper_url(owner, night)
    owner.post_form(f"/nights/{night}/delete", {})
    assert page_of(stranger.client.get(again)) == page_of(unknown)
    assert count(app, CoKeeper) == 1


# ------------------------------------------------------------- keeping a night ---
def test_a_co_keeper_enters_corrects_undoes_and_adds_a_joiner_recorded_as_theirs(app, table):
    owner, co, night, _, _, _, _ = table
    game = co.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="2.00")  # joins: Vegas
    assert co.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302
    assert co.enter(game, "Ann", {"Bob": 20, "Cy": 5}, number=1).status_code == 302
    assert owner.enter(game, "Bob", {"Ann": 7, "Cy": 3}).status_code == 302
    _, hidden = co.form(f"/games/{game}")
    assert co.client.post(f"/games/{game}/rounds/last/delete", data=hidden).status_code == 302
    joined = co.post_form(f"/games/{game}/join", {"new_name": "Dee"})
    assert joined.status_code == 302, text_of(joined)
    with app.app_context():
        rounds = db.session.scalars(select(GameRound).where(GameRound.game_id == game)).all()
        assert len(rounds) == 1 and rounds[0].data["went_out"] == "Ann"
        assert "20" in str(rounds[0].data["hands"]["Bob"])
        who = db.session.execute(
            select(Edit.action, Edit.round_number, User.email)
            .join(User, User.id == Edit.user_id)
            .where(Edit.game_id == game)
            .order_by(Edit.id)
        ).all()
    assert [tuple(w) for w in who] == [
        ("create", None, CO),
        ("add", 1, CO),
        ("edit", 1, CO),
        ("add", 2, OWNER),
        ("remove", 2, CO),
        ("joins", None, CO),
    ]
    history = text_of(owner.client.get(f"/games/{game}/history"))
    assert f"· {CO} Round 1 corrected" in history
    assert f"· {OWNER} Round 2: Bob went out" in history
    assert f"· {CO} Removed round 2" in history
    assert "Joining next round: Dee" in text_of(owner.client.get(f"/games/{game}/history"))
    # A keeper alone sees no names in a game's history.
    alone = Keeper(app.test_client())
    alone.signup("solo@example.com")
    solo = alone.game(alone.night(["Ann", "Bob"]), "rummy", ["Ann", "Bob"])
    assert alone.enter(solo, "Ann", {"Bob": 3}).status_code == 302
    assert "solo@example.com" not in text_of(alone.client.get(f"/games/{solo}/history"))


def test_a_co_keepers_payment_is_theirs_and_carries_go_only_to_nights_they_keep(app, table):
    owner, co, night, game, other_night, _, _ = table
    for went_out, hands in (("Ann", {"Bob": 10, "Cy": 5}), ("Ann", {"Bob": 10, "Cy": 5})):
        assert co.enter(game, went_out, hands).status_code == 302
    assert co.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302  # the game ends
    html = co.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    mark = next(f for f in forms_of(html) if f.action == f"/nights/{night}/transfers/mark")
    assert co.client.post(mark.action, data=mark.values()).status_code == 302
    page = text_of(owner.client.get(f"/nights/{night}/payout"))
    assert CO in page.split("Paid and carried", 1)[1]
    with app.app_context():
        entry = db.session.scalars(select(LedgerEntry)).one()
        assert entry.user.email == CO
    # Saturday is the owner's: offered to the owner, not to Carol (she keeps no later
    # night), and refused when she sends it by hand.
    assert not [f for f in forms_of(html) if f.action == f"/nights/{night}/carry"]
    owner_html = owner.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    carry = next(f for f in forms_of(owner_html) if f.action == f"/nights/{night}/carry")
    assert str(other_night) in [v for v, _, _ in carry.named("carry-target")[0].options]
    before = snapshot(app)
    token = inputs(html)["csrf_token"]
    data = {**carry.values(), "carry-target": str(other_night), "csrf_token": token}
    sent = co.client.post(carry.action, data=data)
    assert sent.status_code == 302
    assert snapshot(app) == before
    assert "Carried" not in text_of(co.client.get(f"/nights/{night}/payout"))


def test_two_keepers_typing_one_round_at_once_store_it_once(app, table):
    owner, co, _, game, _, _, _ = table
    mine = owner.round_data(game, "Ann", {"Bob": 10, "Cy": 5})
    _, owner_hidden = owner.form(f"/games/{game}/rounds/new")
    theirs = co.round_data(game, "Bob", {"Ann": 4, "Cy": 6})
    _, co_hidden = co.form(f"/games/{game}/rounds/new")
    saved = owner.client.post(f"/games/{game}/rounds/new", data={**owner_hidden, **mine})
    assert saved.status_code == 302
    late = co.client.post(f"/games/{game}/rounds/new", data={**co_hidden, **theirs})
    assert late.status_code == 409
    said = text_of(late)
    assert "changed on another phone" in said and "deal 1 was not saved" in said
    assert "Ann 4" in said or "Cy 6" in said  # what Carol typed, and the sheet below it
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GameRound)) == 1


# ----------------------------------------------------------------- what is whose ---
def test_a_keeper_link_gives_nothing_of_another_night_or_of_the_account(app, table):
    owner, co, night, game, other_night, other_game, _ = table
    before = snapshot(app)
    for url in (
        f"/nights/{other_night}",
        f"/nights/{other_night}/payout",
        f"/nights/{other_night}/export.csv",
        f"/nights/{other_night}/payout.pdf",
        f"/nights/{other_night}/games/new",
        f"/games/{other_game}",
        f"/games/{other_game}/history",
        f"/games/{other_game}/sheet.pdf",
        f"/games/{other_game}/rounds/new",
        f"/api/games/{other_game}",
        f"/games/{game}/delete",
        f"/games/{game}/live",
        f"/nights/{night}/live",
        f"/nights/{night}/delete",
    ):
        assert co.client.get(url).status_code == 404, url
    data = {"csrf_token": inputs(co.client.get("/").get_data(as_text=True))["csrf_token"]}
    for url in (
        f"/nights/{other_night}/people",
        f"/games/{other_game}/rounds/last/delete",
        f"/nights/{night}/keepers/open",
        f"/nights/{night}/keepers/{user_id(app, CO)}/remove",
        f"/nights/{night}/delete",
        f"/nights/{night}/live",
    ):
        assert co.client.post(url, data={**data, "name": "Mal"}).status_code == 404, url
    assert snapshot(app) == before
    # Her home page, regulars, stats and account file are her own: no owner's names.
    for url in ("/", "/regulars", "/account"):
        page = text_of(co.client.get(url))
        assert "Saturday" not in page and "Dee" not in page, url
    archive = zipfile.ZipFile(io.BytesIO(co.client.get("/account/export.zip").data))
    assert "Friday" not in archive.read("account.json").decode()
    # Her sheet and night page show nothing of the owner's alone.
    sheet = text_of(co.client.get(f"/games/{game}"))
    assert "Delete game" not in sheet and "Show players" not in sheet
    assert "Delete game" in text_of(owner.client.get(f"/games/{game}"))
    page = text_of(co.client.get(f"/nights/{night}"))
    assert "Delete this night" not in page and "Keeper link" not in page
    assert "Live view for players" not in page and "all your regulars" not in page


def test_a_removed_co_keeper_finds_nothing_of_the_night(app, table):
    owner, co, night, game, _, _, link = table
    assert co.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302
    _, form_hidden = co.form(f"/games/{game}/rounds/new")
    carol = user_id(app, CO)
    remove = f"/nights/{night}/keepers/{carol}/remove"
    _, hidden = owner.form(f"/nights/{night}")
    for said in (  # a double tap: removed once, said so once
        f"{CO} no longer keeps Friday. The keeper link will not let them back in",
        "Removed already: they no longer keep this night.",
    ):
        assert owner.client.post(remove, data=hidden).status_code == 302
        page = text_of(owner.client.get(f"/nights/{night}"))
        assert said in page
        assert count(app, CoKeeper) == 0
    assert "Keeping with you" not in page and f"Removed: {CO} Let back in" in page
    for url in (
        f"/nights/{night}",
        f"/nights/{night}/payout",
        f"/games/{game}",
        f"/games/{game}/history",
        f"/games/{game}/rounds/new",
        f"/games/{game}/sheet.pdf",
        f"/nights/{night}/payout.pdf",
    ):
        response = co.client.get(url)
        assert response.status_code == 404 and NOT_FOUND in text_of(response), url
    before = snapshot(app)
    late = co.client.post(
        f"/games/{game}/rounds/new",
        data={**form_hidden, "went_out": "1", "hand-2": "1", "hand-3": "2"},
    )
    assert late.status_code == 404
    assert snapshot(app) == before
    assert "Friday" not in text_of(co.client.get("/"))
    # The link in force does not let her back in (test_a_removed_co_keeper_is_barred...).
    assert "Keep Friday with owner@example.com?" not in text_of(co.client.get(link))
    # History still says who entered round 1.
    assert f"· {CO} Deal 1" in text_of(owner.client.get(f"/games/{game}/history"))


def test_a_removed_co_keeper_is_barred_from_the_old_link_until_let_back_in(app, table):
    """Removing is an entry (a bar on that account for that night): the keeper link in
    force, which the others still use, neither shows her the question nor makes her a
    co-keeper again, until the owner taps "Let back in"; then the link works for her."""
    owner, co, night, game, _, _, link = table
    dan = Keeper(app.test_client())
    dan.signup("dan@example.com")
    page = owner.client.get(f"/nights/{night}").get_data(as_text=True)
    remove = next(f for f in forms_of(page) if f.action.endswith("/remove"))
    assert "the keeper link will not let them back in" in page  # the confirmation says so
    assert owner.client.post(remove.action, data=remove.values()).status_code == 302
    refused = co.client.get(link)
    assert refused.status_code == 403
    assert "owner@example.com removed you from Friday" in text_of(refused)
    assert "Keep this night" not in text_of(refused)
    hidden = inputs(co.client.get("/").get_data(as_text=True))
    posted = co.client.post(link, data=hidden)  # the confirmation form, sent again
    assert posted.status_code == 403
    assert count(app, CoKeeper) == 0
    assert co.client.get(f"/nights/{night}").status_code == 404
    assert co.client.get(f"/games/{game}").status_code == 404
    # The others still join by the same link.
    join(dan, link)
    assert dan.client.get(f"/nights/{night}").status_code == 200
    # The owner's page lists her as removed, with "Let back in".
    page = owner.client.get(f"/nights/{night}").get_data(as_text=True)
    assert f"Removed: {CO}" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    back = next(f for f in forms_of(page) if f.action.endswith("/let-back"))
    for _ in range(2):  # a double tap: let back once
        assert owner.client.post(back.action, data=back.values()).status_code == 302
    said = text_of(owner.client.get(f"/nights/{night}"))
    assert f"{CO} may keep Friday again: they open the keeper link and confirm." in said
    assert f"Removed: {CO}" not in said
    assert count(app, CoKeeper) == 1  # letting back in adds nobody by itself
    join(co, link)
    assert co.client.get(f"/nights/{night}").status_code == 200
    # Removed again: barred again; the entries say when each removal and return was.
    carol = user_id(app, CO)
    assert (
        owner.post_form(
            f"/nights/{night}", {}, action=f"/nights/{night}/keepers/{carol}/remove"
        ).status_code
        == 302
    )
    assert co.client.get(link).status_code == 403
    with app.app_context():
        rows = db.session.execute(
            select(KeeperRemoval.user_id, KeeperRemoval.let_back_at.is_(None)).order_by(
                KeeperRemoval.id
            )
        ).all()
    assert [tuple(r) for r in rows] == [(carol, False), (carol, True)]


def test_removing_a_co_keeper_can_turn_the_link_off_too(app, table):
    owner, co, night, _, _, _, link = table
    dan = Keeper(app.test_client())
    dan.signup("dan@example.com")
    join(dan, link)
    page = owner.client.get(f"/nights/{night}").get_data(as_text=True)
    action = f"/nights/{night}/keepers/{user_id(app, CO)}/remove"
    remove = next(f for f in forms_of(page) if f.action == action)
    assert 'name="link_off"' in page and "Turn the keeper link off too" in text_of(
        owner.client.get(f"/nights/{night}")
    )
    done = owner.client.post(remove.action, data={**remove.values(), "link_off": "y"})
    assert done.status_code == 302
    said = text_of(owner.client.get(f"/nights/{night}"))
    assert "The keeper link is off too: the other co-keepers stay" in said
    stranger = Keeper(app.test_client())
    stranger.signup("eve@example.com")
    assert stranger.client.get(link).status_code == 404
    assert co.client.get(link).status_code == 404
    assert dan.client.get(f"/nights/{night}").status_code == 200  # Dan stays
    assert 'id="keeper-url"' not in owner.client.get(f"/nights/{night}").get_data(as_text=True)


def test_help_says_what_removing_a_co_keeper_does(client):
    page = text_of(client.get("/help"))
    assert "Remove a co-keeper" in page
    assert "the keeper link no longer lets them in" in page
    assert "Let back in" in page and "Turn the keeper link off too" in page


# -------------------------------------------------------------------- accounts ---
def test_deleting_the_owners_account_ends_the_co_keepers_access(app, table):
    owner, co, night, game, _, _, link = table
    assert co.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302
    done = owner.post_form("/account/delete", {"email": OWNER})
    assert done.status_code == 302
    assert count(app, CoKeeper) == 0 and count(app, KeeperLink) == 0
    unknown = co.client.get("/keep/AAAAAAAAAAAAAAAAAAAAAA")
    response = co.client.get(link)
    assert response.status_code == 404 and page_of(response) == page_of(unknown)
    for url in (f"/nights/{night}", f"/games/{game}"):
        assert co.client.get(url).status_code == 404, url
    assert "Friday" not in text_of(co.client.get("/"))


@pytest.mark.parametrize("deleted", [CO, OWNER])
def test_deleting_either_account_takes_the_removal_with_it(app, table, deleted):
    owner, co, night, _, _, _, _ = table
    carol = user_id(app, CO)
    assert (
        owner.post_form(
            f"/nights/{night}", {}, action=f"/nights/{night}/keepers/{carol}/remove"
        ).status_code
        == 302
    )
    assert count(app, KeeperRemoval) == 1
    phone = co if deleted == CO else owner
    assert phone.post_form("/account/delete", {"email": deleted}).status_code == 302
    assert count(app, KeeperRemoval) == 0
    with app.app_context():
        assert db.session.scalar(select(User.id).where(User.email == deleted)) is None


def test_deleting_a_co_keepers_account_leaves_the_night_and_what_they_entered(app, table):
    owner, co, night, game, _, _, _ = table
    for _ in range(3):
        assert co.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302
    html = co.client.get(f"/nights/{night}/payout").get_data(as_text=True)
    mark = next(f for f in forms_of(html) if f.action == f"/nights/{night}/transfers/mark")
    assert co.client.post(mark.action, data=mark.values()).status_code == 302
    sheet = text_of(owner.client.get(f"/games/{game}"))
    done = co.post_form("/account/delete", {"email": CO})
    assert done.status_code == 302
    assert count(app, CoKeeper) == 0 and count(app, GameRound) == 3
    assert text_of(owner.client.get(f"/games/{game}")) == sheet
    history = text_of(owner.client.get(f"/games/{game}/history"))
    assert "· a deleted account Deal 3" in history
    with app.app_context():
        entry = db.session.scalars(select(LedgerEntry)).one()
        assert entry.user_id is None  # kept, recorded by a deleted account: nobody's else
    payout = text_of(owner.client.get(f"/nights/{night}/payout"))
    assert "a deleted account" in payout and OWNER not in payout.split("Paid and carried")[1]
    assert CO not in text_of(owner.client.get(f"/nights/{night}"))


def test_the_owners_account_file_leaves_keeper_links_and_co_keepers_out(app, table):
    owner, co, _, game, _, _, link = table
    assert co.enter(game, "Ann", {"Bob": 10, "Cy": 5}).status_code == 302
    archive = zipfile.ZipFile(io.BytesIO(owner.client.get("/account/export.zip").data))
    everything = "".join(archive.read(name).decode() for name in archive.namelist())
    assert "Friday" in everything
    assert link.rsplit("/", 1)[1] not in everything and CO not in everything
    assert "/keep/" not in everything and "co_keeper" not in everything


def test_the_keeper_link_starts_where_the_other_phone_reaches_the_app(app, table):
    """The keeper link was built from the request's own host, so with a public URL set
    (behind a proxy) or opened on localhost its QR code sent the other keeper nowhere; it
    starts where the live view's link starts (``web/lan.reach``)."""
    owner, _, night, _, _, _, link = table
    app.config["PUBLIC_URL"] = "https://scores.example.net/"
    html = owner.client.get(f"/nights/{night}").get_data(as_text=True)
    assert f'id="keeper-url" type="text" readonly value="https://scores.example.net{link}"' in html


def test_a_co_keeper_is_offered_only_tonights_people_to_join_a_game(app, table):
    """The join page offers the owner their other regulars (issue 34); a co-keeper sees
    only the night they keep: Dee (a regular of the owner's Saturday) is not offered."""
    owner, co, night, _, _, _, _ = table
    vegas = owner.game(night, "vegas", ["Ann", "Bob"], buy_in="1.00")
    assert "Dee" in owner.client.get(f"/games/{vegas}/join").get_data(as_text=True)
    page = co.client.get(f"/games/{vegas}/join")
    assert page.status_code == 200 and ">Cy<" in page.get_data(as_text=True)
    assert "Dee" not in page.get_data(as_text=True)
    assert "regulars" not in text_of(page)


def test_the_keepers_section_and_the_barred_page_are_valid_html(app, table, tmp_path):
    """The night page with a co-keeper (Remove and its "link off too" box) and a removed
    one (Let back in), and the page the old link shows the removed one, as vnu reads
    them."""
    from tests.web.test_html_checker import check, describe

    owner, co, night, _, _, _, link = table
    dan = Keeper(app.test_client())
    dan.signup("dan@example.com")
    join(dan, link)
    carol = user_id(app, CO)
    owner.post_form(f"/nights/{night}", {}, action=f"/nights/{night}/keepers/{carol}/remove")
    pages = {"night": owner.client.get(f"/nights/{night}"), "barred": co.client.get(link)}
    assert "Let back in" in text_of(pages["night"]) and "Remove" in text_of(pages["night"])
    assert pages["barred"].status_code == 403
    messages = check({k: v.get_data(as_text=True) for k, v in pages.items()}, tmp_path)
    errors = [m for m in messages if m.get("type") in ("error", "non-document-error")]
    assert not errors, "\n".join(map(describe, errors))
