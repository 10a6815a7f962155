"""The replay: a game record folded, round by round, into standings.

Like a chess board derived from its move stack, nothing here is stored: totals, expiries,
dealer, winners and the pot all come from replaying the record. The replay is also the
validator of everything that depends on the game's state (who is in the game, who may
drop, whether the game has ended), so a record that replays is a record that is valid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import RecordError, say
from .money import Entry
from .names import name_key
from .record import GameRecord
from .rounds import Hand, Round, parse_joins
from .settings import MAX_ROUNDS
from .state import GameState, NextRound, PlayerStanding, PlayerState, RoundResult
from .variant import DeckAdvice, Variant, get_variant, join_terms


@dataclass(frozen=True, slots=True)
class Pot:
    currency: str
    total: int  # what the pot holds now, in cents
    paid_in: int  # everything ever paid in, in cents
    entries: tuple[Entry, ...]
    balances: dict[str, int]

    def paid_in_by(self, player: str) -> int:
        """What the player has paid into the pot, in cents (a positive number)."""
        return -sum(e.amount for e in self.entries if e.player == player and e.amount < 0)

    def paid_out_to(self, player: str) -> int:
        """What the pot has paid the player (dimes and payouts), in cents."""
        return sum(e.amount for e in self.entries if e.player == player and e.amount > 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "total": self.total,
            "entries": [e.to_json() for e in self.entries],
            "balances": dict(self.balances),
        }


@dataclass(frozen=True, slots=True)
class Standings:
    record: GameRecord
    variant: Variant
    finished: bool
    winners: tuple[str, ...]
    players: tuple[PlayerStanding, ...]
    groups: tuple[tuple[str, ...], ...]
    next_round: NextRound | None
    pot: Pot
    rounds: tuple[RoundResult, ...] = field(repr=False)

    @property
    def rounds_played(self) -> int:
        return len(self.rounds)

    @property
    def ranking(self) -> list[str]:
        return [name for group in self.groups for name in group]

    def player(self, name: str) -> PlayerStanding:
        key = name_key(name)
        return next(p for p in self.players if name_key(p.name) == key)

    @property
    def deck_advice(self) -> DeckAdvice:
        playing = sum(1 for p in self.players if p.in_contention)
        return self.variant.deck_advice(playing, self.record.settings)

    def join_terms(self) -> tuple[int, int]:
        """Vegas: what a newcomer joining now pays (cents) and the total they start at."""
        return join_terms(
            [(p.expiries, p.total) for p in self.players if p.in_contention],
            self.record.settings.buy_in,
        )

    def with_joins(self, joins: Sequence[str | Mapping[str, Any]]) -> GameState:
        """The fold's state once ``joins`` (as a record's) have taken their seats at the
        start of the next round, by the engine's own join; RecordError when they break a
        rule (who is joined twice, whom a newcomer sits after)."""
        number = self.rounds_played + 1
        names, seated_after = parse_joins(list(joins), number=number)
        state = _resumed(self)
        probe = Round(None, {}, joins=names, seated_after=seated_after)
        self.variant.start_round(state, probe, number, self.record.settings)
        return state

    def _joined(self, joins: Sequence[str | Mapping[str, Any]]) -> GameState | None:
        """:meth:`with_joins`, or None when the joins break a rule (the round they are
        saved with will say which)."""
        try:
            return self.with_joins(joins)
        except RecordError:
            return None

    def seats_after_joins(self, joins: Sequence[str | Mapping[str, Any]]) -> dict[str, int]:
        """Each player at the table next round and their seat, once ``joins`` sat down."""
        state = self._joined(joins) if joins else None
        if state is None:
            return {p.name: p.seat for p in self.players if p.in_contention}
        return {p.name: p.seat for p in state.active}

    def upcoming(self, joins: Sequence[str | Mapping[str, Any]] = ()) -> NextRound | None:
        """The next round once ``joins`` (Vegas late joiners, as a record's ``joins``) have
        taken their seats: a newcomer sits after the player named or after the last seat,
        a returning player in their own, and the deal passes to the next seat in the game,
        so a joiner can change who deals and starts."""
        nr = self.next_round
        if nr is None or not joins or (state := self._joined(joins)) is None:
            return nr
        if self.rounds:
            dealer = state.next_active_seat(state.dealer_seat)
        else:
            found = state.player(nr.dealer)
            assert found is not None
            dealer = found
        return replace(
            nr,
            dealer=dealer.name,
            starts=state.next_active_seat(dealer.seat).name,
            cards_per_player=self.variant.cards_per_player(
                nr.number, len(state.active), self.record.settings
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.record.variant,
            "finished": self.finished,
            "winners": list(self.winners),
            "rounds_played": self.rounds_played,
            "players": [p.to_json() for p in self.players],
            "ranking": self.ranking,
            "next_round": self.next_round.to_json() if self.next_round else None,
            "pot": self.pot.to_json(),
        }


def replay(record: GameRecord) -> Standings:
    """Fold the record's rounds into standings; raises RecordError on a broken rule."""
    variant = get_variant(record.variant)
    _check_length(record)
    state = GameState(
        players=[PlayerState(p.name, seat, p.handicap) for seat, p in enumerate(record.players)]
    )
    for p in state.players:
        variant.pay_at_start(state, p, record.settings)
    _fold(record, variant, state, record.rounds)
    return _finish(record, variant, state)


def extend(standings: Standings, rounds: Sequence[Round]) -> Standings:
    """The standings once ``rounds`` more are played: equal to replaying the record with
    them appended (RecordError too), without replaying the rounds already folded in.

    A saved round is checked and previewed this way, from the standings the sheet already
    holds. Nothing of ``standings`` is changed: the state is rebuilt from its values (a
    game not finished has paid nothing out yet, so its ledger is the fold's own; the
    round results already made are shared, never changed)."""
    if not rounds:
        return standings
    record = standings.record.with_rounds([*standings.record.rounds, *rounds])
    _check_length(record)
    state = _resumed(standings)
    _fold(record, standings.variant, state, rounds)
    return _finish(record, standings.variant, state)


def _resumed(standings: Standings) -> GameState:
    """The fold's state after the rounds of ``standings``, rebuilt from its values."""
    state = GameState(
        players=[
            PlayerState(
                p.name,
                p.seat,
                p.total,
                list(p.scores),
                p.in_contention,
                p.expiries,
                1 if p.contract is None else p.contract,  # only Dummy Rummy moves it
                p.joined_round,
                p.dropped_round,
            )
            for p in standings.players
        ],
        entries=list(standings.pot.entries),
        rounds=list(standings.rounds),
        finished=standings.finished,  # a finished game's fold refuses any round
        winners=list(standings.winners),
    )
    if state.rounds:
        last_dealer = state.player(state.rounds[-1].dealer)
        assert last_dealer is not None
        state.dealer_seat = last_dealer.seat
    return state


def _check_length(record: GameRecord) -> None:
    if len(record.rounds) > MAX_ROUNDS:
        raise RecordError(
            say("game.too_many_rounds", most=MAX_ROUNDS),
            round=MAX_ROUNDS + 1,
        )


def _fold(record: GameRecord, variant: Variant, state: GameState, rounds: Sequence[Round]) -> None:
    """Play ``rounds``, the record's last ones, onto ``state``."""
    settings = record.settings
    first = len(record.rounds) - len(rounds) + 1
    for number, rnd in enumerate(rounds, first):
        if state.finished:
            raise RecordError(
                say("game.already_ended", number=number - 1),
                round=number,
            )
        state.pending_events = []
        if rnd.split is not None:  # the game ends by agreement: nothing is dealt
            state.rounds.append(variant.agree(state, rnd, number, settings))
            continue
        variant.start_round(state, rnd, number, settings)
        if number == 1:
            dealer = state.player(record.first_dealer)
            assert dealer is not None
        else:
            dealer = state.next_active_seat(state.dealer_seat)
        state.dealer_seat = dealer.seat
        went_out = _went_out(state, variant, rnd, number)
        hands = variant.hand_points(
            rnd, _hands(state, variant, rnd, went_out, number), number, settings
        )
        # Everyone at the table scores, 0 unless the game says (a Gin wash gives no hands).
        scores = dict.fromkeys((p.name for p in state.active), 0)
        scores.update(variant.score_round(went_out, hands, rnd, number, settings))
        for p in state.players:
            score = scores.get(p.name) if p.in_contention else None
            p.scores.append(score)
            if score is not None:
                p.total += score
        result = RoundResult(
            number=number,
            dealer=dealer.name,
            went_out=went_out,
            scores=scores,
            hands=hands,
            totals={},
            multiplier=variant.multiplier(number),
            wild=rnd.wild,
            events=state.pending_events,
        )
        variant.end_round(state, rnd, result, settings)
        result.totals = {p.name: p.total for p in state.players if p.scores[-1] is not None}
        state.rounds.append(result)


def _finish(record: GameRecord, variant: Variant, state: GameState) -> Standings:
    """Rank the players and, when the game has ended, pay the pot out."""
    if state.finished and state.rounds:
        variant.end_game(state, record.settings)
    groups = variant.ranking(state)
    if state.finished and state.rounds:
        payouts = variant.payouts(state, groups, record.settings)
        last = state.rounds_played
        for p in state.players:  # seat order keeps the ledger's order stable
            state.pay_out(p.name, payouts.get(p.name, 0), "payout", last)
    return _standings(record, variant, state, groups)


def _went_out(state: GameState, variant: Variant, rnd: Round, number: int) -> str | None:
    if rnd.went_out is None:
        if not variant.nobody_out_allowed:
            raise RecordError(
                say("round.must_go_out", game=say(f"variant.{variant.name}.title")),
                round=number,
                field="went_out",
            )
        return None
    p = state.player(rnd.went_out)
    if p is None or not p.in_contention:
        raise RecordError(
            say("round.out_not_in_game", player=rnd.went_out),
            round=number,
            player=rnd.went_out,
            field="went_out",
        )
    return p.name


def _hands(
    state: GameState, variant: Variant, rnd: Round, went_out: str | None, number: int
) -> dict[str, Hand]:
    given: dict[str, Hand] = {}
    for raw_name, hand in rnd.hands.items():
        p = state.player(raw_name)
        if p is None:
            raise RecordError(
                say("round.hand_not_player", player=raw_name),
                round=number,
                player=raw_name,
                field="hands",
            )
        if not p.in_contention:
            raise RecordError(
                say("round.hand_dropped", player=p.name, number=str(p.dropped_round)),
                round=number,
                player=p.name,
                field="hands",
            )
        if p.name == went_out and not variant.out_has_hand:
            raise RecordError(
                say("round.hand_went_out", player=p.name),
                round=number,
                player=p.name,
                field="hands",
            )
        given[p.name] = hand
    if went_out is None and not given and variant.wash_without_hands:
        return {}
    ordered: dict[str, Hand] = {}
    for p in state.active:
        if p.name == went_out and not variant.out_has_hand:
            continue
        if p.name not in given:
            raise RecordError(
                say("round.no_hand", player=p.name), round=number, player=p.name, field="hands"
            )
        ordered[p.name] = given[p.name]
    return ordered


def _standings(
    record: GameRecord, variant: Variant, state: GameState, groups: list[list[str]]
) -> Standings:
    places: dict[str, int] = {}
    place = 1
    for group in groups:
        for name in group:
            places[name] = place
        place += len(group)
    is_dummy = "contracts" in variant.round_inputs  # each player works through contracts
    players = tuple(
        PlayerStanding(
            name=p.name,
            seat=p.seat,
            total=p.total,
            scores=tuple(p.scores),
            in_contention=p.in_contention,
            expiries=p.expiries,
            contract=p.contract if is_dummy else None,
            place=places[p.name],
            joined_round=p.joined_round,
            dropped_round=p.dropped_round,
        )
        for p in state.players
    )
    balances: dict[str, int] = {p.name: 0 for p in state.players}
    for e in state.entries:
        balances[e.player] += e.amount
    pot = Pot(
        currency=record.settings.currency,
        total=state.pot_cents,
        paid_in=-sum(e.amount for e in state.entries if e.amount < 0),
        entries=tuple(state.entries),
        balances=balances,
    )
    return Standings(
        record=record,
        variant=variant,
        finished=state.finished,
        winners=tuple(state.winners),
        players=players,
        groups=tuple(tuple(g) for g in groups),
        next_round=None if state.finished else _next_round(record, variant, state),
        pot=pot,
        rounds=tuple(state.rounds),
    )


def _next_round(record: GameRecord, variant: Variant, state: GameState) -> NextRound:
    number = state.rounds_played + 1
    if number == 1:
        dealer = state.player(record.first_dealer)
        assert dealer is not None
    else:
        dealer = state.next_active_seat(state.dealer_seat)
    starts = state.next_active_seat(dealer.seat)
    contracts: Mapping[str, int] | None = None
    if "contracts" in variant.round_inputs:
        contracts = {p.name: p.contract for p in state.players}
    return NextRound(
        number=number,
        dealer=dealer.name,
        starts=starts.name,
        cards_per_player=variant.cards_per_player(number, len(state.active), record.settings),
        wild=variant.wild(number),
        multiplier=variant.multiplier(number),
        contracts=dict(contracts) if contracts is not None else None,
        label=variant.round_label(number),
    )
