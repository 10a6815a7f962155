"""Games: new game, the sheet, entering and correcting rounds, history, export/import."""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms.validators import ValidationError

from .. import services
from ..forms import (
    ConfirmForm,
    ImportForm,
    JoinForm,
    NewGameForm,
    VersionedForm,
    check_pot_split,
    hand_text,
    money_text,
    new_submission,
    options,
    parse_hand_field,
    parse_money,
)
from ..models import Game, Night
from ..reports.files import files_digest
from ..rules import (
    CONTRACTS,
    VARIANTS,
    GameRecord,
    RecordError,
    Standings,
    format_cents,
    get_variant,
    name_key,
    parse_round,
    replay,
)
from ..rules.cards import MAX_CARDS_IN_HAND, RANK_NAMES, parse_flipped_card
from ..rules.record import MAX_HAND_POINTS, MAX_NAME_LENGTH, MAX_PLAYERS, clean_name
from .nights import night_or_404

bp = Blueprint("games", __name__)


def game_or_404(game_id: int) -> Game:
    game = services.load_game(game_id, current_user)
    if game is None:
        abort(404)
    return game


# ---------------------------------------------------------------------- new game ---
SETTING_FIELDS = {
    "vegas": [
        "buy_in",
        "max_score",
        "cards_per_player",
        "ace_points",
        "pot_split",
        "second_runner_up_buy_in",
        "meld_solidarity",
        "meld_strictness",
    ],
    "texas": ["ante", "per_round", "buy_in", "pot_split"],
    "rummy": ["target_score", "deals", "buy_in", "pot_split"],
    "multiplayer": ["target_score", "buy_in", "pot_split"],
    "dummy": ["buy_in", "pot_split"],
}
MONEY_FIELDS = {"buy_in", "ante", "per_round"}


def _prefill_settings(form: NewGameForm, variant: str, settings: dict[str, Any]) -> None:
    resolved = get_variant(variant).parse_settings(
        {k: v for k, v in settings.items() if k in get_variant(variant).setting_keys}
    )
    for key in SETTING_FIELDS[variant]:
        value = getattr(resolved, key)
        fld = getattr(form, key)
        if key in MONEY_FIELDS:
            fld.data = money_text(value)
        elif key == "pot_split":
            fld.data = "/".join(str(v) for v in value)
        elif key == "ace_points":
            fld.data = str(value)
        else:
            fld.data = value


def _settings_from_form(form: NewGameForm, variant: str) -> tuple[dict[str, Any], dict[str, str]]:
    settings: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for key in SETTING_FIELDS[variant]:
        fld = getattr(form, key)
        try:
            if key in MONEY_FIELDS:
                settings[key] = parse_money(fld.data)
            elif key == "pot_split":
                split = check_pot_split(fld.data)
                if split is not None:
                    settings[key] = split
            elif key == "ace_points":
                if not re.fullmatch(r"[0-9]{1,3}", str(fld.data or "1")):
                    raise ValueError("Aces count 1, 11 or 13 points.")
                settings[key] = int(fld.data or 1)
            elif key in {"second_runner_up_buy_in", "meld_solidarity", "meld_strictness"}:
                settings[key] = bool(fld.data)
            elif fld.data is not None:
                settings[key] = fld.data
        except (ValueError, ValidationError) as exc:
            errors[key] = str(exc)
    if variant == "rummy" and settings.get("deals"):
        settings.pop("target_score", None)
    return settings, errors


@dataclass
class Seating:
    rows: list[dict[str, Any]] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)


def _seating_from_request(night: Night, variant: str) -> tuple[list[tuple[str, int]], Seating]:
    seating = Seating()
    chosen: list[tuple[int, int, str, int]] = []
    taken: dict[int, str] = {}
    for person in night.people:
        raw_seat = request.form.get(f"seat-{person.id}", "").strip()
        raw_handicap = request.form.get(f"handicap-{person.id}", "").strip()
        row = {"person": person, "seat": raw_seat, "handicap": raw_handicap}
        seating.rows.append(row)
        if not raw_seat:
            continue
        try:
            seat = int(raw_seat)
            if not 1 <= seat <= 99:
                raise ValueError
        except ValueError:
            seating.errors[f"seat-{person.id}"] = "Seat must be a number: 1, 2, 3 ..."
            continue
        if seat in taken:
            seating.errors[f"seat-{person.id}"] = (
                f"Seat {seat} is given twice: {taken[seat]} and {person.name}."
            )
            continue
        taken[seat] = person.name
        handicap = 0
        if raw_handicap:
            try:
                handicap = int(raw_handicap)
                if handicap < 0:
                    raise ValueError
            except ValueError:
                seating.errors[f"handicap-{person.id}"] = "Handicap is whole points, 0 or more."
                continue
        chosen.append((seat, person.id, person.name, handicap))
    chosen.sort()
    return [(name, handicap) for _, _, name, handicap in chosen], seating


