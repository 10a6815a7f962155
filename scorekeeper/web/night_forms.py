"""The night's forms (``nights.py``, ``home.py``, ``keepers.py``): a new night, its people,
its paper, deleting it, and a keeper link's changes."""

from __future__ import annotations

import re
from datetime import date

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    AnyOf,
    DataRequired,
    InputRequired,
    Length,
    Optional,
)
from wtforms.widgets import CheckboxInput, ListWidget

from ..rules.money import CURRENCIES, LOCALES
from ..rules.names import MAX_NAME_LENGTH, name_key
from .fields import REQUIRED, TOO_LONG, OneTimeForm, no_control_characters, options, stripped


class NightForm(OneTimeForm):
    regulars = SelectMultipleField(
        _l("Your regulars"),
        choices=[],
        validate_choice=False,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    #: The order people sit in, one name a line, set on the page (up and down buttons).
    order = HiddenField(validators=[Optional(), Length(max=20_000)])
    name = StringField(
        _l("Name"),
        validators=[
            DataRequired(_l("Give the night a name.")),
            Length(max=80, message=TOO_LONG),
            no_control_characters(_l("The name contains control characters.")),
        ],
        filters=[stripped],
        default=lambda: _("Card night"),
    )
    played_on = DateField(
        _l("Date"),
        validators=[InputRequired(_l("Give the date of the night."))],
        default=date.today,
    )
    currency = SelectField(
        _l("Currency"),
        choices=options([(c, c) for c in CURRENCIES]),
        default="USD",
        validate_choice=False,
        validators=[AnyOf(CURRENCIES, message=_l("Choose a currency from the list."))],
    )
    locale = SelectField(
        _l("Money written as"),
        choices=[],
        default="en",
        validate_choice=False,
        validators=[AnyOf(LOCALES, message=_l("Choose how money is written from the list."))],
    )
    paper = SelectField(
        _l("Paper"),
        choices=options([("A4", "A4"), ("Letter", _l("US Letter"))]),
        default="Letter",
        validate_choice=False,
        validators=[AnyOf(("A4", "Letter"), message=_l("Choose A4 or US Letter paper."))],
    )
    people = TextAreaField(
        _l("Who is playing"),
        description=_l("One name per line, or separated by commas."),
        validators=[Optional(), Length(max=2000, message=TOO_LONG)],
    )

    def names(self) -> list[str]:
        raw = self.people.data or ""
        return [n.strip() for n in re.split(r"[\n,]+", raw) if n.strip()]

    def in_seating_order(self, chosen: list[str]) -> list[str]:
        """``chosen`` (ticked regulars, then typed names) in the order the keeper set
        (``order``: one name a line, kept by the page's script); names it does not list
        keep their place after those it does. It only orders: it adds nobody."""
        listed = [name_key(n) for n in (self.order.data or "").splitlines()[:200] if n.strip()]
        rank: dict[str, int] = {}
        for i, key in enumerate(listed):
            rank.setdefault(key, i)
        return sorted(chosen, key=lambda n: rank.get(name_key(n), len(listed)))


class PersonForm(OneTimeForm):
    name = StringField(
        _l("Name"),
        validators=[InputRequired(REQUIRED), Length(max=MAX_NAME_LENGTH, message=TOO_LONG)],
    )


class PaperForm(FlaskForm):
    paper = SelectField(_l("Paper"), choices=options([("A4", "A4"), ("Letter", _l("US Letter"))]))


class DeleteNightForm(FlaskForm):
    """Deleting a night: a confirmation, nothing else (a second post finds it deleted)."""


class KeeperForm(FlaskForm):
    """A keeper link's or a co-keeper's change: a confirmation (each is idempotent: a
    second post finds it done); removing a co-keeper may turn the link off too."""

    link_off = BooleanField(_l("Turn the keeper link off too"))
