"""Nothing a keeper does can corrupt a number, lose a game or answer 500 (issue 8), one
test per class seen: renames that touched card codes, corrections of rounds with drops,
double-posted creating forms, races, stale cached pages, edge inputs and the limits.
Each asserts what the keeper ends up with: the stored record and its standings, re-read."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import pytest
from sqlalchemy import func, select, text

from scorekeeper.extensions import db
from scorekeeper.models import Game, Night, Person
from scorekeeper.rules.settings import MAX_ROUNDS
from scorekeeper.services import base, games, nights
from tests.web.checks import snapshot
from tests.web.keeper import Keeper, inputs, text_of


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def api(client, game_id: int) -> dict[str, Any]:
    r = client.get(f"/api/v1/games/{game_id}")
    assert r.status_code == 200, r.status_code
    return r.get_json()


def totals(client, game_id: int) -> dict[str, int]:
    return {p["name"]: p["total"] for p in api(client, game_id)["standings"]["players"]}


def settlement(client, night_id: int) -> str:
    return client.get(f"/nights/{night_id}/payout.txt").get_data(as_text=True)


def person_id(app, night_id: int, name: str) -> int:
    with app.app_context():
        return db.session.scalar(
            select(Person.id).where(Person.night_id == night_id, Person.name == name)
        )


def rename(keeper: Keeper, app, night_id: int, old: str, new: str):
    pid = person_id(app, night_id, old)
    return keeper.post_form(f"/nights/{night_id}/people/{pid}", {"name": new})


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


# ------------------------------------------------------------------------- renames ---
@pytest.mark.parametrize("name", ["K", "A", "W", "JK", "7", "10", "hands", "went_out", "drops"])
def test_renaming_someone_called_a_card_code_or_a_record_key_changes_no_number(
    keeper, client, app, name
):
    night = keeper.night(["Ann", name, "Cy"])
    game = keeper.game(night, "vegas", ["Ann", name, "Cy"], buy_in="1.00", max_score="200")
    # Ann holds A K W = 1 + 10 + 25; Cy JK 7 10 = 25 + 7 + 10; then the named player.
    assert (
        keeper.enter(game, name, {"Ann": ["A", "K", "W"], "Cy": ["JK", "7", "10"]}).status_code
        == 302
    )
    assert keeper.enter(game, "Ann", {name: ["K", "A"], "Cy": 4}).status_code == 302
    before = api(client, game)
    assert totals(client, game) == {"Ann": 36, name: 11, "Cy": 46}

    r = rename(keeper, app, night, name, "Bo")
    assert r.status_code == 302, text_of(r)
    after = api(client, game)
    assert totals(client, game) == {"Ann": 36, "Bo": 11, "Cy": 46}
    rounds = after["record"]["rounds"]
    assert rounds[0]["hands"] == {"Ann": ["A", "K", "W"], "Cy": ["JK", "7", "10"]}
    assert rounds[0]["went_out"] == "Bo"
    assert rounds[1]["hands"] == {"Bo": ["K", "A"], "Cy": 4}
    assert after["standings"]["pot"]["total"] == before["standings"]["pot"]["total"]
    assert client.get(f"/games/{game}").status_code == 200
    assert client.get(f"/games/{game}/rounds/1").status_code == 200


@pytest.mark.parametrize("new", ["K", "A", "hands", "players"])
def test_renaming_someone_to_a_card_code_changes_no_number(keeper, client, app, new):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": ["K", "A", "Q"]}).status_code == 302
    assert rename(keeper, app, night, "Bob", new).status_code == 302
    data = api(client, game)
    assert data["record"]["rounds"][0]["hands"] == {new: ["K", "A", "Q"]}
    assert totals(client, game) == {"Ann": 21, new: 0}


def test_a_waiting_late_joiner_who_is_renamed_joins_with_the_new_name(keeper, client, app):
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 20, "Cy": 10}).status_code == 302
    r = keeper.post_form(f"/games/{game}/join", {"person": "Dee", "action": "add"})
    assert r.status_code == 302
    assert rename(keeper, app, night, "Dee", "Deirdre").status_code == 302
    assert "Joining this round: Deirdre" in text_of(client.get(f"/games/{game}"))
    r = keeper.enter(game, "Bob", {"Ann": 5, "Cy": 5, "Deirdre": 5})
    assert r.status_code == 302, text_of(r)
    data = api(client, game)
    assert data["record"]["rounds"][1]["joins"] == ["Deirdre"]
    assert totals(client, game)["Deirdre"] == 20 + 5  # joined at the highest total
    with app.app_context():
        names = db.session.scalars(select(Person.name).where(Person.night_id == night)).all()
    assert sorted(names) == ["Ann", "Bob", "Cy", "Deirdre"]  # no second Dee


def test_renaming_to_a_look_alike_of_someone_else_is_refused(keeper, app):
    night = keeper.night(["Ann", "Bob"])
    before = snapshot(app)
    r = rename(keeper, app, night, "Bob", "ANN\u200b")
    assert r.status_code == 422
    assert "already on tonight's list" in text_of(r)
    assert snapshot(app) == before


def test_a_rename_racing_a_round_save_answers_with_a_sentence(keeper, client, app, monkeypatch):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    real = nights.lock_rows

    def another_phone_saves_meanwhile(model, ids, **kwargs):
        # Another worker commits a change to the game after this rename loaded it, just
        # before the rename locks it (once locked, the other worker would wait instead).
        with db.engine.begin() as conn:
            conn.execute(
                text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": game}
            )
        monkeypatch.setattr(nights, "lock_rows", real)
        return real(model, ids, **kwargs)

    monkeypatch.setattr(nights, "lock_rows", another_phone_saves_meanwhile)
    r = rename(keeper, app, night, "Bob", "Rob")
    assert r.status_code == 409
    assert "changed at the same moment" in text_of(r)
    assert totals(client, game) == {"Ann": 5, "Bob": 0}  # nobody renamed, nothing half done


def test_a_double_tapped_rename_is_done_once(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    pid = person_id(app, night, "Bob")
    _, hidden = keeper.form(f"/nights/{night}/people/{pid}")
    for _ in range(2):
        r = client.post(f"/nights/{night}/people/{pid}", data={**hidden, "name": "Rob"})
        assert r.status_code == 302
    assert list(totals(client, game)) == ["Ann", "Rob"]


# --------------------------------------------------------------------- corrections ---
def _vegas_with_a_drop(keeper: Keeper) -> tuple[int, int]:
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy", "Dee"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 50, "Cy": 10, "Dee": 10}).status_code == 302
    # Bob 50 + 60 = 110 expires and drops; the others play on.
    r = keeper.enter(game, "Cy", {"Ann": 10, "Bob": 60, "Dee": 10}, drops=["Bob"])
    assert r.status_code == 302
    assert keeper.enter(game, "Dee", {"Ann": 5, "Cy": 5}).status_code == 302
    assert keeper.enter(game, "Ann", {"Cy": 5, "Dee": 5}).status_code == 302
    return night, game


def test_the_correction_of_a_round_with_a_drop_opens_once_later_rounds_exist(keeper, client):
    _, game = _vegas_with_a_drop(keeper)
    page = client.get(f"/games/{game}/rounds/2")
    assert page.status_code == 200
    assert "Bob reached 110." in text_of(page)
    assert 'value="drop" checked' in page.get_data(as_text=True)


def test_every_round_of_every_game_opens_for_correction(keeper, client):
    _, game = _vegas_with_a_drop(keeper)
    night = keeper.night(["Ann", "Bob", "Cy"], name="Second")
    games = [game]
    for variant in ("texas", "rummy", "multiplayer", "dummy"):
        g = keeper.game(night, variant, ["Ann", "Bob", "Cy"])
        for went_out, hands in [("Ann", {"Bob": 5, "Cy": 7}), ("Bob", {"Ann": 3, "Cy": 2})]:
            extra = {"contracts": [went_out]} if variant == "dummy" else {}
            assert keeper.enter(g, went_out, hands, **extra).status_code == 302
        games.append(g)
    for g in games:
        for number in range(1, api(client, g)["standings"]["rounds_played"] + 1):
            assert client.get(f"/games/{g}/rounds/{number}").status_code == 200, (g, number)


def test_a_correction_that_breaks_a_later_drop_names_that_round_at_the_top(keeper, client):
    _, game = _vegas_with_a_drop(keeper)
    before = api(client, game)
    # Round 1 corrected so Bob holds 5: he no longer reaches the max in round 2, so his
    # drop there cannot stand.
    r = keeper.enter(game, "Ann", {"Bob": 5, "Cy": 10, "Dee": 10}, number=1)
    assert r.status_code == 422
    page = text_of(r)
    assert "round 2 would no longer hold: Bob cannot drop" in page
    assert "fix the marked field" not in page  # no field is marked: the top says it all
    assert api(client, game) == before


def test_the_reset_shown_on_a_correction_is_the_one_saved(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    for went_out, hands in [
        ("Ann", {"Bob": 40, "Cy": 10}),
        ("Bob", {"Ann": 30, "Cy": 20}),
        ("Cy", {"Ann": 5, "Bob": 50}),
    ]:
        assert keeper.enter(game, went_out, hands).status_code == 302
    # Correcting round 2 so Ann reaches 100: the form asks, saying where she goes back to.
    data = keeper.round_data(game, "Bob", {"Ann": 100, "Cy": 20}, number=2)
    r = keeper.post_form(f"/games/{game}/rounds/2", data)
    shown = re.search(r"Ann reached 100\. Re-buy for \$1\.00 \(back to (\d+)\)", text_of(r))
    assert shown, text_of(r)
    r = client.post(f"/games/{game}/rounds/2", data={**data, **inputs(r.get_data(as_text=True))})
    assert r.status_code == 302
    rnd = api(client, game)["standings"]
    ann = next(p for p in rnd["players"] if p["name"] == "Ann")
    assert ann["total"] == int(shown.group(1)) + 5  # the reset shown, then round 3's 5


def test_a_joiners_start_on_the_correction_form_is_where_they_started(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 40}).status_code == 302
    assert (
        keeper.post_form(f"/games/{game}/join", {"person": "Cy", "action": "add"}).status_code
        == 302
    )
    assert keeper.enter(game, "Bob", {"Ann": 5, "Cy": 3}).status_code == 302
    page = text_of(client.get(f"/games/{game}/rounds/2"))
    assert "Cy (joins at 40)" in page
    assert totals(client, game)["Cy"] == 40 + 3


# ----------------------------------------------------------- creating things twice ---
def test_a_night_posted_twice_is_created_once(keeper, client, app):
    _, hidden = keeper.form("/nights/new")
    data = {
        **hidden,
        "name": "Friday",
        "played_on": "2026-11-20",
        "currency": "USD",
        "paper": "A4",
        "people": "Ann\nBob",
    }
    first = client.post("/nights/new", data=data)
    second = client.post("/nights/new", data=data)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert count(app, Night) == 1
    assert "already started (sent twice)" in text_of(client.get(second.headers["Location"]))


def test_a_person_added_twice_is_on_the_list_once(keeper, client, app):
    night = keeper.night(["Ann"])
    _, hidden = keeper.form(f"/nights/{night}")
    for _ in range(2):
        r = client.post(f"/nights/{night}/people", data={**hidden, "name": "Bob"})
        assert r.status_code == 302
    assert count(app, Person) == 2


def test_a_game_posted_twice_is_started_once(keeper, client, app, monkeypatch):
    night = keeper.night(["Ann", "Bob"])
    posts: list[Any] = []
    real_post = client.post

    def twice(url, **kwargs):
        posts.append(real_post(url, **kwargs))
        return real_post(url, **kwargs)

    monkeypatch.setattr(client, "post", twice)
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert posts[0].headers["Location"].endswith(f"/games/{game}")
    assert count(app, Game) == 1


def _record() -> dict[str, Any]:
    return {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"buy_in": 500, "target_score": 20},
        "players": ["Ann", "Bob"],
        "rounds": [{"went_out": "Ann", "hands": {"Bob": 25}}],
    }


def test_an_import_posted_twice_does_not_double_the_settlement(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    _, hidden = keeper.form(f"/nights/{night}/games/import")
    data = {**hidden, "record": json.dumps(_record())}
    first = client.post(f"/nights/{night}/games/import", data=data)
    second = client.post(f"/nights/{night}/games/import", data=data)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert count(app, Game) == 1
    assert "Bob pays Ann $5.00" in settlement(client, night)


def test_racing_imports_of_one_form_store_one_game(keeper, client, app, monkeypatch):
    """Two posts that both pass the check before either commits: the one-time id's unique
    constraint lets one in; the other finds the first one's game."""
    night = keeper.night(["Ann", "Bob"])
    _, hidden = keeper.form(f"/nights/{night}/games/import")
    data = {**hidden, "record": json.dumps(_record())}
    real_check = base.check_new
    calls = {"n": 0}

    def check_then_lose_the_race(user, submission):
        real_check(user, submission)
        calls["n"] += 1
        if calls["n"] == 1:  # the other post commits right after this one's check
            with app.test_client() as other:
                other.set_cookie("session", client.get_cookie("session").value)
                assert other.post(f"/nights/{night}/games/import", data=data).status_code == 302

    monkeypatch.setattr(base, "check_new", check_then_lose_the_race)
    r = client.post(f"/nights/{night}/games/import", data=data)
    assert r.status_code == 302
    assert count(app, Game) == 1
    assert "Bob pays Ann $5.00" in settlement(client, night)