@bp.route("/nights/<id:night_id>/games/new", methods=["GET", "POST"])
@login_required
def new(night_id: int) -> str | Response | tuple[str, int]:
    night = night_or_404(night_id)
    variant = request.values.get("variant", "")
    if variant not in VARIANTS:
        return render_template(
            "games/choose.html",
            night=night,
            variants=VARIANTS.values(),
            from_game=request.args.get("from", ""),
        )
    form = NewGameForm(variant=variant)
    source = None
    if re.fullmatch(r"[0-9]{1,9}", request.args.get("from", "")):
        source = services.load_game(int(request.args["from"]), current_user)
    form.first_dealer.choices = options(
        [("", "Draw for it")] + [(p.name, p.name) for p in night.people]
    )
    errors: dict[str, str] = {}
    if not form.is_submitted():  # GET and HEAD: show the form, never create
        _prefill_settings(
            form, variant, dict(source.settings) if source and source.variant == variant else {}
        )
        seating = Seating(rows=[])
        in_source = {s.person_id: s for s in source.seats} if source else {}
        seat_numbers = (
            {pid: i + 1 for i, pid in enumerate(s.person_id for s in source.seats)}
            if source
            else {p.id: i + 1 for i, p in enumerate(night.people)}
        )
        for person in night.people:
            seat = in_source.get(person.id)
            seating.rows.append(
                {
                    "person": person,
                    "seat": str(seat_numbers.get(person.id, "")),
                    "handicap": str(seat.handicap) if seat and seat.handicap else "",
                }
            )
    else:
        players, seating = _seating_from_request(night, variant)
        settings, errors = _settings_from_form(form, variant)
        form.validate_on_submit()
        relevant = {
            *SETTING_FIELDS[variant],
            "first_dealer",
            "new_player",
            "csrf_token",
            "submission",
        }
        errors.update(
            {
                k if k in relevant and k not in {"csrf_token", "submission"} else "players": (
                    "; ".join(v)
                )
                for k, v in form.errors.items()
                if k in relevant
            }
        )
        errors.update(seating.errors)
        if form.new_player.data and form.new_player.data.strip():
            try:
                name = clean_name(form.new_player.data, what="the new player's name")
                if any(name_key(n) == name_key(name) for n, _ in players) or any(
                    p.name_key == name_key(name) for p in night.people
                ):
                    raise RecordError(f"{name} is already on tonight's list: give them a seat")
                players.append((name, 0))
            except RecordError as exc:
                errors["new_player"] = str(exc)
        if not errors:
            names = [n for n, _ in players]
            dealer = form.first_dealer.data or ""
            if not dealer and len(names) >= 2:
                dealer = random.choice(names)
            elif dealer and name_key(dealer) not in {name_key(n) for n in names}:
                errors["first_dealer"] = f"{dealer} is not playing in this game."
            if not errors:
                try:
                    game = services.create_game(
                        night,
                        variant=variant,
                        players=players,
                        first_dealer=dealer,
                        settings={**settings, "currency": night.currency},
                        user=current_user,
                        submission=form.submission.data,
                    )
                except services.AlreadyCreated as done:
                    flash("That game was already started (sent twice): here it is, once.", "info")
                    return redirect(url_for("games.sheet", game_id=done.target_id))
                except services.Conflict:
                    errors["players"] = "Something changed at the same moment: try again."
                except RecordError as exc:
                    errors[exc.field or "players"] = exc.detail if exc.field else str(exc)
                else:
                    flash(f"{game.title} started: {dealer} deals first.", "success")
                    return redirect(url_for("games.sheet", game_id=game.id))
    v = get_variant(variant)
    n_players = sum(1 for r in seating.rows if r["seat"]) or len(night.people)
    resolved = v.parse_settings({})
    return render_template(
        "games/new.html",
        night=night,
        form=form,
        variant=v,
        seating=seating,
        fields=SETTING_FIELDS[variant],
        errors=errors,
        advice=v.deck_advice(max(n_players, 2), resolved),
        warnings=v.warnings(max(n_players, 2), resolved),
        from_game=source,
    ), 422 if errors else 200


# ------------------------------------------------------------------------- sheet ---
@cache
def _templates_version() -> str:
    """Part of the sheet's ETag: a deploy that changes any template changes every ETag,
    so no phone keeps a sheet rendered by the old templates."""
    return files_digest(Path(current_app.template_folder or "templates"))


def _etag(game_id: int, version: int) -> str:
    """The sheet's ETag: the game's version, the templates, and the session's CSRF token
    (the page holds it in its forms: a browser restarted with a new session must not be
    answered 304 and keep a page whose Undo and Log out would be refused)."""
    token = session.get("csrf_token")
    tag = hashlib.sha256(token.encode()).hexdigest()[:12] if isinstance(token, str) else "none"
    return f"g{game_id}-v{version}-t{_templates_version()}-s{tag}"


