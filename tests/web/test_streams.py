"""Push (services/streams.py): after each commit that changes what a table watches, the
stream engine's publisher hears of it, once per channel, and only after the commit: the
live link's token (game and night), the keepers' sheet of the game with its new version.
A refused change sends nothing; a publisher that is down never fails the save. Here the
publisher is a small HTTP server of the test's own that records what it is sent and
reads, as it is sent, the game's version on a connection of its own (a message that came
before the commit would find the old one); deploy/nginx.conf's nchan in front of the app is
tests/browser/test_push.py's."""

from __future__ import annotations

import json
import logging
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, text

from tests.conftest import make_app
from tests.web.keeper import Keeper, text_of
from tests.web.test_live import show_players


@dataclass
class Publisher:
    """What the engine's publisher location was sent: (channel, message, the game's
    stored version read when it came)."""

    url: str
    sent: list[tuple[str, str, int | None]] = field(default_factory=list)
    game: int | None = None
    subscribers: int | None = None  # what the engine says it has (None: says nothing)

    def channels(self) -> dict[str, str]:
        return {channel: message for channel, message, _ in self.sent}

    def clear(self) -> None:
        self.sent.clear()


@pytest.fixture
def publisher(db_uri: str) -> Iterator[Publisher]:
    engine = create_engine(db_uri.replace("postgresql://", "postgresql+psycopg://", 1))
    record = Publisher("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            stored = None
            if record.game is not None:
                with engine.connect() as conn:
                    stored = conn.scalar(
                        text("SELECT version FROM games WHERE id = :id"), {"id": record.game}
                    )
            record.sent.append((self.path.rsplit("/", 1)[1], body, stored))
            said = b""
            if record.subscribers is not None:  # as nchan answers Accept: text/json
                said = json.dumps({"messages": 1, "subscribers": record.subscribers}).encode()
            self.send_response(201)
            self.send_header("Content-Length", str(len(said)))
            self.end_headers()
            self.wfile.write(said)

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    record.url = f"http://127.0.0.1:{server.server_address[1]}/pub"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield record
    server.shutdown()
    server.server_close()
    engine.dispose()


def _app(db_uri: str, **config: Any) -> Iterator[Flask]:
    from scorekeeper.extensions import db
    from tests.conftest import _empty_tables

    app = make_app(db_uri, **config)
    if db_uri.startswith("postgresql"):
        _empty_tables(app)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def pushing(db_uri: str, publisher: Publisher) -> Iterator[Flask]:
    yield from _app(db_uri, STREAMS_PUBLISH=publisher.url, STREAMS_SUBSCRIBE="/streams")


@pytest.fixture
def keeper(pushing: Flask) -> Keeper:
    k = Keeper(pushing.test_client())
    k.signup("keeper@example.com")
    return k


def _table(keeper: Keeper) -> tuple[int, int, str, str]:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    game_link = show_players(keeper, f"/games/{game}/live")
    night_link = show_players(keeper, f"/nights/{night}/live")
    return night, game, game_link.rsplit("/", 1)[1], night_link.rsplit("/", 1)[1]


def _version(app: Flask, game: int) -> int:
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    with app.app_context():
        return int(db.session.get(Game, game).version)


def test_a_saved_round_reaches_every_channel_of_its_table_after_the_commit(
    pushing: Flask, keeper: Keeper, publisher: Publisher
) -> None:
    _night, game, game_token, night_token = _table(keeper)
    _table(keeper)  # another table: none of its channels hear
    publisher.clear()
    publisher.game = game
    r = keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7})
    assert r.status_code == 302
    version = _version(pushing, game)
    sent = publisher.channels()
    assert set(sent) == {f"live-{game_token}", f"live-{night_token}", f"game-{game}"}
    assert sent[f"game-{game}"] == str(version)
    # Each message was sent when the round was already stored (read on another connection).
    assert [stored for *_, stored in publisher.sent] == [version] * 3
    assert len(publisher.sent) == 3  # once each
    # A new value each time: the page asks past the front's one-second cache.
    first = sent[f"live-{game_token}"]
    publisher.clear()
    keeper.enter(game, "Bob", {"Ann": 3, "Cy": 4})
    assert publisher.channels()[f"live-{game_token}"] != first
    assert publisher.channels()[f"game-{game}"] == str(version + 1)


