"""The new-game form, built from the variant's declared settings.

Each :class:`~scorekeeper.rules.settings.SettingSpec` becomes a WTForms field by its kind
(a money field takes ``2.50``, a pot-split field ``70/30``, a list field ``10 10 12``), so a
game with settings of its own needs no form code. The seating (who sits where, with a
handicap where the game takes one) is a form of its own with its own validation. The
form's :meth:`NewGameForm.game` is what :func:`scorekeeper.services.create_game` needs.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from flask import request
from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Field, HiddenField, IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from ...rules import RecordError, Settings, Variant, name_key
from ...rules.money import decimal_text
from ...rules.names import MAX_NAME_LENGTH, clean_name
from ...rules.rounds import MAX_PLAYERS
from ...rules.settings import SettingSpec
from ..fields import TOO_LONG, MoneyField, OneTimeForm, WholeRange, options
from ..refusals import refusal_text, said_text


# -------------------------------------------------------------------- fields by kind ---
class PotSplitField(StringField):
    """Whole percentages for 1st, 2nd, ... typed as ``70/30`` (or ``70 30``, ``70%,30%``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, validators=[Optional(), Length(max=60)], **kwargs)
        self.value: list[int] | None = None

    def pre_validate(self, form: Any) -> None:
        self.value = None
        raw = (self.data or "").strip()
        if not raw:
            return
        try:
            self.value = [int(p.rstrip("%")) for p in re.split(r"[\s/:,]+", raw) if p]
        except ValueError:
            raise ValidationError(_("write whole percentages like 70/30")) from None

    def show(self, split: Sequence[int]) -> None:
        self.data = "/".join(str(p) for p in split)


