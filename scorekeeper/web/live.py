"""The live view: what the players at the table see of a game or a night on their own
phones, read-only and with no account, and the keeper's page that shows them the way in
(a QR code and a short link), turns it off and renews it.

Public pages (``/live/<token>``, ``/live/night/<token>``) show the game or the night only:
nothing of the keeper's account, other games or other nights, no forms, no session. An
unknown token, a link turned off and a deleted game or night all answer the same 404.
They are polled every few seconds (static/js/live.js): the answer while nothing changed
is a 304 made from the link's stamp (one indexed query for a game, two for a night; no
replay, nothing rendered). Deployed with streams, the page comes in the stream's message
instead: after a save, ``message_page`` draws it once per watched language and layout
(``services.live_variants``, noted by the page's GET) for ``services.streams`` to send.

What a page costs is bounded: a page rendered for one state of what a link shows is kept
(``LIVE_PAGES``, by the ETag of that state: the shared cache when one is configured), so a
phone asking without ``If-None-Match``, or with any query string, is answered from it, and
a state is rendered once per worker whoever asks; a night's page draws the full grid of at
most ``FULL_GAMES`` games (those in play and the latest finished), the older finished ones
in one line each; and each client (its address, as the proxy in front gives it) is
answered at most ``RATE`` requests per ``PER`` seconds per worker, whatever links it asks
(then 429 with ``Retry-After``: live.js just asks again later). The limit counts what an
abuser controls, never the link: every player holds the link, and its QR code is on the
TV, so a limit per link would let one phone asking too often stop the whole table.

Caching: ``Cache-Control: private, no-cache``. The page is the same for everyone who has
the link, so ``public`` would be correct too, but it would buy nothing (``no-cache`` sends
every use back here anyway, where a 304 costs one query) and it would let shared caches
(a proxy, a CDN) keep copies of a table's scores and pay handles after the keeper turned
the link off. ``X-Robots-Tag: noindex, nofollow`` and ``Referrer-Policy: no-referrer`` keep
the link out of search engines and out of the pay services' logs.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from .. import services
from ..cache import DocumentCache
from ..extensions import N_
from ..forms import OneTimeForm, new_submission
from ..metrics import LIVE_VIEWS
from ..models import Game, LiveLink, Night
from ..reports import book_summary
from ..rules.money import use_money_locale
from ..services import ledger, live, live_variants
from ..services.streams import PAGES
from .games import game_or_404
from .games.sheet import SheetView
from .headers import templates_version, unchanged
from .lan import reach
from .locales import current_language
from .nights import night_or_404
from .qr import qr_data_url
from .streams import allow_stream, stream_url

bp = Blueprint("live", __name__)
bp.record_once(lambda state: state.app.extensions.setdefault(PAGES, message_page))

#: The pages anyone with a link may read (tests/web/test_route_guard.py PUBLIC_READ_ONLY):
#: exactly the routes under /live/, which get the public headers (web/headers.py).
PUBLIC = frozenset({"live.game", "live.night"})
POLL_SECONDS = 4  # static/js/live.js asks this often while the page is in view
REFRESH_SECONDS = 10  # with JavaScript off, the page reloads itself this often


@bp.after_request
def _counted(response: BaseResponse) -> BaseResponse:
    """A players' view answered: its page, or a 304 to a phone that has it."""
    view = {"live.game": "game", "live.night": "night"}.get(request.endpoint or "")
    if view and response.status_code in (200, 304):
        answer = "page" if response.status_code == 200 else "not_modified"
        LIVE_VIEWS.labels(view=view, answer=answer).inc()
    return response


FULL_GAMES = 4  # a night's page draws the grids of at most this many games
RATE, PER = 120, 10.0  # requests one client address is answered per worker in PER seconds:
# a phone polling every 4 s asks 2.5 times in 10 s; a table of 20 phones behind one Wi-Fi's
# address, 50 times (48 phones fit even if one worker took every request)
LIVE_PAGES = DocumentCache("live", max_bytes=16 * 1024 * 1024, max_entries=2_000)


