"""A score keeper's night through the test client: Texas and Vegas games, corrections,
history, and the refusals (another user's game, CSRF, bad numbers, duplicates, stale edits)."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper import services
from scorekeeper.rules import load_game
from tests.web.keeper import Keeper, inputs, text_of


@pytest.fixture
def keeper(client):
    k = Keeper(client)
    k.signup()
    return k


def api(client, game_id):
    r = client.get(f"/api/v1/games/{game_id}")
    assert r.status_code == 200
    return r.get_json()


def test_new_night_and_game_show_the_first_banner(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"], first_dealer="Bob")
    page = text_of(client.get(f"/games/{game}"))
    assert "Round 1 · Threes wild" in page
    assert "3 cards" in page
    assert "Bob deals , Cy starts" in page
    assert "Pot: $1.50" in page  # three antes of 50 cents


def test_new_game_warns_about_a_two_player_texas_pot(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    page = text_of(client.get(f"/nights/{night}/games/new?variant=texas"))
    # Two antes of 50 cents against eleven payments of 10: in money, not "cents"/"dimes".
    assert (
        "The pot holds $1.00 of antes (2 × $0.50) but pays $0.10 to whoever goes out in each "
        "of 11 rounds ($1.10): it runs dry after 10 rounds" in page
    )
    assert "cents" not in page and "dimes" not in page
    # Ante and buy-in explained apart (issue 34: both read "Paid by each player at the start").
    assert "Ante Each player's stake at the start: whoever goes out is paid from it" in page
    assert "Buy-in Only if your table plays one besides the ante (0: none)" in page


def _seated_post(keeper, night, variant, players, **extra):
    """Post the new-game form with ``players`` seated (the rest of the night sits out)."""
    ids = keeper.person_ids(night)
    url = f"/nights/{night}/games/new?variant={variant}"
    page, hidden = keeper.form(url)
    html = page.get_data(as_text=True)  # the table rules as the form fills them in
    shown = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', html))
    data = {**shown, **hidden, "variant": variant, "first_dealer": players[0], **extra}
    data.update({f"seat-{pid}": "" for pid in ids.values()})
    data.update({f"seat-{ids[n]}": str(i) for i, n in enumerate(players, 1)})
    return keeper.client.post(url, data=data), data, url


def games_of(keeper, night):
    return keeper.client.get(f"/nights/{night}").get_data(as_text=True).count('href="/games/')


def test_setup_warns_from_the_seats_taken_and_starts_only_once_seen(keeper, client):
    """Four on the night, two seated at Texas: the warning comes from the seats, in the
    night's currency, nothing is started until the keeper starts anyway."""
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"], currency="EUR")
    before = games_of(keeper, night)
    r, data, url = _seated_post(keeper, night, "texas", ["Ann", "Bob"])
    assert r.status_code == 200
    page = text_of(r)
    assert "runs dry after 10 rounds" in page and "€1.00 of antes" in page
    assert "Start anyway" in page
    assert games_of(keeper, night) == before  # nothing started
    warned = re.search(r'name="warned" value="(\w+)"', r.get_data(as_text=True))[1]
    r = client.post(url, data={**data, "warned": warned})
    assert r.status_code == 302 and "/games/" in r.headers["Location"]
    game_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    record = client.get(f"/api/v1/games/{game_id}").get_json()["record"]
    assert record["players"] == ["Ann", "Bob"]


def test_a_warning_seen_for_other_seats_does_not_start_a_changed_game(keeper, client):
    """The "Start anyway" answers the warnings it was shown: seats changed meanwhile so
    that another warning applies, the keeper is asked again."""
    night = keeper.night([f"P{i}" for i in range(1, 9)])
    r, data, url = _seated_post(keeper, night, "rummy", [f"P{i}" for i in range(1, 8)])
    assert "Rummy is best with 2 to 6 players; you have 7." in text_of(r)
    warned = re.search(r'name="warned" value="(\w+)"', r.get_data(as_text=True))[1]
    ids = keeper.person_ids(night)
    r = client.post(url, data={**data, f"seat-{ids['P8']}": "8", "warned": warned})
    assert r.status_code == 200 and "you have 8." in text_of(r)


def test_seats_within_the_advice_start_at_once(keeper, client):
    """Eight on the night's list, three seated at Rummy: no warning, the game starts."""
    night = keeper.night([f"P{i}" for i in range(1, 9)])
    page = text_of(client.get(f"/nights/{night}/games/new?variant=rummy"))
    r, _, _ = _seated_post(keeper, night, "rummy", ["P1", "P2", "P3"])
    assert r.status_code == 302, text_of(r)
    assert "best with" not in text_of(client.get(r.headers["Location"]))
    assert page  # the form itself opened


