"""Forms (Flask-WTF: every form carries a CSRF token). What people type is read by the
engine: hands by ``rules.hands``, money by ``rules.money.parse_money``."""

from __future__ import annotations

import functools
import re
import uuid
from datetime import date
from typing import Any

from babel import Locale
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    PasswordField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    AnyOf,
    DataRequired,
    Email,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)
from wtforms.widgets import CheckboxInput, ListWidget

from .rules.money import CURRENCIES, LOCALES, parse_money
from .rules.names import MAX_NAME_LENGTH, name_key
from .services.payments import KINDS

MAX_ID = 2**31 - 1  # ids are INTEGER columns
MAX_HANDLE_ROWS = 8  # a regular's ways to pay (at most 6) and the empty rows to add one


@functools.cache
def locale_names() -> dict[str, str]:
    """Each locale a night's money may be written in, by its name in its own language."""
    return {code: Locale.parse(code).display_name or code for code in LOCALES}


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


def no_control_characters(what: str) -> Any:
    """A validator: control codes (NUL, escape, C1) in text that is stored or looked up;
    PostgreSQL refuses NUL outright, so it must not reach the database."""

    def check(form: Any, field: Any) -> None:
        text = field.data if isinstance(field.data, str) else ""
        if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
            raise ValidationError(f"The {what} contains control characters.")

    return check


def _strip(value: Any) -> Any:
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


class SignupForm(FlaskForm):
    email = EmailField(
        "Email", validators=[InputRequired(), Email(granular_message=True), Length(max=254)]
    )
    password = PasswordField(
        "Password",
        validators=[
            InputRequired(),
            Length(min=8, message="Use at least 8 characters."),
            Length(max=200, message="Use at most 200 characters."),
        ],
    )
    confirm = PasswordField(
        "Password again", validators=[InputRequired(), EqualTo("password", "Passwords differ.")]
    )


class LoginForm(FlaskForm):
    email = EmailField(
        "Email",
        validators=[InputRequired(), Length(max=254), no_control_characters("email")],
    )
    password = PasswordField("Password", validators=[InputRequired(), Length(max=200)])
    remember = BooleanField("Keep me logged in on this phone", default=True)


class ForgotPasswordForm(OneTimeForm):
    email = EmailField(
        "Email",
        validators=[
            InputRequired(),
            Email(granular_message=True),
            Length(max=254),
            no_control_characters("email"),
        ],
        filters=[_strip],
    )


class NewPasswordForm(FlaskForm):
    """A new password, typed twice (changed on the account page, or with a reset link)."""

    password = PasswordField(
        "New password",
        validators=[
            InputRequired(),
            Length(min=8, message="Use at least 8 characters."),
            Length(max=200, message="Use at most 200 characters."),
        ],
    )
    confirm = PasswordField(
        "New password again",
        validators=[InputRequired(), EqualTo("password", "The new passwords differ.")],
    )


class ResetPasswordForm(NewPasswordForm):
    token = HiddenField(validators=[InputRequired(), Length(max=100)])


class AccountImportForm(OneTimeForm):
    file = FileField("Account file (.zip)")


class DeleteAccountForm(FlaskForm):
    email = StringField(
        "Type your email to confirm",
        validators=[InputRequired(), Length(max=254), no_control_characters("email")],
    )


class PasswordChangeForm(NewPasswordForm):
    current = PasswordField("Current password", validators=[InputRequired(), Length(max=200)])


