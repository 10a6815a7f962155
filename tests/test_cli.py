"""The command line: ``flask --app scorekeeper standings|settle RECORD``.

Click 8.2 and later keep standard error apart from standard output in ``CliRunner``
results (``result.stdout``, ``result.stderr``): the old ``mix_stderr=False``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from flask.testing import FlaskCliRunner

from scorekeeper import create_app

# The game record example of game-record.md, as written there.
DOC_GAME = {
    "format": "scorekeeper-game/1",
    "variant": "vegas",
    "settings": {"max_score": 100, "buy_in": 200, "pot_split": [70, 30]},
    "players": ["Ann", "Bob", {"name": "Cy", "handicap": 10}],
    "first_dealer": "Bob",
    "rounds": [
        {"went_out": "Ann", "hands": {"Bob": 12, "Cy": ["K", "7", "W"]}, "wild": "7C"},
        {"went_out": "Cy", "hands": {"Ann": 40, "Bob": 95}, "drops": ["Bob"]},
    ],
}

# Two finished games for a night record.
# Rummy to 50, $5 buy-in, winner takes all: Ann 30 + 25 = 55 wins the $15 pot.
RUMMY_GAME = {
    "format": "scorekeeper-game/1",
    "variant": "rummy",
    "settings": {"buy_in": 500, "target_score": 50},
    "players": ["Ann", "Bob", "Cy"],
    "rounds": [
        {"went_out": "Ann", "hands": {"Bob": 20, "Cy": 10}},
        {"went_out": "Bob", "hands": {"Ann": 5, "Cy": 15}},
        {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 15}},
    ],
}
# Vegas to 100, $2 buy-in, 70/30. Round 2: ann reaches 110, re-buys ($2) and resets to 30
# (Dee's total). Round 3: Bob 110 and Dee 105 expire, ann alone is below 100 and wins.
# Pot $8: ann $5.60, Dee (second, 105) $2.40, Bob nothing. "ann" is Ann of the rummy game.
VEGAS_GAME = {
    "format": "scorekeeper-game/1",
    "variant": "vegas",
    "settings": {"max_score": 100, "buy_in": 200, "pot_split": [70, 30]},
    "players": ["ann", "Bob", "Dee"],
    "rounds": [
        {"went_out": "Bob", "hands": {"ann": 60, "Dee": 30}},
        {"went_out": "Dee", "hands": {"ann": 50, "Bob": 20}},
        {"went_out": "ann", "hands": {"Bob": 90, "Dee": 75}},
    ],
}
NIGHT = {"format": "scorekeeper-night/1", "currency": "USD", "games": [RUMMY_GAME, VEGAS_GAME]}


@pytest.fixture
def runner() -> FlaskCliRunner:
    """The app with no database behind it (this module's own, over conftest's runner)."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    return app.test_cli_runner()


