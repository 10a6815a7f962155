"""The round form asks what the engine's plan asks (rules/questions.py), one generic way: a
fieldset a question, its answers read back by field name, and one hidden ``seen`` with the
keys of the questions shown. A confirmation counts only for the question it confirmed, a
form sent twice saves once, and a form from another moment of the game saves nothing."""

from __future__ import annotations

import pytest

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


def _vegas_with_a_rebuy(keeper):
    """Cy reached 100 in round 1 and re-bought; two rounds were played with Cy."""
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="1.00")
    assert keeper.enter(game, "Ann", {"Bob": 10, "Cy": 100}).status_code == 302
    assert keeper.enter(game, "Bob", {"Ann": 5, "Cy": 20}).status_code == 302
    assert keeper.enter(game, "Ann", {"Bob": 7, "Cy": 4}).status_code == 302
    return game


def test_each_question_is_one_fieldset_and_seen_names_what_was_shown(keeper, client):
    game = _vegas_with_a_rebuy(keeper)
    url = f"/games/{game}/rounds/1"
    typed = keeper.round_data(game, "Ann", {"Bob": 10, "Cy": 100}, 1, drops=["Cy"])
    page = client.get(url).get_data(as_text=True)
    seats = keeper.seats(game)
    assert inputs(page)["seen"] == f"rebuy-or-drop:1:{seats['Cy']}"  # the correction asks again
    r = client.post(url, data={**typed, **inputs(page)})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert html.count('<fieldset class="money-moment question') == 2
    assert inputs(html)["seen"] == (
        f"rebuy-or-drop:1:{seats['Cy']} hands-that-go:1:2.{seats['Cy']},3.{seats['Cy']}"
    )
    assert "Round 2: Cy's hand of 20" in text_of(r) and "Confirm and save" in text_of(r)


def test_a_confirmation_of_other_hands_does_not_count(keeper, client):
    """The keeper saw the hands that go for rounds 2 and 3; a form that says it saw only
    round 2's (another page, a forged field) is asked again, and nothing is saved."""
    game = _vegas_with_a_rebuy(keeper)
    url = f"/games/{game}/rounds/1"
    seats = keeper.seats(game)
    typed = keeper.round_data(game, "Ann", {"Bob": 10, "Cy": 100}, 1, drops=["Cy"])
    _, hidden = keeper.form(url)
    before = api(client, game)
    stale = f"rebuy-or-drop:1:{seats['Cy']} hands-that-go:1:2.{seats['Cy']}"
    r = client.post(url, data={**typed, **hidden, "seen": stale})
    assert r.status_code == 200 and "Cy no longer plays" in text_of(r)
    assert api(client, game) == before


def test_confirm_and_save_sent_twice_saves_once(keeper, client):
    game = _vegas_with_a_rebuy(keeper)
    url = f"/games/{game}/rounds/1"
    typed = keeper.round_data(game, "Ann", {"Bob": 10, "Cy": 100}, 1, drops=["Cy"])
    _, hidden = keeper.form(url)
    asked = client.post(url, data={**typed, **hidden}).get_data(as_text=True)
    confirm = {**typed, **inputs(asked)}
    first = client.post(url, data=confirm)
    assert first.status_code == 302
    saved = api(client, game)
    again = client.post(url, data=confirm)  # the double tap
    assert again.status_code == 302
    assert "already saved" in text_of(client.get(again.headers["Location"]))
    assert api(client, game) == saved
    assert saved["record"]["rounds"][1]["hands"] == {"Ann": 5}
    history = text_of(client.get(f"/games/{game}/history"))
    assert history.count("Round 2 corrected") == 1


def test_a_confirmation_from_before_another_change_saves_nothing(keeper, client):
    """The hands that go were shown, then round 3 was corrected on another phone: the
    confirmation names the same hands, but the form's version is stale, so nothing of
    it is saved and the keeper sees the sheet as it is now."""
    game = _vegas_with_a_rebuy(keeper)
    url = f"/games/{game}/rounds/1"
    typed = keeper.round_data(game, "Ann", {"Bob": 10, "Cy": 100}, 1, drops=["Cy"])
    _, hidden = keeper.form(url)
    asked = client.post(url, data={**typed, **hidden}).get_data(as_text=True)
    assert keeper.enter(game, "Ann", {"Bob": 7, "Cy": 9}, number=3).status_code == 302
    now = api(client, game)
    r = client.post(url, data={**typed, **inputs(asked)})
    assert r.status_code == 409 and "changed on another phone" in text_of(r)
    assert api(client, game) == now
