"""Gin Rummy, as RULES.md describes it ("Gin Rummy"; not one of the source texts).

Two players, hands to a target (100), bonuses at the end. Each hand ends with a knock (the
knocker's deadwood 1 to ``knock_max``), gin (no deadwood), big gin (all eleven cards
melded) or a wash (nobody knocked before the stock ran out); the keeper records who
knocked (``went_out``), ``how`` and both deadwoods. A knocker with less deadwood scores the
difference; a defender with as little or less (a tie is an undercut) scores the difference
plus the undercut bonus. Gin and big gin score their bonus plus the defender's deadwood.
The game ends after the hand in which a total reaches the target; then the game bonus, a
box bonus for every hand won and, when the loser won none, the shutout multiplier make
the final scores, and the loser pays the stake on the margin. High is good.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from ..display import ChartLine, Column, Fact, GameDisplay, Rows, Words
from ..errors import RecordError, Said, say
from ..money import format_money
from ..rounds import Round
from ..settings import CURRENCY, MAX_POINTS, Settings, SettingSpec
from ..state import Event, GameState, PlayerStanding, RoundResult
from ..variant import Variant

#: The event kinds of a hand's winner: who scored in it (the defender on an undercut).
HAND_WINS = ("knock", "undercut", "gin", "big_gin")
HOW_WORDS = {"knock": "knock", "gin": "gin", "big_gin": "big gin"}


@dataclass(frozen=True, slots=True)
class HandOutcome:
    kind: Literal["knock", "undercut", "gin", "big_gin"]
    winner: str
    points: int


def hand_outcome(
    went_out: str | None, hands: Mapping[str, int], rnd: Round, number: int, settings: Settings
) -> HandOutcome | None:
    """Who won the hand, how and for how many points (None: a wash); a RecordError naming
    the round and the knocker when the deadwood cannot be what ``how`` says."""
    if went_out is None:
        return None
    if rnd.how is None:
        raise RecordError(
            say("gin.say_how", name=went_out),
            round=number,
            player=went_out,
            field="how",
        )
    defender = next(name for name in hands if name != went_out)
    knocker_dw, defender_dw = hands[went_out], hands[defender]

    def refuse(why: Said) -> RecordError:
        return RecordError(why, round=number, player=went_out, field="hands")

    if rnd.how == "knock":
        if knocker_dw == 0:
            raise refuse(say("gin.knock_zero", name=went_out))
        if knocker_dw > settings.knock_max:
            raise refuse(
                say("gin.knock_max", name=went_out, deadwood=knocker_dw, most=settings.knock_max)
            )
        if knocker_dw < defender_dw:
            return HandOutcome("knock", went_out, defender_dw - knocker_dw)
        # RULES.md: a tie is an undercut.
        return HandOutcome("undercut", defender, knocker_dw - defender_dw + settings.undercut_bonus)
    if knocker_dw != 0:
        how = "gin.gin_deadwood" if rnd.how == "gin" else "gin.big_gin_deadwood"
        raise refuse(say(how, name=went_out, deadwood=knocker_dw))
    if rnd.how == "gin":
        return HandOutcome("gin", went_out, settings.gin_bonus + defender_dw)
    return HandOutcome("big_gin", went_out, settings.big_gin_bonus + defender_dw)


@dataclass(frozen=True, slots=True)
class GinTally:
    """The end of a game worked out from its hands: each player's hand points, boxes,
    bonuses and final score, the margin and who pays it. ``winner`` is who reached the
    target (None while the game runs); the final scores decide who is paid."""

    names: tuple[str, ...]
    hand_points: dict[str, int]
    boxes: dict[str, int]
    winner: str | None = None
    shutout: bool = False
    points: Mapping[str, int] | None = None  # hand points, the winner's multiplied on a shutout
    game_bonus: Mapping[str, int] | None = None
    box_bonus: Mapping[str, int] | None = None
    final: Mapping[str, int] | None = None
    margin: int = 0
    payer: str | None = None  # the lower final score, when the margin is above 0
    payee: str | None = None

    def owed(self, settings: Settings) -> int:
        """What the payer pays the payee on the margin, in minor units."""
        return settings.stake * self.margin if self.payer else 0


def gin_tally(rounds: Sequence[RoundResult], names: Sequence[str], settings: Settings) -> GinTally:
    """RULES.md: game bonus to the winner, box bonus per hand won, the winner's hand points
    times ``shutout_multiplier`` when the loser won no hand; final = hand points + game
    bonus + box bonuses; margin = winner's final - loser's final."""
    hand_points = {n: sum(r.scores.get(n, 0) for r in rounds) for n in names}
    boxes = {
        n: sum(1 for r in rounds for e in r.events if e.player == n and e.kind in HAND_WINS)
        for n in names
    }
    reached = [n for n in names if hand_points[n] >= settings.target_score]
    if not reached:
        return GinTally(tuple(names), hand_points, boxes)
    winner = reached[0]  # one player scores a hand, so one reaches the target first
    shutout = all(boxes[n] == 0 for n in names if n != winner)
    points = {
        n: hand_points[n] * (settings.shutout_multiplier if shutout and n == winner else 1)
        for n in names
    }
    game_bonus = {n: settings.game_bonus if n == winner else 0 for n in names}
    box_bonus = {n: boxes[n] * settings.box_bonus for n in names}
    final = {n: points[n] + game_bonus[n] + box_bonus[n] for n in names}
    high, low = sorted(names, key=lambda n: -final[n])[:2]
    margin = final[high] - final[low]
    return GinTally(
        tuple(names),
        hand_points,
        boxes,
        winner,
        shutout,
        points,
        game_bonus,
        box_bonus,
        final,
        margin,
        low if margin else None,
        high if margin else None,
    )


class GinDisplay(GameDisplay["Gin"]):
    round_head = say("word.hand.head")
    round_word = "hand"
    card_hint = "K 7 A"
    out_key = "knocked"  # who knocked, both deadwoods, nobody: a wash
    how_choices = ("knock", "gin", "big_gin")
    setup_hint = (
        "Exactly two players. Each hand, record who knocked (or nobody: a wash), how, and "
        "both deadwoods; the game, box and shutout bonuses are added at the end."
    )
    help_rules = ("help.gin.scoring", "help.gin.end")

    def warnings_said(self, players: int, settings: Settings) -> list[Words]:
        return []  # any count but two is refused (``Gin.players_refused``), not warned of

    def money_rules(self, settings: Settings) -> list[Fact]:
        cur = settings.currency
        facts = []
        if settings.stake:
            stake = say("fact.stake_per_point", stake=format_money(settings.stake, cur))
            facts.append(Fact(say("fact.stake"), stake))
        if settings.buy_in:
            buy_in = say("fact.buy_in_all", buy_in=format_money(settings.buy_in, cur))
            facts.append(Fact(say("fact.buy_in"), buy_in))
        return facts

    def play_rules(self, settings: Settings, players: int) -> list[Fact]:
        return [
            Fact(say("fact.target"), say("fact.first_to", target=settings.target_score)),
            Fact(
                say("fact.knock"),
                say("fact.knock_with", most=settings.knock_max, bonus=settings.undercut_bonus),
            ),
            Fact(
                say("fact.gin"),
                say("fact.gin_bonus", gin=settings.gin_bonus, big_gin=settings.big_gin_bonus),
            ),
            Fact(
                say("fact.end"),
                say(
                    "fact.end_bonus",
                    game=settings.game_bonus,
                    box=settings.box_bonus,
                    shutout=settings.shutout_multiplier,
                ),
            ),
            Fact(say("fact.cards"), say("fact.cards_each", count=10)),
        ]

    def went_out_note(self, settings: Settings) -> str:
        return " (knocked)"

    def went_out_said(self, settings: Settings) -> Said:
        return say("mark.went_out.knocked")

    def chart_lines(self, settings: Settings) -> list[ChartLine]:
        return [ChartLine(say("fact.target"), settings.target_score)]

    def sheet_columns(self, rounds: int) -> list[Column]:
        return [Column(self.round_said("head"), max(5, len(str(rounds + 1)) + 1), "right")]

    def blank_columns(self) -> list[Column]:
        how = say("sheet.column.how")
        return [
            Column(self.round_said("head"), 5, "right", "num"),
            Column(how, 6, "center", "text"),
        ]

    def blank_note(self, settings: Settings) -> Words:
        s = settings
        return say(
            "sheet.note.gin", knock=s.knock_max, undercut=s.undercut_bonus, gin=s.gin_bonus,
            big_gin=s.big_gin_bonus, target=s.target_score, game=s.game_bonus,
            box=s.box_bonus, shutout=s.shutout_multiplier,
        )  # fmt: skip

    def blank_footers(self) -> list[Words]:
        rows = ("hand_points", "boxes", "game_bonus", "box_bonus", "final")
        return [say(f"tally.{row}") for row in rows]

    def tally(
        self,
        rounds: Sequence[RoundResult],
        players: Sequence[PlayerStanding],
        settings: Settings,
        finished: bool,
    ) -> list[tuple[str, list[str]]]:
        names = [p.name for p in players]
        t = gin_tally(rounds, names, settings)
        rows = [("Boxes", [str(t.boxes[n]) for n in names])]
        if not finished or t.final is None:
            return rows
        assert t.points is not None and t.game_bonus is not None and t.box_bonus is not None
        rows.insert(0, ("Hand points", [str(t.hand_points[n]) for n in names]))
        if t.shutout:
            rows.append(
                (f"Shutout ×{settings.shutout_multiplier}", [str(t.points[n]) for n in names])
            )
        rows += [
            ("Game bonus", [str(t.game_bonus[n]) for n in names]),
            ("Box bonus", [str(t.box_bonus[n]) for n in names]),
            ("Final", [str(t.final[n]) for n in names]),
            # Under whoever is paid it (equal final scores: 0, under the first).
            ("Margin", [str(t.margin) if n == (t.payee or names[0]) else "" for n in names]),
        ]
        owed = t.owed(settings)
        if owed:
            money = format_money(owed, settings.currency)
            rows.append(
                ("Stake", [f"+{money}" if n == t.payee else f"-{money}" if n == t.payer else ""
                           for n in names])
            )  # fmt: skip
        return rows

    def tally_said(
        self,
        rounds: Sequence[RoundResult],
        players: Sequence[PlayerStanding],
        settings: Settings,
        finished: bool,
    ) -> Rows:
        shutout = f"Shutout ×{settings.shutout_multiplier}"
        return [
            (
                say("tally.shutout", times=settings.shutout_multiplier)
                if label == shutout
                else say(_TALLY[label]),
                values,
            )
            for label, values in self.tally(rounds, players, settings, finished)
        ]


#: The tally's rows by their English (``GinDisplay.tally``): their message ids.
_TALLY = {
    "Boxes": "tally.boxes",
    "Hand points": "tally.hand_points",
    "Game bonus": "tally.game_bonus",
    "Box bonus": "tally.box_bonus",
    "Final": "tally.final",
    "Margin": "tally.margin",
    "Stake": "fact.stake",
}


class Gin(Variant):
    name = "gin"
    title = "Gin Rummy"
    description = (
        "Two players, hands to 100: knock, gin or big gin, undercuts, and the game, box and "
        "shutout bonuses at the end. The stake is paid on the margin."
    )
    players_advised = (2, 2)
    settings_specs: ClassVar[tuple[SettingSpec, ...]] = (
        SettingSpec("target_score", "Target score", "whole", low=1, high=MAX_POINTS),
        SettingSpec(
            "knock_max", "Knock with at most", "whole", "Deadwood a knock allows.", low=1, high=99
        ),
        SettingSpec("gin_bonus", "Gin bonus", "whole", low=0, high=1000),
        SettingSpec("big_gin_bonus", "Big gin bonus", "whole", low=0, high=1000),
        SettingSpec(
            "undercut_bonus",
            "Undercut bonus",
            "whole",
            "To the defender whose deadwood is equal or lower.",
            low=0,
            high=1000,
        ),
        SettingSpec("game_bonus", "Game bonus", "whole", "To the winner.", low=0, high=10_000),
        SettingSpec(
            "box_bonus",
            "Box bonus",
            "whole",
            "To each player for every hand won.",
            low=0,
            high=1000,
        ),
        SettingSpec(
            "shutout_multiplier",
            "Shutout multiplier",
            "whole",
            "The winner's hand points are multiplied by it when the loser won no hand.",
            low=1,
            high=10,
        ),
        SettingSpec(
            "stake",
            "Stake per point",
            "money",
            "The loser pays it for every point of the margin (0: none).",
        ),
        SettingSpec(
            "buy_in", "Buy-in", "money", "Paid by each player at the start; the winner takes it."
        ),
        CURRENCY,
    )
    low_is_good = False
    round_inputs = frozenset({"how"})
    out_has_hand = True
    wash_without_hands = True

    def players_refused(self, count: int) -> Said | None:
        if count != 2:
            return say("game_record.gin_two", count=count)
        return None

    def check_handicap(self, name: str, handicap: int, settings: Settings) -> None:
        if handicap:
            raise RecordError(say("gin.no_handicap", name=name), player=name)

    def cards_per_player(self, number: int, players: int, settings: Settings) -> int:
        return 10

    # -- the replay ---------------------------------------------------------------------
    def score_round(
        self,
        went_out: str | None,
        hands: Mapping[str, int],
        rnd: Round,
        number: int,
        settings: Settings,
    ) -> dict[str, int]:
        scores = dict.fromkeys(hands, 0)
        outcome = hand_outcome(went_out, hands, rnd, number, settings)
        if outcome is not None:
            scores[outcome.winner] = outcome.points
        return scores

    def end_round(
        self, state: GameState, rnd: Round, result: RoundResult, settings: Settings
    ) -> None:
        outcome = hand_outcome(result.went_out, result.hands, rnd, result.number, settings)
        if outcome is None:
            result.events.extend(Event("wash", p.name) for p in state.active)
        else:
            result.events.append(Event(outcome.kind, outcome.winner, outcome.points))
        result.events.extend(Event("deadwood", name, dw) for name, dw in result.hands.items())
        if any(p.total >= settings.target_score for p in state.players):
            self.finish(state)

    def end_game(self, state: GameState, settings: Settings) -> None:
        tally = gin_tally(state.rounds, [p.name for p in state.players], settings)
        assert tally.final is not None
        for p in state.players:
            p.total = tally.final[p.name]
        state.winners = self.ranking(state)[0]
        if tally.payer is not None:
            state.pay_in(tally.payer, tally.owed(settings), "stake", state.rounds_played)

    display_class = GinDisplay
