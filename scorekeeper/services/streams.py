"""Push: after each commit that changes what a table watches, the stream engine in front
(nginx with nchan, ``deploy/nginx.conf``) is told, and every phone holding a stream of
it hears at once (static/js/live.js, the keeper's sheet in static/js/app.js).

The one place: a listener on the ORM session notes, at each flush, the games and nights
whose stored state changed (a game's row, rounds or seats; a night's row, people, ledger
entries; a regular's name or ways to pay; a live link turned off or renewed), and the
append (``state.append_round``, outside the ORM) notes its game with :func:`touch`. After
the commit, and only then, one query finds the channels and one small POST each goes to
the engine's publisher location (reachable from the host only):

- ``live-<token>``: a live link in force of such a game or night (the token is the
  channel, so a stream is only as guessable as the link); the message is a fresh value
  the page asks its URL with (``?v=``), so the front's micro-cache cannot answer it with
  the page from before the save; a link turned off gets one too, and its page then finds
  the 404;
- ``live-<token>-<variant>``: the same link's pages in one language and layout
  (``services.live_variants``: those its phones asked for lately); the message holds the
  new page itself (its title and main part, with its ETag and the value above, as JSON),
  drawn once by ``web/live.py`` for every phone reading it, so no phone asks; none when
  the page is over ``MESSAGE_LIMIT`` (the phones then hear the version only, above, which
  every page hears too);
- ``game-<id>``: the keepers' open sheets of the game (subscribing is authorized by the
  app: ``web/games`` ``stream_auth``); the message is the game's new version.

With no ``STREAMS_PUBLISH`` configured (the embedded default, ``scripts/run``) nothing is
noted or sent: the pages poll. Publishing never fails a save: an engine that is down or
slow (``PUBLISH_TIMEOUT``) is logged and skipped, and the pages' poll, which stays as the
fallback, catches up.
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
import time
from typing import Any
from urllib.parse import quote, urlsplit

from flask import current_app, has_app_context
from sqlalchemy import event, or_, select
from sqlalchemy.orm import Session

from ..extensions import db, reading
from ..models import (
    Game,
    GameRound,
    LedgerEntry,
    LiveLink,
    Night,
    PaymentHandle,
    Person,
    Regular,
    Seat,
)
from . import live_variants


def _log() -> logging.Logger:
    """The app's logger (a module logger made at import would be silenced by the
    migrations' logging set-up in a process that runs both)."""
    return current_app.logger if has_app_context() else logging.getLogger(__name__)


PUBLISH_TIMEOUT = 0.5  # seconds: a front that answers slower is skipped (and logged)
_NOTED = "streams_noted"


def _publisher() -> str | None:
    if not has_app_context():
        return None
    url = current_app.config.get("STREAMS_PUBLISH")
    return str(url).rstrip("/") if url else None


def _noted(session: Session) -> dict[str, set[Any]]:
    return session.info.setdefault(
        _NOTED, {"games": set(), "nights": set(), "regulars": set(), "tokens": set()}
    )


def touch(game_id: int) -> None:
    """Note a game changed outside the ORM (the append): its streams hear of the commit."""
    if _publisher() is not None:
        _noted(db.session())["games"].add(game_id)


def _note(noted: dict[str, set[Any]], obj: object) -> None:
    if isinstance(obj, Game):
        noted["games"].add(obj.id)
        noted["nights"].add(obj.night_id)
    elif isinstance(obj, GameRound | Seat):
        noted["games"].add(obj.game_id)
    elif isinstance(obj, Night):
        noted["nights"].add(obj.id)
    elif isinstance(obj, Person):
        noted["nights"].add(obj.night_id)
    elif isinstance(obj, LedgerEntry):
        noted["nights"].update((obj.night_id, obj.to_night_id))
    elif isinstance(obj, Regular):
        noted["regulars"].add(obj.id)
    elif isinstance(obj, PaymentHandle):
        noted["regulars"].add(obj.regular_id)
    elif isinstance(obj, LiveLink):
        noted["tokens"].add(obj.token)


@event.listens_for(Session, "after_flush")
def _note_changes(session: Session, _context: Any) -> None:
    if _publisher() is None or session is not db.session():
        return
    noted = _noted(session)
    for obj in (*session.new, *session.dirty, *session.deleted):
        _note(noted, obj)
    for kept in noted.values():
        kept.discard(None)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_NOTED, None)


@event.listens_for(Session, "after_commit")
def _publish_committed(session: Session) -> None:
    noted = session.info.pop(_NOTED, None)
    url = _publisher()
    if not noted or url is None or not any(noted.values()):
        return
    try:
        messages = channels(noted)
    except Exception:  # a save is never failed by its news
        _log().warning("streams: the channels of a commit could not be read", exc_info=True)
        return
    pages = _pages(messages)
    heard: dict[str, int | None] = {}
    publish(url, {name: data for name, (_, _, data) in pages.items()}, heard)
    publish(url, messages)
    for token in {token for token, _, _ in pages.values()}:
        live_variants.heard(token, {v: heard.get(name) for name, (t, v, _) in pages.items()
                                    if t == token and name in heard})  # fmt: skip


