"""The game's small forms: a late joiner (``round_entry.py``) and a game record imported
(``records.py``). The new game's form is ``new_game_form.py``, the round's
``round_form.py``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import (
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (
    Length,
    Optional,
)

from ...rules.names import MAX_NAME_LENGTH
from ..fields import TOO_LONG, OneTimeForm, VersionedForm


class JoinForm(VersionedForm):
    person = SelectField(_l("Who joins"), validate_choice=False, validators=[Optional()])
    new_name = StringField(
        _l("Or a new player"),
        validators=[Optional(), Length(max=MAX_NAME_LENGTH, message=TOO_LONG)],
    )
    after = SelectField(_l("Sits after"), validate_choice=False, validators=[Optional()])


class ImportForm(OneTimeForm):
    record = TextAreaField(
        _l("Game record (JSON)"), validators=[Optional(), Length(max=1_000_000, message=TOO_LONG)]
    )