class _Limiter:
    """At most ``rate`` requests per ``per`` seconds for each key (a client's address), in
    this worker's memory: a sliding window of the times of the last ``rate`` requests, for
    at most ``keys`` clients (the oldest forgotten first)."""

    def __init__(self, rate: int, per: float, keys: int = 10_000) -> None:
        self.rate, self.per, self.keys = rate, per, keys
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            times = self._seen.pop(key, None) or deque(maxlen=self.rate)
            self._seen[key] = times
            if len(self._seen) > self.keys:
                self._seen.popitem(last=False)
            if len(times) == self.rate and now - times[0] < self.per:
                return False
            times.append(now)
            return True


def _limiter() -> _Limiter:
    """The app's limiter (one per app in each worker: at most ~20 MB of times)."""
    found = current_app.extensions.get("live_limiter")
    if found is None:
        found = current_app.extensions["live_limiter"] = _Limiter(RATE, PER, keys=5_000)
    return found


def _limited() -> None:
    """429 to a client that asked too often (counted by its address, never by the link)."""
    if not _limiter().allow(request.remote_addr or ""):
        response = make_response(_("Too many requests from here: try again in a moment."), 429)
        response.headers["Retry-After"] = str(int(PER))
        abort(response)


# ----------------------------------------------------------------- the players ---
def form_check(token: str) -> str:
    """The live link's form token: what its page's forms carry instead of a session's."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"live-claim:" + token.encode(), hashlib.sha256).hexdigest()[:32]


def _tv() -> bool:
    """The large-type layout for a tablet or a TV (``?tv=1``)."""
    return bool(request.query_string) and request.args.get("tv") == "1"


def _etag(tag: str) -> str:
    """The page's ETag: the state it shows, the templates, the layout, and whether it is
    given a stream, and which, and the link's token (the page holds them: its forms post
    to the link). ``templates_version`` carries the language of the page's words: each
    phone reads its own, and the page is kept rendered once per language."""
    stream = _stream()
    streamed = f"-s{hashlib.sha256(stream.encode()).hexdigest()[:6]}" if stream else ""
    token = (request.view_args or {}).get("token", "")
    keyed = f"-k{hashlib.sha256(str(token).encode()).hexdigest()[:6]}"
    return f"{tag}-t{templates_version()}{'-tv' if _tv() else ''}{streamed}{keyed}"


def _stream() -> str | None:
    """The page's stream (``services.streams``: the link's token and the page's variant,
    its language and layout, name its channels)."""
    if not request.view_args:
        return None
    return stream_url(f"live/{request.view_args['token']}/{_variant()}")


def _variant() -> str:
    return live_variants.variant(current_language(), _tv())


def _seen(token: str) -> None:
    """Note the page's variant as watched, for the messages of the next saves (only
    where there are streams)."""
    if current_app.config.get("STREAMS_PUBLISH"):
        live_variants.seen(token, _variant())


def _known(tag: str) -> tuple[str, BaseResponse | None]:
    """The page's ETag, and the answer when the phone has the page (304) or it is kept
    rendered (LIVE_PAGES); None when it must be drawn."""
    etag = _etag(tag)
    same = unchanged(etag)
    if same is not None:
        return etag, same
    kept = LIVE_PAGES.get(etag)
    return etag, None if kept is None else _page(kept, etag)


def _drawn(template: str, etag: str, **context: Any) -> Response:
    """The page drawn, kept rendered under its ETag for the next phone that asks."""
    html = render_template(
        template, tv=_tv(), etag=etag, refresh=REFRESH_SECONDS, poll=POLL_SECONDS,
        stream=_stream(), **context,
    )  # fmt: skip
    LIVE_PAGES.put(etag, html, len(html))
    return _page(html, etag)


def _page(html: str, etag: str) -> Response:
    response = make_response(html)
    response.set_etag(etag, weak=True)
    return allow_stream(response)


@bp.get("/live/<token>")
def game(token: str) -> BaseResponse:
    """A game as the players see it: the banner, the grid, the pot, the chart."""
    _limited()
    return _game(token)


def _game(token: str) -> BaseResponse:
    stamp = live.link_stamp(token)
    if stamp is None:
        abort(404)
    _seen(token)
    etag, known = _known(stamp.tag)
    if known is not None:
        return known
    game = live.linked_game(stamp.game_id)
    if game is None:  # pragma: no cover - deleted between the two queries
        abort(404)
    use_money_locale(stamp.locale)
    if game.version != stamp.version:  # changed between the two queries: name what is shown
        etag = _etag(live.LinkStamp(stamp.link_id, game.id, game.version, game.created_at,
                                    stamp.night_name, stamp.locale).tag)  # fmt: skip
    standings, _cached = services.standings_at(game, stamp)  # the keeper's sheet's state cache
    return _drawn(
        "live/game.html",
        etag,
        game=game,
        s=standings,
        view=SheetView(game, standings),
        night_name=stamp.night_name,
    )


@bp.get("/live/night/<token>")
def night(token: str) -> BaseResponse:
    """A night as the players see it: its games and the running settlement, each transfer
    with the payee's ways to pay (paid from the payer's own phone)."""
    _limited()
    return _night(token)


def _night(token: str) -> BaseResponse:
    stamp = live.night_link_stamp(token)
    if stamp is None:
        abort(404)
    _seen(token)
    etag, known = _known(stamp.tag)
    if known is not None:
        return known
    night = live.linked_night(stamp.night_id)
    if night is None:  # pragma: no cover - deleted between the two queries
        abort(404)
    use_money_locale(night.locale)
    drawn = [(g, services.standings_for(g)) for g in night.games]
    full = _full_games(drawn)
    games = []
    for n, (g, standings) in enumerate(drawn, 1):
        view = SheetView(g, standings, chart_uid=f"chart-{n}") if g.id in full else None
        games.append((g, standings, view))
    book = ledger.night_book(night, games=[(g.title, s) for g, s, _ in games])
    return _drawn(
        "live/night.html", etag, night=night, games=games, book=book,
        book_summary=book_summary(book), token=token, claim_check=form_check(token),
    )  # fmt: skip


def message_page(token: str, variant: str) -> tuple[str, str] | None:
    """A link's page in a variant for a stream's message (``services.streams``), drawn as
    its GET would draw it (and kept for the phones that ask, ``LIVE_PAGES``): its ETag,
    and its title and main part, which is what the page's script swaps in; None for a
    link that shows nothing. Drawn in an app context of its own, away from the request
    whose commit it follows (its session, its language, its money locale)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    language, _dash, layout = variant.partition("-")

    def draw() -> tuple[str, str] | None:
        with app.app_context():
            for path, view in ((f"/live/{token}", _game), (f"/live/night/{token}", _night)):
                with app.test_request_context(
                    path + ("?tv=1" if layout else ""), headers={"Cookie": f"lang={language}"}
                ):
                    try:
                        answer = app.preprocess_request() or view(token)
                    except NotFound:
                        continue
                    if answer.status_code != 200:
                        return None
                    return answer.headers["ETag"], _fragment(answer.get_data(as_text=True))
        return None

    return contextvars.copy_context().run(draw)


