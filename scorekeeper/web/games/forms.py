"""The game's small forms: a late joiner (``round_entry.py``) and a game record imported
(``records.py``). The new game's form is ``new_game_form.py``, the round's
``round_form.py``."""

from __future__ import annotations

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
from ..fields import OneTimeForm, VersionedForm


class JoinForm(VersionedForm):
    person = SelectField("Who joins", validate_choice=False, validators=[Optional()])
    new_name = StringField("Or a new player", validators=[Optional(), Length(max=MAX_NAME_LENGTH)])
    after = SelectField("Sits after", validate_choice=False, validators=[Optional()])


class ImportForm(OneTimeForm):
    record = TextAreaField("Game record (JSON)", validators=[Optional(), Length(max=1_000_000)])
