"""What the pages and printed sheets show of Pool Rummy (``variant.display``): its table
rules, the deal's banner, the wild rank column, drops left under the totals, who is out,
and its help text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..display import ChartLine, Column, Fact, GameDisplay, Rows, Words
from ..errors import say
from ..money import format_money
from ..settings import Settings
from ..state import NextRound, PlayerStanding
from ..variant import Variant
from .pool_terms import drops_left


class PoolDisplay(GameDisplay[Variant]):
    round_head = say("word.deal.head")
    round_word = "deal"
    wild_rule = "printed jokers and every card of the deal's cut rank; both count 0 in hand"
    card_hint = "K 7 JK — JK and the deal's wild rank count 0"
    split_labels: ClassVar[Mapping[str, str]] = {
        "equal": "Equal shares",
        "drops": "By drops left",
    }
    setup_hint = (
        "Choosing the pool (101, 201 or 61) fills in its drops, full count, wrong show and "
        "rejoin limit; change any of them for your table. The buy-in is the entry fee, paid "
        "again by a player who rejoins."
    )
    help_rules = (
        "<strong>Pool Rummy scoring:</strong> 13 cards each; a card is cut after the deal and "
        "its rank is wild for that deal, printed jokers too. Whoever shows scores 0. Every "
        "other hand counts A K Q J 10 as 10, 2 to 9 at face value, jokers and the deal's wild "
        "rank 0, but never more than the full count (a hand counted at 95 scores 80 in a 101 "
        "pool). Instead of a count a hand may be marked: Drop (before drawing, 20 in a 101 "
        "pool), Middle (a middle drop, 40), Full (gave up with everything counted, 80) or "
        "Wrong show (declared an invalid show, 80). A total at the pool or more is out.",
        "<strong>Pool Rummy rejoin:</strong> a player out may rejoin before the next deal "
        "only while nobody still in has more than the rejoin limit (79 in a 101 pool); they "
        "come back at the highest total still in plus 1 and pay the buy-in again into the "
        "pot. The app asks 'Rejoin or out?' for each player who goes out (out is chosen "
        "until you say rejoin, as paying again is theirs to decide); when rejoining is not "
        "allowed it says who is over the limit. When only one player is left in, the game is "
        "over at once: nobody rejoins, the last one in takes the pot. Correcting a deal to "
        "add or take off a rejoin works while no later deal holds that player's hands.",
        "<strong>Pool Rummy split:</strong> between deals, the players still in may agree to "
        "split the pot (Split the pot on the sheet shows every share before you confirm): "
        "equally, or by drops left, the first drops each could still take and stay in. If "
        "nobody has a drop left the split is equal. Shares are rounded down to the cent and "
        "the cents left over go to the lowest total (the earliest seat on a tie). A split "
        "needs at least one deal played, and Undo takes it back like a deal.",
        "<strong>Pool Rummy places:</strong> the players still in (or sharing a split) by "
        "total, then the players out, the later out first; players out in the same deal by "
        "their totals, lower first. A player who rejoined is placed by their last time out.",
    )

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

    def standing_note(self, player: PlayerStanding) -> str:
        if player.dropped_round is not None and not player.in_contention:
            return f"out in deal {player.dropped_round}"
        return ""

    def head_note(self, player: PlayerStanding) -> str:
        return self.standing_note(player)

    def head_note_said(self, player: PlayerStanding) -> Words:
        if player.dropped_round is not None and not player.in_contention:
            return say("note.out_in_deal", number=player.dropped_round)
        return ""

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
