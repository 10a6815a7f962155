"""The phone's side of a card night without network: the service worker (``/sw.js``,
drawn from ``templates/sw.js``), the key that names the keeper's offline copies, and the
JSON answers to rounds the phone queued while offline.

The service worker keeps the app's own files and the last copy of each sheet, round form
and night page the keeper opened, under a cache named by ``account_key``; a round saved
with no network waits on the phone and is sent later, asking for JSON (``wants_json``):
what became of it, and the version the next queued round goes on top of
(``services.recorded``)."""

from __future__ import annotations

import functools
import hashlib
import hmac
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import services
from ..reports.files import files_digest

bp = Blueprint("offline", __name__)

# The app's own files the service worker keeps from the start (the shell): every page
# needs them, offline too.
SHELL = (
    "css/app.css",
    "js/words.js",
    "js/app.js",
    "js/round.js",
    "js/offline.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)
WORKER_TEMPLATES = ("sw.js", "manifest.webmanifest")


@bp.app_template_global("offline_account")
def account_key() -> str:
    """What the keeper's pages tell the service worker about whose they are: a keyed hash
    of the account's id (never a session token, nothing a page could be logged in with),
    the same for every login of the account, so rounds queued under one login are still
    sent after the next; "" when nobody is logged in. The worker keeps the pages of one
    account at a time and drops them when a page says another account, or nobody."""
    if not current_user.is_authenticated:
        return ""
    secret = current_app.config["SECRET_KEY"]
    key = secret if isinstance(secret, bytes) else str(secret).encode()
    message = f"scorekeeper-offline:{current_user.id}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:24]


@functools.cache
def _worker_version(static: str, templates: str) -> str:
    """Changes with any file the worker keeps (static files and the manifest) and with the
    worker itself: a new version makes the phone install the new worker, which fetches
    the shell again."""
    drawn = "".join((Path(templates) / name).read_text() for name in WORKER_TEMPLATES)
    return files_digest(Path(static), extra=drawn)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served at the root so that its scope is the whole app."""
    version = _worker_version(
        current_app.static_folder or "static", str(current_app.template_folder or "templates")
    )
    body = render_template(
        "sw.js",
        version=version,
        shell=[url_for("static", filename=name) for name in SHELL] + [url_for("home.manifest")],
        stylesheet=url_for("static", filename="css/app.css"),
        home=url_for("home.index"),
    )
    # Asked again at every check for an update, so a deploy reaches the phone at once.
    return Response(body, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


# ---------------------------------------------------------- queued rounds (JSON) ---
def wants_json() -> bool:
    """A request from the phone's queue (``templates/sw.js``): it asks for JSON and not for
    HTML. A browser's own navigation asks for HTML first, and a request without Accept
    gets the page as always."""
    accept = request.accept_mimetypes
    return accept.quality("application/json") > accept.quality("text/html")


def saved(game_id: int, submission: str) -> tuple[Response, int] | None:
    """The answer to a queued round already stored (by this send, or by an earlier one
    whose answer never reached the phone), or None: its round, and the version the next
    queued round goes on top of (null when another change came in between: that round
    must then be looked at). Asked before the round is read, since a round stored earlier
    need not fit the game as it is now (a player it named may have dropped out since)."""
    done = services.recorded(game_id, submission)
    if done is None:
        return None
    return jsonify({"saved": done.round_number, "version": done.version}), 200


def refused(
    message: str,
    errors: dict[str, str] | None = None,
    status: int = 422,
    *,
    asked: list[dict[str, Any]] | None = None,
) -> tuple[Response, int]:
    """Not saved, and sending it again will not change that: the keeper looks at it.
    ``asked``: who expired in the round, asked "re-buy or drop out?" (each with seat,
    name, reached, reset and the re-buy's price in words, "" with no stakes), so the
    phone puts the question on the round's form as the server would."""
    answer = {"refused": message, "errors": errors or {}, "asked": asked or []}
    return jsonify(answer), status


def changed_meanwhile() -> tuple[Response, int]:
    return jsonify(
        {
            "refused": "The game was changed on another phone while this round waited on "
            "this phone, so it was not saved. Check the sheet, then save it as the next "
            "round or discard it.",
            "conflict": True,
        }
    ), 409