@bp.get("/games/<id:game_id>")
@login_required
def sheet(game_id: int) -> Response:
    saved = request.args.get("saved", type=int)
    if request.if_none_match and not saved and not _has_flashes():
        # An unchanged sheet is answered from its version alone, before loading rounds.
        version = services.game_version(game_id, current_user)
        if version is None:
            abort(404)
        etag = _etag(game_id, version)
        if request.if_none_match.contains_weak(etag):
            response = make_response("", 304)
            response.set_etag(etag, weak=True)
            response.headers["Cache-Control"] = "private, no-cache"
            return response
    game = game_or_404(game_id)
    response = make_response(render_sheet(game, saved=saved))
    if not saved:
        response.set_etag(_etag(game.id, game.version), weak=True)  # after the token is made
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def render_sheet(game: Game, *, saved: int | None = None, conflict: str | None = None) -> str:
    """The sheet page of a game as it is stored now (also shown after a refused change)."""
    standings = services.standings_for(game)
    return render_template(
        "games/sheet.html",
        game=game,
        s=standings,
        view=SheetView(game, standings),
        saved=saved,
        conflict=conflict,
        undo_form=ConfirmForm(version=game.version, submission=new_submission()),
    )


def _has_flashes() -> bool:
    return bool(session.get("_flashes"))


class SheetView:
    """What the sheet template needs beyond the standings, computed once."""

    def __init__(self, game: Game, s: Standings) -> None:
        self.game = game
        self.s = s
        self.currency = s.pot.currency
        variant = s.variant
        self.labels = [variant.round_label(r.number) for r in s.rounds]
        leaders = set(s.groups[0]) if s.groups and s.rounds else set()
        self.leaders = leaders
        self.low_is_good = variant.low_is_good
        self.join_terms = s.join_terms() if variant.name == "vegas" and not s.finished else None
        self.marks = sheet_marks(s, self.money)

    def money(self, cents: int) -> str:
        return format_cents(cents, self.currency)

    def rules_line(self) -> str:
        """The table rules in one line, as agreed before play (shown under the banner)."""
        settings = self.s.record.settings
        name = self.s.variant.name
        parts: list[str] = []
        if settings.buy_in:
            parts.append(f"Buy-in {self.money(settings.buy_in)}")
        if name == "vegas":
            parts.append(f"max score {settings.max_score}")
            parts.append(f"aces {settings.ace_points}")
            parts.append("meld solidarity" if settings.meld_solidarity else "no meld solidarity")
            parts.append(
                "one wild per meld" if settings.meld_strictness else "any number of wilds per meld"
            )
            if settings.second_runner_up_buy_in:
                parts.append("third place gets a buy-in from the runner-up")
        if name == "texas":
            parts.append(f"ante {self.money(settings.ante)}")
            parts.append(f"{self.money(settings.per_round)} to whoever goes out")
        if name in {"rummy", "multiplayer"}:
            parts.append(
                f"{settings.deals} deals" if settings.deals else f"first to {settings.target_score}"
            )
        if settings.buy_in or name == "vegas" or settings.pot_split != (100,):
            parts.append("pot " + "/".join(str(p) for p in settings.pot_split))
        return " · ".join(parts)

    def wild_text(self, wild: list[str] | None) -> str:
        if not wild:
            return ""
        names = {"2": "deuces", "JK": "jokers"}
        return ", ".join(names.get(w, RANK_NAMES.get(w, w).lower()) for w in wild[::-1])


def sheet_marks(s: Standings, money: Any) -> dict[tuple[int, str], list[tuple[str, str]]]:
    """What to print in a cell besides the numbers, by (round, player), worked out once for
    the whole sheet: re-buy and its reset, drop, join and its start, an expiry that ended the
    game, a contract laid down, going rummy, a dime taken."""
    marks: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for r in s.rounds:
        settled = {e.player for e in r.events if e.kind in {"rebuy", "drop"}}
        for e in r.events:
            if e.kind == "rebuy":
                mark = ("rebuy", f"R→{e.value}")
            elif e.kind == "drop":
                mark = ("drop", "dropped")
            elif e.kind == "join":
                mark = ("join", f"joined@{e.value}")
            elif e.kind == "expire" and e.player not in settled:
                mark = ("expire", "≥max")
            elif e.kind == "contract":
                mark = ("contract", f"C{e.value}✓")
            elif e.kind == "going_rummy":
                mark = ("rummy", "rummy×2")
            elif e.kind == "dime":
                mark = ("dime", f"+{money(e.amount_cents or 0)}")
            else:
                continue
            marks.setdefault((r.number, e.player), []).append(mark)
    return marks


# ----------------------------------------------------------------- round entry ---
@dataclass
class RoundPlayer:
    name: str
    seat: int
    joining: bool = False
    total_before: int = 0


@dataclass
class RoundEntry:
    """The round form's state: players, what was typed, errors by field."""

    number: int
    players: list[RoundPlayer]
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    expiries: list[dict[str, Any]] = field(default_factory=list)
    general: list[str] = field(default_factory=list)
    has_wild: bool = False
    has_going_rummy: bool = False
    has_contracts: bool = False

    @property
    def marked(self) -> bool:
        """Is an error shown next to a field (not only at the top of the form)?"""
        return any(key != "general" for key in self.errors)