def test_new_game_refuses_bad_settings_and_keeps_them(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    ids = keeper.person_ids(night)
    url = f"/nights/{night}/games/new?variant=vegas"
    _, hidden = keeper.form(url)
    r = client.post(
        url,
        data={
            **hidden,
            "variant": "vegas",
            "first_dealer": "Ann",
            f"seat-{ids['Ann']}": "1",
            f"seat-{ids['Bob']}": "2",
            "buy_in": "2.555",
            "pot_split": "70/20",
            "max_score": "100",
            "cards_per_player": "7",
            "ace_points": "1",
        },
    )
    assert r.status_code == 422
    page = text_of(r)
    assert "an amount in USD has at most 2 decimals" in page
    r = client.post(
        url,
        data={
            **hidden,
            "variant": "vegas",
            "first_dealer": "Ann",
            f"seat-{ids['Ann']}": "1",
            f"seat-{ids['Bob']}": "2",
            "buy_in": "2",
            "pot_split": "70/20",
            "max_score": "100",
            "cards_per_player": "7",
            "ace_points": "1",
        },
    )
    assert r.status_code == 422
    assert "pot_split must add up to 100 (got 90)" in text_of(r)
    assert 'value="70/20"' in r.get_data(as_text=True)
    r = client.post(
        url,
        data={
            **hidden,
            "variant": "vegas",
            "first_dealer": "Ann",
            f"seat-{ids['Ann']}": "1",
            "buy_in": "2",
            "pot_split": "70/30",
            "max_score": "100",
            "cards_per_player": "7",
            "ace_points": "1",
        },
    )
    assert r.status_code == 422 and "at least 2 players" in text_of(r)
    assert client.get(f"/nights/{night}").status_code == 200
    assert "No games yet" in text_of(client.get(f"/nights/{night}"))


def play_texas(keeper, game):
    """Eleven rounds: Ann, Bob, Cy take turns going out."""
    hands = [
        ("Ann", {"Bob": 12, "Cy": ["K", "3", "JK"]}),  # round 1: threes wild: Cy 10+20+50
        ("Bob", {"Ann": 5, "Cy": "4+4"}),
        ("Cy", {"Ann": 0, "Bob": 9}),
        ("Ann", {"Bob": 6, "Cy": 10}),
        ("Bob", {"Ann": 7, "Cy": 3}),
        ("Cy", {"Ann": 8, "Bob": 8}),
        ("Ann", {"Bob": 20, "Cy": 1}),
        ("Bob", {"Ann": 2, "Cy": 2}),
        ("Cy", {"Ann": 10, "Bob": 4}),  # x2
        ("Ann", {"Bob": 5, "Cy": 6}),  # x2
        ("Bob", {"Ann": 3, "Cy": ["Q", "A"]}),  # x3: kings wild, Q 10 + A 20 = 30 -> 90
    ]
    for went_out, hand in hands:
        r = keeper.enter(game, went_out, hand)
        assert r.status_code == 302, text_of(r)


def test_a_full_texas_game_matches_the_engine(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    data = api(client, game)
    standings = data["standings"]
    assert standings == load_game(data["record"]).to_json()
    totals = {p["name"]: p["total"] for p in standings["players"]}
    # Ann: 5+0+7+8+2 + 2*10 + 3*3 = 22 + 20 + 9 = 51
    assert totals["Ann"] == 5 + 0 + 7 + 8 + 2 + 2 * 10 + 3 * 3
    # Bob: 12+9+6+8+20 + 2*4 + 2*5 = 55 + 18 = 73
    assert totals["Bob"] == 12 + 9 + 6 + 8 + 20 + 2 * 4 + 2 * 5
    # Cy: 80+8+10+3+1+2 + 2*6 + 3*30 = 104 + 12 + 90 = 206
    assert totals["Cy"] == (10 + 20 + 50) + 8 + 10 + 3 + 1 + 2 + 2 * 6 + 3 * 30
    assert standings["finished"] and standings["winners"] == ["Ann"]
    # Pot: 150 in, 11 dimes out = 110, Ann takes the rest 40 + her 4 dimes.
    assert standings["pot"]["balances"] == {"Ann": -50 + 40 + 40, "Bob": -50 + 40, "Cy": -50 + 30}
    page = text_of(client.get(f"/games/{game}"))
    assert "Ann won after 11 rounds" in page
    assert "New game, same players" in page
    assert "Kings ×3" in page


def test_texas_x3_round_shows_the_multiplier_on_the_form(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "texas", ["Ann", "Bob"])
    for _ in range(10):
        assert keeper.enter(game, "Ann", {"Bob": 1}).status_code == 302
    page = text_of(client.get(f"/games/{game}/rounds/new"))
    assert "Round 11" in page and "Kings wild" in page and "×3" in page
    assert "the app multiplies by 3" in page


def test_vegas_expiry_rebuy_drop_and_late_joiner(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="2.00")
    assert keeper.enter(game, "Ann", {"Bob": 60, "Cy": 30}, wild="7c").status_code == 302
    # Bob reaches 60 + 45 = 105 and expires: the form asks, re-buy preselected.
    data = keeper.round_data(game, "Cy", {"Ann": 20, "Bob": 45})
    r = keeper.post_form(f"/games/{game}/rounds/new", data)
    page = text_of(r)
    assert r.status_code == 200
    assert "Bob reached 105. Re-buy for $2.00 (back to 30) or drop out?" in page
    assert 'value="rebuy" checked' in r.get_data(as_text=True)
    r = client.post(f"/games/{game}/rounds/new", data={**data, **inputs(r.get_data(as_text=True))})
    assert r.status_code == 302
    standings = api(client, game)["standings"]
    bob = next(p for p in standings["players"] if p["name"] == "Bob")
    assert bob["total"] == 30 and bob["expiries"] == 1
    assert standings["pot"]["total"] == 3 * 200 + 200
    sheet = text_of(client.get(f"/games/{game}"))
    assert "105 →30 +45 R" in sheet  # the total reached, then where Bob starts again

    # Dee joins late: the reference player is Bob (1 expiry, total 30): pays 1 x $2.
    r = keeper.post_form(f"/games/{game}/join", {"person": "Dee", "action": "add"})
    assert r.status_code == 302
    assert "Dee joins at the start of round 3, pays $2.00 and starts at 30." in text_of(
        client.get(f"/games/{game}")
    )
    r = keeper.enter(game, "Ann", {"Bob": 10, "Cy": 5, "Dee": 5})
    assert r.status_code == 302, text_of(r)
    # Cy: 30 + 5 + 75 = 110 expires and drops.
    r = keeper.enter(game, "Dee", {"Ann": 10, "Bob": 10, "Cy": 75}, drops=["Cy"])
    assert r.status_code == 302, text_of(r)
    standings = api(client, game)["standings"]
    by_name = {p["name"]: p for p in standings["players"]}
    assert by_name["Dee"]["scores"] == [None, None, 5, 0]
    assert by_name["Dee"]["total"] == 30 + 5
    assert not by_name["Cy"]["in_contention"]
    assert by_name["Cy"]["total"] == 30 + 5 + 75
    assert standings["pot"]["total"] == 3 * 200 + 200 + 200  # buy-ins, Bob's re-buy, Dee
    assert "dropped" in text_of(client.get(f"/games/{game}"))
    assert standings == load_game(api(client, game)["record"]).to_json()
    # The history keeps the choices: the re-buy, the join, the drop (issue 22 point 5).
    history = text_of(client.get(f"/games/{game}/history"))
    assert "Round 2: Cy went out; Ann 20, Bob 45; Bob re-bought, back to 30" in history
    assert "Round 3: Ann went out; Bob 10, Cy 5, Dee 5; Dee joined" in history
    assert "Round 4: Dee went out; Ann 10, Bob 10, Cy 75; Cy dropped out" in history


def test_correcting_a_round_three_back_recomputes_everything(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    rounds = [
        ("Ann", {"Bob": 40, "Cy": 10}),
        ("Bob", {"Ann": 30, "Cy": 20}),
        ("Cy", {"Ann": 5, "Bob": 50}),
        ("Ann", {"Bob": 5, "Cy": 5}),
    ]
    for went_out, hands in rounds:
        assert keeper.enter(game, went_out, hands).status_code == 302
    # Bob: 40 + 0 + 50 + 5 = 95. Round 1 was mistyped: Bob had 4, not 40.
    r = keeper.enter(game, "Ann", {"Bob": 4, "Cy": 10}, number=1)
    assert r.status_code == 302, text_of(r)
    standings = api(client, game)["standings"]
    bob = next(p for p in standings["players"] if p["name"] == "Bob")
    assert bob["total"] == 4 + 0 + 50 + 5
    history = text_of(client.get(f"/games/{game}/history"))
    assert "Round 1 corrected: Bob: 40 → 4" in history


def test_a_correction_that_causes_an_expiry_resets_later_rounds(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    for went_out, hands in [
        ("Ann", {"Bob": 40, "Cy": 10}),
        ("Bob", {"Ann": 30, "Cy": 20}),
        ("Cy", {"Ann": 5, "Bob": 50}),
    ]:
        assert keeper.enter(game, went_out, hands).status_code == 302
    # Round 2 corrected so Ann ends round 2 at 100: she expires there and re-buys to the
    # highest total of those who did not expire: Bob 40 (Cy has 10 + 20 = 30).
    r = keeper.enter(game, "Bob", {"Ann": 100, "Cy": 20}, number=2)
    assert r.status_code == 302, text_of(r)
    s = api(client, game)["standings"]
    ann = next(p for p in s["players"] if p["name"] == "Ann")
    assert ann["expiries"] == 1 and ann["total"] == 40 + 5
    assert s["pot"]["total"] == 300 + 100


def test_remove_last_round_and_undo(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 20}).status_code == 302
    page = client.get(f"/games/{game}?saved=1")
    assert "Deal 1 saved." in text_of(page)  # Rummy says deal
    r = client.post(f"/games/{game}/rounds/last/delete", data=inputs(page.get_data(as_text=True)))
    assert r.status_code == 302
    assert api(client, game)["standings"]["rounds_played"] == 0
    assert "Removed deal 1: Ann went out; Bob 20" in text_of(client.get(f"/games/{game}/history"))


def test_bad_numbers_are_refused_next_to_the_field_and_kept(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    r = keeper.enter(game, "Ann", {"Bob": "-5", "Cy": "twelve"})
    assert r.status_code == 422
    page = text_of(r)
    assert "Bob: points cannot be negative" in page
    assert "Cy: 'TWELVE' is not points or a card" in page
    assert 'value="twelve"' in r.get_data(as_text=True)
    r = keeper.enter(game, "Ann", {"Bob": "", "Cy": "4"})
    assert "Bob: give the points left in the hand" in text_of(r)
    r = keeper.enter(game, "Ann", {"Bob": "99999", "Cy": "4"})
    assert "more than any hand can hold" in text_of(r)
    r = keeper.post_form(f"/games/{game}/rounds/new", {"hand-1": "3"})
    assert r.status_code == 422 and "Tap who went out" in text_of(r)
    assert api(client, game)["standings"]["rounds_played"] == 0


def test_vegas_requires_someone_out_and_a_valid_flipped_card(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "vegas", ["Ann", "Bob"])
    page = client.get(f"/games/{game}/rounds/new").get_data(as_text=True)
    assert "Nobody" not in page
    r = keeper.enter(game, "Ann", {"Bob": 5}, wild="ZZ")
    assert r.status_code == 422 and "Write the flipped card as rank and suit" in text_of(r)


def test_duplicate_submission_is_recorded_once(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    url = f"/games/{game}/rounds/new"
    data = {**keeper.round_data(game, "Ann", {"Bob": 20})}
    _, hidden = keeper.form(url)
    first = client.post(url, data={**hidden, **data})
    second = client.post(url, data={**hidden, **data})  # the double tap
    assert first.status_code == 302 and second.status_code == 302
    assert "already saved" in text_of(client.get(second.headers["Location"]))
    s = api(client, game)["standings"]
    assert s["rounds_played"] == 1 and s["players"][0]["total"] == 20


def test_a_repeat_racing_its_first_copy_is_recorded_once(keeper, client, app, monkeypatch):
    """The double tap whose first copy commits while the second is being checked: the
    second still sees the version its form was drawn at, so only the unique submission
    at commit can catch it. It must answer "already saved", never a conflict or a 500."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    url = f"/games/{game}/rounds/new"
    form = {**keeper.form(url)[1], **keeper.round_data(game, "Ann", {"Bob": 20})}
    plan_round = services.plan_round
    landed = []

    def first_copy_lands_meanwhile(*args, **kwargs):
        plan = plan_round(*args, **kwargs)
        if not landed:  # the first copy, in an app context (and session) of its own
            landed.append(None)
            with app.app_context():
                landed[0] = client.post(url, data=form).status_code
        return plan

    monkeypatch.setattr(services, "plan_round", first_copy_lands_meanwhile)
    second = client.post(url, data=form)
    assert landed == [302] and second.status_code == 302
    assert "already saved" in text_of(client.get(second.headers["Location"]))
    s = api(client, game)["standings"]
    assert s["rounds_played"] == 1 and s["players"][0]["total"] == 20


def test_a_stale_edit_from_another_phone_is_refused_and_sees_the_sheet(keeper, client, app):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    url = f"/games/{game}/rounds/new"
    _, phone_one = keeper.form(url)
    _, phone_two = keeper.form(url)
    data = keeper.round_data(game, "Ann", {"Bob": 20})
    assert client.post(url, data={**phone_one, **data}).status_code == 302
    data2 = keeper.round_data(game, "Bob", {"Ann": 7})
    r = client.post(url, data={**phone_two, **data2})
    assert r.status_code == 409
    page = text_of(r)
    assert "changed on another phone" in page and "was not saved" in page
    assert "What you typed: Ann 7, Bob went out." in page
    s = api(client, game)["standings"]
    assert s["rounds_played"] == 1 and s["players"][0]["total"] == 20


def test_missing_csrf_token_changes_nothing(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    _, hidden = keeper.form(f"/games/{game}/rounds/new")
    hidden.pop("csrf_token")
    data = keeper.round_data(game, "Ann", {"Bob": 20})
    r = client.post(f"/games/{game}/rounds/new", data={**hidden, **data})
    assert r.status_code == 400 and "nothing was saved" in text_of(r)
    assert api(client, game)["standings"]["rounds_played"] == 0


def test_another_users_game_is_not_found(app, keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    other = Keeper(app.test_client())
    other.signup("mallory@example.com")
    for url in (
        f"/games/{game}",
        f"/games/{game}/rounds/new",
        f"/games/{game}/rounds/1",
        f"/games/{game}/history",
        f"/games/{game}/export.json",
        f"/nights/{night}",
        f"/nights/{night}/payout",
        f"/nights/{night}/games/new",
    ):
        assert other.client.get(url).status_code == 404, url
    assert other.client.get(f"/api/v1/games/{game}").status_code == 404
    _, hidden = other.form("/nights/new")
    r = other.client.post(
        f"/games/{game}/rounds/new",
        data={**hidden, "version": "1", "submission": "x", "went_out": "0", "hand-1": "5"},
    )
    assert r.status_code == 404
    assert api(client, game)["standings"]["rounds_played"] == 0


def test_export_and_import_round_trip(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "dummy", ["Ann", "Bob", "Cy"])
    keeper.enter(game, "Ann", {"Bob": ["2", "K"], "Cy": 15}, contracts=["Bob"])
    exported = client.get(f"/games/{game}/export.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    record = json.loads(exported.get_data(as_text=True))
    assert record["rounds"][0]["contracts"] == ["Ann", "Bob"]  # the goer-out is ticked
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert r.status_code == 302
    new_id = int(r.headers["Location"].split("/")[-1])
    assert api(client, new_id)["standings"] == api(client, game)["standings"]


def test_a_record_with_a_joiner_seated_after_the_first_player_imports(app, keeper, client):
    """Dee joins after Ann, not last: the exported record imports as a new game (it was
    refused as "changed at the same moment": Dee was given Bob's seat) and deals on in
    the same seats."""
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5})
    r = keeper.post_form(f"/games/{game}/join", {"person": "Dee", "after": "Ann", "action": "add"})
    assert r.status_code == 302
    keeper.enter(game, "Bob", {"Ann": 7, "Cy": 3, "Dee": 4})
    record = json.loads(client.get(f"/games/{game}/export.json").get_data(as_text=True))
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    assert r.status_code == 302, text_of(r)
    new_id = int(r.headers["Location"].split("/")[-1])
    assert api(client, new_id)["standings"] == api(client, game)["standings"]
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    def seats(game_id: int) -> list[tuple[int, str, int]]:
        with app.app_context():
            game_row = db.session.get(Game, game_id)
            return [(s.position, s.person.name, s.joined_round) for s in game_row.seats]

    assert (
        sorted(seats(new_id))
        == sorted(seats(game))
        == [(0, "Ann", 0), (1, "Dee", 2), (2, "Bob", 0), (3, "Cy", 0)]
    )


def test_import_refuses_a_broken_record_and_keeps_nothing(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    bad = {
        "format": "scorekeeper-game/1",
        "variant": "texas",
        "players": ["Ann", "Bob"],
        "rounds": [{"went_out": "Ann", "hands": {}}],
    }
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(bad)})
    assert r.status_code == 422 and "round 1: no hand given for Bob" in text_of(r)
    r = keeper.post_form(f"/nights/{night}/games/import", {"record": "{not json"})
    assert r.status_code == 422 and "That is not JSON" in text_of(r)
    assert "No games yet" in text_of(client.get(f"/nights/{night}"))


def test_multiplayer_going_rummy_and_dummy_contracts_on_the_sheet(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "multiplayer", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 12}, going_rummy="y").status_code == 302
    assert api(client, game)["standings"]["players"][0]["total"] == 24
    game = keeper.game(night, "dummy", ["Ann", "Bob"])
    page = text_of(client.get(f"/games/{game}/rounds/new"))
    assert "Laid down contract 1: two 3-of-a-kind" in page


def test_conditional_get_of_an_unchanged_sheet_is_304(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    client.get(f"/games/{game}")  # reads the flash of the new game
    first = client.get(f"/games/{game}")
    etag = first.headers["ETag"]
    again = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    keeper.enter(game, "Ann", {"Bob": 5})
    changed = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert changed.status_code == 200


def test_rename_a_person_everywhere(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    keeper.enter(game, "Ann", {"Bob": 5})
    ids = keeper.person_ids(night)
    r = keeper.post_form(f"/nights/{night}/people/{ids['Bob']}", {"name": "Robert"})
    assert r.status_code == 302
    record = api(client, game)["record"]
    assert record["players"] == ["Ann", "Robert"]
    assert record["rounds"][0]["hands"] == {"Robert": 5}


def test_payout_page_settles_finished_games(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    page = text_of(client.get(f"/nights/{night}/payout"))
    # Ann +30, Bob -10, Cy -20 (see the Texas game above).
    assert "Cy pays Ann $0.20" in page and "Bob pays Ann $0.10" in page


def test_editing_a_round_with_a_drop_keeps_the_drop_and_asks_again_if_expiries_change(
    keeper, client
):
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy", "Dee"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 50, "Cy": 10, "Dee": 10}).status_code == 302
    r = keeper.enter(game, "Cy", {"Ann": 10, "Bob": 60, "Dee": 10}, drops=["Bob"])
    assert r.status_code == 302
    # The edit form shows Bob's expiry with "drop" chosen; saving it unchanged keeps it.
    page = client.get(f"/games/{game}/rounds/2")
    assert "Bob reached 110." in text_of(page)
    assert 'value="drop" checked' in page.get_data(as_text=True)
    r = keeper.enter(game, "Cy", {"Ann": 12, "Bob": 60, "Dee": 10}, number=2, drops=["Bob"])
    assert r.status_code == 302, text_of(r)
    s = api(client, game)["standings"]
    assert [p["in_contention"] for p in s["players"]] == [True, False, True, True]
    # Now the correction makes Dee expire too: the keeper is asked about both.
    data = keeper.round_data(game, "Cy", {"Ann": 12, "Bob": 60, "Dee": 95}, number=2, drops=["Bob"])
    _, hidden = keeper.form(f"/games/{game}/rounds/2")
    r = client.post(f"/games/{game}/rounds/2", data={**hidden, **data})
    assert r.status_code == 200
    assert "Dee reached 105." in text_of(r) and "Bob reached 110." in text_of(r)
    assert api(client, game)["standings"] == s  # nothing saved yet


def test_pdf_downloads_from_the_sheet_and_night_pages(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "texas", ["Ann", "Bob", "Cy"])
    play_texas(keeper, game)
    sheet = client.get(f"/games/{game}").get_data(as_text=True)
    for url, name in [
        (f"/games/{game}/sheet.pdf", "2026-11-20-friday-texas-sheet.pdf"),
        (f"/games/{game}/blank.pdf", "2026-11-20-friday-blank-texas-sheet.pdf"),
        (f"/nights/{night}/payout.pdf", "2026-11-20-friday-payout-summary.pdf"),
    ]:
        r = client.get(url)
        assert r.status_code == 200 and r.mimetype == "application/pdf", url
        assert r.data.startswith(b"%PDF")
        assert name in r.headers["Content-Disposition"]
    assert f"/games/{game}/sheet.pdf" in sheet and f"/games/{game}/blank.pdf" in sheet
    text = client.get(f"/nights/{night}/payout.txt")
    assert text.mimetype == "text/plain"
    assert "Cy pays Ann $0.20" in text.get_data(as_text=True)
    page = text_of(client.get(f"/nights/{night}/payout"))
    assert "Text for the group chat" in page and "Cy pays Ann $0.20" in page


def test_pages_are_compressed_and_still_revalidate(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    client.get(f"/games/{game}")  # the new game's flash
    page = client.get(f"/games/{game}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    etag = page.headers["ETag"]
    again = client.get(f"/games/{game}", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304


def _stored_seats(app, game_id):
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    with app.app_context():
        game = db.session.get(Game, game_id)
        return {s.person.name: s.position for s in game.seats}


def test_a_late_joiner_sits_after_whom_the_keeper_says(keeper, client, app):
    """Issue 22: Ann, Bob, Cy; Dee joins at round 3 sitting after Ann. The join form asks
    where (default: after the last seat); the banner, the round form's order, the saved
    seats and the dealers follow; undoing the round puts the seats back."""
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], first_dealer="Ann", buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    assert keeper.enter(game, "Bob", {"Ann": 5, "Cy": 5}).status_code == 302
    page = client.get(f"/games/{game}/join").get_data(as_text=True)
    assert "Sits after" in page and "Cy (the last seat)" in page
    r = keeper.post_form(f"/games/{game}/join", {"person": "Dee", "after": "Ann", "action": "add"})
    assert r.status_code == 302
    sheet = text_of(client.get(f"/games/{game}"))
    assert "Joining this round: Dee after Ann (pays" in sheet
    assert "Cy deals , Ann starts" in sheet
    # The round form lists the table from who starts: Ann, Dee, Bob (Cy dealt).
    form = client.get(f"/games/{game}/rounds/new").get_data(as_text=True)
    assert form.index(">Ann<") < form.index(">Dee<") < form.index(">Bob<") < form.index(">Cy<")
    r = keeper.enter(game, "Cy", {"Ann": 5, "Bob": 5, "Dee": 5})
    assert r.status_code == 302, text_of(r)
    assert _stored_seats(app, game) == {"Ann": 0, "Dee": 1, "Bob": 2, "Cy": 3}
    history = text_of(client.get(f"/games/{game}/history"))
    assert "Joining next round: Dee (after Ann)" in history
    assert "Dee joined, sitting after Ann" in history
    s = api(client, game)
    assert s["record"]["rounds"][2]["joins"] == [{"name": "Dee", "after": "Ann"}]
    assert (s["standings"]["next_round"]["dealer"], s["standings"]["next_round"]["starts"]) == (
        "Ann",
        "Dee",
    )
    # A correction of the join round keeps the seats; removing it puts them back.
    r = keeper.enter(game, "Cy", {"Ann": 6, "Bob": 5, "Dee": 5}, number=3)
    assert r.status_code == 302, text_of(r)
    assert _stored_seats(app, game) == {"Ann": 0, "Dee": 1, "Bob": 2, "Cy": 3}
    page = client.get(f"/games/{game}")
    r = client.post(f"/games/{game}/rounds/last/delete", data=inputs(page.get_data(as_text=True)))
    assert r.status_code == 302
    assert _stored_seats(app, game) == {"Ann": 0, "Bob": 1, "Cy": 2}
    assert api(client, game)["standings"] == load_game(api(client, game)["record"]).to_json()


def test_a_seat_after_someone_not_at_the_table_is_refused(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 5}).status_code == 302
    r = keeper.post_form(f"/games/{game}/join", {"person": "Dee", "after": "Cy", "action": "add"})
    assert r.status_code == 422
    assert "Choose whom Dee sits after from the players at the table." in text_of(r)
    assert "Joining this round" not in text_of(client.get(f"/games/{game}"))


def test_a_drop_undone_asks_for_the_later_hands_and_saves_it_all_at_once(keeper, client):
    """Issue 22 point 2. Cy reached 100 in round 1 and dropped; two rounds were played
    without Cy. Correcting round 1 so Cy re-buys asks Cy's hands in rounds 2 and 3 (the
    form had no row for Cy there), and saves the correction and both rounds in one go.
    Cy re-buys to 10 (Bob's total, the highest not expired) for $1.00, then 10 + 20 + 4."""
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}, drops=["Cy"]).status_code == 302
    assert keeper.enter(game, "Bob", {"Ann": 5}).status_code == 302
    assert keeper.enter(game, "Ann", {"Bob": 7}).status_code == 302
    before = api(client, game)
    url = f"/games/{game}/rounds/1"
    r = keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}, number=1)  # re-buy this time
    assert r.status_code == 200
    page = text_of(r)
    assert "Cy played on" in page
    assert "Cy in round 2" in page and "Cy in round 3" in page
    assert api(client, game) == before  # asked, nothing saved
    html = r.get_data(as_text=True)
    typed = keeper.round_data(game, "Ann", {"Bob": 10, "Cy": 100}, 1)
    data = {**typed, **inputs(html)}  # what the form holds, the choice of re-buy kept
    keys = re.findall(r'name="(later-\d+-\d+)"', html)
    assert len(keys) == 2
    # One hand missing: asked again, named by round and player, still nothing saved.
    r = client.post(url, data={**data, keys[0]: "20", keys[1]: ""})
    assert r.status_code == 422 and "Round 3: give Cy's hand." in text_of(r)
    assert api(client, game) == before
    r = client.post(url, data={**data, keys[0]: "20", keys[1]: "4"})
    assert r.status_code == 302, text_of(r)
    after = api(client, game)
    totals = {p["name"]: p["total"] for p in after["standings"]["players"]}
    assert totals == {"Ann": 5, "Bob": 17, "Cy": 34}
    assert after["standings"]["pot"]["total"] == 3 * 100 + 100
    assert after["record"]["rounds"][1]["hands"] == {"Ann": 5, "Cy": 20}
    assert after["standings"] == load_game(after["record"]).to_json()
    history = text_of(client.get(f"/games/{game}/history"))
    assert "Round 2 corrected" in history and "Round 3 corrected" in history


def test_a_drop_added_takes_the_later_hands_off_once_confirmed(keeper, client):
    """The other way round: Cy reached 100 in round 1 and re-bought, two rounds were
    played with Cy (20, then 4). Correcting round 1 so Cy drops out was refused ("round 2
    would no longer hold"), and round 2's form could not leave Cy out: the only way was
    deleting rounds. Now the form shows the hands that go, and Confirm saves it all at
    once: Ann 5, Bob 17, no Cy; the pot is the three buy-ins, $3.00 (no re-buy)."""
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}).status_code == 302  # re-buys
    assert keeper.enter(game, "Bob", {"Ann": 5, "Cy": 20}).status_code == 302
    assert keeper.enter(game, "Ann", {"Bob": 7, "Cy": 4}).status_code == 302
    before = api(client, game)
    assert before["standings"]["pot"]["total"] == 400
    url = f"/games/{game}/rounds/1"
    typed = keeper.round_data(game, "Ann", {"Bob": 10, "Cy": 100}, 1, drops=["Cy"])
    r = keeper.post_form(url, typed)
    if "rebuy-or-drop:" in r.get_data(as_text=True) and "no longer plays" not in text_of(r):
        r = client.post(url, data={**typed, **inputs(r.get_data(as_text=True))})
    assert r.status_code == 200, text_of(r)
    page = text_of(r)
    assert "Cy no longer plays" in page
    assert "Round 2: Cy's hand of 20" in page and "Round 3: Cy's hand of 4" in page
    assert "Confirm and save" in page
    assert api(client, game) == before  # shown, nothing saved
    r = client.post(url, data={**typed, **inputs(r.get_data(as_text=True))})
    assert r.status_code == 302, text_of(r)
    after = api(client, game)
    players = {p["name"]: p for p in after["standings"]["players"]}
    assert {n: p["total"] for n, p in players.items()} == {"Ann": 5, "Bob": 17, "Cy": 100}
    assert players["Cy"]["scores"] == [100, None, None] and not players["Cy"]["in_contention"]
    assert after["standings"]["pot"]["total"] == 300
    assert after["record"]["rounds"][0]["drops"] == ["Cy"]
    assert after["record"]["rounds"][1]["hands"] == {"Ann": 5}
    assert after["record"]["rounds"][2]["hands"] == {"Bob": 7}
    assert after["standings"] == load_game(after["record"]).to_json()
    history = text_of(client.get(f"/games/{game}/history"))
    assert "Round 2 corrected" in history and "Round 3 corrected" in history
    # Undoing that drop again asks for the hands back: the two corrections mirror.
    r = keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}, number=1)
    assert r.status_code == 200 and "Cy played on" in text_of(r)
    assert "correcting a re-buy to a drop takes" in text_of(client.get("/help"))


