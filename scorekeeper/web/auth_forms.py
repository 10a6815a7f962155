"""The account's forms (``auth.py``, ``accounts.py``): sign-up, log-in, passwords, the
account's file and its deletion."""

from __future__ import annotations

from typing import Any

from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    EmailField,
    HiddenField,
    PasswordField,
    StringField,
)
from wtforms.validators import (
    Email,
    EqualTo,
    InputRequired,
    Length,
    ValidationError,
)

from .fields import REQUIRED, TOO_LONG, OneTimeForm, no_control_characters, stripped

EMAIL_CONTROL = _l("The email contains control characters.")


class EmailAddress(Email):
    """An email address, checked by email_validator: in English its own sentence of what
    is wrong (``granular_message``); in another language ours, since it speaks English
    only."""

    def __init__(self) -> None:
        super().__init__(granular_message=True)

    def __call__(self, form: Any, field: Any) -> None:
        try:
            super().__call__(form, field)
        except ValidationError:
            if str(get_locale() or "en") != "en":
                raise ValidationError(_("That is not an email address.")) from None
            raise


def _email_field(label: Any, *, checked: bool) -> EmailField:
    """The email of an account's form; ``checked``: an address email_validator accepts."""
    validators: list[Any] = [InputRequired(REQUIRED), *([EmailAddress()] if checked else [])]
    validators += [Length(max=254, message=TOO_LONG), no_control_characters(EMAIL_CONTROL)]
    return EmailField(label, validators=validators, filters=[stripped])


def _new_password(label: Any) -> PasswordField:
    return PasswordField(
        label,
        validators=[
            InputRequired(REQUIRED),
            Length(min=8, message=_l("Use at least 8 characters.")),
            Length(max=200, message=_l("Use at most 200 characters.")),
        ],
    )


class SignupForm(FlaskForm):
    email = _email_field(_l("Email"), checked=True)
    password = _new_password(_l("Password"))
    confirm = PasswordField(
        _l("Password again"),
        validators=[InputRequired(REQUIRED), EqualTo("password", _l("Passwords differ."))],
    )


class LoginForm(FlaskForm):
    email = _email_field(_l("Email"), checked=False)
    password = PasswordField(
        _l("Password"), validators=[InputRequired(REQUIRED), Length(max=200, message=TOO_LONG)]
    )
    remember = BooleanField(_l("Keep me logged in on this phone"), default=True)


class ForgotPasswordForm(OneTimeForm):
    email = _email_field(_l("Email"), checked=True)


class NewPasswordForm(FlaskForm):
    """A new password, typed twice (changed on the account page, or with a reset link)."""

    password = _new_password(_l("New password"))
    confirm = PasswordField(
        _l("New password again"),
        validators=[InputRequired(REQUIRED), EqualTo("password", _l("The new passwords differ."))],
    )


class ResetPasswordForm(NewPasswordForm):
    token = HiddenField(validators=[InputRequired(), Length(max=100)])


class PasswordChangeForm(NewPasswordForm):
    current = PasswordField(
        _l("Current password"),
        validators=[InputRequired(REQUIRED), Length(max=200, message=TOO_LONG)],
    )


class AccountImportForm(OneTimeForm):
    file = FileField(_l("Account file (.zip)"))


class DeleteAccountForm(FlaskForm):
    email = StringField(
        _l("Type your email to confirm"),
        validators=[
            InputRequired(REQUIRED),
            Length(max=254, message=TOO_LONG),
            no_control_characters(EMAIL_CONTROL),
        ],
    )
