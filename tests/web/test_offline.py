"""The server's side of offline entry (issue 23; the phone's side is in
tests/browser/test_offline.py): the service worker and the manifest as served, the key that
names a keeper's offline copies, and the JSON answers to rounds the phone queued: stored
once, the version the next queued round goes on top of, and every refusal in a sentence
with nothing stored."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Night, User
from scorekeeper.web.headers import CSP
from scorekeeper.web.offline import SHELL
from tests.web.keeper import Keeper, inputs

STATIC = Path(__file__).resolve().parents[2] / "static"
ACCOUNT = re.compile(r'<meta name="sk-account" content="([^"]*)"')
JSON = {"Accept": "application/json"}


@pytest.fixture
def keeper(client: FlaskClient) -> Keeper:
    k = Keeper(client)
    k.signup()
    return k


def account_on(client: FlaskClient, path: str = "/") -> str:
    match = ACCOUNT.search(client.get(path).get_data(as_text=True))
    assert match, path
    return match.group(1)


def queued(keeper: Keeper, game: int, form: dict[str, str], **typed: Any) -> Any:
    """A round as the phone's queue sends it: the form's hidden fields as they were when
    it was typed, the hands as typed, asking for JSON."""
    return keeper.client.post(f"/games/{game}/rounds/new", data={**form, **typed}, headers=JSON)


def round_form(keeper: Keeper, game: int) -> dict[str, str]:
    return inputs(keeper.client.get(f"/games/{game}/rounds/new").get_data(as_text=True))


def stored_rounds(client: FlaskClient, game: int) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/games/{game}").get_json()["record"]["rounds"]


# ------------------------------------------------------- worker and manifest ---
def test_the_service_worker_is_served_at_the_root_and_never_kept_stale(keeper, client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # a deploy reaches phones at once
    assert response.headers["Content-Security-Policy"] == CSP
    body = response.get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    assert shell == [f"/static/{name}" for name in SHELL] + ["/manifest.webmanifest"]
    for name in SHELL:
        assert (STATIC / name).is_file(), name
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', body)
    assert "{{" not in body and "{%" not in body  # the template is all filled in


def test_the_manifest_makes_the_app_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Scorekeeper" and manifest["short_name"]
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#14532d"
    icons = {(i["sizes"], i.get("purpose", "any")): i["src"] for i in manifest["icons"]}
    for size in ("192x192", "512x512"):
        for purpose in ("any", "maskable"):
            src = icons[(size, purpose)]
            assert client.get(src).status_code == 200, src
            png = (STATIC / src.removeprefix("/static/")).read_bytes()
            width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
            assert f"{width}x{height}" == size, src


def test_pages_say_whose_they_are_without_giving_away_the_login(app, client):
    keeper = Keeper(client)
    assert account_on(client, "/login") == ""  # nobody: the phone drops its copies
    keeper.signup("ann@example.com")
    ann = account_on(client)
    assert re.fullmatch(r"[0-9a-f]{24}", ann)
    token = client.get_cookie("session")
    assert token is not None and ann not in token.value
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert account_on(client, f"/games/{game}") == ann  # the sheet, drawn from its cache
    assert account_on(client, f"/games/{game}") == ann
    assert account_on(client, f"/games/{game}/rounds/new") == ann

    # Another login of the same account: the same key (rounds queued under the first
    # are still sent); another account: another key.
    other = app.test_client()
    Keeper(other).login("ann@example.com")
    assert account_on(other) == ann
    assert account_on(other, f"/games/{game}") == ann
    third = app.test_client()
    Keeper(third).signup("bob@example.com")
    assert account_on(third) != ann


# ------------------------------------------------------------- queued rounds ---
def test_queued_rounds_are_stored_once_each_and_say_what_comes_next(keeper, client):
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    form = round_form(keeper, game)  # the form of round 1, typed on three times offline
    seats = keeper.seats(game)
    first = {"went_out": seats["Ann"], f"hand-{seats['Bob']}": "10", f"hand-{seats['Cy']}": "5"}
    second = {"went_out": seats["Bob"], f"hand-{seats['Ann']}": "3", f"hand-{seats['Cy']}": "4"}

    r = queued(keeper, game, form, **first)
    assert r.status_code == 200
    version = r.get_json()["version"]
    assert r.get_json() == {"saved": 1, "version": version}
    assert round_form(keeper, game)["version"] == str(version)  # the game as it is now

    # Its answer lost, the phone sends it again: the same answer, stored once.
    again = queued(keeper, game, form, **first)
    assert (again.status_code, again.get_json()) == (200, {"saved": 1, "version": version})

    # The round typed behind it goes on top of that version.
    behind = {**form, "submission": "behind-1", "version": str(version)}
    r = queued(keeper, game, behind, **second)
    assert r.get_json()["saved"] == 2
    assert [r["went_out"] for r in stored_rounds(client, game)] == ["Ann", "Bob"]

    # Once another change came after a round, its version is no longer what the round
    # after it may go on top of: null, and that round is looked at by the keeper.
    assert queued(keeper, game, form, **first).get_json() == {"saved": 1, "version": None}
    # Sent against a version the game has left, a round is refused as changed meanwhile.
    stale = queued(keeper, game, {**form, "submission": "stale-1"}, **second)
    assert stale.status_code == 409
    assert stale.get_json()["conflict"] is True
    assert "changed on another phone" in stale.get_json()["refused"]
    assert len(stored_rounds(client, game)) == 2

    # Without asking for JSON, the same form is answered as always (the browser's own post).
    plain = client.post(f"/games/{game}/rounds/new", data={**form, **first})
    assert plain.status_code == 302 and plain.headers["Location"].endswith(f"/games/{game}")


def test_a_queued_round_stored_before_is_recognised_even_if_it_no_longer_fits(keeper, client):
    """Bob expired in round 2 and dropped out (the keeper chose so on round 2's form, the
    round the queue had stopped at); the queue then sends round 2 again as it was first
    typed: stored already, so "saved", not refused for naming a player now gone."""
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "vegas", ["Ann", "Bob", "Cy"], buy_in="2.00")
    keeper.enter(game, "Ann", {"Bob": 60, "Cy": 30})
    form = round_form(keeper, game)
    seats = keeper.seats(game)
    typed = {"went_out": seats["Cy"], f"hand-{seats['Ann']}": "20", f"hand-{seats['Bob']}": "45"}
    asked = queued(keeper, game, form, **typed)
    assert asked.status_code == 422
    assert asked.get_json()["refused"] == (
        "Bob reached 105. Re-buy for $2.00 (back to 30) or drop out? Choose on the form, then save."
    )
    dropped = client.post(
        f"/games/{game}/rounds/new",
        data={
            **form,
            **typed,
            "seen": f"rebuy-or-drop:2:{seats['Bob']}",
            f"expiry-{seats['Bob']}": "drop",
        },
    )
    assert dropped.status_code == 302
    again = queued(keeper, game, form, **typed)
    assert again.status_code == 200 and again.get_json()["saved"] == 2
    assert stored_rounds(client, game)[1]["drops"] == ["Bob"]


def test_queued_rounds_refused_say_why_and_store_nothing(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    form = round_form(keeper, game)
    seats = keeper.seats(game)

    bad = queued(keeper, game, form, went_out=seats["Ann"], **{f"hand-{seats['Bob']}": "ZZ"})
    assert bad.status_code == 422
    body = bad.get_json()
    assert body["errors"] == {f"hand-{seats['Bob']}": body["refused"]}
    assert body["refused"].startswith("Bob: 'ZZ' is not points or a card")

    expired = queued(keeper, game, {**form, "csrf_token": "from-another-login"})
    assert expired.status_code == 400 and "out of date" in expired.get_json()["error"]

    broken = queued(keeper, game, {**form, "version": "x"})
    assert broken.status_code == 400 and "incomplete" in broken.get_json()["refused"]

    gone = queued(keeper, game + 1000, form)
    assert gone.status_code == 404 and gone.get_json() == {"error": "no such game among yours"}
    assert stored_rounds(client, game) == []


def test_a_queued_round_for_a_finished_game_is_refused(keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"], target_score=50)
    form = round_form(keeper, game)
    seats = keeper.seats(game)
    keeper.enter(game, "Ann", {"Bob": 60})  # Ann reaches the target: the game is over
    typed = {"went_out": seats["Bob"], f"hand-{seats['Ann']}": "3"}
    r = queued(keeper, game, {**form, "submission": "late-1"}, **typed)
    assert (r.status_code, r.get_json()["refused"]) == (422, "This game is over: no more deals.")
    assert len(stored_rounds(client, game)) == 1


def test_recorded_says_the_version_only_while_nothing_changed_the_record(app, keeper, client):
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    form = round_form(keeper, game)
    seats = keeper.seats(game)
    queued(keeper, game, form, went_out=seats["Ann"], **{f"hand-{seats['Bob']}": "4"})
    with app.app_context():
        after = services.recorded(game, form["submission"])
        assert after is not None and after.round_number == 1
        assert services.recorded(game, "never-sent") is None
        # Deleting and restoring the night counts the version up, the record stays.
        user = db.session.scalar(select(User))
        services.delete_night(db.session.get(Night, night), user=user)
        services.restore_night(db.session.get(Night, night), user=user)
        now = services.recorded(game, form["submission"])
        assert now is not None and now.version is not None and now.version > after.version
        db.session.remove()
    assert round_form(keeper, game)["version"] == str(now.version)
    # A rename changes the record: the round is no longer the latest change.
    ids = keeper.person_ids(night)
    keeper.post_form(f"/nights/{night}/people/{ids['Bob']}", {"name": "Robert"})
    with app.app_context():
        assert services.recorded(game, form["submission"]) == services.Recorded(1, None)
