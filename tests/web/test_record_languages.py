"""Issue 33, a record's refusals: importing a broken game record on the web page says
why in the keeper's language, naming the round and the player, and keeps nothing; the
command line still says the engine's English, and a settlement's refusal shown on a page
is said in the reader's language."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Edit, Game
from scorekeeper.rules import GameRecord, replay, settle
from scorekeeper.rules.errors import RecordError
from scorekeeper.web.refusals import refusal_text
from tests.web.keeper import Keeper, text_of

#: A Rummy record whose second round gives Bob a hand of -5.
BAD_ROUND = {
    "format": "scorekeeper-game/1",
    "variant": "rummy",
    "players": ["Ann", "Bob", "Cy"],
    "rounds": [
        {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 4}},
        {"went_out": "Cy", "hands": {"Ann": 7, "Bob": -5}},
    ],
}

#: The same players, Bob with a handicap that is not a number of points.
BAD_HANDICAP = {
    "format": "scorekeeper-game/1",
    "variant": "rummy",
    "players": ["Ann", {"name": "Bob", "handicap": "ten"}, "Cy"],
}

#: A finished game of Rummy to 50: Ann goes out twice.
GAME_OVER = {
    "format": "scorekeeper-game/1",
    "variant": "rummy",
    "settings": {"target_score": 50},
    "players": ["Ann", "Bob"],
    "rounds": [
        {"went_out": "Ann", "hands": {"Bob": 30}},
        {"went_out": "Ann", "hands": {"Bob": 25}},
    ],
}

#: What the English page says of the two, none of which a translated page may show.
ENGLISH = [
    "Not imported",
    "round 2:",
    "Bob's hand must be 0 points or more",
    "Bob's handicap must be a whole number",
]


def keeping_in(client: FlaskClient, language: str) -> Keeper:
    """A keeper whose account's language is ``language`` (the account page's choice)."""
    keeper = Keeper(client)
    keeper.signup()
    chosen = keeper.post_form("/account", {"language": language}, action="/account/language")
    assert chosen.status_code in (200, 302)
    return keeper


def imported(keeper: Keeper, night: int, record: dict) -> tuple[int, str]:
    page = keeper.post_form(f"/nights/{night}/games/import", {"record": json.dumps(record)})
    return page.status_code, text_of(page)


def absent(text: str, sentences: list[str]) -> None:
    found = [s for s in sentences if s in text]
    assert found == [], found


@pytest.mark.parametrize(
    ("language", "round_refusal", "handicap_refusal"),
    [
        (
            "de",
            "Nicht importiert: Runde 2: die Hand von Bob muss 0 Punkte oder mehr haben "
            "(angegeben: -5)",
            "Nicht importiert: die Vorgabe von Bob muss eine ganze Punktzahl sein, 0 oder "
            "mehr (bekommen: 'ten')",
        ),
        (
            "hi",
            "इंपोर्ट नहीं हुआ: राउंड 2: Bob के हाथ के अंक 0 या ज़्यादा होने चाहिए (दिया गया -5)",
            "इंपोर्ट नहीं हुआ: Bob का हैंडीकैप 0 या उससे ज़्यादा पूरे अंक होना चाहिए (मिला 'ten')",
        ),
    ],
)
def test_a_broken_import_is_refused_in_the_keepers_language(
    app, client, language, round_refusal, handicap_refusal
):
    keeper = keeping_in(client, language)
    night = keeper.night(["Ann", "Bob", "Cy"])
    status, page = imported(keeper, night, BAD_ROUND)
    assert status == 422 and round_refusal in page
    status, page = imported(keeper, night, BAD_HANDICAP)
    assert status == 422 and handicap_refusal in page
    absent(page, ENGLISH)
    # Nothing was saved: the database holds no game, and no edit of one.
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0
        assert db.session.scalar(select(func.count()).select_from(Edit)) == 0


def test_a_record_in_another_currency_is_refused_in_german(client):
    keeper = keeping_in(client, "de")
    night = keeper.night(["Ann", "Bob", "Cy"], currency="EUR")
    status, page = imported(keeper, night, {**BAD_HANDICAP, "players": ["Ann", "Bob", "Cy"]})
    assert status == 422
    assert "Nicht importiert: das Protokoll ist in USD, dieser Abend aber in EUR" in page
    absent(page, ["the record is in USD"])


def test_the_command_line_keeps_the_engines_english(runner: FlaskCliRunner, tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_HANDICAP), encoding="utf-8")
    result = runner.invoke(args=["standings", str(path)], env={"LANG": "de_DE.UTF-8"})
    assert result.exit_code == 1
    assert "error: Bob's handicap must be a whole number of points, 0 or more (got 'ten')" in (
        result.stderr
    )
    path.write_text(json.dumps(BAD_ROUND), encoding="utf-8")
    result = runner.invoke(args=["standings", str(path)])
    assert "error: round 2: Bob's hand must be 0 points or more (got -5)" in result.stderr


def test_a_settlement_refusal_is_said_in_spanish(app: Flask):
    """A night's settlement of a game not finished: the page says it in Spanish, the
    game's name too; the engine's English stays as it was."""
    record = {**BAD_ROUND, "variant": "multiplayer", "rounds": BAD_ROUND["rounds"][:1]}
    unfinished = replay(GameRecord.from_json({**record, "settings": {"buy_in": 500}}))
    with pytest.raises(RecordError) as caught:
        settle([replay(GameRecord.from_json(GAME_OVER)), unfinished])
    assert str(caught.value) == (
        "game 2 (Multiplayer Rummy) is not finished: its pot of $15.00 has not been paid out"
    )
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        said = refusal_text(caught.value)
    assert said == (
        "la partida 2 (Rummy multijugador) no ha terminado: su bote de $15.00 aún no se ha pagado"
    )


def test_two_players_who_are_one_person_are_refused_in_german(app, client):
    keeper = keeping_in(client, "de")
    night = keeper.night(["Ann", "Bob", "Cy"])
    record = {**GAME_OVER, "players": ["Ann", "Ann.", "Bob"], "rounds": []}
    status, page = imported(keeper, night, record)
    assert status == 422
    assert (
        "Nicht importiert: Ann und Ann. sind auf der Liste von heute Abend dieselbe Person "
        "(Ann): jede Person bekommt nur einen Platz"
    ) in page
    absent(page, ["are one person on tonight's list", "each person takes one seat"])
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_a_file_that_is_not_an_account_file_is_refused_in_hindi(client):
    keeper = keeping_in(client, "hi")
    _, hidden = keeper.form("/account/import")
    page = keeper.client.post(
        "/account/import",
        data={**hidden, "file": (io.BytesIO(b"not a zip at all"), "account.zip")},
        content_type="multipart/form-data",
    )
    assert page.status_code == 422
    assert "यह Scorekeeper की अकाउंट फ़ाइल (zip फ़ाइल) नहीं है" in text_of(page)
    absent(text_of(page), ["that is not a Scorekeeper account file"])


def test_a_joiner_refused_in_french(client):
    keeper = keeping_in(client, "fr")
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"])
    assert keeper.enter(game, "Ann", {"Bob": 20, "Cy": 30}).status_code == 302
    nobody = keeper.post_form(
        f"/games/{game}/join", {"action": "add", "new_name": "", "person": ""}
    )
    assert "Choisissez qui rejoint la partie, ou tapez un nouveau nom." in text_of(nobody)
    gone = keeper.post_form(f"/games/{game}/join", {"action": "cancel", "name": "Zed"})
    assert "Zed ne rejoint pas la partie à la prochaine manche." in text_of(gone)
    absent(text_of(nobody) + text_of(gone), ["Choose who joins", "is not joining next round"])
