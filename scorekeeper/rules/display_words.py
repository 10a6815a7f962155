"""The words a game's display gives the round form and the help page, as sentences
(``rules/said_display.py``): a page says them in its reader's language, the printed
sheets in the keeper's. ``GameDisplay`` (``rules/display.py``) is one of these."""

from __future__ import annotations

from typing import ClassVar

from .errors import Said, say


class DisplayWords:
    """The round form's words, what is wild and the help page's readings of a game.

    Going out is said in whole sentences, one set a way of saying it (``out_key``):
    "went_out" ("Who went out? Then each hand"), Gin's "knocked" ("Who knocked? Then
    both deadwoods"), as many languages cannot slot a verb into a frame sentence."""

    out_key: ClassVar[str] = "went_out"
    #: How the player who went out did it (Gin: knock, gin, big gin), the values posted.
    how_choices: ClassVar[tuple[str, ...]] = ()
    #: How a hand of cards is typed (codes, the same in every language).
    card_hint: ClassVar[str] = "K 7 JK"
    #: What is wild, the legend's sentence: ``rule.wild.<wild_key>``.
    wild_key: ClassVar[str] = "none"
    #: How the app reads what the rules leave open (the help page): message ids.
    help_rules: ClassVar[tuple[str, ...]] = ()

    def who_out_said(self) -> Said:
        """The legend of who went out and the hands: "Who went out? Then each hand"."""
        return say(f"round.who.{self.out_key}")

    def out_verb_said(self) -> Said:
        """Beside the player who went out: "went out", "knocked"."""
        return say(f"round.out.{self.out_key}")

    def nobody_said(self) -> Said:
        """The choice of nobody going out: "Nobody", Gin's "Nobody: a wash"."""
        return say(f"round.nobody.{self.out_key}")

    def tap_who_said(self, nobody: bool) -> Said:
        """The refusal of a form that says nobody went out, where someone must (or may)."""
        return say(f"round.tap_who{'_or_nobody' if nobody else ''}.{self.out_key}")

    def how_legend_said(self) -> Said:
        return say(f"round.how.{self.out_key}")

    def how_said(self, value: str) -> Said:
        """One of ``how_choices`` in words: "Knock", "Big gin"."""
        return say(f"how.{value}")

    def tap_how_said(self, name: str) -> Said:
        return say(f"round.tap_how.{self.out_key}", name=name)

    def card_hint_said(self) -> str | Said:
        """How a hand of cards is typed, with a word on a code the game adds (Vegas's W)."""
        return self.card_hint

    def wild_rule_said(self) -> Said:
        """What is wild, the legend's sentence ("twos and jokers")."""
        return say(f"rule.wild.{self.wild_key}")

    def help_said(self) -> list[Said]:
        """The help page's readings of the game (HTML: bold and code marks)."""
        return [say(message_id) for message_id in self.help_rules]