# ---------------------------------------------------------------- delete & restore ---
def test_a_deleted_game_leaves_the_settlement_and_comes_back_restored(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    for _ in range(2):
        r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(_record())})
        assert r.status_code == 302
    second = int(r.headers["Location"].rsplit("/", 1)[-1])
    assert "Bob pays Ann $10.00" in settlement(client, night)

    page = client.get(f"/games/{second}/delete")
    assert "Delete this game?" in text_of(page) and "who pays whom changes" in text_of(page)
    form = inputs(page.get_data(as_text=True))
    r = client.post(f"/games/{second}/delete", data=form)
    assert r.status_code == 302
    assert client.post(f"/games/{second}/delete", data=form).status_code == 302  # double tap
    assert "Bob pays Ann $5.00" in settlement(client, night)
    assert client.get(f"/games/{second}").status_code == 404
    assert client.get(f"/api/v1/games/{second}").status_code == 404
    night_page = client.get(f"/nights/{night}").get_data(as_text=True)
    assert "Deleted games" in night_page

    restore = re.search(
        rf'action="/games/{second}/restore".*?</form>', night_page, flags=re.S
    ).group(0)
    r = client.post(f"/games/{second}/restore", data=inputs(restore))
    assert r.status_code == 302
    assert "Bob pays Ann $10.00" in settlement(client, night)
    history = text_of(client.get(f"/games/{second}/history"))
    assert "Game deleted" in history and "Game restored" in history


