"""No cache may answer with a stale page or with another keeper's game (issue 12). The
sheet's drawn parts and the PDFs are kept per stored state of a game (its id, creation
time and version): every change a keeper can make must show at once, and the one query
that checks the owner runs before anything cached is looked up."""

from __future__ import annotations

import re

import pytest

from scorekeeper.reports import files
from scorekeeper.services import state
from scorekeeper.web.games.sheet import SHEET_CACHE
from tests.web.keeper import Keeper, forms_of, text_of


@pytest.fixture
def keeper(client):
    SHEET_CACHE.clear()
    files.PDF_CACHE.clear()
    k = Keeper(client)
    k.signup()
    return k


def sheet(client, game: int) -> str:
    r = client.get(f"/games/{game}")
    assert r.status_code == 200
    return text_of(r)


def test_every_change_shows_at_once(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    assert "No deals yet" in sheet(client, game)
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    first = sheet(client, game)
    assert "No deals yet" not in first and "+12" in first  # Ann scores 5 + 7
    assert sheet(client, game) == first  # from the cache, the same
    # A correction.
    assert keeper.enter(game, "Ann", {"Bob": 9, "Cy": 7}, number=1).status_code == 302
    assert "+16" in sheet(client, game)
    # A rename of a person of the night.
    person = keeper.person_ids(night)["Bob"]
    r = keeper.post_form(f"/nights/{night}/people/{person}", {"name": "Robert"})
    assert r.status_code == 302, text_of(r)
    assert "Robert" in sheet(client, game) and "Bob" not in sheet(client, game)
    # Remove the last round.
    _, hidden = keeper.form(f"/games/{game}")
    r = client.post(f"/games/{game}/rounds/last/delete", data=hidden)
    assert r.status_code == 302, r.status_code
    assert "No deals yet" in sheet(client, game)
    pdf_before = client.get(f"/games/{game}/sheet.pdf").data
    assert keeper.enter(game, "Cy", {"Ann": 1, "Robert": 2}).status_code == 302
    assert client.get(f"/games/{game}/sheet.pdf").data != pdf_before


def test_a_cached_sheet_is_never_shown_to_another_keeper(app, keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    sheet(client, game)
    client.get(f"/games/{game}/sheet.pdf")
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    for url in (f"/games/{game}", f"/games/{game}/sheet.pdf", f"/games/{game}/blank.pdf"):
        assert other.client.get(url).status_code == 404, url
    assert app.test_client().get(f"/games/{game}").status_code == 302  # to the login page


def test_a_deleted_game_is_not_served_from_the_cache(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    sheet(client, game)
    client.get(f"/games/{game}/sheet.pdf")
    r = keeper.post_form(f"/games/{game}/delete", {})
    assert r.status_code == 302, text_of(r)
    assert client.get(f"/games/{game}").status_code == 404
    assert client.get(f"/games/{game}/sheet.pdf").status_code == 404


def page_fields(html: str) -> list[tuple[str, str]]:
    return re.findall(r'name="(csrf_token|submission)" value="([^"]*)"', html)


def test_a_cached_page_carries_each_logins_own_token(app, keeper, client):
    """The whole sheet page is kept per stored state of the game; the CSRF token and the
    one-time submission id are each request's own. A second login of the same keeper
    (another phone) gets the page from the cache with its own token, and its Remove last
    round works; the first phone's token is not in it."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    client.get("/")  # reads the flash, so the sheet below is the plain, cached page
    first = client.get(f"/games/{game}").get_data(as_text=True)
    again = client.get(f"/games/{game}").get_data(as_text=True)
    phone = Keeper(app.test_client())
    assert phone.login("keeper@example.com").status_code == 302
    phone.client.get("/")
    second = phone.client.get(f"/games/{game}").get_data(as_text=True)

    mine, theirs = page_fields(first), page_fields(second)
    assert [n for n, _ in mine] == ["csrf_token", "csrf_token", "submission", "csrf_token"]
    assert [n for n, _ in theirs] == [n for n, _ in mine]
    tokens = {v for n, v in theirs if n == "csrf_token"}
    assert len(tokens) == 1 and not tokens & {v for n, v in mine if n == "csrf_token"}
    assert dict(page_fields(again))["submission"] != dict(mine)["submission"]
    assert "<csrf-token>" not in first + second and "<submission-id>" not in first + second
    assert first.replace(dict(mine)["submission"], "") == again.replace(
        dict(page_fields(again))["submission"], ""
    )  # the same page, only its one-time id differs

    form = {**dict(theirs), "version": re.search(r'name="version" value="(\d+)"', second)[1]}
    r = phone.client.post(f"/games/{game}/rounds/last/delete", data=form)
    assert r.status_code == 302, text_of(r)
    assert "No deals yet" in sheet(client, game)


def test_a_name_that_looks_like_a_placeholder_stays_as_typed(keeper, client):
    """A person named like the page's placeholders is printed escaped, so the request's
    token never lands in it."""
    names = ["<csrf-token>", "<submission-id>"]
    night = keeper.night(names)
    game = keeper.game(night, "rummy", names)
    assert keeper.enter(game, names[0], {names[1]: 5}).status_code == 302
    client.get("/")
    for _ in range(2):  # drawn, then from the cache
        html = client.get(f"/games/{game}").get_data(as_text=True)
        assert html.count("&lt;csrf-token&gt;") >= 2 and "&lt;submission-id&gt;" in html
        assert "<csrf-token>" not in html and "<submission-id>" not in html
        assert all(v and "<" not in v and "&" not in v for _, v in page_fields(html))


def test_a_page_drawn_from_a_newer_state_than_its_stamp_is_shown_not_kept(
    keeper, client, monkeypatch
):
    """Another phone saves between the stamp's query and the loading of the game: the
    page shows the newer state and its forms send that state's version back, but neither
    the page nor its parts are kept under the older stamp."""
    from sqlalchemy import update

    from scorekeeper.extensions import reading
    from scorekeeper.models import Game
    from scorekeeper.web.games import sheet as sheet_module

    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    client.get("/")
    SHEET_CACHE.clear()
    load = sheet_module.game_or_404

    def saved_in_between(game_id: int, **kwargs):
        with reading() as conn:  # the other phone's change, committed
            conn.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
        return load(game_id, **kwargs)

    monkeypatch.setattr(sheet_module, "game_or_404", saved_in_between)
    html = client.get(f"/games/{game}").get_data(as_text=True)
    versions = set(re.findall(r'name="version" value="(\d+)"', html))
    assert len(SHEET_CACHE.local) == 0
    monkeypatch.setattr(sheet_module, "game_or_404", load)
    again = client.get(f"/games/{game}").get_data(as_text=True)
    assert set(re.findall(r'name="version" value="(\d+)"', again)) == versions
    assert len(versions) == 1 and len(SHEET_CACHE.local) == 1  # now kept: the sheet's parts


@pytest.mark.parametrize("page", ["", "/sheet.pdf", "/blank.pdf", "/rounds/new"])
def test_rows_loaded_after_another_phone_saved_are_shown_not_kept(
    app, keeper, client, monkeypatch, page
):
    """Another phone saves a round (on another worker) after the game's row was loaded
    and before its rounds were (they load on first use): the answer is drawn from rows
    of two states, labelled with the older version. It may be shown (a change sent from
    it is refused as a conflict), but nothing drawn from it is kept under the stamp: not
    the standings, not the sheet, not a PDF. The next request draws and keeps the new
    state."""
    from scorekeeper import services

    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    url = f"/games/{game}/rounds/new"
    other_phone = {**keeper.form(url)[1], **keeper.round_data(game, "Bob", {"Ann": 9})}
    client.get("/")
    load_game = services.owned_game
    saved: list[int] = []

    def saved_after_the_games_row(*args, **kwargs):
        found = load_game(*args, **kwargs)
        if not saved:  # the other phone's round, in a session of its own
            saved.append(0)
            with app.app_context():
                saved[0] = client.post(url, data=other_phone).status_code
            state.DRAWN_STATES.clear()  # as if it was saved by another worker
        return found

    caches = (SHEET_CACHE.local, files.PDF_CACHE, state.DRAWN_STATES)
    for cache in caches:
        cache.clear()
    monkeypatch.setattr(services, "owned_game", saved_after_the_games_row)
    assert client.get(f"/games/{game}{page}").status_code == 200
    assert saved == [302]
    monkeypatch.setattr(services, "owned_game", load_game)
    older = r"\.2(:|$)"  # the state the stamp read: version 2
    kept = [str(k) for k in SHEET_CACHE.local._entries]
    kept += [drawn.key for drawn, _ in state.DRAWN_STATES._entries.values()]
    assert not [k for k in kept if re.search(older, k)], kept
    assert len(files.PDF_CACHE) == 0
    now = sheet(client, game)
    assert "+9" in now and "+5" in now  # both rounds, and now kept
    assert client.get(f"/games/{game}{page}").status_code == 200
    assert len(SHEET_CACHE.local) >= 1


REWRITES = [
    "round 1 corrected",
    "last round removed, another added",
    "a player renamed",
    "a player joined",
    "the game deleted and restored",
]


@pytest.mark.parametrize("change", ["rounds added", *REWRITES])
def test_a_state_drawn_here_is_folded_on_only_when_the_record_starts_with_it(
    app, keeper, client, monkeypatch, change
):
    """Rounds saved on another worker (with caches of its own) reach this worker as a
    new state. When nothing but rounds added at the end changed since the state this
    worker drew last (``Game.rewritten``), only the new rounds are read and folded on
    from it, with no replay from the first round; after any other change in between (a
    correction, an undo followed by a new round, a rename, a join, a delete and restore)
    the record is replayed. Either way the sheet shows what a replay of the exported
    record gives."""
    from scorekeeper.cache import ByteBoundedCache
    from scorekeeper.rules import load_game

    from .test_queries import counting

    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"])
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7}).status_code == 302
    assert keeper.enter(game, "Bob", {"Ann": 1, "Cy": 2}).status_code == 302
    sheet(client, game)  # this worker draws the game after round 2
    here = {name: getattr(state, name) for name in ("DRAWN_STATES",)}
    for name in here:  # another worker, with caches of its own
        monkeypatch.setattr(state, name, ByteBoundedCache(max_bytes=1 << 20))
    assert keeper.enter(game, "Bob", {"Ann": 3, "Cy": 4}).status_code == 302
    if change == "round 1 corrected":
        url = f"/games/{game}/rounds/1"
        data = keeper.round_data(game, "Ann", {"Bob": 6, "Cy": 7}, number=1)
        assert client.post(url, data={**keeper.form(url)[1], **data}).status_code == 302
    elif change == "last round removed, another added":
        for _ in range(2):  # round 3 undone, then round 2: the record is one round shorter
            _, hidden = keeper.form(f"/games/{game}")
            r = client.post(f"/games/{game}/rounds/last/delete", data=hidden)
            assert r.status_code == 302
        assert keeper.enter(game, "Cy", {"Ann": 8, "Bob": 9}).status_code == 302
    elif change == "a player renamed":
        person = keeper.person_ids(night)["Bob"]
        url = f"/nights/{night}/people/{person}"
        assert client.post(url, data={**keeper.form(url)[1], "name": "Rob"}).status_code == 302
    elif change == "a player joined":
        r = keeper.post_form(f"/games/{game}/join", {"person": "Dee", "action": "add"})
        assert r.status_code == 302
        assert keeper.enter(game, "Cy", {"Ann": 2, "Bob": 1, "Dee": 4}).status_code == 302
    elif change == "the game deleted and restored":
        assert keeper.post_form(f"/games/{game}/delete", {}).status_code == 302
        url = f"/games/{game}/restore"
        forms = forms_of(client.get(f"/nights/{night}").get_data(as_text=True))
        hidden = next(f.hidden() for f in forms if f.action == url)
        assert client.post(url, data=hidden).status_code == 302
    stored = client.get(f"/games/{game}/export.json").get_json()["rounds"]
    form = text_of(client.get(f"/games/{game}/rounds/new"))  # as the other worker has it
    assert f"Round {len(stored) + 1} " in form, form
    last = {"Rob" if change == "a player renamed" else "Bob": 2, "Cy": 2}
    if change == "a player joined":
        last["Dee"] = 3
    assert keeper.enter(game, "Ann", last).status_code == 302
    for name, cache in here.items():  # back on this worker
        monkeypatch.setattr(state, name, cache)
    SHEET_CACHE.clear()
    state.STANDINGS_CACHE.clear()
    replays: list[int] = []
    replay = state.replay
    monkeypatch.setattr(state, "replay", lambda record: replays.append(1) or replay(record))
    with counting(app) as statements:
        page = sheet(client, game)
    assert replays == ([] if change == "rounds added" else [1])
    if change == "rounds added":  # only rounds 3 and 4 were read, and no seat
        reads = [s for s in statements if "game_rounds" in s]
        assert len(reads) == 1 and "game_rounds.number >" in reads[0], statements
        assert not [s for s in statements if "FROM seats" in s], statements
    record = client.get(f"/games/{game}/export.json").get_json()
    played = {"last round removed, another added": 3, "a player joined": 5}.get(change, 4)
    assert len(record["rounds"]) == played  # each round typed after the change is added
    assert record["rounds"][-1]["went_out"] == "Ann"
    expected = load_game(record)
    for p in expected.players:
        assert f"{p.total}" in page
    kept = [drawn.standings for drawn, _ in state.DRAWN_STATES._entries.values()]
    assert expected in kept  # kept by the new state, equal to a replay from round 1