def _fragment(html: str) -> str:
    """The title and the ``<main id="live">`` of a live page (what live.js swaps in)."""
    title = html[html.index("<title>") : html.index("</title>") + len("</title>")]
    return title + html[html.index('<main id="live"') : html.rindex("</main>") + len("</main>")]


def _full_games(drawn: list[tuple[Game, Any]]) -> set[int]:
    """The games whose grid a night's page draws: those in play, then the latest
    finished, at most ``FULL_GAMES``; the others are a line each."""
    playing = [g.id for g, s in reversed(drawn) if not s.finished]
    done = [g.id for g, s in reversed(drawn) if s.finished]
    return set((playing + done)[:FULL_GAMES])


# ------------------------------------------------------------------ the keeper ---
def _keeper_page(
    *, link: LiveLink | None, title: str, subject: str, back: str, actions: dict[str, str]
) -> str:
    """The QR code and the link start where the players' phones reach the app (see
    ``lan.reach``); Open and Large type open the view here, where the keeper is."""
    path = url_for("live.game" if link and link.game_id else "live.night", token=link.token
                   ) if link else None  # fmt: skip
    where = reach()
    url = where.base + path if path else None
    return render_template(
        "live/keeper.html",
        link=link,
        url=url,
        here=request.host_url.rstrip("/") + path if path else None,
        reach=where,
        qr=qr_data_url(url) if url else None,
        submission=new_submission(),  # Renew's one-time id
        title=title,
        subject=subject,
        back=back,
        actions=actions,
    )