MESSAGE_LIMIT = 96 * 1024  # bytes: a page larger is not sent in a message (nginx.conf)
#: What draws a live link's page in a variant for a message: ``(token, variant)`` ->
#: ``(etag, page)`` or None (web/live.py registers it: services do not draw pages).
PAGES = "live_pages"


def _pages(messages: dict[str, str]) -> dict[str, tuple[str, str, str]]:
    """The message of each watched variant of the links in ``messages``, by channel:
    ``(token, variant, message)``; none for a page that could not be drawn."""
    draw = current_app.extensions.get(PAGES)
    out: dict[str, tuple[str, str, str]] = {}
    for name, fresh in messages.items():
        token = name.removeprefix("live-")
        if draw is None or token == name:
            continue
        for variant in live_variants.watched(token):
            data = _page_message(draw, token, variant, fresh)
            if data is not None:
                out[live_variants.channel(token, variant)] = (token, variant, data)
    return out


def _page_message(draw: Any, token: str, variant: str, fresh: str) -> str | None:
    """The link's new page in the variant (its title and main part) with its ETag and
    the commit's value, as JSON; None when it could not be drawn or is larger than
    ``MESSAGE_LIMIT`` (its phones then hear the version only, on the link's channel)."""
    try:
        drawn = draw(token, variant)
    except Exception:  # a save is never failed by its news: the pages ask
        _log().warning("streams: the page of %s could not be drawn", token, exc_info=True)
        return None
    if drawn is None:
        return None
    data = json.dumps({"v": fresh, "etag": drawn[0], "page": drawn[1]})
    return data if len(data.encode()) <= MESSAGE_LIMIT else None


_GAME_NIGHTS = select(Game.night_id)
_REGULAR_NIGHTS = select(Person.night_id)


def channels(noted: dict[str, set[Any]]) -> dict[str, str]:
    """The channels that hear of the noted changes, each with its message: one read
    (on a connection of its own: the session's transaction is over) for the links in
    force and the games' versions."""
    games, nights = sorted(noted["games"]), sorted(noted["nights"])
    regulars = sorted(noted["regulars"])
    fresh = f"{time.time_ns():x}"
    out = {f"live-{token}": fresh for token in noted["tokens"]}
    shown = [LiveLink.night_id.in_(nights)] if nights else []
    if games:
        shown += [
            LiveLink.game_id.in_(games),
            LiveLink.night_id.in_(_GAME_NIGHTS.where(Game.id.in_(games))),
        ]
    if regulars:
        shown.append(LiveLink.night_id.in_(_REGULAR_NIGHTS.where(Person.regular_id.in_(regulars))))
    with reading() as conn:
        if shown:
            links = select(LiveLink.token).where(LiveLink.revoked_at.is_(None), or_(*shown))
            out.update({f"live-{token}": fresh for token in conn.scalars(links)})
        if games:
            versions = conn.execute(select(Game.id, Game.version).where(Game.id.in_(games)))
            out.update({f"game-{gid}": str(version) for gid, version in versions})
    return out


_local = threading.local()


def publish(url: str, messages: dict[str, str], heard: dict[str, int | None] | None = None) -> int:
    """POST each message to its channel at the publisher ``url`` (one kept-alive
    connection per thread); the number sent, and in ``heard`` each channel's number of
    subscribers, as the engine says it (None when it does not). Every failure is logged,
    never raised."""
    parts = urlsplit(url)
    sent = 0
    for channel, data in sorted(messages.items()):
        path = f"{parts.path}/{quote(channel, safe='')}"
        for attempt in (1, 2):  # a kept-alive connection the front closed: once more
            try:
                conn = _connection(parts.netloc)
                conn.request("POST", path, body=data.encode(), headers={"Accept": "text/json"})
                answer = conn.getresponse()
                said = answer.read()
                if heard is not None:
                    heard[channel] = _subscribers(said)
                if answer.status >= 300:
                    _log().warning("streams: %s answered %s for %s", url, answer.status, channel)
                sent += answer.status < 300
                break
            except (OSError, http.client.HTTPException) as exc:
                _drop()
                if attempt == 2 or isinstance(exc, ConnectionRefusedError | TimeoutError):
                    _log().warning("streams: could not publish to %s: %s", url, exc)
                    return sent
    return sent


def _subscribers(said: bytes) -> int | None:
    """The number of subscribers in nchan's answer to a publish (``Accept: text/json``)."""
    try:
        count = json.loads(said).get("subscribers")
    except (ValueError, AttributeError):
        return None
    return count if isinstance(count, int) else None


def _connection(netloc: str) -> http.client.HTTPConnection:
    conn: http.client.HTTPConnection | None = getattr(_local, "conn", None)
    if conn is None or getattr(_local, "netloc", None) != netloc:
        conn = http.client.HTTPConnection(netloc, timeout=PUBLISH_TIMEOUT)
        _local.conn, _local.netloc = conn, netloc
    return conn


def _drop() -> None:
    conn = getattr(_local, "conn", None)
    if conn is not None:
        conn.close()
    _local.conn = None