def test_a_correction_and_an_undo_are_pushed_too(keeper: Keeper, publisher: Publisher) -> None:
    _night, game, game_token, night_token = _table(keeper)
    keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7})
    keeper.enter(game, "Bob", {"Ann": 3, "Cy": 4})
    publisher.clear()
    assert keeper.enter(game, "Ann", {"Bob": 20, "Cy": 7}, number=1).status_code == 302
    assert {f"live-{game_token}", f"live-{night_token}", f"game-{game}"} <= set(
        publisher.channels()
    )
    version = _version_of(keeper, game)
    publisher.clear()
    r = keeper.post_form(f"/games/{game}", {}, action=f"/games/{game}/rounds/last/delete")
    assert r.status_code == 302
    assert publisher.channels()[f"game-{game}"] == str(version + 1)
    assert f"live-{game_token}" in publisher.channels()
    assert "Total 20 3 0" not in text_of(keeper.client.get(f"/games/{game}"))


def _version_of(keeper: Keeper, game: int) -> int:
    sheet = keeper.client.get(f"/games/{game}").get_data(as_text=True)
    found = re.search(r'data-version="(\d+)"', sheet)
    assert found
    return int(found.group(1))


def test_the_nights_money_is_pushed_to_the_nights_link(
    keeper: Keeper, publisher: Publisher
) -> None:
    night, _game, _game_token, night_token = _table(keeper)
    publisher.clear()
    keeper.client.get(f"/nights/{night}")
    r = keeper.post_form(f"/nights/{night}/live", {}, action=f"/nights/{night}/live/off")
    assert r.status_code == 302
    # The link turned off: its page hears it, and then finds nothing.
    assert f"live-{night_token}" in publisher.channels()


def test_a_refused_round_sends_nothing(keeper: Keeper, publisher: Publisher) -> None:
    _night, game, *_ = _table(keeper)
    publisher.clear()
    r = keeper.post_form(f"/games/{game}/rounds/new", {"went_out": "", "hand-1": "x"})
    assert r.status_code == 422
    assert publisher.sent == []
    # A form of a state that moved on (another phone saved round 1 meanwhile): refused,
    # rolled back, nothing sent.
    _, stale = keeper.form(f"/games/{game}/rounds/new")
    data = keeper.round_data(game, "Ann", {"Bob": 12, "Cy": 7})
    assert keeper.enter(game, "Bob", {"Ann": 1, "Cy": 2}).status_code == 302
    publisher.clear()
    r = keeper.client.post(f"/games/{game}/rounds/new", data={**stale, **data})
    assert r.status_code == 409, r.status_code
    assert publisher.sent == []


def test_a_publisher_that_is_down_never_fails_the_save(
    db_uri: str, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    for app in _app(db_uri, STREAMS_PUBLISH=f"http://127.0.0.1:{closed}/pub"):
        keeper = Keeper(app.test_client())
        keeper.signup("keeper@example.com")
        _night, game, _game_token, _ = _table(keeper)
        with caplog.at_level(logging.WARNING):
            r = keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7})
        assert r.status_code == 302
        assert "Total 19 0 0" in text_of(keeper.client.get(f"/games/{game}"))
        assert "could not publish" in caplog.text


def test_the_pages_are_given_their_streams(pushing: Flask, keeper: Keeper) -> None:
    _night, game, game_token, night_token = _table(keeper)
    phone = pushing.test_client()
    html = phone.get(f"/live/{game_token}").get_data(as_text=True)
    assert f'data-stream="/streams/live/{game_token}/en"' in html
    html = phone.get(f"/live/night/{night_token}?tv=1").get_data(as_text=True)
    assert f'data-stream="/streams/live/{night_token}/en-tv"' in html
    html = phone.get(f"/live/{game_token}", headers={"Accept-Language": "pt-BR"}).get_data(
        as_text=True
    )
    assert f'data-stream="/streams/live/{game_token}/pt_BR"' in html
    sheet = keeper.client.get(f"/games/{game}").get_data(as_text=True)
    version = re.search(r'id="sheet-stream" data-stream="/streams/game/(\d+)" data-version="(\d+)"',
                        sheet)  # fmt: skip
    assert version and version.groups() == (str(game), str(_version(pushing, game)))


def test_a_stream_on_another_origin_is_allowed_by_the_page_that_uses_it(
    db_uri: str,
) -> None:
    for app in _app(db_uri, STREAMS_SUBSCRIBE="http://127.0.0.1:8080/streams"):
        keeper = Keeper(app.test_client())
        keeper.signup("keeper@example.com")
        _, _, token, _ = _table(keeper)
        page = app.test_client().get(f"/live/{token}")
        csp = page.headers["Content-Security-Policy"]
        assert "connect-src 'self' http://127.0.0.1:8080;" in csp
        assert f'data-stream="http://127.0.0.1:8080/streams/live/{token}/en"' in page.get_data(
            as_text=True
        )