def _actions(kind: str, **target: Any) -> dict[str, str]:
    return {
        "open": url_for(f"live.{kind}_link", **target),
        **{
            change: url_for(f"live.change_{kind}_link", change=change, **target)
            for change in CHANGES
        },
    }


@bp.route("/games/<id:game_id>/live", methods=["GET", "POST"])
@login_required
def game_link(game_id: int) -> str | BaseResponse:
    """The keeper's page of a game's live view: the QR code and the link, or the way to
    make one; a POST ("Show players") makes the link, or finds the one in force."""
    game: Game = game_or_404(game_id, owner_only=True)
    if request.method == "POST":
        return _changed("open", {"game_id": game.id})
    return _keeper_page(
        link=live.link_in_force(game_id=game.id),
        title=game.title,
        subject=_("this game"),
        back=url_for("games.sheet", game_id=game.id),
        actions=_actions("game", game_id=game.id),
    )


@bp.route("/nights/<id:night_id>/live", methods=["GET", "POST"])
@login_required
def night_link(night_id: int) -> str | BaseResponse:
    """The same for a night (its games and the running settlement)."""
    night: Night = night_or_404(night_id, owner_only=True)
    if request.method == "POST":
        return _changed("open", {"night_id": night.id})
    return _keeper_page(
        link=live.link_in_force(night_id=night.id),
        title=night.name,
        subject=_("this night"),
        back=url_for("nights.show", night_id=night.id),
        actions=_actions("night", night_id=night.id),
    )


#: What the keeper is told of a change of a link in force.
CHANGES = {
    "renew": N_("A new link: the old one shows nothing any more."),
    "off": N_("The live view is off: its link shows nothing."),
}


def _renew(**target: Any) -> None:
    """Renew with the form's one-time id: a double tap renews once."""
    form = OneTimeForm()
    if not form.validate_on_submit():
        abort(400)
    live.renew(**target, user=current_user, submission=form.submission.data)


def _changed(change: str, target: dict[str, Any]) -> BaseResponse:
    """Run a change of a link (CSRF checked by CSRFProtect before the view) and show the
    keeper's page again: open (make the link, or find the one in force), renew, off."""
    changes: dict[str, Callable[..., object]] = {"renew": _renew, "off": live.turn_off}
    done = changes.get(change, live.open_link)
    what = CHANGES.get(change, "")
    try:
        done(**target)
    except services.AlreadyCreated:
        flash(_("Renewed already (sent twice): the link below is the new one."), "info")
    except services.Conflict:
        flash(_("Something changed at the same moment: try again."), "error")
    else:
        if what:
            flash(_(what), "info")
    page = "live.game_link" if "game_id" in target else "live.night_link"
    return redirect(url_for(page, **target))


@bp.post("/games/<id:game_id>/live/<any(renew, off):change>")
@login_required
def change_game_link(game_id: int, change: str) -> BaseResponse:
    return _changed(change, {"game_id": game_or_404(game_id, owner_only=True).id})


@bp.post("/nights/<id:night_id>/live/<any(renew, off):change>")
@login_required
def change_night_link(night_id: int, change: str) -> BaseResponse:
    return _changed(change, {"night_id": night_or_404(night_id, owner_only=True).id})