def write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def assert_one_error_line(result: Result, *fragments: str) -> str:
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def test_standings_of_the_game_record_example(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["standings", write(tmp_path, DOC_GAME)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    standings = json.loads(result.stdout)
    players = {p["name"]: p for p in standings["players"]}
    # Round 1: Cy 10 + K 7 W = 10 + 10 + 7 + 25 = 52; Bob 12. Round 2: Ann 40, Bob 107
    # expires and drops (no re-buy).
    assert players["Ann"]["scores"] == [0, 40] and players["Ann"]["total"] == 40
    assert players["Bob"]["scores"] == [12, 95] and players["Bob"]["total"] == 107
    assert players["Cy"]["scores"] == [42, 0] and players["Cy"]["total"] == 52
    assert not players["Bob"]["in_contention"]
    assert [p["place"] for p in standings["players"]] == [1, 3, 2]
    assert standings["ranking"] == ["Ann", "Cy", "Bob"]
    assert standings["finished"] is False and standings["winners"] == []
    assert standings["rounds_played"] == 2
    # Bob dealt round 1, Cy round 2; the deal passes on to Ann.
    assert standings["next_round"]["number"] == 3
    assert standings["next_round"]["dealer"] == "Ann"
    assert standings["next_round"]["cards_per_player"] == 7
    assert standings["pot"]["total"] == 600
    assert standings["pot"]["balances"] == {"Ann": -200, "Bob": -200, "Cy": -200}
    assert standings["pot"]["currency"] == "USD"


def test_standings_of_the_night_games(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["standings", write(tmp_path, RUMMY_GAME)])
    assert result.exit_code == 0, result.output
    rummy = json.loads(result.stdout)
    assert rummy["finished"] and rummy["winners"] == ["Ann"]
    assert [p["total"] for p in rummy["players"]] == [55, 20, 0]
    assert rummy["pot"]["balances"] == {"Ann": 1000, "Bob": -500, "Cy": -500}
    assert rummy["next_round"] is None

    result = runner.invoke(args=["standings", write(tmp_path, VEGAS_GAME)])
    assert result.exit_code == 0, result.output
    vegas = json.loads(result.stdout)
    assert vegas["finished"] and vegas["winners"] == ["ann"]
    assert vegas["ranking"] == ["ann", "Dee", "Bob"]
    assert {p["name"]: p["total"] for p in vegas["players"]} == {"ann": 30, "Bob": 110, "Dee": 105}
    assert vegas["pot"]["total"] == 0
    assert vegas["pot"]["balances"] == {"ann": 160, "Bob": -200, "Dee": 40}


def test_settle_a_night(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["settle", write(tmp_path, NIGHT)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    settlement = json.loads(result.stdout)
    # Ann 1000 + 160, Bob -500 - 200, Cy -500, Dee 40: no part settles on its own, so
    # four people need three transfers.
    assert settlement["people"] == {"Ann": 1160, "Bob": -700, "Cy": -500, "Dee": 40}
    assert settlement["transfers"] == [
        {"from": "Bob", "to": "Ann", "amount": 700},
        {"from": "Cy", "to": "Ann", "amount": 460},
        {"from": "Cy", "to": "Dee", "amount": 40},
    ]


def test_settle_from_stdin(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["settle", "-"], input=json.dumps(NIGHT))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["people"]["Ann"] == 1160


def test_standings_from_stdin(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["standings", "-"], input=json.dumps(DOC_GAME))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ranking"] == ["Ann", "Cy", "Bob"]


def test_an_invalid_record_is_one_error_line(runner: FlaskCliRunner, tmp_path: Path) -> None:
    record = {**DOC_GAME, "rounds": [{"went_out": "Ann", "hands": {"Bob": 12}}]}
    result = runner.invoke(args=["standings", write(tmp_path, record)])
    assert_one_error_line(result, "error: round 1: no hand given for Cy")


def test_an_invalid_record_from_stdin(runner: FlaskCliRunner) -> None:
    record = {**DOC_GAME, "variant": "canasta"}
    result = runner.invoke(args=["standings", "-"], input=json.dumps(record))
    assert_one_error_line(result, "unknown variant 'canasta'")


def test_a_variant_that_is_not_text_is_one_error_line(runner: FlaskCliRunner) -> None:
    """Valid JSON of the wrong type must not end in a traceback."""
    result = runner.invoke(args=["standings", "-"], input=json.dumps({**DOC_GAME, "variant": []}))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert_one_error_line(result, "unknown variant")


def test_invalid_json_is_one_error_line(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["standings", write(tmp_path, '{"variant": "vegas",')])
    assert_one_error_line(result, "error: not valid JSON", "line 1")


def test_invalid_json_from_stdin(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["settle", "-"], input="not json at all")
    assert_one_error_line(result, "error: not valid JSON")


def test_a_file_that_is_not_text(runner: FlaskCliRunner, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(b'{"variant": "\xff\xfe"}')
    result = runner.invoke(args=["standings", str(path)])
    assert_one_error_line(result, "not a text file")


def test_settle_names_the_broken_game(runner: FlaskCliRunner, tmp_path: Path) -> None:
    broken = {**VEGAS_GAME, "rounds": [{"went_out": "Zed", "hands": {}}]}
    night = {**NIGHT, "games": [RUMMY_GAME, broken]}
    result = runner.invoke(args=["settle", write(tmp_path, night)])
    assert_one_error_line(result, "error: game 2: round 1: Zed went out but is not in the game")


def test_settle_refuses_an_unfinished_game(runner: FlaskCliRunner, tmp_path: Path) -> None:
    night = {**NIGHT, "games": [RUMMY_GAME, DOC_GAME]}
    result = runner.invoke(args=["settle", write(tmp_path, night)])
    assert_one_error_line(result, "game 2 (Vegas Rummy) is not finished")


def test_settle_refuses_a_game_record_as_a_night(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["settle", write(tmp_path, RUMMY_GAME)])
    assert_one_error_line(result, "format must be 'scorekeeper-night/1'")


def _flask(
    *args: str, input_text: str | None = None, cwd: Path
) -> subprocess.CompletedProcess[str]:
    # Settings through the environment, so the real command writes no secret key into
    # instance/ and opens no database file.
    env = {
        **os.environ,
        "SCOREKEEPER_SECRET_KEY": "test",
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": "sqlite://",
    }
    env.pop("FLASK_APP", None)
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", *args],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_installed_command_runs_anywhere(tmp_path: Path) -> None:
    """The real ``flask --app scorekeeper standings``, run from an unrelated directory."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = write(tmp_path, DOC_GAME)
    done = _flask("standings", path, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ranking"] == ["Ann", "Cy", "Bob"]

    done = _flask("settle", "-", input_text=json.dumps(NIGHT), cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["transfers"]) == 3


def test_the_installed_command_reports_an_error(tmp_path: Path) -> None:
    from scorekeeper.rules import VARIANTS

    text = '{"variant": "canasta", "players": []}'
    done = _flask("standings", "-", input_text=text, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"error: unknown variant 'canasta': use one of {', '.join(VARIANTS)}"
    ]


def test_the_installed_command_reports_a_lone_surrogate_in_one_line(tmp_path: Path) -> None:
    record = '{"variant": "rummy", "players": ["Ann", "B\\ud800ob"]}'
    done = _flask("standings", "-", input_text=record, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: player 2 contains an invalid character (a lone surrogate)"
    ]


def test_a_built_wheel_carries_templates_static_and_migrations(tmp_path):
    """templates/ and static/ live at the top of the checkout; a wheel carries them inside
    the package, with the migrations, so an installed app can render and migrate."""
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(tmp_path), str(root)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("scorekeeper-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in ("scorekeeper/_templates/base.html", "scorekeeper/_templates/games/sheet.html",
                     "scorekeeper/_templates/reports/game_sheet.html",
                     "scorekeeper/_static/css/app.css", "scorekeeper/_static/js/app.js",
                     "scorekeeper/_static/print/sheet.css",
                     "scorekeeper/migrations/versions/0001_initial_schema.py"):  # fmt: skip
        assert expected in names


# ---------------------------------------------------------------- operators ---
# The operator's commands against a database: ``flask users list|disable|enable|
# reset-link`` and ``flask account export|import`` (issue 25, parts 2, 3 and 5).
def _keeper(app: Any, email: str) -> Any:
    from tests.web.keeper import Keeper

    keeper = Keeper(app.test_client())
    keeper.signup(email)
    return keeper


def test_users_list_disable_and_enable(app: Any) -> None:
    from tests.web.keeper import Keeper, text_of

    cli = app.test_cli_runner()
    ann = _keeper(app, "ann@example.com")
    ann.night(["Ann", "Bob"])
    _keeper(app, "bob@example.com")
    result = cli.invoke(args=["users", "list"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["ann@example.com", "bob@example.com"]
    assert "1 nights\t1 logins\tactive" in lines[0]
    assert result.stderr == "2 accounts.\n"

    result = cli.invoke(args=["users", "disable", " ANN@example.com "])
    assert result.exit_code == 0, result.output
    assert result.stdout == "ann@example.com is disabled: it cannot log in, and its logins ended.\n"
    assert ann.client.get("/account").status_code == 302  # its login ended
    refused = Keeper(app.test_client()).login("ann@example.com")
    assert refused.status_code == 403 and "This account is disabled" in text_of(refused)
    assert "disabled" in cli.invoke(args=["users", "list"]).stdout.splitlines()[0]

    result = cli.invoke(args=["users", "enable", "ann@example.com"])
    assert result.exit_code == 0 and "is enabled" in result.stdout
    assert Keeper(app.test_client()).login("ann@example.com").status_code == 302


def test_an_unknown_email_is_one_error_line(app: Any) -> None:
    cli = app.test_cli_runner()
    for command in (["users", "disable"], ["users", "enable"], ["users", "reset-link"]):
        result = cli.invoke(args=[*command, "nobody@example.com"])
        assert result.exit_code == 1
        assert result.stderr == "error: no account has the email 'nobody@example.com'\n"


def test_a_reset_link_from_the_command_line_sets_a_new_password(app: Any) -> None:
    from tests.web.keeper import Keeper, inputs

    ann = _keeper(app, "ann@example.com")
    cli = app.test_cli_runner()
    result = cli.invoke(args=["users", "reset-link", "ann@example.com"])
    assert result.exit_code == 0
    path = result.stdout.strip()
    assert path.startswith("/password/reset?token=") and "SCOREKEEPER_PUBLIC_URL" in (result.stderr)
    app.config["PUBLIC_URL"] = "https://cards.example.org/"
    result = cli.invoke(args=["users", "reset-link", "ann@example.com"])
    assert result.stdout.startswith("https://cards.example.org/password/reset?token=")
    assert result.stderr == ""
    phone = app.test_client()
    page = phone.get(path)
    data = {
        **inputs(page.get_data(as_text=True)),
        "password": "new horse!",
        "confirm": "new horse!",
    }
    assert phone.post("/password/reset", data=data).status_code == 302
    assert ann.client.get("/account").status_code == 302  # the other login ended
    assert Keeper(app.test_client()).login("ann@example.com", "new horse!").status_code == 302
    assert phone.post("/password/reset", data=data).status_code == 422  # used once


def test_account_export_and_import_from_the_command_line(app: Any, tmp_path: Path) -> None:
    ann = _keeper(app, "ann@example.com")
    night = ann.night(["Ann", "Bob"])
    game = ann.game(night, "rummy", ["Ann", "Bob"], buy_in="2", deals="1")
    ann.enter(game, "Ann", {"Bob": 5})
    bea = _keeper(app, "bea@example.com")
    cli = app.test_cli_runner()
    path = tmp_path / "ann.zip"
    result = cli.invoke(args=["account", "export", "--email", "ann@example.com", "-o", str(path)])
    assert result.exit_code == 0, result.output
    result = cli.invoke(args=["account", "import", str(path), "--email", "bea@example.com"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "Imported 1 night, 1 game, 2 regulars and 0 ledger entries into bea@example.com.\n"
    )
    sheet = bea.client.get("/").get_data(as_text=True)
    assert "Rummy" in sheet
    result = cli.invoke(args=["account", "import", str(path), "--email", "bea@example.com"])
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "error: not imported, nothing was changed: this account already has 1 night and 2 regulars"
    )
    (tmp_path / "bad.zip").write_bytes(b"nothing")
    result = cli.invoke(args=["account", "import", str(tmp_path / "bad.zip"), "--email", "x@y.z"])
    assert result.exit_code == 1 and "no account has the email" in result.stderr
