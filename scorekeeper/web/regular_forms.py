"""The regulars' forms (``regulars.py``): a regular added, two merged, their ways to pay."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    Form,
    FormField,
    HiddenField,
    SelectField,
    StringField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    Optional,
    Regexp,
)

from ..services.payments import KINDS
from .fields import REQUIRED, TOO_LONG, new_submission, options

MAX_HANDLE_ROWS = 8  # a regular's ways to pay (at most 6) and the empty rows to add one


# ------------------------------------------------------------------------ regulars ---
class RegularForm(FlaskForm):
    """A regular added by name; with its one-time id, a double tap finds the one the first
    tap added."""

    name = StringField(
        _l("Name"), validators=[InputRequired(REQUIRED), Length(max=200, message=TOO_LONG)]
    )
    submission = HiddenField(
        validators=[Optional(), Regexp(r"[A-Za-z0-9_-]{1,64}\Z")], default=new_submission
    )


class MergeForm(FlaskForm):
    keep = SelectField(_l("Keep"), validate_choice=True)
    gone = SelectField(_l("Merge into it"), validate_choice=True)

    def setup(self, regulars: list[tuple[int, str]]) -> None:
        choices = options([(str(rid), name) for rid, name in regulars])
        self.keep.choices = choices
        self.gone.choices = choices


class HandleForm(Form):
    """One way to pay: the service (or IBAN, or text) and the handle."""

    kind = SelectField(_l("How"), choices=options(list(KINDS.items())), validate_choice=True)
    handle = StringField(_l("Handle, IBAN or text"), validators=[Length(max=200, message=TOO_LONG)])


class HandlesForm(FlaskForm):
    """A regular's ways to pay, in order, with two empty rows to add one."""

    handles = FieldList(FormField(HandleForm), max_entries=MAX_HANDLE_ROWS)

    def pairs(self) -> list[tuple[str, str]]:
        return [(row.kind.data, row.handle.data or "") for row in self.handles]
