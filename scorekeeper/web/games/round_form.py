"""The round page's form, one Flask-WTF form built per game: who went out, each seat's
hand (and the cards tapped, a marker, a contract, as the game's round asks), the round's
extras (the flipped wild card, the rank cut, going rummy, how the player went out), then
one generic fieldset of whatever the engine's plan still asks (``rules.questions``: a
choice's radio buttons, a hand's text field). ``validate`` checks it field by field, each
error naming the player; ``round`` is the round object the engine plans; ``answers`` what
the keeper answered. The names are those the page's script and the phone's queue post."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import HiddenField, RadioField, StringField
from wtforms.validators import StopValidation

from ...rules import Standings
from ...rules.cards import RANKS, parse_flipped_card
from ...rules.hands import parse_hand_field
from ...rules.questions import Answers, Choice, Question
from ...rules.table import RoundSeat
from ..fields import VersionedForm, options
from ..refusals import refusal_text, said_text

#: The fields that belong to a seat ("hand-3"), the questions' among them.
BY_SEAT = frozenset({"hand", "cards", "contract", "expiry", "marker", "rejoin"})
INCOMPLETE = _l("This form is incomplete: reload the page and try again.")


def _cut(length: int | None) -> Any:
    return lambda value: (value[:length] if length else value) if isinstance(value, str) else ""


class TextField(StringField):
    """A field of the round form: what was sent, as a string ("" when nothing was), cut
    to ``length`` before it is read (a hand is read whole, and shown again cut)."""

    data: str

    def __init__(self, length: int | None = None, **kwargs: Any) -> None:
        super().__init__(default="", filters=[_cut(length)], **kwargs)


class WentOutField(TextField):
    """Who went out, by seat; "" is Nobody where the game allows it (Gin's wash)."""

    def pre_validate(self, form: Any) -> None:
        variant = form.standings.variant
        if self.data in form.seat_names:
            return
        if self.data == "" and variant.nobody_out_allowed and self.raw_data:
            return
        raise StopValidation(said_text(variant.display.tap_who_said(variant.nobody_out_allowed)))


class HandField(TextField):
    """A seat's hand, by the one grammar of ``rules/hands.py`` (points, a sum, cards);
    ``hand`` holds it once read. Not asked of the player who went out (unless the game
    keeps their hand), of a hand marked, or of an empty hand in a wash."""

    def __init__(self, player: RoundSeat, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.player = player
        self.hand: Any = None

    def pre_validate(self, form: Any) -> None:
        self.hand = None
        variant, seat = form.standings.variant, self.player.seat
        went_out = form.went_out_name
        if went_out == self.player.name and not variant.out_has_hand:
            raise StopValidation()
        marker = form._fields.get(f"marker-{seat}")
        if marker is not None and marker.data in form.marker_keys:
            self.hand = marker.data  # the hand is the marker, whatever was typed
            raise StopValidation()
        if went_out is None and variant.wash_without_hands and not self.data.strip():
            raise StopValidation()
        cards = form[f"cards-{seat}"].data
        try:
            hand = parse_hand_field(self.data, cards, variant.card_codes)
        except ValueError as exc:
            raise StopValidation(f"{self.player.name}: {refusal_text(exc)}") from None
        self.hand = hand


class MarkerField(TextField):
    """A hand marked (Pool's Drop, Middle, Full, Wrong show): one of the game's markers."""

    def __init__(self, player: RoundSeat, **kwargs: Any) -> None:
        super().__init__(length=20, **kwargs)
        self.player = player

    def pre_validate(self, form: Any) -> None:
        if self.data and self.data not in form.marker_keys:
            raise StopValidation(
                _("%(name)s: tap one of the markers, or Count.", name=self.player.name)
            )


class FlippedCardField(TextField):
    """The flipped wild card (optional): rank and suit, or JK."""

    def pre_validate(self, form: Any) -> None:
        self.data = self.data.strip()
        if self.data and parse_flipped_card(self.data) is None:
            rank = self.data.upper()
            if rank in RANKS:
                raise StopValidation(
                    _(
                        "Add the suit to %(rank)s: %(rank)sC, %(rank)sD, %(rank)sH or %(rank)sS "
                        "(or JK for a joker).",
                        rank=rank,
                    )
                )
            raise StopValidation(
                _("Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker.")
            )


class WildRankField(TextField):
    """The rank cut for the deal (optional): every card of it counts 0."""

    def pre_validate(self, form: Any) -> None:
        self.data = self.data.strip().upper()
        if self.data and self.data not in RANKS:
            raise StopValidation(_("Choose the rank cut for this deal: A, 2 ... 10, J, Q or K."))


class HowField(TextField):
    """How the player who went out did it (Gin: knock, gin or big gin); a wash has none."""

    def pre_validate(self, form: Any) -> None:
        went_out, display = form.went_out_name, form.standings.variant.display
        if went_out is None or self.data in display.how_choices:
            return
        raise StopValidation(said_text(display.tap_how_said(went_out)))


class RoundForm(VersionedForm):
    """The round page's form; :func:`round_form_class` adds the game's fields."""

    round_number = HiddenField()
    seen = TextField()
    went_out = WentOutField()

    standings: Standings
    players: list[RoundSeat]
    questions: tuple[Question, ...] = ()
    posted: MultiDict[str, str] | None = None

    def process(
        self, formdata: Any = None, obj: Any = None, data: Any = None, **kwargs: Any
    ) -> None:
        self.posted = self.meta.wrap_formdata(self, formdata)
        super().process(self.posted, obj, data=data, **kwargs)

    # -- what the form holds ------------------------------------------------------------
    @property
    def seat_names(self) -> dict[str, str]:
        return {str(p.seat): p.name for p in self.players}

    @property
    def went_out_name(self) -> str | None:
        return self.seat_names.get(self.went_out.data or "")

    @property
    def marker_keys(self) -> frozenset[str]:
        markers = self.standings.variant.hand_markers(self.standings.record.settings)
        return frozenset(m.key for m in markers)

    @property
    def inputs(self) -> frozenset[str]:
        return self.standings.variant.round_inputs

    @property
    def incomplete(self) -> bool:
        """A form from nowhere or from another moment: no token, version or one-time id."""
        return bool(self.version.errors or self.submission.errors or self.errors.get("csrf_token"))

    def first_errors(self) -> dict[str, str]:
        """Each field's error, by the field's name; a stray seat's, as "general"."""
        found = {name: str(errors[0]) for name, errors in self.errors.items() if errors}
        for name in ("version", "submission", "csrf_token"):
            found.pop(name, None)
        stray = self._stray_seat()
        if stray is not None:
            found["general"] = _(
                "There is no seat %(seat)s in this game: reload the page and enter the round "
                "again.",
                seat=stray[:10],
            )
        return found

    def _stray_seat(self) -> str | None:
        """A field of a seat that is not at this round (a page from another round)."""
        seats = self.seat_names
        for key in self.posted or ():
            kind, _dash, seat = key.partition("-")
            if kind in BY_SEAT and seat not in seats:
                return seat
        return None

    @property
    def values(self) -> dict[str, str]:
        """What was typed (or stored), by field name, to show again."""
        found = {
            n: f.data[:200] if isinstance(f.data, str) else "" for n, f in self._fields.items()
        }
        if "contracts" in self.inputs and (out := self.went_out_name):
            found[f"contract-{self._seat_of(out)}"] = "y"  # who went out laid theirs down
        found.pop("csrf_token", None)
        return found

    def _seat_of(self, name: str) -> str:
        return next(seat for seat, who in self.seat_names.items() if who == name)

    # -- what it says -----------------------------------------------------------------
    def round(self) -> dict[str, Any]:
        """The round object as typed (once valid): who went out, the hands, and what the
        game's round asks besides."""
        went_out = self.went_out_name
        hands: dict[str, Any] = {}
        for p in self.players:
            hand = self[f"hand-{p.seat}"].hand
            if hand is not None:
                hands[p.name] = hand
        data: dict[str, Any] = {"went_out": went_out, "hands": hands}
        inputs = self.inputs
        if "flipped_card" in inputs and self.wild.data:
            data["wild"] = parse_flipped_card(self.wild.data)
        if "wild_rank" in inputs and self.wild_rank.data:
            data["wild"] = self.wild_rank.data
        if "going_rummy" in inputs and self.going_rummy.data:
            data["going_rummy"] = True
        if "contracts" in inputs:
            data["contracts"] = [
                p.name
                for p in self.players
                if self[f"contract-{p.seat}"].data or p.name == went_out
            ]
        if "how" in inputs and went_out is not None:
            data["how"] = self.how.data
        return data

    def answers(self) -> Answers:
        """The keeper's answers as the form sends them: the fields by name, and the keys
        of the questions the form showed (``seen``)."""
        posted = self.posted or MultiDict()
        values = {key: (posted.get(key) or "")[:200] for key in posted}
        return Answers(values=values, seen=frozenset((self.seen.data or "").split()))

    def asking(self, questions: tuple[Question, ...]) -> RoundForm:
        """This form with the questions' fields, holding the answers sent (a choice not
        yet made: its default); its errors kept."""
        cls = round_form_class(self.standings, self.players, questions)
        return cls(formdata=self.posted) if self.posted else cls(data=self.values)


def round_form_class(
    s: Standings, players: list[RoundSeat], questions: Iterable[Question] = ()
) -> type[RoundForm]:
    """The round form of this game's round: its seats, the inputs of its variant, and
    the fields the questions ask through."""
    inputs, settings = s.variant.round_inputs, s.record.settings
    fields: dict[str, Any] = {}
    for p in players:
        fields[f"hand-{p.seat}"] = HandField(p)
        fields[f"cards-{p.seat}"] = TextField()
        if "hand_markers" in inputs and s.variant.hand_markers(settings):
            fields[f"marker-{p.seat}"] = MarkerField(p)
        if "contracts" in inputs:
            fields[f"contract-{p.seat}"] = TextField(length=5)
    extras = {
        "flipped_card": ("wild", FlippedCardField(length=20)),
        "wild_rank": ("wild_rank", WildRankField(length=3)),
        "going_rummy": ("going_rummy", TextField(length=5)),
        "how": ("how", HowField(length=20)),
    }
    fields.update(extras[name] for name in sorted(inputs) if name in extras)
    questions = tuple(questions)
    for question in questions:
        for ask in question.asks:
            if isinstance(ask, Choice):
                choices = options([(o.value, said_text(o.label)) for o in ask.options])
                fields[ask.name] = RadioField(ask.name, choices=choices, default=ask.default)
            else:
                fields[ask.name] = StringField(said_text(ask.label), default="")
    attrs = {"standings": s, "players": players, "questions": questions, **fields}
    return type("GameRoundForm", (RoundForm,), attrs)