class WholesField(StringField):
    """A list of whole numbers typed as ``10 10 12`` (Contract Rummy's cards per deal)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, validators=[Optional(), Length(max=200)], **kwargs)
        self.value: list[int] | None = None

    def pre_validate(self, form: Any) -> None:
        self.value = None
        raw = (self.data or "").strip()
        if not raw:
            return
        parts = [p for p in re.split(r"[\s/,]+", raw) if p]
        if not all(re.fullmatch(r"[0-9]{1,4}", p) for p in parts):
            raise ValidationError(_("write whole numbers like 10 10 12"))
        self.value = [int(p) for p in parts]

    def show(self, values: Sequence[int]) -> None:
        self.data = " ".join(str(v) for v in values)


class ChoiceField(SelectField):
    """One of a few whole numbers (Vegas aces: 1, 11 or 13)."""

    def pre_validate(self, form: Any) -> None:
        raw = str(self.data or "")
        if raw and not re.fullmatch(r"[0-9]{1,4}", raw):
            numbers = [str(choice.value) for choice in self.choices]
            raise ValidationError(
                _(
                    "%(setting)s %(numbers)s or %(last)s points.",
                    setting=self.label.text,
                    numbers=", ".join(numbers[:-1]),
                    last=numbers[-1],
                )
            )


def _label(spec: SettingSpec) -> Any:
    """The setting's label, said in the reader's language when the page is drawn (the
    form's class is made once, its words each time)."""
    return LazyString(lambda: said_text(spec.label_said))


def _description(spec: SettingSpec) -> Any:
    said = spec.description_said
    return LazyString(lambda: said_text(said)) if said is not None else ""


def _field_for(spec: SettingSpec) -> Field:
    """The form field of one setting, by its kind."""
    if spec.kind == "money":
        return MoneyField(_label(spec), description=_description(spec))
    if spec.kind == "split":
        return PotSplitField(_label(spec), description=_description(spec))
    if spec.kind == "wholes":
        return WholesField(_label(spec), description=_description(spec))
    if spec.kind == "flag":
        return BooleanField(_label(spec), description=_description(spec))
    if spec.kind == "choice":
        return ChoiceField(
            _label(spec),
            description=_description(spec),
            choices=options([(str(c), str(c)) for c in spec.choices]),
            validate_choice=False,
        )
    return IntegerField(
        _label(spec),
        description=_description(spec),
        validators=[Optional(), WholeRange(spec.low, spec.high)],
        render_kw={"inputmode": "numeric"},
    )


def _value(spec: SettingSpec, fld: Any) -> Any:
    """What the record gets for a field (None: leave it to the game's default)."""
    if spec.kind in {"money", "split", "wholes"}:
        return fld.value
    if spec.kind == "flag":
        return bool(fld.data)
    if spec.kind == "choice":
        raw = str(fld.data or "")
        return int(raw) if re.fullmatch(r"[0-9]{1,4}", raw) else raw or None
    return fld.data


def _show(spec: SettingSpec, fld: Any, value: Any, currency: str) -> None:
    if spec.kind == "money":
        fld.data = decimal_text(value, currency)
    elif spec.kind in {"split", "wholes"}:
        fld.show(value)
    elif spec.kind == "choice":
        fld.data = str(value)
    else:
        fld.data = value


# ------------------------------------------------------------------------- seating ---
@dataclass
class SeatRow:
    person_id: int
    name: str
    seat: str = ""
    handicap: str = ""


@dataclass
class SeatingForm:
    """Who sits where: a seat number per person of the night (empty: sits out), and a
    handicap where the game takes one. Inputs ``seat-<person id>``, ``handicap-<id>``."""

    rows: list[SeatRow]
    errors: dict[str, str] = field(default_factory=dict)
    players: list[tuple[str, int]] = field(default_factory=list)  # (name, handicap) in seats

    @classmethod
    def from_formdata(cls, people: Sequence[Any], formdata: MultiDict[str, str]) -> SeatingForm:
        return cls(
            [
                SeatRow(
                    p.id,
                    p.name,
                    formdata.get(f"seat-{p.id}", "").strip()[:10],
                    formdata.get(f"handicap-{p.id}", "").strip()[:40],
                )
                for p in people
            ]
        )

    @classmethod
    def prefilled(cls, people: Sequence[Any], source: Any | None) -> SeatingForm:
        """Everyone in list order, or the seats and handicaps of an earlier game."""
        if source is None:
            return cls([SeatRow(p.id, p.name, str(i)) for i, p in enumerate(people, 1)])
        seats = {s.person_id: (i, s.handicap) for i, s in enumerate(source.seats, 1)}
        return cls(
            [
                SeatRow(
                    p.id,
                    p.name,
                    str(seats[p.id][0]) if p.id in seats else "",
                    str(seats[p.id][1]) if p.id in seats and seats[p.id][1] else "",
                )
                for p in people
            ]
        )

    def validate(self) -> bool:
        chosen: list[tuple[int, int, str, int]] = []
        taken: dict[int, str] = {}
        for row in self.rows:
            if not row.seat:
                continue
            if not re.fullmatch(r"[0-9]{1,2}", row.seat) or int(row.seat) < 1:
                self.errors[f"seat-{row.person_id}"] = _("Seat must be a number: 1, 2, 3 ...")
                continue
            seat = int(row.seat)
            if seat in taken:
                self.errors[f"seat-{row.person_id}"] = _(
                    "Seat %(seat)s is given twice: %(one)s and %(other)s.",
                    seat=seat,
                    one=taken[seat],
                    other=row.name,
                )
                continue
            taken[seat] = row.name
            if row.handicap and not re.fullmatch(r"[0-9]{1,40}", row.handicap):
                self.errors[f"handicap-{row.person_id}"] = _("Handicap is whole points, 0 or more.")
                continue
            chosen.append((seat, row.person_id, row.name, int(row.handicap or 0)))
        self.players = [(name, handicap) for _, _, name, handicap in sorted(chosen)]
        return not self.errors

    @property
    def seated(self) -> int:
        return sum(1 for r in self.rows if r.seat)


# ---------------------------------------------------------------------- the form ---
class NewGameForm(OneTimeForm):
    """A new game: the seating, a player added on the way, the first dealer (or a draw),
    and the variant's settings (fields added per variant by :func:`new_game_form`)."""

    variant = HiddenField(validators=[InputRequired()])
    first_dealer = SelectField(_l("First dealer"), validate_choice=False)
    new_player = StringField(
        _l("Add a player"),
        validators=[Optional(), Length(max=MAX_NAME_LENGTH, message=TOO_LONG)],
    )

    game_variant: Variant
    seating: SeatingForm
    general: list[str]
    currency: str  # the night's: money fields are typed in it

    def setup(
        self, variant: Variant, people: Sequence[Any], source: Any | None, currency: str
    ) -> None:
        self.game_variant = variant
        self.currency = currency
        self.general = []
        self.first_dealer.choices = options(
            [("", _("Draw for it"))] + [(p.name, p.name) for p in people]
        )
        if self.is_submitted():
            self.seating = SeatingForm.from_formdata(people, request.form)
        else:
            self.seating = SeatingForm.prefilled(people, source)
            defaults: dict[str, Any] = {"currency": currency}
            if source is not None and source.variant == variant.name:
                defaults = {**source.settings, **defaults}
            self.show_settings(variant.parse_settings(defaults))
        self._people = {name_key(p.name) for p in people}
        self._follow_choices()

    @property
    def setting_fields(self) -> list[Any]:
        return [self[s.key] for s in self.game_variant.form_settings]

    def show_settings(self, settings: Settings) -> None:
        for spec in self.game_variant.form_settings:
            if spec.follows is not None:
                fixed = self.game_variant.parse_settings(
                    {spec.follows: getattr(settings, spec.follows)}
                )
                if getattr(fixed, spec.key) == getattr(settings, spec.key):
                    continue  # left empty: the choice's default (its placeholder)
            _show(spec, self[spec.key], getattr(settings, spec.key), self.currency)

    def _follow_choices(self) -> None:
        """A setting whose default a choice fixes (Pool's numbers follow the pool) shows
        that default as its placeholder; the choice's field carries every choice's
        defaults for the page's script (``data-fills``)."""
        variant = self.game_variant
        for lead in variant.form_settings:
            followers = [s for s in variant.form_settings if s.follows == lead.key]
            if not followers:
                continue
            fills = {}
            for choice in lead.choices:
                fixed = variant.parse_settings({lead.key: choice})
                fills[str(choice)] = {s.key: getattr(fixed, s.key) for s in followers}
            field = self[lead.key]
            field.render_kw = {**(field.render_kw or {}), "data-fills": json.dumps(fills)}
            raw = str(field.data or "")
            chosen = fills.get(raw) or next(iter(fills.values()))
            for s in followers:
                fld = self[s.key]
                fld.render_kw = {**(fld.render_kw or {}), "placeholder": str(chosen[s.key])}

    def validate(self, extra_validators: Any = None) -> bool:
        fields_ok = super().validate(extra_validators)
        seats_ok = self.seating.validate()
        if self.new_player.data and self.new_player.data.strip() and not self.new_player.errors:
            try:
                name = clean_name(self.new_player.data, what=_("the new player's name"))
                if name_key(name) in self._people:
                    raise RecordError(
                        _("%(name)s is already on tonight's list: give them a seat", name=name)
                    )
                self.seating.players.append((name, 0))
            except RecordError as exc:
                self.new_player.errors = [refusal_text(exc)]
                return False
        names = [n for n, _ in self.seating.players]
        if len(names) > MAX_PLAYERS:
            self.general.append(_("A game takes at most %(most)s players.", most=MAX_PLAYERS))
            return False
        refused = self.game_variant.players_refused(len(names)) if len(names) >= 2 else None
        if refused is not None:  # Gin: exactly two
            self.general.append(
                _("%(refused)s: give seats to two players only.", refused=said_text(refused))
            )
            return False
        dealer = self.first_dealer.data or ""
        if dealer and name_key(dealer) not in {name_key(n) for n in names}:
            self.first_dealer.errors = [_("%(dealer)s is not playing in this game.", dealer=dealer)]
            return False
        if not dealer and len(names) >= 2:
            self.first_dealer.data = random.choice(names)  # "draw for it"
        return fields_ok and seats_ok

    def settings(self) -> dict[str, Any]:
        """The record's settings as typed (what was left empty takes the default)."""
        out: dict[str, Any] = {}
        for spec in self.game_variant.form_settings:
            value = _value(spec, self[spec.key])
            if value is not None:
                out[spec.key] = value
        for spec in self.game_variant.form_settings:
            if spec.replaces and out.get(spec.key) is not None:
                out.pop(spec.replaces, None)
        return out

    def refuse(self, exc: RecordError) -> None:
        """Show a refusal of the engine next to the setting it is about, or above."""
        target = self._fields.get(exc.field or "") if exc.field else None
        if target is not None and exc.field in self.game_variant.setting_keys:
            detail = said_text(exc.said) if exc.said is not None else exc.detail
            target.errors = [*target.errors, detail]
        else:
            self.general.append(refusal_text(exc))

    @property
    def all_errors(self) -> bool:
        return bool(self.errors or self.seating.errors or self.general)


@cache
def new_game_form_class(variant_name: str) -> type[NewGameForm]:
    """The new-game form of one game, with a field per setting it declares."""
    from ...rules import get_variant

    variant = get_variant(variant_name)
    attrs = {spec.key: _field_for(spec) for spec in variant.form_settings}
    return type(f"New{variant.name.title()}GameForm", (NewGameForm,), attrs)


def new_game_form(
    variant: Variant, people: Sequence[Any], source: Any | None, currency: str
) -> NewGameForm:
    form = new_game_form_class(variant.name)(variant=variant.name)
    form.setup(variant, people, source, currency)
    return form
