"""The one exception the rules engine raises for a record that breaks a rule."""

from __future__ import annotations


class RecordError(ValueError):
    """A game or night record that breaks a rule.

    The message is a sentence a person can act on (``round 3: no hand given for Bob``).
    ``round`` (1-based) and ``player`` say where the problem is, so a form can show the
    message next to the field that caused it; ``field`` names the record key involved.
    """

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        player: str | None = None,
        field: str | None = None,
    ) -> None:
        prefix = f"round {round}: " if round is not None else ""
        super().__init__(prefix + message)
        self.detail = message
        self.round = round
        self.player = player
        self.field = field


class NotJson(RecordError):
    """A record text that is not JSON at all; ``detail`` says where it breaks."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"not valid JSON: {detail}")
        self.detail = detail
