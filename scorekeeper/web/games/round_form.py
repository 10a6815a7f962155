"""The round form: what a keeper typed for a round (who went out, each hand, and what the
game's round asks besides), read and checked field by field, and shown again with its
errors and whatever the engine's plan still asks (``rules.questions``: re-buy or drop?
the later hands of a drop undone? the hands that go with a drop added?), each question
one fieldset, its answers read back by field name."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import abort, render_template
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response
from wtforms import Form, RadioField, StringField
from wtforms.validators import InputRequired

from ... import services
from ...forms import VersionedForm, options
from ...models import Game
from ...rules import NextRound, RecordError, Standings, format_money, name_key
from ...rules.cards import RANKS, parse_flipped_card
from ...rules.hands import CARD_ORDER, hand_grammar, hand_text, parse_hand_field
from ...rules.plan import Open
from ...rules.questions import Answers, Ask, Choice, Question, RebuyOrDrop
from ...rules.table import RoundSeat, counting_order, round_seats
from ...services import ledger
from .. import offline


@dataclass
class RoundEntry:
    """The round form's state: the game, the players, what was typed, errors by field."""

    game: Game
    s: Standings
    number: int
    editing: bool
    players: list[RoundSeat]
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    questions: tuple[Question, ...] = ()  # what the engine's plan asks, answered or not
    answers_shown: Form | None = None  # their fields, with the answers sent
    queued: bool = False  # sent from the phone's queue: answered in JSON (web/offline.py)

    @classmethod
    def open(cls, game: Game, s: Standings, number: int | None) -> RoundEntry:
        editing = number is not None
        target = number if number is not None else s.rounds_played + 1
        if editing and not 1 <= target <= s.rounds_played:
            abort(404)
        if editing and s.rounds[target - 1].split is not None:
            abort(404)  # a split is no deal to correct: Undo or Remove last takes it back
        waiting = () if editing else game.pending_joins
        return cls(game, s, target, editing, round_seats(s, target, waiting))

    @property
    def inputs(self) -> frozenset[str]:
        return self.s.variant.round_inputs

    @property
    def rows(self) -> list[RoundSeat]:
        """The players in the order the table counts its hands (from who starts the
        round). ``players`` stays in seat order: the round is read and stored in that order."""
        waiting = () if self.editing else self.game.pending_joins
        return counting_order(self.s, self.number, self.players, waiting)

    @property
    def marked(self) -> bool:
        """Is an error shown next to a field (not only at the top of the form)?"""
        return any(key != "general" for key in self.errors)

    # -- reading the form ------------------------------------------------------------
    def load_stored(self) -> None:
        """A correction starts from the round as stored, its expiries asked again."""
        data = self.game.rounds[self.number - 1].data
        self.values = _values_from_round(data, self.players)
        planned = services.plan_round(self.game, data, number=self.number, standings=self.s)
        if isinstance(planned, Open):
            self.show(planned.questions, None)

    def read(self, form: MultiDict[str, str]) -> dict[str, Any] | None:
        """The round as typed, or None with errors by field: who went out, the hands,
        then what the game's round asks besides (``ROUND_INPUTS``)."""
        self._check_seats(form)
        went_out = self._read_went_out(form)
        data: dict[str, Any] = {"went_out": went_out, "hands": self._read_hands(form, went_out)}
        for name in sorted(self.inputs):
            reader = ROUND_INPUTS.get(name)
            if reader is not None:
                reader.read(self, form, data)
        return None if self.errors else data

    def _check_seats(self, form: MultiDict[str, str]) -> None:
        seats = {str(p.seat) for p in self.players}
        by_seat = {"hand", "cards", "contract", "expiry", "marker", "rejoin"}
        for key in form:
            kind, _, seat = key.partition("-")
            if kind in by_seat and seat not in seats:
                self.errors["general"] = (
                    f"There is no seat {seat[:10]} in this game: reload the page and enter "
                    "the round again."
                )
                return

    def _read_went_out(self, form: MultiDict[str, str]) -> str | None:
        variant = self.s.variant
        raw = form.get("went_out", "")
        self.values["went_out"] = raw
        by_seat = {str(p.seat): p.name for p in self.players}
        if raw in by_seat:
            return by_seat[raw]
        if not (raw == "" and variant.nobody_out_allowed and "went_out" in form):
            self.errors["went_out"] = f"Tap who {variant.display.out_verb}" + (
                " (or Nobody)." if variant.nobody_out_allowed else "."
            )
        return None

    def _read_hands(self, form: MultiDict[str, str], went_out: str | None) -> dict[str, Any]:
        variant = self.s.variant
        hands: dict[str, Any] = {}
        for p in self.players:
            key, cards_key = f"hand-{p.seat}", f"cards-{p.seat}"
            self.values[key] = form.get(key, "")[:200]
            self.values[cards_key] = form.get(cards_key, "")[:200]
            if went_out == p.name and not variant.out_has_hand:
                continue
            # A wash (Gin) may leave its hands empty: one left empty is not asked for.
            if went_out is None and variant.wash_without_hands and not self.values[key].strip():
                continue
            try:
                hands[p.name] = parse_hand_field(
                    form.get(key), form.get(cards_key), self.s.variant.card_codes
                )
            except ValueError as exc:
                self.errors[key] = f"{p.name}: {exc}"
        return hands

    # -- what the plan asks -----------------------------------------------------------
    @property
    def target(self) -> int | None:
        """The round the form changes, for the plan (None: the next one)."""
        return self.number if self.editing else None

    def answers(self, form: MultiDict[str, str]) -> Answers:
        """The keeper's answers as the form sends them: the fields by name, and the keys
        of the questions the form showed (``seen``)."""
        values = {key: form.get(key, "")[:200] for key in form}
        return Answers(values=values, seen=frozenset(form.get("seen", "").split()))

    def ask(self, planned: Open, form: MultiDict[str, str]) -> int:
        """Show what the plan asks (with the answers given kept), the errors of answers
        given, or the rule the change breaks; the page's status."""
        self.show(planned.questions, form)
        self.errors.update(planned.errors)
        if planned.refusal is not None:
            self.refuse(planned.refusal)
        return 200 if planned.asking else 422

    def show(self, questions: tuple[Question, ...], form: MultiDict[str, str] | None) -> None:
        """The questions on the form, as a WTForms form of their fields, holding the
        answers sent (a choice not yet made: its default)."""
        self.questions = questions
        self.answers_shown = answer_form(questions, form)

    @property
    def asked(self) -> list[Ask]:
        return [ask for q in self.questions for ask in q.asks]

    @property
    def seen(self) -> str:
        return " ".join(q.key for q in self.questions)

    @property
    def confirming(self) -> bool:
        return any(q.confirms for q in self.questions)

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
        shown |= {ask.name for ask in self.asked}
        for name in self.inputs:
            reader = ROUND_INPUTS.get(name)
            if reader is not None:
                shown |= reader.fields(self)
        key = "general"
        seat = next(
            (p.seat for p in self.players if name_key(p.name) == name_key(exc.player or "")), None
        )
        if seat is not None:
            key = {
                "contracts": f"contract-{seat}",
                "drops": f"expiry-{seat}",
                "rejoins": f"rejoin-{seat}",
                "went_out": "went_out",
                "how": "how",
            }.get(exc.field or "", f"hand-{seat}")
        elif exc.field in {"went_out", "wild", "going_rummy"}:
            key = exc.field or "general"
        return key if key in shown else "general"

    # -- the page -----------------------------------------------------------------------
    def render(self, form: VersionedForm, status: int = 200) -> tuple[str | Response, int]:
        if self.queued:
            return _not_saved(self, status)
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
            dealt=None if upcoming else this.dealer,
            banner=variant.display.banner(this, settings),
            card_values=variant.card_values(self.number, settings),
            # The counter's keys in one order in every game (A first), whatever they count.
            card_order=[c for c in CARD_ORDER if c in variant.card_codes],
            grammar=hand_grammar(
                variant.card_values(self.number, settings),
                variant.card_codes,
                wild_rank_points=variant.wild_rank_points,
                cap=variant.hand_cap(settings),
            ),
            markers=variant.hand_markers(settings),
            ranks=RANKS,
            multiplier=variant.multiplier(self.number),
            money=lambda c: format_money(c, s.pot.currency),
            nobreak=_nobreak,
            money_moves=ledger.money_moves(self.game.night_id, s.finished),
        ), status


