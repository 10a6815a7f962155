"""Issue 22, point 10: the QR code reaches the table. Opened on localhost or 127.0.0.1, the
keeper's live page says so and its code and link use this computer's address on the
network (when the server listens beyond this computer; otherwise it says how to start it
so); ``SCOREKEEPER_PUBLIC_URL`` wins when set; ``scripts/run --host 0.0.0.0`` prints the
network address."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from html import unescape
from pathlib import Path

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import lan
from tests.web.keeper import Keeper, text_of
from tests.web.test_live import show_players

ROOT = Path(__file__).resolve().parents[2]
LAN = "192.168.1.20"


@pytest.fixture
def keeper(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> Keeper:
    monkeypatch.setattr(lan, "lan_address", lambda: LAN)
    k = Keeper(client)
    k.signup()
    return k


def keeper_page(client: FlaskClient, path: str, base: str, bound: str) -> tuple[str, str, str]:
    """(the link to share, the URL in the QR code, the page's text), the page asked for at
    ``base`` from a server bound to ``bound``."""
    scheme, host = base.split("://")
    same_cookies(client, host)
    environ = {"SERVER_NAME": bound, "HTTP_HOST": host, "wsgi.url_scheme": scheme}
    page = client.get(path, environ_overrides=environ)
    html = page.get_data(as_text=True)
    url = re.search(r'id="live-url"[^>]* value="([^"]+)"', html)
    qr = re.search(r'<img src="(data:image/svg\+xml[^"]+)"', html)
    assert url and qr, text_of(page)
    return unescape(url.group(1)), unescape(qr.group(1)), text_of(page)


def same_cookies(client: FlaskClient, host: str) -> None:
    """The keeper's cookies (set for localhost) for another host name of the same app."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    for cookie in list(client._cookies.values()):
        client.set_cookie(cookie.key, cookie.value, domain=name, path=cookie.path)


def qr_of(url: str) -> str:
    code = segno.make(url, error="m")
    return str(code.svg_data_uri(scale=6, border=4, dark="#000", light="#fff"))


@pytest.mark.parametrize("opened", ["http://localhost:5000", "http://127.0.0.1:5000"])
def test_opened_on_this_computer_the_code_uses_the_network_address(
    keeper: Keeper, client: FlaskClient, opened: str
) -> None:
    night = keeper.night(["Ann", "Bob"])
    path = show_players(keeper, f"/nights/{night}/live")
    url, qr, text = keeper_page(client, f"/nights/{night}/live", opened, bound="0.0.0.0")
    assert url == f"http://{LAN}:5000{path}"
    assert qr == qr_of(url)  # the code says the same link
    assert f"You opened Scorekeeper on this computer ({opened.split('//')[1]})" in text
    assert f"its address on your network, {LAN}" in text
    assert "SCOREKEEPER_PUBLIC_URL" in text
    # Open the live view opens it here, where the keeper is.
    host = opened.split("//")[1]
    html = client.get(f"/nights/{night}/live", headers={"Host": host}).get_data(as_text=True)
    assert "Open the live view" in html
    assert f'href="{opened}{path}"' in html
    # The players' phone at the network address reads the night.
    assert client.get(path, base_url=f"http://{LAN}:5000").status_code == 200


def test_a_server_on_this_computer_only_says_how_to_start_it(
    keeper: Keeper, client: FlaskClient
) -> None:
    night = keeper.night(["Ann", "Bob"])
    path = show_players(keeper, f"/nights/{night}/live")
    url, qr, text = keeper_page(
        client, f"/nights/{night}/live", "http://127.0.0.1:5000", bound="127.0.0.1"
    )
    assert url == f"http://127.0.0.1:5000{path}" and qr == qr_of(url)
    assert "the players' phones cannot reach this link" in text
    start = "start it with scripts/run --host 0.0.0.0 , and phones on the same Wi-Fi reach it"
    assert f"{start} at http://{LAN}:5000" in text


def test_no_network_address_says_so(
    keeper: Keeper, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lan, "lan_address", lambda: None)
    night = keeper.night(["Ann", "Bob"])
    path = show_players(keeper, f"/nights/{night}/live")
    url, _, text = keeper_page(client, f"/nights/{night}/live", "http://localhost", "0.0.0.0")
    assert url == f"http://localhost{path}"
    assert "No address of this computer on a network was found" in text


def test_public_url_wins_and_other_hosts_are_kept(app: Flask, keeper: Keeper, client) -> None:
    game = keeper.game(keeper.night(["Ann", "Bob"]), "rummy", ["Ann", "Bob"])
    path = show_players(keeper, f"/games/{game}/live")
    url, _, text = keeper_page(client, f"/games/{game}/live", "https://cards.example.org", "")
    assert url == f"https://cards.example.org{path}"
    assert "You opened Scorekeeper on this computer" not in text
    app.config["PUBLIC_URL"] = "https://scores.example.net/"
    for opened in ("http://localhost:5000", "https://cards.example.org"):
        url, qr, text = keeper_page(client, f"/games/{game}/live", opened, "0.0.0.0")
        assert url == f"https://scores.example.net{path}" and qr == qr_of(url)
        assert "You opened Scorekeeper on this computer" not in text


def test_loopback_names() -> None:
    for host in ("localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "a.localhost"):
        assert lan.is_loopback(host), host
    for host in ("0.0.0.0", "192.168.1.20", "cards.example.org", "", "10.0.0.1"):
        assert not lan.is_loopback(host), host
    found = lan.lan_address()
    assert found is None or not lan.is_loopback(found)


def test_scripts_run_prints_the_network_address(tmp_path: Path) -> None:
    """scripts/run, copied beside a stand-in .venv (its python answers the network address,
    its flask says what it was asked): the address is printed with the port asked for,
    and only when the app listens on the network."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "run", tmp_path / "scripts" / "run")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    stubs = {
        "python": f'case "$*" in *lan_address*) echo {LAN};; esac\n',
        "flask": 'echo "flask $*"\n',
    }
    for name, body in stubs.items():
        (bin_ / name).write_text("#!/usr/bin/env bash\n" + body)
        (bin_ / name).chmod(stat.S_IRWXU)
    env = {**os.environ, "PATH": os.environ.get("PATH", "/usr/bin:/bin")}

    def run(*args: str) -> str:
        done = subprocess.run(
            ["bash", str(tmp_path / "scripts" / "run"), *args],
            capture_output=True, text=True, env=env, timeout=60, check=True,
        )  # fmt: skip
        return done.stdout

    out = run("--host", "0.0.0.0", "--port", "5123")
    assert f"http://{LAN}:5123" in out and "flask --app scorekeeper run --host 0.0.0.0" in out
    assert f"http://{LAN}:5000" in run("--host=0.0.0.0")
    assert LAN not in run()
    assert LAN not in run("--host", "127.0.0.1")
