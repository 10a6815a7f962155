"""What the pages and printed sheets show of Pool Rummy (``variant.display``): its table
rules, the deal's banner, the wild rank column, drops left under the totals, who is out,
and its help text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..display import ChartLine, Column, Fact, GameDisplay, Rows, Words, in_english
from ..errors import Said, say
from ..money import format_money
from ..settings import Settings
from ..state import NextRound, PlayerStanding
from ..variant import Variant
from .pool_terms import drops_left


class PoolDisplay(GameDisplay[Variant]):
    round_head = say("word.deal.head")
    round_word = "deal"
    wild_key = "pool"
    split_labels: ClassVar[Mapping[str, str]] = {
        "equal": "Equal shares",
        "drops": "By drops left",
    }
    setup_hint = (
        "Choosing the pool (101, 201 or 61) fills in its drops, full count, wrong show and "
        "rejoin limit; change any of them for your table. The buy-in is the entry fee, paid "
        "again by a player who rejoins."
    )
    help_rules = ("help.pool.scoring", "help.pool.rejoin", "help.pool.split", "help.pool.places")

    def card_hint_said(self) -> str | Said:
        return say("round.card_hint.pool")  # JK and the wild rank count 0

    def money_rules(self, settings: Settings) -> list[Fact]:
        if not settings.buy_in:
            return []
        return [
            Fact(
                say("fact.buy_in"),
                say(
                    "fact.again_to_rejoin", buy_in=format_money(settings.buy_in, settings.currency)
                ),
            ),
            Fact(say("fact.pot"), say("fact.pool_pot")),
        ]

    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        return [
            Fact(say("fact.pool"), say("fact.pool_out", pool=settings.pool)),
            Fact(
                say("fact.drops"),
                say("fact.drops_are", first=settings.first_drop, middle=settings.middle_drop),
            ),
            Fact(say("fact.full_count"), say("fact.full_count_is", points=settings.full_count)),
            Fact(say("fact.wrong_show"), str(settings.wrong_show)),
            Fact(say("fact.rejoin"), say("fact.rejoin_while", limit=settings.rejoin_limit)),
            Fact(say("fact.cards"), say("fact.cards_each", count=13)),
        ]

    def banner_notes_said(self, nr: NextRound, settings: Settings) -> list[Words]:
        return [say("banner.pool_cut")]

    out_word = "out"

    def standing_note(self, player: PlayerStanding) -> Words:
        if player.dropped_round is not None and not player.in_contention:
            return say("note.out_in_deal", number=player.dropped_round)
        return ""

    def head_note(self, player: PlayerStanding) -> str:
        return in_english(self.standing_note(player))

    def head_note_said(self, player: PlayerStanding) -> Words:
        return self.standing_note(player)

    def figures_said(self, players: Sequence[PlayerStanding], settings: Settings) -> Rows:
        return [(say("figure.drops_left"), values) for _, values in self.figures(players, settings)]

    def figures(
        self, players: Sequence[PlayerStanding], settings: Settings
    ) -> list[tuple[str, list[str]]]:
        """Drops left under each total (a player out: a dash)."""
        return [
            (
                "Drops left",
                [str(drops_left(p.total, settings)) if p.in_contention else "–" for p in players],
            )
        ]

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        pool, limit = say("fact.pool"), say("chart.rejoin_limit")
        return [ChartLine(pool, settings.pool), ChartLine(limit, settings.rejoin_limit)]

    def sheet_columns(self, rounds: int) -> list[Column]:
        return [*super().sheet_columns(rounds), Column(say("sheet.column.wild"), 5, "center")]

    def sheet_labels(
        self, number: int, players: int, settings: Settings, wild: str | None
    ) -> tuple[str, ...]:
        return (str(number), wild or "")

    def blank_columns(self) -> list[Column]:
        return [*super().blank_columns(), Column(say("sheet.column.wild"), 5, "center", "box")]

    def blank_note(self, settings: Settings) -> Words:
        s = settings
        return say(
            "sheet.note.pool", full_count=s.full_count, first=s.first_drop,
            middle=s.middle_drop, wrong_show=s.wrong_show, pool=s.pool, limit=s.rejoin_limit,
        )  # fmt: skip

    def blank_footers(self) -> list[Words]:
        return [say("sheet.row.total"), say("figure.drops_left")]
