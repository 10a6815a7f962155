"""Entering a round, correcting one, removing the last one, and late joiners.

The round form is read by :class:`RoundEntry` (what was typed, errors by field, the players
in seat order); the service checks the round once (:func:`services.plan_round`), which also
says who expires in it, so the keeper is asked "re-buy or drop?" before anything is saved,
and the save reuses that check.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ... import services
from ...forms import (
    ConfirmForm,
    JoinForm,
    VersionedForm,
    checked_whole,
    hand_text,
    new_submission,
    options,
    parse_hand_field,
)
from ...models import Game
from ...rules import NextRound, RecordError, Standings, format_money, name_key
from ...rules.cards import MAX_CARDS_IN_HAND, parse_flipped_card
from ...rules.record import MAX_HAND_POINTS
from ...services import ledger
from .. import offline
from .blueprint import bp, game_or_404, with_stamp
from .sheet import render_sheet


@dataclass
class RoundPlayer:
    name: str
    seat: int
    joining: bool = False
    total_before: int = 0
    contract: str | None = None  # the words for laying down their contract (Dummy)


@dataclass
class RoundEntry:
    """The round form's state: the game, the players, what was typed, errors by field."""

    game: Game
    s: Standings
    number: int
    editing: bool
    players: list[RoundPlayer]
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    expiries: list[dict[str, Any]] = field(default_factory=list)
    queued: bool = False  # sent from the phone's queue: answered in JSON (web/offline.py)

    @classmethod
    def open(cls, game: Game, s: Standings, number: int | None) -> RoundEntry:
        editing = number is not None
        target = number if number is not None else s.rounds_played + 1
        if editing and not 1 <= target <= s.rounds_played:
            abort(404)
        return cls(game, s, target, editing, _round_players(game, s, target))

    @property
    def inputs(self) -> frozenset[str]:
        return self.s.variant.round_inputs

    @property
    def rows(self) -> list[RoundPlayer]:
        """The players in the order the table counts its hands: seat order from the player
        who starts the round (the seat after the dealer's), so the form follows the table.
        ``players`` stays in seat order: the round is read and stored in that order."""
        if self.editing:
            dealer = self.s.rounds[self.number - 1].dealer
        else:
            upcoming = self.s.upcoming(self.game.pending_joins)
            dealer = upcoming.dealer if upcoming else ""
        seats = {name_key(p.name): p.seat for p in self.s.players}
        seats.update({name_key(p.name): p.seat for p in self.players})
        dealer_seat = seats.get(name_key(dealer))
        if dealer_seat is None:
            return self.players
        first = next((i for i, p in enumerate(self.players) if p.seat > dealer_seat), 0)
        return self.players[first:] + self.players[:first]

    @property
    def marked(self) -> bool:
        """Is an error shown next to a field (not only at the top of the form)?"""
        return any(key != "general" for key in self.errors)

    # -- reading the form ------------------------------------------------------------
    def load_stored(self) -> None:
        """A correction starts from the round as stored, its expiries asked again."""
        data = self.game.rounds[self.number - 1].data
        self.values = _values_from_round(data, self.players)
        plan = services.plan_round(self.game, data, number=self.number, standings=self.s)
        self.ask(plan.expiries())

    def read(self, form: MultiDict[str, str]) -> dict[str, Any] | None:
        """The round as typed, or None with errors by field."""
        variant = self.s.variant
        by_seat = {str(p.seat): p for p in self.players}
        for key in form:
            kind, _, seat = key.partition("-")
            if kind in {"hand", "cards", "contract", "expiry"} and seat not in by_seat:
                self.errors["general"] = (
                    f"There is no seat {seat[:10]} in this game: reload the page and enter "
                    "the round again."
                )
                break
        went_raw = form.get("went_out", "")
        self.values["went_out"] = went_raw
        went_out = None
        if went_raw in by_seat:
            went_out = by_seat[went_raw].name
        elif not (went_raw == "" and variant.nobody_out_allowed and "went_out" in form):
            self.errors["went_out"] = "Tap who went out" + (
                " (or Nobody)." if variant.nobody_out_allowed else "."
            )
        hands: dict[str, Any] = {}
        for p in self.players:
            key, cards_key = f"hand-{p.seat}", f"cards-{p.seat}"
            self.values[key] = form.get(key, "")[:200]
            self.values[cards_key] = form.get(cards_key, "")[:200]
            self.values[f"expiry-{p.seat}"] = form.get(f"expiry-{p.seat}", "rebuy")
            if went_out == p.name:
                continue
            try:
                hands[p.name] = parse_hand_field(
                    form.get(key), form.get(cards_key), variant.card_codes
                )
            except ValueError as exc:
                self.errors[key] = f"{p.name}: {exc}"
        data: dict[str, Any] = {"went_out": went_out, "hands": hands}
        if "flipped_card" in self.inputs:
            self._read_flipped_card(form, data)
        if "going_rummy" in self.inputs:
            self.values["going_rummy"] = form.get("going_rummy", "")
            if form.get("going_rummy"):
                data["going_rummy"] = True
        if "contracts" in self.inputs:
            contracts = []
            for p in self.players:
                ticked = bool(form.get(f"contract-{p.seat}")) or p.name == went_out
                self.values[f"contract-{p.seat}"] = "y" if ticked else ""
                if ticked:
                    contracts.append(p.name)
            data["contracts"] = contracts
        return None if self.errors else data

    def _read_flipped_card(self, form: MultiDict[str, str], data: dict[str, Any]) -> None:
        raw = form.get("wild", "").strip()[:20]
        self.values["wild"] = raw
        if not raw:
            return
        wild = parse_flipped_card(raw)
        if wild is None:
            self.errors["wild"] = (
                "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."
            )
        data["wild"] = wild

    # -- expiries: re-buy or drop -----------------------------------------------------
    def ask(self, expiries: list[services.Expiry]) -> None:
        seats = {p.name: p.seat for p in self.players}
        self.expiries = [
            {
                "name": x.name,
                "seat": seats[x.name],
                "reached": x.reached,
                "reset": x.reset,
                "fee": x.fee,
                "choice": self.values.get(f"expiry-{seats[x.name]}", "rebuy"),
            }
            for x in expiries
        ]

    def must_ask(self, plan: services.RoundPlan, form: MultiDict[str, str]) -> bool:
        """Ask "re-buy or drop?" when someone expires whom the keeper has not seen yet."""
        self.ask(plan.expiries())
        seen = ",".join(str(x["seat"]) for x in self.expiries)
        return bool(self.expiries) and form.get("expiry_seen", "") != seen

    def drops(self) -> list[str]:
        return [x["name"] for x in self.expiries if x["choice"] == "drop"]

    # -- refusals -----------------------------------------------------------------------
    def refuse(self, exc: RecordError) -> None:
        """Mark the field a refusal is about, or say it at the top of the form when it is
        not in a field shown (a later round the change would break)."""
        if exc.round is not None and exc.round != self.number:
            self.errors["general"] = (
                f"Not saved: with this change, round {exc.round} would no longer hold: "
                f"{exc.detail}. Correct that round first, or remove the rounds after "
                f"round {self.number} and enter them again."
            )
            return
        self.errors[self._field_for(exc)] = str(exc)

    def _field_for(self, exc: RecordError) -> str:
        shown = {"went_out"} | {f"hand-{p.seat}" for p in self.players}
        shown |= {f"expiry-{x['seat']}" for x in self.expiries}
        if "flipped_card" in self.inputs:
            shown.add("wild")
        if "going_rummy" in self.inputs:
            shown.add("going_rummy")
        if "contracts" in self.inputs:
            shown |= {f"contract-{p.seat}" for p in self.players}
        key = "general"
        seat = next(
            (p.seat for p in self.players if name_key(p.name) == name_key(exc.player or "")), None
        )
        if seat is not None:
            key = {
                "contracts": f"contract-{seat}",
                "drops": f"expiry-{seat}",
                "went_out": "went_out",
            }.get(exc.field or "", f"hand-{seat}")
        elif exc.field in {"went_out", "wild", "going_rummy"}:
            key = exc.field or "general"
        return key if key in shown else "general"

    # -- the page -----------------------------------------------------------------------
    def render(self, form: VersionedForm, status: int = 200) -> tuple[str | Response, int]:
        if self.queued:
            return offline.not_saved(self, status)
        s, variant = self.s, self.s.variant
        settings = s.record.settings
        upcoming = None if self.editing else s.upcoming(self.game.pending_joins)
        this = upcoming or NextRound(
            number=self.number,
            dealer=s.rounds[self.number - 1].dealer,
            starts="",
            cards_per_player=variant.cards_per_player(self.number, len(self.players), settings),
            wild=variant.wild(self.number),
            multiplier=variant.multiplier(self.number),
            contracts=None,
            label=variant.round_label(self.number),
        )
        return render_template(
            "games/round.html",
            game=self.game,
            entry=self,
            form=form,
            editing=self.editing,
            variant=variant,
            next_round=upcoming,
            banner=variant.display.banner(this, settings),
            card_values=variant.card_values(self.number, settings),
            multiplier=variant.multiplier(self.number),
            max_hand_points=MAX_HAND_POINTS,
            max_cards=MAX_CARDS_IN_HAND,
            money=lambda c: format_money(c, s.pot.currency),
            money_moves=ledger.MONEY_MOVES if ledger.money_recorded(self.game.night_id) else None,
        ), status