def _round_players(game: Game, s: Standings, number: int) -> list[RoundPlayer]:
    if number <= s.rounds_played:
        result = s.rounds[number - 1]
        in_round = set(result.scores) | ({result.went_out} if result.went_out else set())
        before = s.rounds[number - 2].totals if number > 1 else {}
        # A joiner starts where the replay put them (the join event), not at 0.
        starts = {e.player: e.value for e in result.events if e.kind == "join"}
        handicaps = {p.name: p.handicap for p in s.record.players}
        return [
            RoundPlayer(
                p.name,
                p.seat,
                joining=p.name in starts,
                total_before=(
                    starts[p.name]
                    if p.name in starts
                    else before.get(p.name, handicaps.get(p.name, 0))
                ),
            )
            for p in s.players
            if p.name in in_round
        ]
    players = [
        RoundPlayer(p.name, p.seat, total_before=p.total) for p in s.players if p.in_contention
    ]
    if game.variant == "vegas" and game.pending_joins:
        _, start = s.join_terms()
        seat = len(s.players)
        for name in game.pending_joins:
            existing = next((p for p in s.players if name_key(p.name) == name_key(name)), None)
            if existing:
                players.append(RoundPlayer(existing.name, existing.seat, True, start))
            else:
                players.append(RoundPlayer(name, seat, True, start))
                seat += 1
        players.sort(key=lambda p: p.seat)
    return players


def _values_from_round(data: dict[str, Any], players: list[RoundPlayer]) -> dict[str, str]:
    values: dict[str, str] = {}
    keys = {name_key(k): v for k, v in data.get("hands", {}).items()}
    went_out = data.get("went_out")
    values["went_out"] = ""
    for p in players:
        if went_out and name_key(went_out) == name_key(p.name):
            values["went_out"] = str(p.seat)
        hand = keys.get(name_key(p.name))
        values[f"hand-{p.seat}"] = hand_text(hand)
        # A stored card list stays cards when saved unchanged (a lone "2" is the two,
        # not 2 points), also without the script: the hidden field says they are cards.
        values[f"cards-{p.seat}"] = hand_text(hand) if isinstance(hand, list) else ""
    values["wild"] = data.get("wild") or ""
    values["going_rummy"] = "y" if data.get("going_rummy") else ""
    contracts = {name_key(n) for n in data.get("contracts", [])}
    drops = {name_key(n) for n in data.get("drops", [])}
    for p in players:
        if name_key(p.name) in contracts:
            values[f"contract-{p.seat}"] = "y"
        values[f"expiry-{p.seat}"] = "drop" if name_key(p.name) in drops else "rebuy"
    return values


def _round_from_form(game: Game, entry: RoundEntry) -> dict[str, Any] | None:
    form = request.form
    variant = get_variant(game.variant)
    by_seat = {str(p.seat): p for p in entry.players}
    for key in form:
        kind, _, seat = key.partition("-")
        if kind in {"hand", "cards", "contract", "expiry"} and seat not in by_seat:
            entry.errors["general"] = (
                f"There is no seat {seat[:10]} in this game: reload the page and enter the "
                "round again."
            )
            break
    went_raw = form.get("went_out", "")
    entry.values["went_out"] = went_raw
    went_out = None
    if went_raw in by_seat:
        went_out = by_seat[went_raw].name
    elif went_raw == "" and variant.nobody_out_allowed and "went_out" in form:
        went_out = None
    else:
        entry.errors["went_out"] = "Tap who went out" + (
            " (or Nobody)." if variant.nobody_out_allowed else "."
        )
    hands: dict[str, Any] = {}
    for p in entry.players:
        key, cards_key = f"hand-{p.seat}", f"cards-{p.seat}"
        entry.values[key] = form.get(key, "")[:200]
        entry.values[cards_key] = form.get(cards_key, "")[:200]
        if went_out == p.name:
            continue
        try:
            hands[p.name] = parse_hand_field(form.get(key), form.get(cards_key), variant.card_codes)
        except ValueError as exc:
            entry.errors[key] = f"{p.name}: {exc}"
    data: dict[str, Any] = {"went_out": went_out, "hands": hands}
    if game.variant == "vegas":
        wild_raw = form.get("wild", "").strip()[:20]
        entry.values["wild"] = wild_raw
        if wild_raw:
            wild = parse_flipped_card(wild_raw)
            if wild is None:
                entry.errors["wild"] = (
                    "Write the flipped card as rank and suit, like 7C, "
                    "QH or 10D, or JK for a joker."
                )
            data["wild"] = wild
        for p in entry.players:
            entry.values[f"expiry-{p.seat}"] = form.get(f"expiry-{p.seat}", "rebuy")
    if game.variant == "multiplayer":
        entry.values["going_rummy"] = form.get("going_rummy", "")
        if form.get("going_rummy"):
            data["going_rummy"] = True
    if game.variant == "dummy":
        contracts = []
        for p in entry.players:
            ticked = bool(form.get(f"contract-{p.seat}")) or p.name == went_out
            entry.values[f"contract-{p.seat}"] = "y" if ticked else ""
            if ticked:
                contracts.append(p.name)
        data["contracts"] = contracts
    return None if entry.errors else data


