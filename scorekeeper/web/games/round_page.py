"""The round page: the game and the seats of the round a keeper types (a new one, or a
correction), its form (``round_form.py``), the errors by field, what the engine's plan
still asks, and the page drawn from them (or, for a round sent from the phone's queue,
the same in JSON)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import abort, render_template
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from ... import services
from ...models import Game
from ...rules import NextRound, RecordError, Standings, format_money, name_key
from ...rules.cards import RANKS
from ...rules.hands import CARD_ORDER, hand_grammar, hand_text
from ...rules.plan import Open, Planned
from ...rules.questions import Question, RebuyOrDrop
from ...rules.table import RoundSeat, counting_order, round_seats
from ...services import ledger
from .. import offline
from ..refusals import said_text
from .round_form import INCOMPLETE, RoundForm, round_form_class
from .words import words_text


@dataclass
class RoundEntry:
    """The round page's state: the game, the players, its form, errors by field."""

    game: Game
    s: Standings
    number: int
    editing: bool
    players: list[RoundSeat]
    form: RoundForm
    errors: dict[str, str] = field(default_factory=dict)
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
        players = round_seats(s, target, waiting)
        return cls(game, s, target, editing, players, round_form_class(s, players)())

    @property
    def inputs(self) -> frozenset[str]:
        return self.s.variant.round_inputs

    @property
    def values(self) -> dict[str, str]:
        return self.form.values

    @property
    def questions(self) -> tuple[Question, ...]:
        return self.form.questions

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

    @property
    def target(self) -> int | None:
        """The round the form changes, for the plan (None: the next one)."""
        return self.number if self.editing else None

    # -- read ---------------------------------------------------------------------------
    def load_stored(self) -> None:
        """A correction starts from the round as stored, its expiries asked again."""
        data = self.game.rounds[self.number - 1].data
        form = self.form
        values = {"version": form.version.data, "submission": form.submission.data}
        values |= _values_from_round(data, self.players)
        self.form = round_form_class(self.s, self.players)(data=values)
        planned = services.plan_round(self.game, data, number=self.number, standings=self.s)
        if isinstance(planned, Open):
            self.form = self.form.asking(planned.questions)

    def read(self) -> dict[str, Any] | None:
        """The round as typed, or None with the errors by field (``status`` says which:
        400, a form from nowhere; 422, a field to fix)."""
        valid = self.form.validate()
        if self.form.incomplete:
            self.errors["general"] = str(INCOMPLETE)
            return None
        self.errors.update(self.form.first_errors())
        return self.form.round() if valid and not self.errors else None

    @property
    def status(self) -> int:
        return 400 if self.form.incomplete else 422

    # -- ask ----------------------------------------------------------------------------
    def ask(self, planned: Planned | Open) -> int:
        """The plan's questions on the form (with the answers given kept), the errors of
        answers given, or the rule the change breaks; the page's status."""
        self.form = self.form.asking(planned.questions)
        if isinstance(planned, Planned):
            return 200
        self.errors.update((name, said_text(said)) for name, said in planned.errors.items())
        if planned.refusal is not None:
            self.refuse(planned.refusal)
        return 200 if planned.asking else 422

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
            self.errors["general"] = _(
                "Not saved: with this change, round %(round)s would no longer hold: "
                "%(detail)s. Correct that round first, or remove the rounds after round "
                "%(number)s and enter them again.",
                round=exc.round,
                detail=exc.detail,
                number=self.number,
            )
            return
        self.errors[self._field_for(exc)] = str(exc)

    def _field_for(self, exc: RecordError) -> str:
        shown = set(self.form._fields)
        seat = next(
            (p.seat for p in self.players if name_key(p.name) == name_key(exc.player or "")), None
        )
        key = "general"
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
    def render(self, status: int = 200) -> tuple[str | Response, int]:
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
            form=self.form,
            editing=self.editing,
            variant=variant,
            next_round=upcoming,
            dealt=None if upcoming else this.dealer,
            banner=[words_text(w) for w in variant.display.banner_said(this, settings)],
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


def _not_saved(entry: RoundEntry, status: int) -> tuple[Response, int]:
    """What the round form would show (its errors, or the question "re-buy or drop
    out?"), as a sentence for the keeper and the errors by field."""
    errors = dict(entry.errors)
    general = errors.pop("general", "")
    if status == 200 and entry.questions:  # asked before anything is saved
        asks = " ".join(said_text(w) for q in entry.questions for w in q.words)
        asked = [x for q in entry.questions if isinstance(q, RebuyOrDrop) for x in q.offline()]
        return offline.refused(_("%(asks)s Choose on the form, then save.", asks=asks), asked=asked)
    parts = [general] if general else []
    parts += errors.values()
    return offline.refused(" ".join(parts), errors, 400 if status == 400 else 422)


def _nobreak(text: str) -> Markup:
    """Words with a hyphen ("Re-buy") never break at it: each in a no-wrap span."""
    return Markup(_HYPHENATED.sub(r'<span class="nb">\1</span>', str(escape(text))))


_HYPHENATED = re.compile(r"(\w+-\w+)")