def test_a_deleted_night_leaves_the_list_and_can_be_restored(keeper, client, app):
    night = keeper.night(["Ann", "Bob"], name="Doomed")
    page = client.get(f"/nights/{night}/delete")
    assert "Delete this night?" in text_of(page)
    hidden = inputs(page.get_data(as_text=True))
    assert client.post(f"/nights/{night}/delete", data=hidden).status_code == 302
    assert client.post(f"/nights/{night}/delete", data=hidden).status_code == 302
    assert client.get(f"/nights/{night}").status_code == 404
    home = client.get("/").get_data(as_text=True)
    assert "Deleted nights" in home
    assert client.post(f"/nights/{night}/restore", data=inputs(home)).status_code == 302
    assert client.get(f"/nights/{night}").status_code == 200


# ----------------------------------------------------------------- races and heads ---
def test_a_person_added_by_two_phones_at_once_is_a_sentence(keeper, client, app, monkeypatch):
    night = keeper.night(["Ann"])
    real = nights.new_person

    def other_phone_adds_bob(n, raw_name):
        # After this post read the night, before it writes anything (Bob's regular is
        # the first thing it writes, and another writer would then wait for its commit).
        with db.engine.begin() as conn:
            owner = conn.execute(
                text("SELECT owner_id FROM nights WHERE id = :n"), {"n": night}
            ).scalar_one()
            regular = conn.execute(
                text(
                    "INSERT INTO regulars (owner_id, name, name_key, created_at) "
                    "VALUES (:o, 'Bob', 'bob', CURRENT_TIMESTAMP) RETURNING id"
                ),
                {"o": owner},
            ).scalar_one()
            conn.execute(
                text(
                    "INSERT INTO people (night_id, regular_id, name, name_key) "
                    "VALUES (:n, :r, 'Bob', 'bob')"
                ),
                {"n": night, "r": regular},
            )
        return real(n, raw_name)

    monkeypatch.setattr(nights, "new_person", other_phone_adds_bob)
    r = keeper.post_form(f"/nights/{night}", {"name": "Bob"}, action=f"/nights/{night}/people")
    assert r.status_code == 422
    assert "Bob is already on tonight's list" in text_of(r)
    assert count(app, Person) == 2