def _round_players(game: Game, s: Standings, number: int) -> list[RoundPlayer]:
    """Who plays round ``number`` in seat order, with their totals before it (a joiner:
    where the replay starts them) and, where the game has them, their contracts."""
    variant = s.variant
    if number <= s.rounds_played:
        result = s.rounds[number - 1]
        in_round = set(result.scores) | ({result.went_out} if result.went_out else set())
        before = s.rounds[number - 2].totals if number > 1 else {}
        starts = {e.player: e.value for e in result.events if e.kind == "join"}
        handicaps = {p.name: p.handicap for p in s.record.players}
        return [
            RoundPlayer(
                p.name,
                p.seat,
                joining=p.name in starts,
                total_before=(
                    starts[p.name] or 0
                    if p.name in starts
                    else before.get(p.name, handicaps.get(p.name, 0))
                ),
                contract=variant.display.contract_choice(0)
                if "contracts" in variant.round_inputs
                else None,
            )
            for p in s.players
            if p.name in in_round
        ]
    players = [
        RoundPlayer(
            p.name,
            p.seat,
            total_before=p.total,
            contract=variant.display.contract_choice(p.contract or 0)
            if "contracts" in variant.round_inputs
            else None,
        )
        for p in s.players
        if p.in_contention
    ]
    if game.pending_joins:
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


