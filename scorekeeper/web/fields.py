"""What the forms share (Flask-WTF: every form carries a CSRF token): the one-time id
of a form that creates something, the version of a change to a game, whole numbers and
money as a page sends them (money read by ``rules.money.parse_money``), the locales money
is written in, and the few small helpers the feature forms use."""

from __future__ import annotations

import functools
import re
import uuid
from typing import Any

from babel import Locale
from babel.numbers import format_decimal
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    HiddenField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from ..rules.money import LOCALES, parse_money
from ..rules.names import MAX_NAME_LENGTH

MAX_ID = 2**31 - 1  # ids are INTEGER columns


def locale_name(code: str) -> str:
    """A locale money may be written in, named in the reader's language."""
    return _locale_name(code, str(get_locale() or "en"))


@functools.cache
def _locale_name(code: str, reader: str) -> str:
    return Locale.parse(code).get_display_name(reader) or code


@functools.cache
def _locale_names(reader: str) -> dict[str, str]:
    return {
        code: f"{_locale_name(code, reader)} · "
        f"{format_decimal(1234.5, format='#,##0.00', locale=code)}"
        for code in LOCALES
    }


def locale_names() -> dict[str, str]:
    """Each locale a night's money may be written in, by its name in the reader's language
    and how it writes a number ("German (Switzerland) · 1'234.50"), worked out once a
    language."""
    return _locale_names(str(get_locale() or "en"))


def locale_choices() -> list[SelectChoice]:
    return options(list(locale_names().items()))


def preferred_locale(accepted: Any) -> str:
    """The locale of ours that a browser's Accept-Language prefers (werkzeug's
    ``request.accept_languages``), else English."""
    tags = {code.replace("_", "-"): code for code in LOCALES}
    best = accepted.best_match(list(tags), default="en")
    return tags.get(best, "en")


def options(pairs: list[tuple[str, str]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def no_control_characters(message: Any) -> Any:
    """A validator: control codes (NUL, escape, C1) in text that is stored or looked up;
    PostgreSQL refuses NUL outright, so it must not reach the database. ``message``: the
    sentence in the reader's language (a lazy_gettext)."""

    def check(form: Any, field: Any) -> None:
        text = field.data if isinstance(field.data, str) else ""
        if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
            raise ValidationError(str(message))

    return check


def stripped(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def new_submission() -> str:
    """A one-time id for a form that changes or creates something."""
    return uuid.uuid4().hex


class OneTimeForm(FlaskForm):
    """A form that creates something: its one-time id makes a second post of the same
    form (a double tap, a retry after a timeout) find what the first one created."""

    submission = HiddenField(
        validators=[InputRequired(), Regexp(r"[A-Za-z0-9_-]{1,64}\Z")],
        default=new_submission,
    )


# The account's forms speak the reader's language (lazy_gettext: drawn when shown). WTForms'
# own sentences are translated by its catalogs, which lack Hindi: these forms say their own.
REQUIRED = _l("This field is required.")
TOO_LONG = _l("Field cannot be longer than %(max)d characters.")


class VersionedForm(FlaskForm):
    """A change to a game: the version it was made against and a one-time submission id."""

    version = HiddenField(validators=[InputRequired(), Regexp(r"[0-9]{1,9}\Z")])
    submission = HiddenField(validators=[InputRequired(), Regexp(r"[A-Za-z0-9_-]{1,64}\Z")])

    def version_number(self) -> int | None:
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return None


class ConfirmForm(VersionedForm):
    pass


class RenameForm(FlaskForm):
    name = StringField(
        _l("Name"),
        validators=[InputRequired(REQUIRED), Length(max=MAX_NAME_LENGTH, message=TOO_LONG)],
    )


class WholeRange(NumberRange):
    """NumberRange for IntegerField: compares whole numbers only. WTForms' own turns the
    number into a float (math.isnan), and one of 309 digits or more overflows it."""

    def __call__(self, form: Any, field: Any) -> None:
        if isinstance(field.data, int) and not self.min <= field.data <= self.max:
            raise ValidationError(
                _("Number must be between %(min)s and %(max)s.", min=self.min, max=self.max)
            )
        super().__call__(form, field)


# -------------------------------------------------------------- numbers and money ---
def checked_whole(raw: object, *, high: int = MAX_ID, low: int = 1) -> int | None:
    """A whole number a page posts (an id, an amount in minor units): ASCII digits only
    (``"²".isdigit()`` is True in Python, and ``int("٣")`` is 3), within ``low..high``;
    None for anything else."""
    if not isinstance(raw, str) or not re.fullmatch(r"[0-9]{1,19}", raw):
        return None
    number = int(raw)
    return number if low <= number <= high else None


class WholeField(HiddenField):
    """A whole number the page itself sends (an id, an amount in minor units), checked by
    :func:`checked_whole`; ``number`` holds it once valid."""

    def __init__(self, *args: Any, high: int = MAX_ID, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.high = high
        self.number: int | None = None

    def pre_validate(self, form: Any) -> None:
        self.number = checked_whole(self.data, high=self.high)
        if self.number is None:
            raise ValidationError(_("That is not one of the choices offered: reload the page."))


class MoneyField(StringField):
    """An amount typed as ``2.50`` (or ``$2``, ``2,50``; ``500`` yen), held in the minor
    unit of the form's ``currency`` (``rules.money.parse_money``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("render_kw", {"inputmode": "decimal", "autocomplete": "off"})
        super().__init__(*args, validators=[Optional(), Length(max=24)], **kwargs)
        self.cents: int | None = None

    def pre_validate(self, form: Any) -> None:
        self.cents = None
        try:
            self.cents = parse_money(self.data, form.currency)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

    @property
    def value(self) -> int | None:
        return self.cents
