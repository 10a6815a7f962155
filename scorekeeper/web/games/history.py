"""The game's history: every change, newest first, a page at a time, in words."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask_babel import gettext as _
from flask_login import login_required

from ... import services
from ...models import Edit, Game
from ...rules import Standings, get_variant
from ...rules.hands import hand_text
from ...services import keepers
from ..fields import checked_whole
from ..refusals import said_text
from .blueprint import bp, game_or_404

HISTORY_PAGE = 50


@bp.get("/games/<id:game_id>/history")
@login_required
def history(game_id: int) -> str:
    """The game's changes, newest first, a page at a time (a game corrected a thousand
    times must not make one page a thousand changes long)."""
    game = game_or_404(game_id)
    before = checked_whole(request.args.get("before"))
    edits = services.history_page(game, before=before, size=HISTORY_PAGE)
    older = edits[HISTORY_PAGE - 1].id if len(edits) > HISTORY_PAGE else None
    standings = services.standings_for(game)
    return render_template(
        "games/history.html",
        game=game,
        edits=edits[:HISTORY_PAGE],
        older=older,
        describe=lambda edit: describe_edit(edit, standings),
        who=_who(game, edits[:HISTORY_PAGE]),
    )


def _who(game: Game, edits: list[Edit]) -> dict[int, str]:
    """Who entered each change (their email, by user id), when the night is kept by more
    than its owner now or was before (a change on the page by someone else, or by an
    account deleted since: no user); else nothing (a keeper alone needs no names)."""
    ids = {e.user_id for e in edits}
    if ids - {game.night.owner_id} or keepers.co_keepers(game.night_id):
        return keepers.emails_of({i for i in ids if i is not None})
    return {}


def describe_edit(edit: Any, standings: Standings | None = None) -> list[str]:
    """The change in words: which hands and facts differ between before and after, and
    the choices the round holds (who joined where, who re-bought, who dropped out)."""
    display = get_variant(edit.game.variant).display
    lines = _describe(edit, said_text(display.round_said()), said_text(display.round_said("head")))
    if edit.action in {"add", "edit"} and edit.after_data:
        lines[-1] += "".join(f"; {c}" for c in _choices(edit, standings))
    return lines


def _choices(edit: Any, standings: Standings | None) -> list[str]:
    """Joins, re-buys and drops of the round as this change left it. A re-buy is no key of
    the round (it is what an expiry means unless the round drops the player), so it is
    read from the game's replay while the round is still as this change left it."""
    data, number = edit.after_data, edit.round_number
    out = [
        _("%(name)s joined, sitting after %(after)s", name=j["name"], after=j["after"])
        if isinstance(j, dict)
        else _("%(name)s joined", name=j)
        for j in data.get("joins", [])
    ]
    current = (
        standings is not None
        and number is not None
        and number <= standings.rounds_played
        and standings.record.rounds[number - 1].to_json() == data
    )
    if current:
        assert standings is not None and number is not None
        events = standings.rounds[number - 1].events
        out += [
            _("%(name)s re-bought, back to %(total)s", name=e.player, total=e.value)
            for e in events
            if e.kind == "rebuy"
        ]
    out += [_("%(name)s dropped out", name=name) for name in data.get("drops", [])]
    out += [_("%(name)s rejoined", name=name) for name in data.get("rejoins", [])]
    return out


def _describe(edit: Any, word: str, head: str) -> list[str]:
    """``word``: what the game calls a round ("deal" in Contract and Rummy); ``head``: the
    same at the start of a line ("Deal"), both in the reader's language."""
    before, after = edit.before_data, edit.after_data
    number = edit.round_number
    if edit.action in {"create", "import"}:
        return [_started(edit.action, after)]
    if edit.action == "rename":
        return [_("Renamed %(old)s to %(new)s", old=before, new=after)]
    if edit.action == "delete":
        return [_("Game deleted (left out of the night and its settlement)")]
    if edit.action == "restore":
        return [_("Game restored")]
    if edit.action == "joins":
        waiting = [_joining(n) for n in after]
        names = ", ".join(waiting) or _("nobody")
        return [_("Joining next %(word)s: %(names)s", word=word, names=names)]
    if edit.action == "remove":
        said = _round_words(before)
        return [_("Removed %(word)s %(number)s: %(round)s", word=word, number=number, round=said)]
    if edit.action == "add":
        return [
            _("%(word)s %(number)s: %(round)s", word=head, number=number, round=_round_words(after))
        ]
    lines = []
    if (before or {}).get("went_out") != after.get("went_out"):
        was, now = (x.get("went_out") or _("nobody") for x in (before, after))
        lines.append(_("went out: %(was)s → %(now)s", was=was, now=now))
    old_hands, new_hands = before.get("hands", {}), after.get("hands", {})
    for name in dict.fromkeys([*old_hands, *new_hands]):
        if old_hands.get(name) != new_hands.get(name):
            lines.append(
                f"{name}: {hand_text(old_hands.get(name)) or '-'} → "
                f"{hand_text(new_hands.get(name)) or '-'}"
            )
    for key in ("wild", "going_rummy", "contracts", "drops", "how", "rejoins"):
        if before.get(key) != after.get(key):
            was, now = (_words(x.get(key)) for x in (before, after))
            lines.append(f"{key.replace('_', ' ')}: {was} → {now}")  # the record's own key
    changes = "; ".join(lines) or _("no change")
    return [
        _("%(word)s %(number)s corrected: %(changes)s", word=head, number=number, changes=changes)
    ]


def _started(action: str, after: dict[str, Any]) -> str:
    players = ", ".join(p if isinstance(p, str) else p["name"] for p in after["players"])
    if action == "import":
        return _("Imported with %(names)s", names=players)
    return _("Started with %(names)s", names=players)


def _joining(entry: Any) -> str:
    if isinstance(entry, dict):
        return _("%(name)s (after %(after)s)", name=entry["name"], after=entry["after"])
    return str(entry)


def _words(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    if isinstance(value, bool) or value is None:
        return _("yes") if value else "-"
    return str(value)


def _round_words(data: dict[str, Any]) -> str:
    if "split" in data:  # a game ended by agreement (Pool)
        return _("the players still in split the pot (%(how)s)", how=data["split"])
    hands = ", ".join(f"{k} {hand_text(v)}" for k, v in data.get("hands", {}).items())
    out = data.get("went_out") or _("nobody")
    if data.get("how"):  # Gin: knock, gin, big gin (the record's word)
        how = str(data["how"]).replace("_", " ")
        return _("%(name)s went out (%(how)s); %(hands)s", name=out, how=how, hands=hands)
    return _("%(name)s went out; %(hands)s", name=out, hands=hands)