def test_a_drop_added_for_someone_who_went_out_later_names_that_round(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}).status_code == 302
    assert keeper.enter(game, "Cy", {"Ann": 5, "Bob": 20}).status_code == 302
    before = api(client, game)
    r = keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}, number=1, drops=["Cy"])
    assert r.status_code == 422, text_of(r)
    assert "round 2 would no longer hold" in text_of(r)
    assert api(client, game) == before


def test_what_the_sheet_shows_for_rummy_nobody_out_and_who_dealt(keeper, client):
    """Issue 22 point 5. Rummy: a player who did not go out scored nothing, so their cell
    is their total, quiet, with no "+0"; a round nobody went out of says so; the
    correction page says who dealt that round."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], first_dealer="Ann")
    assert keeper.enter(game, "Ann", {"Bob": 20}).status_code == 302
    assert keeper.enter(game, None, {"Ann": 5, "Bob": 7}).status_code == 302
    html = client.get(f"/games/{game}").get_data(as_text=True)
    assert "+0" not in text_of(client.get(f"/games/{game}"))
    assert html.count('class="num quiet"') == 3  # Bob in round 1, both in round 2
    assert "nobody out" in text_of(client.get(f"/games/{game}"))
    page = text_of(client.get(f"/games/{game}/rounds/1"))
    assert "Correct deal 1" in page and "Ann dealt" in page
    assert "Bob dealt" in text_of(client.get(f"/games/{game}/rounds/2"))


def test_contract_calls_a_round_a_deal_everywhere(keeper, client):
    """Issue 22 point 5: "Deal 4", "Enter round 4" and "Round 3 saved" were one thing."""
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "contract", ["Ann", "Bob", "Cy"])
    assert "Enter deal 1" in text_of(client.get(f"/games/{game}"))
    page = text_of(client.get(f"/games/{game}/rounds/new"))
    assert "Deal 1" in page and "Save deal 1" in page and "Round 1" not in page
    r = keeper.enter(game, "Ann", {"Bob": 10, "Cy": 5}, contracts=["Ann"])
    assert r.status_code == 302, text_of(r)
    sheet = text_of(client.get(r.headers["Location"]))
    assert "Deal 1 saved." in sheet and "Enter deal 2" in sheet
    assert "round" not in text_of(client.get(f"/games/{game}/rounds/1")).split("Log out")[1][:60]


def test_times_read_in_the_keepers_time_zone(keeper, client):
    """Issue 22 point 5: the phone says its zone (a cookie set by the page's script); the
    history and the payout page show times in it, with the zone; without it, UTC. A zone
    the system does not know is ignored."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 20}).status_code == 302
    html = client.get(f"/games/{game}/history").get_data(as_text=True)
    utc = re.search(r'<time datetime="[^"]+T(\d\d):(\d\d):\d\dZ">[^<]* (\d\d):\d\d:\d\d UTC<', html)
    assert utc and utc[1] == utc[3]
    client.set_cookie("tz", "Asia/Kolkata")  # UTC+05:30, no summer time
    html = client.get(f"/games/{game}/history").get_data(as_text=True)
    shown = re.search(r'Z">[^<]* (\d\d):(\d\d):\d\d IST<', html)
    assert shown, html
    minutes = (int(utc[1]) * 60 + int(utc[2]) + 330) % (24 * 60)
    assert (int(shown[1]), int(shown[2])) == divmod(minutes, 60)
    client.set_cookie("tz", "../../etc/passwd")
    assert " UTC<" in client.get(f"/games/{game}/history").get_data(as_text=True)


def test_the_sheet_link_the_service_worker_reads_stays_on_one_line(keeper, client):
    """templates/sw.js finds the version a round form goes on by the sheet's Enter link
    (``/rounds/new" data-version="N"``); a template rewrap that split it stopped the
    phone keeping the round form for offline use."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    html = client.get(f"/games/{game}").get_data(as_text=True)
    assert re.search(r'/rounds/new" data-version="\d+"', html)


def test_the_join_page_speaks_as_players_do_and_offers_the_regulars(keeper, client, app):
    """Issue 34: the late-joiner page read "RULES: the fee is ...", offered only tonight's
    list, and said whom a joiner sits after only when the keeper chose someone. Now it
    offers the owner's other regulars too (never to a co-keeper: tests/web/test_keepers.py),
    and says whom every waiting joiner sits after."""
    keeper.night(["Eve", "Fay"], name="Last week")  # Eve and Fay become regulars
    night = keeper.night(["Ann", "Bob", "Cy", "Dee"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], first_dealer="Ann", buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 5, "Cy": 5}).status_code == 302
    html = client.get(f"/games/{game}/join").get_data(as_text=True)
    page = text_of(client.get(f"/games/{game}/join"))
    assert "Deal someone in at round 2" in page and "RULES" not in page
    assert "They buy in for $1.00 and start on 5 points." in page
    tonight = html.split('<optgroup label="Tonight">', 1)[1].split("</optgroup>", 1)[0]
    regulars = html.split('<optgroup label="Your other regulars">', 1)[1].split("</optgroup>")[0]
    assert ">Dee<" in tonight and ">Eve<" in regulars and ">Fay<" in regulars
    assert ">Ann<" not in regulars  # on tonight's list already
    r = keeper.post_form(f"/games/{game}/join", {"person": "Eve", "after": "", "action": "add"})
    assert r.status_code == 302, text_of(r)
    page = text_of(client.get(f"/games/{game}/join"))
    assert "Eve sits after Cy" in page
    assert "Joining this round: Eve after Cy (pays" in text_of(client.get(f"/games/{game}"))
    r = keeper.enter(game, "Bob", {"Ann": 5, "Cy": 5, "Eve": 5})
    assert r.status_code == 302, text_of(r)
    assert _stored_seats(app, game) == {"Ann": 0, "Bob": 1, "Cy": 2, "Eve": 3}
    assert "Eve" in text_of(client.get(f"/nights/{night}"))  # on tonight's list now