def _values_from_round(data: dict[str, Any], players: list[RoundSeat]) -> dict[str, str]:
    values: dict[str, str] = {}
    keys = {name_key(k): v for k, v in data.get("hands", {}).items()}
    went_out = data.get("went_out")
    values["went_out"] = ""
    for p in players:
        if went_out and name_key(went_out) == name_key(p.name):
            values["went_out"] = str(p.seat)
        hand = keys.get(name_key(p.name))
        values[f"hand-{p.seat}"] = hand_text(hand)
        if isinstance(hand, str):  # a hand marker (Pool's drop): the marker, no hand typed
            values[f"marker-{p.seat}"], values[f"hand-{p.seat}"] = hand, ""
        # A stored card list stays cards when saved unchanged (a lone "2" is the two,
        # not 2 points), also without the script: the hidden field says they are cards.
        values[f"cards-{p.seat}"] = hand_text(hand) if isinstance(hand, list) else ""
    values["wild"] = data.get("wild") or ""
    values["wild_rank"] = data.get("wild") or ""
    values["going_rummy"] = "y" if data.get("going_rummy") else ""
    values["how"] = data.get("how") or ""
    contracts = {name_key(n) for n in data.get("contracts", [])}
    drops = {name_key(n) for n in data.get("drops", [])}
    for p in players:
        if name_key(p.name) in contracts:
            values[f"contract-{p.seat}"] = "y"
        values[f"expiry-{p.seat}"] = "drop" if name_key(p.name) in drops else "rebuy"
    return values