def _field_for(exc: RecordError, entry: RoundEntry) -> str:
    """The field of the form to mark with a refusal, or "general" (the top of the form)
    when the problem is not in a field shown: another round (a correction that would
    break a later round), or a field this form does not show."""
    if exc.round is not None and exc.round != entry.number:
        return "general"
    shown = {"went_out", "general"} | {f"hand-{p.seat}" for p in entry.players}
    shown |= {f"expiry-{x['seat']}" for x in entry.expiries}
    if entry.has_wild:
        shown.add("wild")
    if entry.has_going_rummy:
        shown.add("going_rummy")
    if entry.has_contracts:
        shown |= {f"contract-{p.seat}" for p in entry.players}
    field = "general"
    if exc.player:
        seat = next(
            (p.seat for p in entry.players if name_key(p.name) == name_key(exc.player)), None
        )
        if seat is not None:
            field = {
                "contracts": f"contract-{seat}",
                "drops": f"expiry-{seat}",
                "went_out": "went_out",
            }.get(exc.field or "", f"hand-{seat}")
    elif exc.field in {"went_out", "wild", "going_rummy"}:
        field = exc.field
    return field if field in shown else "general"


def _refusal(exc: RecordError, entry: RoundEntry) -> tuple[str, str]:
    """Where and how to say why a round was refused."""
    field = _field_for(exc, entry)
    if exc.round is not None and exc.round != entry.number:
        return field, (
            f"Not saved: with this change, round {exc.round} would no longer hold: "
            f"{exc.detail}. Correct that round first, or remove the rounds after "
            f"round {entry.number} and enter them again."
        )
    return field, str(exc)


def _render_round(
    game: Game,
    s: Standings,
    entry: RoundEntry,
    form: VersionedForm,
    status: int = 200,
    *,
    editing: bool,
) -> tuple[str, int]:
    variant = s.variant
    info = s.upcoming(game.pending_joins) if not editing else None
    values = variant.card_values(entry.number, s.record.settings)
    return render_template(
        "games/round.html",
        game=game,
        s=s,
        entry=entry,
        form=form,
        editing=editing,
        variant=variant,
        next_round=info,
        card_values=values,
        multiplier=variant.multiplier(entry.number),
        max_hand_points=MAX_HAND_POINTS,
        max_cards=MAX_CARDS_IN_HAND,
        label=variant.round_label(entry.number),
        contracts=CONTRACTS,
        money=lambda c: format_cents(c, s.pot.currency),
        join=s.join_terms() if game.variant == "vegas" and not editing else None,
    ), status


@bp.route("/games/<id:game_id>/rounds/new", methods=["GET", "POST"])
@login_required
def new_round(game_id: int) -> Response | tuple[str, int]:
    return _round_view(game_id, None)


@bp.route("/games/<id:game_id>/rounds/<int:number>", methods=["GET", "POST"])
@login_required
def edit_round(game_id: int, number: int) -> Response | tuple[str, int]:
    return _round_view(game_id, number)