# ------------------------------------------------------------------------ routes ---
@bp.route("/games/<id:game_id>/rounds/new", methods=["GET", "POST"])
@with_stamp
def new_round(game_id: int) -> Response | tuple[str | Response, int]:
    return _round_view(game_id, None)


@bp.route("/games/<id:game_id>/rounds/<int:number>", methods=["GET", "POST"])
@with_stamp
def edit_round(game_id: int, number: int) -> Response | tuple[str | Response, int]:
    return _round_view(game_id, number)


def _round_view(game_id: int, number: int | None) -> Response | tuple[str | Response, int]:
    # The login, the owner and the game's version came in one query (``with_stamp``);
    # the standings of that version are usually kept by it, and then no round is loaded.
    game = game_or_404(game_id, eager=False)
    s = services.standings_at(game, g.stamp)[0] if g.stamp else services.standings_for(game)
    # A new round the phone queued offline and sends now: the same checks, answered in
    # JSON (what became of it, and the version the next queued round goes on top of).
    queued = number is None and request.method == "POST" and offline.wants_json()
    if queued and (done := offline.saved(game_id, request.form.get("submission", ""))):
        return done
    if number is None and s.finished:
        if queued:
            return offline.refused("This game is over: no more rounds.")
        flash("This game is over: no more rounds.", "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    entry = RoundEntry.open(game, s, number)
    entry.queued = queued
    form = VersionedForm()
    if not form.is_submitted():  # GET and HEAD
        form.version.data, form.submission.data = str(game.version), new_submission()
        if entry.editing:
            entry.load_stored()
        return entry.render(form)
    if not form.validate_on_submit():
        entry.errors["general"] = "This form is incomplete: reload the page and try again."
        return entry.render(form, 400)
    data = entry.read(request.form)
    try:
        if data is None:
            return entry.render(form, 422)
        plan = services.plan_round(game, data, number=number, standings=s)
        if entry.must_ask(plan, request.form):
            return entry.render(form)
        services.save_planned_round(
            game,
            plan.with_drops(entry.drops()),
            expected_version=form.version_number(),
            submission=form.submission.data,
            user=current_user,
        )
    except services.Duplicate as dup:
        if queued and (done := offline.saved(game_id, form.submission.data)):
            return done  # stored a moment ago by the same round sent twice at once
        flash(
            f"Round {dup.round_number or entry.number} was already saved (sent twice): it is "
            "recorded once.",
            "info",
        )
        return redirect(url_for("games.sheet", game_id=game_id))
    except services.Conflict:
        return offline.changed_meanwhile() if queued else _conflict(game_id, entry)
    except RecordError as exc:
        entry.refuse(exc)
        return entry.render(form, 422)
    if queued:
        done = offline.saved(game_id, form.submission.data)
        assert done is not None  # the save recorded its submission, in its commit
        return done
    if entry.editing:
        flash(f"Round {entry.number} corrected; everything after it is recomputed.", "success")
        return redirect(url_for("games.sheet", game_id=game_id, _anchor=f"r{entry.number}"))
    # The round is committed: the answer is built from plain values, not from the
    # session's (expired) objects, so nothing after the commit needs the database. No
    # anchor: the sheet opens at its banner (who deals next), Undo and the new row; the
    # script scrolls the grid box to the row (an anchor would scroll the banner away).
    return redirect(url_for("games.sheet", game_id=game_id, saved=entry.number))


def _conflict(game_id: int, entry: RoundEntry) -> tuple[str, int]:
    """Another phone changed the game first: show the current sheet, save nothing."""
    number = checked_whole(request.form.get("round_number"), high=9_999) or entry.number
    hands = ", ".join(
        f"{p.name} {entry.values.get(f'hand-{p.seat}', '') or '-'}" for p in entry.players
    )
    message = (
        "This game was changed on another phone while you were typing, so your "
        f"round {number} was not saved. Here is the sheet as it is now. "
        f"What you typed: {hands}."
    )
    return render_sheet(game_or_404(game_id), conflict=message), 409


@bp.post("/games/<id:game_id>/rounds/last/delete")
@login_required
def remove_last(game_id: int) -> Response:
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
    except (RecordError, services.Refused) as exc:
        flash(str(exc), "error")
    else:
        flash(f"Round {number} removed (it stays in the history).", "success")
    return redirect(url_for("games.sheet", game_id=game_id))


# --------------------------------------------------------------------- late joiners ---
@bp.route("/games/<id:game_id>/join", methods=["GET", "POST"])
@login_required
def join(game_id: int) -> Response | tuple[str, int]:
    game = game_or_404(game_id)
    s = services.standings_for(game)
    if "joins" not in s.variant.round_inputs:
        abort(404)
    if s.finished:
        flash("This game is over.", "info")
        return redirect(url_for("games.sheet", game_id=game_id))
    form = JoinForm()
    form.person.choices = options(
        [("", "Choose...")] + [(n, n) for n in services.join_candidates(game, s)]
    )
    status = 200
    if not form.is_submitted():
        form.version.data, form.submission.data = str(game.version), new_submission()
    elif not form.validate_on_submit():
        status = 400 if form.version.errors or form.submission.errors else 422
        form.new_name.errors.append("This form is incomplete: reload the page and try again.")
    elif _joined(game, s, form):
        return redirect(url_for("games.sheet", game_id=game_id))
    else:
        status = 422 if form.new_name.errors else 200
    fee, start = s.join_terms()
    money = functools.partial(format_money, currency=s.pot.currency)
    return render_template(
        "games/join.html", game=game, s=s, form=form, fee=fee, start=start, money=money
    ), status


def _joined(game: Game, s: Standings, form: JoinForm) -> bool:
    """Add (or cancel) a waiting late joiner as the form says; False with the refusal on
    the form, or a message flashed when the game changed meanwhile."""
    version, who = form.version_number(), (form.new_name.data or "").strip()
    try:
        if request.form.get("action") == "cancel":
            cancel = request.form.get("name", "")
            services.cancel_joiner(game, cancel, expected_version=version, user=current_user)
        else:
            name = services.add_joiner(
                game, who or form.person.data or "", expected_version=version, user=current_user
            )
            fee, start = s.join_terms()
            flash(
                f"{name} joins at the start of round {s.rounds_played + 1}, pays "
                f"{format_money(fee, s.pot.currency)} and starts at {start}.",
                "success",
            )
    except services.Conflict:
        flash("The game changed on another phone; check and try again.", "error")
        return False
    except (RecordError, services.Refused) as exc:
        form.new_name.errors.append(str(exc))
        return False
    return True