def test_a_head_request_with_a_form_body_creates_nothing(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    ids = keeper.person_ids(night)
    before = snapshot(app)
    for url in (
        f"/nights/{night}/games/new?variant=rummy",
        "/nights/new",
        f"/nights/{night}/games/import",
    ):
        r = client.open(
            url,
            method="HEAD",
            data={
                "variant": "rummy",
                f"seat-{ids['Ann']}": "1",
                f"seat-{ids['Bob']}": "2",
                "first_dealer": "Ann",
                "name": "X",
                "played_on": "2026-11-20",
                "record": json.dumps(_record()),
            },
        )
        assert r.status_code < 500, url
    assert snapshot(app) == before


# ------------------------------------------------------------------- cached sheets ---
def test_a_restarted_browser_is_not_answered_304_with_an_old_token(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    client.get(f"/games/{game}")  # the flash
    page = client.get(f"/games/{game}")
    etag = page.headers["ETag"]
    assert client.get(f"/games/{game}", headers={"If-None-Match": etag}).status_code == 304
    # The browser restarts: its session cookie is gone and the keeper logs in again. Same
    # game, same version, but a new session with a new CSRF token: no 304 of the old page.
    client.delete_cookie("session")
    client.delete_cookie("remember_token")
    assert keeper.login("keeper@example.com").status_code == 302
    fresh = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert fresh.status_code == 200
    assert fresh.headers["ETag"] != etag


def test_private_pages_say_how_they_may_be_cached(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    for url in (
        "/",
        f"/nights/{night}",
        f"/games/{game}",
        f"/games/{game}/history",
        f"/nights/{night}/payout",
        f"/api/v1/games/{game}",
        f"/games/{game}/sheet.pdf",
    ):
        r = client.get(url)
        assert r.status_code == 200, url
        assert "private" in r.headers["Cache-Control"], url
        assert "no-cache" in r.headers["Cache-Control"], url


@pytest.mark.parametrize("path", ["/games/{big}", "/api/v1/games/{big}", "/games/{big}/sheet.pdf"])
def test_a_conditional_get_with_an_id_past_the_integer_range_is_404(keeper, client, path):
    r = client.get(path.format(big=2**31), headers={"If-None-Match": 'W/"g1-v1"'})
    assert r.status_code == 404


# ----------------------------------------------------------------- edge inputs ---
def test_a_lone_surrogate_in_an_imported_record_is_a_sentence(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    before = snapshot(app)
    record = json.dumps(_record()).replace('"Bob"', '"B\\ud800ob"')
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": record})
    assert r.status_code == 422
    assert "lone surrogate" in text_of(r)
    assert snapshot(app) == before


def test_ace_points_as_a_float_is_refused_on_import(keeper, app):
    night = keeper.night(["Ann", "Bob"])
    record = {"variant": "vegas", "settings": {"ace_points": 1.0}, "players": ["Ann", "Bob"]}
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert r.status_code == 422
    assert "ace_points must be 1, 11 or 13" in text_of(r)
    assert count(app, Game) == 0


@pytest.mark.parametrize(
    ("first", "twin"),
    [
        ("Ann", "Ann\u200b"),
        ("Ännä", unicodedata.normalize("NFD", "Ännä")),
        ("Ann", "ANN"),
        ("Ann", "\ufeffAnn"),
    ],
)
def test_look_alike_names_are_one_person_on_the_list(keeper, client, app, first, twin):
    night = keeper.night([first])
    r = keeper.post_form(f"/nights/{night}", {"name": twin}, action=f"/nights/{night}/people")
    assert r.status_code == 422
    assert "already on tonight's list" in text_of(r)
    assert count(app, Person) == 1


def test_a_night_list_with_look_alike_names_is_refused(keeper, client, app):
    _, hidden = keeper.form("/nights/new")
    r = client.post(
        "/nights/new",
        data={
            **hidden,
            "name": "F",
            "played_on": "2026-11-20",
            "currency": "USD",
            "paper": "A4",
            "people": "Zoë\n" + unicodedata.normalize("NFD", "Zoë"),
        },
    )
    assert r.status_code == 422
    assert "listed twice" in text_of(r)
    assert count(app, Night) == 0


# --------------------------------------------------------------------------- limits ---
def test_a_record_beyond_the_round_limit_is_refused_with_a_sentence(keeper, app):
    night = keeper.night(["Ann", "Bob"])
    record = {**_record(), "settings": {"target_score": 100_000}}
    record["rounds"] = [{"went_out": "Ann", "hands": {"Bob": 0}}] * (MAX_ROUNDS + 1)
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert r.status_code == 422
    assert f"a game holds at most {MAX_ROUNDS} rounds" in text_of(r)
    assert count(app, Game) == 0


def test_no_round_past_the_limit_can_be_entered(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    record = {**_record(), "settings": {"target_score": 100_000}}
    record["rounds"] = [{"went_out": "Ann", "hands": {"Bob": 0}}] * MAX_ROUNDS
    assert (
        keeper.post_form(
            f"/nights/{night}/games/import", {"record": json.dumps(record)}
        ).status_code
        == 302
    )
    game = next(iter(api_ids(client, night)))
    r = keeper.enter(game, "Ann", {"Bob": 1})
    assert r.status_code == 422
    assert f"at most {MAX_ROUNDS} rounds" in text_of(r)
    assert api(client, game)["standings"]["rounds_played"] == MAX_ROUNDS


def api_ids(client, night: int) -> list[int]:
    page = client.get(f"/nights/{night}").get_data(as_text=True)
    return [int(x) for x in dict.fromkeys(re.findall(r'href="/games/(\d+)"', page))]


def test_a_night_holds_a_bounded_number_of_games(keeper, client, app, monkeypatch):
    monkeypatch.setattr(games, "MAX_GAMES_PER_NIGHT", 2)
    night = keeper.night(["Ann", "Bob"])
    for _ in range(2):
        keeper.game(night, "rummy", ["Ann", "Bob"])
    ids = keeper.person_ids(night)
    url = f"/nights/{night}/games/new?variant=rummy"
    r = keeper.post_form(
        url,
        {
            "variant": "rummy",
            "first_dealer": "Ann",
            f"seat-{ids['Ann']}": "1",
            f"seat-{ids['Bob']}": "2",
        },
    )
    assert r.status_code == 422
    assert "a night holds at most 2 games" in text_of(r)
    assert count(app, Game) == 2


def test_the_history_is_shown_a_page_at_a_time(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], target_score="10000")
    for i in range(55):
        assert keeper.enter(game, "Ann", {"Bob": i}).status_code == 302
    first = client.get(f"/games/{game}/history").get_data(as_text=True)
    assert first.count("<li>") == 50
    assert "Deal 55: Ann went out" in first
    older = re.search(r'href="([^"]+before=\d+)"', first).group(1).replace("&amp;", "&")
    rest = client.get(older).get_data(as_text=True)
    assert "Deal 1: Ann went out" in rest and "Started with Ann, Bob" in rest
    assert rest.count("<li>") == 56 - 50


def test_no_get_or_head_can_write_whatever_a_view_does(app, client):
    """The root of the HEAD-with-a-body class: a GET or HEAD that tries to change the
    database (no CSRF check guards them) is refused before anything is flushed."""

    @app.get("/test-only/writes-on-get")
    def writes_on_get():
        db.session.add(Night(owner_id=1, name="x", played_on=None))
        db.session.commit()
        return "written"

    keeper = Keeper(client)
    keeper.signup()
    before = snapshot(app)
    for method in ("GET", "HEAD"):
        r = client.open("/test-only/writes-on-get", method=method)
        assert r.status_code == 405, method
    assert snapshot(app) == before