def test_without_an_engine_the_pages_poll(client: Any, app: Flask) -> None:
    keeper = Keeper(client)
    keeper.signup("keeper@example.com")
    _night, game, token, _ = _table(keeper)
    page = app.test_client().get(f"/live/{token}")
    assert "data-stream" not in page.get_data(as_text=True)
    assert "connect-src 'self';" in page.headers["Content-Security-Policy"]
    assert 'id="sheet-stream"' not in keeper.client.get(f"/games/{game}").get_data(as_text=True)


# ------------------------------------------------ the page in the message (issue 29) ---
GERMAN = {"Accept-Language": "de"}


def _main(html: str) -> str:
    return html[html.index('<main id="live"') : html.rindex("</main>") + len("</main>")]


def _totals(html: str) -> str:
    row = re.search(r'<tr class="totals">(.*?)</tr>', html, re.S)
    assert row, html
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row.group(1))).strip()


def test_a_save_sends_each_phone_its_new_page_in_its_own_language(
    pushing: Flask, keeper: Keeper, publisher: Publisher
) -> None:
    """A German phone and an English one on the game's link, a phone on the night's: the
    save's messages hold each one's new page, drawn in its language, the very page (and
    ETag) the phone would get by asking, so its next poll is a 304."""
    _night, game, token, night_token = _table(keeper)
    german, english, night = (pushing.test_client() for _ in range(3))
    before = german.get(f"/live/{token}", headers=GERMAN)
    assert f'data-stream="/streams/live/{token}/de"' in before.get_data(as_text=True)
    english.get(f"/live/{token}")
    night.get(f"/live/night/{night_token}", headers=GERMAN)
    publisher.clear()
    assert keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7}).status_code == 302
    sent = publisher.channels()
    de, en = (json.loads(sent[f"live-{token}-{lang}"]) for lang in ("de", "en"))
    assert de["v"] == en["v"] == sent[f"live-{token}"]  # the link's own: the version only
    assert de["etag"] != en["etag"] and ".de" in de["etag"] and ".de" not in en["etag"]
    assert _totals(de["page"]).split()[-3:] == ["19", "0", "0"]
    asked = german.get(f"/live/{token}", headers=GERMAN)
    assert asked.headers["ETag"] == de["etag"]
    assert _main(de["page"]) == _main(asked.get_data(as_text=True))
    assert "<title>" in de["page"]
    assert "Tischregeln" in de["page"] and "Table rules" not in de["page"]  # German words
    assert "Table rules" in en["page"]
    again = german.get(f"/live/{token}", headers={**GERMAN, "If-None-Match": de["etag"]})
    assert again.status_code == 304
    assert _main(en["page"]) == _main(english.get(f"/live/{token}").get_data(as_text=True))
    page = json.loads(sent[f"live-{night_token}-de"])
    assert "19" in _totals(page["page"])
    assert f"live-{night_token}-en" not in sent  # nobody reads the night in English


def test_a_page_too_large_for_a_message_is_asked_for(
    pushing: Flask, keeper: Keeper, publisher: Publisher, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.services import streams

    _night, game, token, _ = _table(keeper)
    pushing.test_client().get(f"/live/{token}")
    monkeypatch.setattr(streams, "MESSAGE_LIMIT", 2_000)
    publisher.clear()
    keeper.enter(game, "Ann", {"Bob": 12, "Cy": 7})
    sent = publisher.channels()
    assert f"live-{token}-en" not in sent and f"live-{token}" in sent


def test_a_language_nobody_holds_any_more_is_no_longer_drawn(
    pushing: Flask, keeper: Keeper, publisher: Publisher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """nchan says the German channel has no subscriber: drawn still while the German page
    was just opened (its stream may not be up yet), then forgotten; the page asked again
    (its phone back), drawn again."""
    from scorekeeper.services import live_variants

    _night, game, token, _ = _table(keeper)
    german = pushing.test_client()
    german.get(f"/live/{token}", headers=GERMAN)
    publisher.subscribers = 0
    rounds = iter([("Ann", {"Bob": 12, "Cy": 7}), ("Bob", {"Ann": 3, "Cy": 4})] * 3)

    def drawn() -> bool:
        publisher.clear()
        assert keeper.enter(game, *next(rounds)).status_code == 302
        assert f"live-{token}" in publisher.channels()  # the version, always
        return f"live-{token}-de" in publisher.channels()

    assert drawn() and drawn()  # just opened: kept
    monkeypatch.setattr(live_variants, "NOTE_EVERY", 0.0)  # a minute later
    assert drawn()  # drawn once more, then forgotten: nobody held it
    assert not drawn()
    german.get(f"/live/{token}", headers=GERMAN)  # the phone back: asks once
    assert drawn()