def _round_view(game_id: int, number: int | None) -> Response | tuple[str, int]:
    game = game_or_404(game_id)
    s = services.standings_for(game)
    editing = number is not None
    if editing:
        assert number is not None
        if not 1 <= number <= s.rounds_played:
            abort(404)
    elif s.finished:
        flash("This game is over: no more rounds.", "info")
        return redirect(url_for("games.sheet", game_id=game.id))
    target = number or s.rounds_played + 1
    entry = RoundEntry(
        number=target,
        players=_round_players(game, s, target),
        has_wild=game.variant == "vegas",
        has_going_rummy=game.variant == "multiplayer",
        has_contracts=game.variant == "dummy",
    )
    form = VersionedForm()
    if not form.is_submitted():  # GET and HEAD
        form.version.data = str(game.version)
        form.submission.data = new_submission()
        if editing:
            data = game.rounds[target - 1].data
            entry.values = _values_from_round(data, entry.players)
            if game.variant == "vegas":
                try:
                    entry.expiries = _expiries(game, target, data, entry)
                except RecordError as exc:  # pragma: no cover - a stored round replays
                    entry.errors["general"] = str(exc)
        return _render_round(game, s, entry, form, editing=editing)

    if not form.validate_on_submit():
        entry.general.append("This form is incomplete: reload the page and try again.")
        return _render_round(game, s, entry, form, 400, editing=editing)
    data = _round_from_form(game, entry)
    if data is None:
        return _render_round(game, s, entry, form, 422, editing=editing)
    if editing:
        # Joins are made on the join page, not on this form: a correction keeps them.
        if game.rounds[target - 1].data.get("joins"):
            data["joins"] = game.rounds[target - 1].data["joins"]
    else:
        data = services.with_pending_joins(game, data)

    # Vegas: a player who expires this round re-buys unless the keeper says they drop;
    # say it in words before saving ("Bob reached 111. Re-buy for $2.00 (back to 63)?").
    if game.variant == "vegas":
        try:
            expiring = _expiries(game, target, data, entry)
        except RecordError as exc:
            field, message = _refusal(exc, entry)
            entry.errors[field] = message
            return _render_round(game, s, entry, form, 422, editing=editing)
        seen = request.form.get("expiry_seen", "")
        if expiring and seen != ",".join(str(x["seat"]) for x in expiring):
            entry.expiries = expiring
            return _render_round(game, s, entry, form, 200, editing=editing)
        entry.expiries = expiring  # shown again, with the choices, if the save is refused
        drops = [x["name"] for x in expiring if x["choice"] == "drop"]
        data.pop("drops", None)
        if drops:
            data["drops"] = drops
    try:
        services.save_round(
            game,
            data,
            number=number,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.Duplicate as dup:
        flash(
            f"Round {dup.round_number or target} was already saved (sent twice): it is "
            "recorded once.",
            "info",
        )
        return redirect(url_for("games.sheet", game_id=game_id))
    except services.Conflict:
        typed = request.form.get("round_number", "")
        if typed.isdigit() and 0 < int(typed) < 10_000:
            entry.number = int(typed)
        return _conflict(game_id, entry)
    except RecordError as exc:
        field, message = _refusal(exc, entry)
        entry.errors[field] = message
        return _render_round(game, s, entry, form, 422, editing=editing)
    if editing:
        flash(f"Round {target} corrected; everything after it is recomputed.", "success")
        return redirect(url_for("games.sheet", game_id=game_id, _anchor=f"r{target}"))
    # The round is committed: build the answer from plain values, not from the session's
    # (expired) objects, so nothing after the commit needs the database.
    return redirect(url_for("games.sheet", game_id=game_id, saved=target, _anchor=f"r{target}"))


def _expiries(
    game: Game, number: int, data: dict[str, Any], entry: RoundEntry
) -> list[dict[str, Any]]:
    """Who expires in this round (if it does not end the game), with the keeper's choice."""
    preview = _preview(game, number, data, drop_none=True)
    result = preview.rounds[number - 1]
    rebuys = {e.player: e for e in result.events if e.kind == "rebuy"}
    out = []
    for e in result.events:
        if e.kind == "expire" and e.player in rebuys:
            seat = preview.player(e.player).seat
            out.append(
                {
                    "name": e.player,
                    "seat": seat,
                    "reached": e.value,
                    "reset": rebuys[e.player].value,
                    "fee": -(rebuys[e.player].amount_cents or 0),
                    "choice": entry.values.get(f"expiry-{seat}", "rebuy"),
                }
            )
    return out


def _preview(game: Game, number: int, data: dict[str, Any], *, drop_none: bool) -> Standings:
    """The game up to round ``number`` as it would be with ``data`` for that round (the
    rounds after it left out: who expires, and where a re-buy resets to, depend only on
    the rounds before; a later round that the change would break is the save's to say)."""
    record = services.standings_for(game).record
    probe = {**data, "drops": []} if drop_none else data
    rnd = parse_round(
        probe, number=number, variant=game.variant, card_codes=get_variant(game.variant).card_codes
    )
    return replay(record.with_rounds([*record.rounds[: number - 1], rnd]))


def _conflict(game_id: int, entry: RoundEntry) -> tuple[str, int]:
    """Another phone changed the game first: show the current sheet, save nothing."""
    game = game_or_404(game_id)
    typed = ", ".join(
        f"{p.name} {entry.values.get(f'hand-{p.seat}', '') or '-'}" for p in entry.players
    )
    message = (
        "This game was changed on another phone while you were typing, so your "
        f"round {entry.number} was not saved. Here is the sheet as it is now. "
        f"What you typed: {typed}."
    )
    return render_sheet(game, conflict=message), 409


@bp.post("/games/<id:game_id>/rounds/last/delete")
@login_required
def remove_last(game_id: int) -> Response | tuple[str, int]:
    game = game_or_404(game_id)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        number = services.remove_last_round(
            game,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.Duplicate:
        flash("That round was already removed.", "info")
    except services.Conflict:
        flash("The game changed on another phone: nothing was removed. Check the sheet.", "error")
    except RecordError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Round {number} removed (it stays in the history).", "success")
    return redirect(url_for("games.sheet", game_id=game_id))


# ------------------------------------------------------------------ vegas joins ---
@bp.route("/games/<id:game_id>/join", methods=["GET", "POST"])
@login_required
def join(game_id: int) -> Response | tuple[str, int]:
    game = game_or_404(game_id)
    if game.variant != "vegas":
        abort(404)
    s = services.standings_for(game)
    if s.finished:
        flash("This game is over.", "info")
        return redirect(url_for("games.sheet", game_id=game.id))
    form = JoinForm()
    playing = {name_key(p.name) for p in s.players if p.in_contention}
    pending = {name_key(n) for n in game.pending_joins}
    candidates = [
        p.name for p in game.night.people if p.name_key not in playing and p.name_key not in pending
    ]
    form.person.choices = options([("", "Choose...")] + [(n, n) for n in candidates])
    fee, start = s.join_terms()
    status = 200
    if request.method == "GET":
        form.version.data = str(game.version)
        form.submission.data = new_submission()
    elif form.validate_on_submit():
        action = request.form.get("action", "add")
        names = list(game.pending_joins)
        try:
            if action == "cancel":
                cancel = request.form.get("name", "")
                if name_key(cancel) not in pending:
                    raise RecordError(f"{cancel[:MAX_NAME_LENGTH]} is not joining next round.")
                names = [n for n in names if name_key(n) != name_key(cancel)]
            else:
                raw = (form.new_name.data or "").strip() or form.person.data or ""
                if not raw:
                    raise RecordError("Choose who joins, or type a new name.")
                name = clean_name(raw, what="the name")
                if name_key(name) in playing:
                    raise RecordError(f"{name} is already in the game.")
                if name_key(name) in pending:
                    raise RecordError(f"{name} is already joining next round.")
                if len(s.players) + len(names) >= MAX_PLAYERS:
                    raise RecordError(f"A game takes at most {MAX_PLAYERS} players.")
                known = next(
                    (p.name for p in game.night.people if p.name_key == name_key(name)), name
                )
                names.append(known)
            services.set_pending_joins(
                game, names, expected_version=form.version_number(), user=current_user
            )
        except services.Conflict:
            flash("The game changed on another phone; check and try again.", "error")
        except RecordError as exc:
            form.new_name.errors.append(str(exc))
            status = 422
        else:
            if action != "cancel":
                flash(
                    f"{names[-1]} joins at the start of round {s.rounds_played + 1}, "
                    f"pays {format_cents(fee, s.pot.currency)} and starts at {start}.",
                    "success",
                )
            return redirect(url_for("games.sheet", game_id=game.id))
    else:
        status = 422
        if form.version.errors or form.submission.errors:
            status = 400
            form.new_name.errors.append("This form is incomplete: reload the page and try again.")
    return render_template(
        "games/join.html",
        game=game,
        s=s,
        form=form,
        fee=fee,
        start=start,
        money=lambda c: format_cents(c, s.pot.currency),
    ), status


# -------------------------------------------------------------- history & records ---
@bp.get("/games/<id:game_id>/history")
@login_required
def history(game_id: int) -> str:
    """The game's changes, newest first, a page at a time (a game corrected a thousand
    times must not make one page a thousand changes long)."""
    game = game_or_404(game_id)
    before = request.args.get("before", type=int)
    edits = services.history_page(game, before=before, size=HISTORY_PAGE)
    older = edits[HISTORY_PAGE - 1].id if len(edits) > HISTORY_PAGE else None
    return render_template(
        "games/history.html",
        game=game,
        edits=edits[:HISTORY_PAGE],
        older=older,
        describe=describe_edit,
    )


HISTORY_PAGE = 50


def describe_edit(edit: Any) -> list[str]:
    """The change in words: which hands and facts differ between before and after."""
    before, after = edit.before_data, edit.after_data
    if edit.action in {"create", "import"}:
        players = ", ".join(p if isinstance(p, str) else p["name"] for p in after["players"])
        return [f"{'Imported' if edit.action == 'import' else 'Started'} with {players}"]
    if edit.action == "rename":
        return [f"Renamed {before} to {after}"]
    if edit.action == "delete":
        return ["Game deleted (left out of the night and its settlement)"]
    if edit.action == "restore":
        return ["Game restored"]
    if edit.action == "joins":
        return [f"Joining next round: {', '.join(after) or 'nobody'}"]
    if edit.action == "remove":
        return [f"Removed round {edit.round_number}: {_round_words(before)}"]
    if edit.action == "add":
        return [f"Round {edit.round_number}: {_round_words(after)}"]
    lines = []
    if (before or {}).get("went_out") != after.get("went_out"):
        lines.append(
            f"went out: {before.get('went_out') or 'nobody'} → {after.get('went_out') or 'nobody'}"
        )
    old_hands, new_hands = before.get("hands", {}), after.get("hands", {})
    for name in dict.fromkeys([*old_hands, *new_hands]):
        if old_hands.get(name) != new_hands.get(name):
            lines.append(
                f"{name}: {hand_text(old_hands.get(name)) or '-'} → "
                f"{hand_text(new_hands.get(name)) or '-'}"
            )
    for key in ("wild", "going_rummy", "contracts", "drops", "joins"):
        if before.get(key) != after.get(key):
            lines.append(
                f"{key.replace('_', ' ')}: {before.get(key) or '-'} → {after.get(key) or '-'}"
            )
    return [f"Round {edit.round_number} corrected: " + ("; ".join(lines) or "no change")]


def _round_words(data: dict[str, Any]) -> str:
    hands = ", ".join(f"{k} {hand_text(v)}" for k, v in data.get("hands", {}).items())
    out = data.get("went_out") or "nobody"
    return f"{out} went out; {hands}"


def _read_json(text: str) -> Any:
    """json.loads, with the ways a hostile text breaks it (besides bad syntax) in words."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None
    except ValueError:  # a number of thousands of digits: Python refuses to read it
        raise RecordError("a number in the record is too long") from None


@bp.get("/games/<id:game_id>/export.json")
@login_required
def export(game_id: int) -> Response:
    game = game_or_404(game_id)
    body = json.dumps(game.record_json(), indent=2, ensure_ascii=False)
    response = make_response(body)
    response.mimetype = "application/json"
    filename = f"{game.night.played_on.isoformat()}-{game.variant}-game-{game.id}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/nights/<id:night_id>/games/import", methods=["GET", "POST"])
@login_required
def import_game(night_id: int) -> Response | tuple[str, int]:
    night = night_or_404(night_id)
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        upload = request.files.get("file")
        text = (
            upload.read().decode("utf-8", "replace")
            if upload and upload.filename
            else (form.record.data or "")
        )
        try:
            if not text.strip():
                raise RecordError("paste a game record or choose a file")
            data = _read_json(text)
            record = GameRecord.from_json(data)
            if record.settings.currency != night.currency:
                raise RecordError(
                    f"the record is in {record.settings.currency} but this "
                    f"night is in {night.currency}"
                )
            raw_settings = data.get("settings") or {}
            game = services.create_game(
                night,
                variant=record.variant,
                players=[(p.name, p.handicap) for p in record.players],
                first_dealer=record.first_dealer,
                settings={**record.settings.to_json(frozenset(raw_settings) | {"currency"})},
                rounds=[r.to_json() for r in record.rounds],
                user=current_user,
                action="import",
                submission=form.submission.data,
            )
        except services.AlreadyCreated as done:
            flash("That record was already imported (sent twice): here it is, once.", "info")
            return redirect(url_for("games.sheet", game_id=done.target_id))
        except services.Conflict:
            error = "Something changed at the same moment: nothing was imported. Try again."
        except json.JSONDecodeError as exc:
            error = f"That is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        except RecordError as exc:
            error = f"Not imported: {exc}"
        else:
            flash(f"Imported {game.title} with {len(game.rounds)} rounds.", "success")
            return redirect(url_for("games.sheet", game_id=game.id))
    elif request.method == "POST":
        error = "; ".join(e for errs in form.errors.values() for e in errs)
    return render_template(
        "games/import.html", night=night, form=form, error=error
    ), 422 if error else 200


# ------------------------------------------------------------ delete & restore ---
@bp.route("/games/<id:game_id>/delete", methods=["GET", "POST"])
@login_required
def delete(game_id: int) -> str | Response:
    """Delete a game after a confirmation: it leaves the night and its settlement, and
    stays restorable from the night's page (and listed in the game's history)."""
    game = services.load_game(game_id, current_user, deleted=True)
    if game is None:
        abort(404)
    form = ConfirmForm()
    if not form.is_submitted():
        if game.deleted_at is not None:
            abort(404)
        form.version.data = str(game.version)
        form.submission.data = new_submission()
        return render_template(
            "games/delete.html", game=game, s=services.standings_for(game), form=form
        )
    if not form.validate_on_submit():
        abort(400)
    night_id = game.night_id
    try:
        services.delete_game(
            game,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.Duplicate:
        flash("That game was already deleted (sent twice).", "info")
    except services.Conflict:
        flash("The game changed on another phone: it was not deleted. Check it first.", "error")
        return redirect(url_for("games.sheet", game_id=game_id))
    else:
        flash("Game deleted: it no longer counts in the settlement. Restore it below.", "success")
    return redirect(url_for("nights.show", night_id=night_id, _anchor="deleted"))


@bp.post("/games/<id:game_id>/restore")
@login_required
def restore(game_id: int) -> Response:
    game = services.load_game(game_id, current_user, deleted=True)
    if game is None:
        abort(404)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    if game.deleted_at is None:
        flash("That game is not deleted.", "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    try:
        services.restore_game(
            game,
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.Duplicate:
        flash("That game was already restored (sent twice).", "info")
    except services.Conflict:
        flash("The game changed at the same moment: try again.", "error")
        return redirect(url_for("nights.show", night_id=game.night_id, _anchor="deleted"))
    except RecordError as exc:
        flash(str(exc), "error")
        return redirect(url_for("nights.show", night_id=game.night_id, _anchor="deleted"))
    else:
        flash("Game restored: it counts in the settlement again.", "success")
    return redirect(url_for("games.sheet", game_id=game_id))