# -------------------------------------------------- what a game's round asks besides ---
@dataclass(frozen=True)
class RoundInput:
    """One of the round's inputs beyond who went out and the hands (a game declares which:
    ``Variant.round_inputs``): how it is read from the form into the round's record, and
    the fields it shows (where a refusal about it is marked)."""

    read: Callable[[RoundEntry, MultiDict[str, str], dict[str, Any]], None]
    fields: Callable[[RoundEntry], set[str]]


def _read_flipped_card(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    raw = form.get("wild", "").strip()[:20]
    entry.values["wild"] = raw
    if not raw:
        return
    wild = parse_flipped_card(raw)
    if wild is None:
        rank = raw.upper()
        entry.errors["wild"] = (
            f"Add the suit to {rank}: {rank}C, {rank}D, {rank}H or {rank}S (or JK for a joker)."
            if rank in RANKS
            else "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."
        )
    data["wild"] = wild


def _read_going_rummy(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    entry.values["going_rummy"] = form.get("going_rummy", "")
    if form.get("going_rummy"):
        data["going_rummy"] = True


def _read_contracts(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    contracts = []
    for p in entry.players:
        ticked = bool(form.get(f"contract-{p.seat}")) or p.name == data["went_out"]
        entry.values[f"contract-{p.seat}"] = "y" if ticked else ""
        if ticked:
            contracts.append(p.name)
    data["contracts"] = contracts


def _read_how(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    """How the player who went out did it (Gin: knock, gin or big gin), one of the game's
    choices, checked by WTForms; a wash (nobody went out) has none."""
    raw = form.get("how", "")[:20]
    entry.values["how"] = raw
    if data["went_out"] is None:
        return
    checked = how_form(entry, form)
    if not checked.validate():
        entry.errors["how"] = (
            f"Tap how {data['went_out']} {entry.s.variant.display.out_verb}: "
            + ", ".join(label.lower() for _, label in entry.s.variant.display.how_choices)
            + "."
        )
        return
    data["how"] = checked.how.data


def how_form(entry: RoundEntry, formdata: MultiDict[str, str] | None) -> Form:
    """The round's "how" as a WTForms radio field of the game's choices (Gin)."""

    class HowForm(Form):
        how = RadioField(
            "How",
            choices=options(list(entry.s.variant.display.how_choices)),
            validators=[InputRequired()],
        )

    return HowForm(formdata=formdata)


def _read_markers(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    """A hand marked (Pool's Drop, Middle, Full, Wrong show) is the marker, whatever was
    typed in its field."""
    known = {m.key for m in entry.s.variant.hand_markers(entry.s.record.settings)}
    for p in entry.players:
        key = f"marker-{p.seat}"
        raw = form.get(key, "")[:20]
        entry.values[key] = raw
        if raw and raw not in known:
            entry.errors[key] = f"{p.name}: tap one of the markers, or Count."
        elif raw and p.name != data["went_out"]:
            data["hands"][p.name] = raw
            entry.errors.pop(f"hand-{p.seat}", None)


def _read_wild_rank(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    raw = form.get("wild_rank", "").strip().upper()[:3]
    entry.values["wild_rank"] = raw
    if raw and raw not in RANKS:
        entry.errors["wild_rank"] = "Choose the rank cut for this deal: A, 2 ... 10, J, Q or K."
    elif raw:
        data["wild"] = raw


#: "joins" are made on the join page, and drops are asked as expiries.
ROUND_INPUTS: dict[str, RoundInput] = {
    "flipped_card": RoundInput(_read_flipped_card, lambda entry: {"wild"}),
    "going_rummy": RoundInput(_read_going_rummy, lambda entry: {"going_rummy"}),
    "contracts": RoundInput(
        _read_contracts, lambda entry: {f"contract-{p.seat}" for p in entry.players}
    ),
    "how": RoundInput(_read_how, lambda entry: {"how"}),
    "hand_markers": RoundInput(
        _read_markers, lambda entry: {f"marker-{p.seat}" for p in entry.players}
    ),
    "wild_rank": RoundInput(_read_wild_rank, lambda entry: {"wild_rank"}),
}


def _not_saved(entry: RoundEntry, status: int) -> tuple[Response, int]:
    """What the round form would show (its errors, or the question "re-buy or drop
    out?"), as a sentence for the keeper and the errors by field."""
    errors = dict(entry.errors)
    general = errors.pop("general", "")
    if status == 200 and entry.questions:  # asked before anything is saved
        asks = " ".join(q.sentence for q in entry.questions)
        asked = [x for q in entry.questions if isinstance(q, RebuyOrDrop) for x in q.offline()]
        return offline.refused(f"{asks} Choose on the form, then save.", asked=asked)
    parts = [general] if general else []
    parts += errors.values()
    return offline.refused(" ".join(parts), errors, 400 if status == 400 else 422)


def _nobreak(text: str) -> Markup:
    """Words with a hyphen ("Re-buy") never break at it: each in a no-wrap span."""
    return Markup(_HYPHENATED.sub(r'<span class="nb">\1</span>', str(escape(text))))


_HYPHENATED = re.compile(r"(\w+-\w+)")


def answer_form(questions: tuple[Question, ...], formdata: MultiDict[str, str] | None) -> Form:
    """The fields the questions ask through, as a WTForms form (a choice: radio buttons,
    a hand: a text field), filled from what the keeper sent. What an answer means is read
    by the question itself (``rules.questions``), so this form only shows them."""

    class AnswerForm(Form):
        pass

    for question in questions:
        for ask in question.asks:
            if isinstance(ask, Choice):
                choices = options([(o.value, o.label) for o in ask.options])
                field: Any = RadioField(ask.name, choices=choices, default=ask.default)
            else:
                field = StringField(ask.label, default="")
            setattr(AnswerForm, ask.name, field)
    return AnswerForm(formdata=formdata)
