"""Every page a keeper (or a player with a live link) sees is valid HTML, as the W3C's Nu
Html Checker (vnu, the npm package ``vnu-jar``) reads it: a keeper's months in small are
played through the test client, every page is saved from it, and vnu checks them all in
one run (one JVM start). Its errors fail the test with vnu's own messages.

scripts/test installs vnu-jar into ``.cache/vnu`` (``SCOREKEEPER_VNU_JAR`` names another
copy); it needs Java."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.keeper import Keeper, text_of
from tests.web.test_account_data import build_history, host_ids
from tests.web.test_live import show_players

ROOT = Path(__file__).resolve().parents[2]
VNU_JAR = Path(
    os.environ.get("SCOREKEEPER_VNU_JAR")
    or ROOT / ".cache" / "vnu" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
)


def vnu_command() -> list[str]:
    java = shutil.which("java")
    if java is None or not VNU_JAR.is_file():
        pytest.fail(
            f"the HTML checker needs Java and vnu.jar (looked for {VNU_JAR}): scripts/test "
            "installs both (npm install --prefix .cache/vnu vnu-jar)",
            pytrace=False,
        )
    return [java, "-Xss2m", "-jar", str(VNU_JAR), "--format", "json", "--stdout"]


def save(pages: dict[str, Any], name: str, response: Any, status: int = 200) -> None:
    assert response.status_code == status, (name, response.status_code, text_of(response))
    assert response.mimetype == "text/html", (name, response.mimetype)
    pages[name] = response.get_data(as_text=True)


def keeper_pages(app: Flask, client: FlaskClient) -> dict[str, str]:
    """Every kind of page, from a keeper's history: nights, games of every state, payout
    with payments and carries, regulars with ways to pay, the forms, errors, live pages."""
    pages: dict[str, str] = {}
    for path in ("/login", "/signup", "/password/forgot"):
        save(pages, path, client.get(path))
    keeper = Keeper(client)
    keeper.signup("keeper@example.com")
    build_history(keeper)
    nights, games, regulars = host_ids(app)
    client.get("/")  # a message left over is shown once, here
    for path in ("/", "/help", "/account", "/account/delete", "/account/import"):
        save(pages, path, client.get(path))
    save(pages, "/nights/new", client.get("/nights/new"))
    save(pages, "/regulars", client.get("/regulars"))
    save(pages, "/regulars/balance", client.get("/regulars/balance"))
    for rid in regulars.values():
        response = client.get(f"/regulars/{rid}")
        if response.status_code != 404:  # merged into another
            save(pages, f"/regulars/{rid}", response)
    for night in nights:
        for page in ("", "/payout", "/games/new", "/games/import", "/live", "/delete"):
            response = client.get(f"/nights/{night}{page}")
            if response.status_code == 404:  # a deleted night
                continue
            save(pages, f"/nights/{night}{page}", response)
        html = pages.get(f"/nights/{night}", "")
        for person in sorted(set(re.findall(rf"/nights/{night}/people/(\d+)", html)))[:1]:
            path = f"/nights/{night}/people/{person}"
            save(pages, path, client.get(path))
    for variant in ("vegas", "texas", "rummy", "multiplayer", "dummy", "contract", "gin", "pool"):
        path = f"/nights/{nights[0]}/games/new?variant={variant}"
        save(pages, path, client.get(path))
    for game in games:
        for page in ("", "/history", "/rounds/new", "/rounds/1", "/delete", "/live", "/join"):
            response = client.get(f"/games/{game}{page}")
            if response.status_code in (302, 404, 409):  # deleted, finished, no joins
                continue
            save(pages, f"/games/{game}{page}", response)
    game = games[0]
    save(pages, f"/games/{game}?saved=2", client.get(f"/games/{game}?saved=2"))
    live = show_players(keeper, f"/games/{games[2]}/live")
    save(pages, f"/games/{games[2]}/live (shown)", client.get(f"/games/{games[2]}/live"))
    for bound in ("0.0.0.0", "127.0.0.1"):  # opened on localhost: the notes on reaching it
        response = client.get(f"/games/{games[2]}/live", environ_overrides={"SERVER_NAME": bound})
        save(pages, f"/games/{games[2]}/live (served on {bound})", response)
    night_live = show_players(keeper, f"/nights/{nights[0]}/live")
    for path in (live, f"{live}?tv=1", night_live):
        save(pages, path, client.get(path))
    running = next(g for g in games if f"/games/{g}/rounds/new" in pages)
    refused = keeper.post_form(f"/games/{running}/rounds/new", {"went_out": ""})
    save(pages, "a round refused", refused, status=422)
    save(pages, "not found", client.get("/nights/999999"), status=404)
    return pages


def check(pages: dict[str, str], folder: Path) -> list[dict[str, Any]]:
    """vnu's messages on the pages, each file named after its page."""
    files = []
    for i, (name, html) in enumerate(pages.items()):
        file = folder / f"{i:02d}-{re.sub(r'[^A-Za-z0-9]+', '-', name).strip('-')}.html"
        file.write_text(html, encoding="utf-8")
        files.append(str(file))
    run = subprocess.run(
        [*vnu_command(), *files], capture_output=True, text=True, timeout=600, check=False
    )
    assert run.stdout.strip(), f"vnu gave no answer (exit {run.returncode}): {run.stderr}"
    messages: list[dict[str, Any]] = json.loads(run.stdout)["messages"]
    return messages


def describe(message: dict[str, Any]) -> str:
    where = Path(message.get("url", "")).name
    line = message.get("lastLine", "?")
    extract = " ".join(message.get("extract", "").split())[:160]
    return f"{where}:{line}: {message.get('message')}\n    {extract}"


def test_every_page_is_valid_html(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    command = vnu_command()  # before the pages are made: fail fast without the checker
    assert command
    pages = keeper_pages(app, client)
    assert len(pages) >= 40, sorted(pages)
    messages = check(pages, tmp_path)
    errors = [m for m in messages if m.get("type") in ("error", "non-document-error")]
    assert not errors, f"vnu: {len(errors)} errors\n" + "\n".join(map(describe, errors))


def test_the_checker_finds_what_the_issue_found(tmp_path: Path) -> None:
    """The test above can fail: the two mistakes vnu found (two forms' ``id="csrf_token"``,
    a ``<time datetime>`` with microseconds) are errors to it."""
    hidden = '<input id="csrf_token" name="csrf_token" type="hidden" value="x">'
    page = (
        '<!doctype html><html lang="en"><head><title>t</title></head><body>'
        f'<form method="post">{hidden}</form><form method="post">{hidden}</form>'
        '<p><time datetime="2026-11-27T20:44:31.123456+00:00">now</time></p></body></html>'
    )
    errors = [m for m in check({"bad": page}, tmp_path) if m.get("type") == "error"]
    text = "\n".join(m["message"] for m in errors)
    assert "Duplicate ID" in text and "datetime" in text, text