class NightForm(OneTimeForm):
    regulars = SelectMultipleField(
        "Your regulars",
        choices=[],
        validate_choice=False,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    #: The order people sit in, one name a line, set on the page (up and down buttons).
    order = HiddenField(validators=[Optional(), Length(max=20_000)])
    name = StringField(
        "Name",
        validators=[
            DataRequired("Give the night a name."),
            Length(max=80),
            no_control_characters("name"),
        ],
        filters=[_strip],
        default="Card night",
    )
    played_on = DateField(
        "Date", validators=[InputRequired("Give the date of the night.")], default=date.today
    )
    currency = SelectField(
        "Currency",
        choices=options([(c, c) for c in CURRENCIES]),
        default="USD",
        validate_choice=False,
        validators=[AnyOf(CURRENCIES, message="Choose a currency from the list.")],
    )
    locale = SelectField(
        "Money written as",
        choices=[],
        default="en",
        validate_choice=False,
        validators=[AnyOf(LOCALES, message="Choose how money is written from the list.")],
    )
    paper = SelectField(
        "Paper",
        choices=options([("A4", "A4"), ("Letter", "US Letter")]),
        default="Letter",
        validate_choice=False,
        validators=[AnyOf(("A4", "Letter"), message="Choose A4 or US Letter paper.")],
    )
    people = TextAreaField(
        "Who is playing",
        description="One name per line, or separated by commas.",
        validators=[Optional(), Length(max=2000)],
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
    name = StringField("Name", validators=[InputRequired(), Length(max=MAX_NAME_LENGTH)])


class PaperForm(FlaskForm):
    paper = SelectField("Paper", choices=options([("A4", "A4"), ("Letter", "US Letter")]))


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
    name = StringField("Name", validators=[InputRequired(), Length(max=MAX_NAME_LENGTH)])


class DeleteNightForm(FlaskForm):
    """Deleting a night: a confirmation, nothing else (a second post finds it deleted)."""


class KeeperForm(FlaskForm):
    """A keeper link's or a co-keeper's change: a confirmation (each is idempotent: a
    second post finds it done); removing a co-keeper may turn the link off too."""

    link_off = BooleanField("Turn the keeper link off too")


class JoinForm(VersionedForm):
    person = SelectField("Who joins", validate_choice=False, validators=[Optional()])
    new_name = StringField("Or a new player", validators=[Optional(), Length(max=MAX_NAME_LENGTH)])
    after = SelectField("Sits after", validate_choice=False, validators=[Optional()])


class WholeRange(NumberRange):
    """NumberRange for IntegerField: compares whole numbers only. WTForms' own turns the
    number into a float (math.isnan), and one of 309 digits or more overflows it."""

    def __call__(self, form: Any, field: Any) -> None:
        if isinstance(field.data, int) and not self.min <= field.data <= self.max:
            raise ValidationError(f"Number must be between {self.min} and {self.max}.")
        super().__call__(form, field)


class ImportForm(OneTimeForm):
    record = TextAreaField("Game record (JSON)", validators=[Optional(), Length(max=1_000_000)])


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
            raise ValidationError("That is not one of the choices offered: reload the page.")


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


PLAN_STAMP = r"[0-9a-f]{12}\Z"


class TransferForm(OneTimeForm):
    """Mark a transfer still to pay as paid (all of it, or ``paid`` of it), or write it
    off, as the page showed it: the pair, the plan's stamp and what was left (``amount``)."""

    payer = WholeField()
    payee = WholeField()
    amount = WholeField(high=10**15)
    plan = HiddenField(validators=[InputRequired(), Regexp(PLAN_STAMP)])
    action = HiddenField(validators=[AnyOf(("payment", "write_off"))], default="payment")
    paid = MoneyField("Paid now")
    claim = HiddenField(validators=[Optional(), Regexp(r"[1-9][0-9]{0,9}\Z")])


class ClaimForm(OneTimeForm):
    """A player's "I paid" on the players' page: the transfer as the page showed it."""

    payer = WholeField()
    payee = WholeField()
    amount = WholeField(high=10**15)
    plan = HiddenField(validators=[InputRequired(), Regexp(PLAN_STAMP)])


class PaymentForm(OneTimeForm):
    """Any payment between two of the night's people (partial, cash, or more than owed)."""

    payer = SelectField("Who paid", validate_choice=True)
    payee = SelectField("Paid to", validate_choice=True)
    amount = MoneyField(
        "Amount", description="Paid more than was owed? The difference shows as owed back."
    )

    def setup(self, parties: list[tuple[int, str]], currency: str) -> None:
        self.currency = currency
        choices = options([(str(rid), name) for rid, name in parties])
        self.payer.choices = choices
        self.payee.choices = choices

    def ids(self) -> tuple[int, int]:
        return int(self.payer.data), int(self.payee.data)


class CarryForm(OneTimeForm):
    debt = SelectField("What to carry", validate_choice=False, validators=[Optional()])
    target = SelectField("Carry it into", validate_choice=True)
    plan = HiddenField(validators=[Optional(), Regexp(PLAN_STAMP)])


class StepForm(FlaskForm):
    unit = SelectField("Settle", validate_choice=True)


class LocaleForm(FlaskForm):
    locale = SelectField("Money written as", validate_choice=True)


# ------------------------------------------------------------------------ regulars ---
class RegularForm(FlaskForm):
    """A regular added by name; with its one-time id, a double tap finds the one the first
    tap added."""

    name = StringField("Name", validators=[InputRequired(), Length(max=200)])
    submission = HiddenField(
        validators=[Optional(), Regexp(r"[A-Za-z0-9_-]{1,64}\Z")], default=new_submission
    )


class MergeForm(FlaskForm):
    keep = SelectField("Keep", validate_choice=True)
    gone = SelectField("Merge into it", validate_choice=True)

    def setup(self, regulars: list[tuple[int, str]]) -> None:
        choices = options([(str(rid), name) for rid, name in regulars])
        self.keep.choices = choices
        self.gone.choices = choices


class HandleForm(Form):
    """One way to pay: the service (or IBAN, or text) and the handle."""

    kind = SelectField("How", choices=options(list(KINDS.items())), validate_choice=True)
    handle = StringField("Handle, IBAN or text", validators=[Length(max=200)])


class HandlesForm(FlaskForm):
    """A regular's ways to pay, in order, with two empty rows to add one."""

    handles = FieldList(FormField(HandleForm), max_entries=MAX_HANDLE_ROWS)

    def pairs(self) -> list[tuple[str, str]]:
        return [(row.kind.data, row.handle.data or "") for row in self.handles]
