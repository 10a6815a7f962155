"""The round form: what a keeper typed for a round (who went out, each hand, and what the
game's round asks besides), read and checked field by field, and shown again with its
errors and the money moments (who expired: re-buy or drop?)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from flask import abort, render_template
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ... import services
from ...forms import VersionedForm, hand_text, parse_hand_field
from ...models import Game
from ...rules import NextRound, RecordError, Standings, format_money, name_key
from ...rules.cards import JOKER, MAX_CARDS_IN_HAND, RANKS, WILD, parse_flipped_card
from ...rules.rounds import MAX_HAND_POINTS, join_name
from ...services import ledger
from .. import offline


@dataclass
class RoundPlayer:
    name: str
    seat: int
    joining: bool = False
    total_before: int = 0
    contract: str | None = None  # the words for laying down their contract (Dummy)


@dataclass
class RoundEntry:
    """The round form's state: the game, the players, what was typed, errors by field."""

    game: Game
    s: Standings
    number: int
    editing: bool
    players: list[RoundPlayer]
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    expiries: list[dict[str, Any]] = field(default_factory=list)
    later: list[dict[str, Any]] = field(default_factory=list)  # a drop undone: later hands
    gone: list[dict[str, Any]] = field(default_factory=list)  # a drop added: hands that go
    queued: bool = False  # sent from the phone's queue: answered in JSON (web/offline.py)

    @classmethod
    def open(cls, game: Game, s: Standings, number: int | None) -> RoundEntry:
        editing = number is not None
        target = number if number is not None else s.rounds_played + 1
        if editing and not 1 <= target <= s.rounds_played:
            abort(404)
        return cls(game, s, target, editing, _round_players(game, s, target))

    @property
    def inputs(self) -> frozenset[str]:
        return self.s.variant.round_inputs

    @property
    def rows(self) -> list[RoundPlayer]:
        """The players in the order the table counts its hands: seat order from the player
        who starts the round (the seat after the dealer's), so the form follows the table.
        ``players`` stays in seat order: the round is read and stored in that order."""
        if self.editing:
            dealer = self.s.rounds[self.number - 1].dealer
        else:
            upcoming = self.s.upcoming(self.game.pending_joins)
            dealer = upcoming.dealer if upcoming else ""
        seats = {name_key(p.name): p.seat for p in self.s.players}
        seats.update({name_key(p.name): p.seat for p in self.players})
        dealer_seat = seats.get(name_key(dealer))
        if dealer_seat is None:
            return self.players
        first = next((i for i, p in enumerate(self.players) if p.seat > dealer_seat), 0)
        return self.players[first:] + self.players[:first]

    @property
    def marked(self) -> bool:
        """Is an error shown next to a field (not only at the top of the form)?"""
        return any(key != "general" for key in self.errors)

    # -- reading the form ------------------------------------------------------------
    def load_stored(self) -> None:
        """A correction starts from the round as stored, its expiries asked again."""
        data = self.game.rounds[self.number - 1].data
        self.values = _values_from_round(data, self.players)
        plan = services.plan_round(self.game, data, number=self.number, standings=self.s)
        self.ask(plan.expiries())

    def read(self, form: MultiDict[str, str]) -> dict[str, Any] | None:
        """The round as typed, or None with errors by field: who went out, the hands,
        then what the game's round asks besides (``ROUND_INPUTS``)."""
        self._check_seats(form)
        went_out = self._read_went_out(form)
        data: dict[str, Any] = {"went_out": went_out, "hands": self._read_hands(form, went_out)}
        for name in sorted(self.inputs):
            reader = ROUND_INPUTS.get(name)
            if reader is not None:
                reader.read(self, form, data)
        return None if self.errors else data

    def _check_seats(self, form: MultiDict[str, str]) -> None:
        seats = {str(p.seat) for p in self.players}
        for key in form:
            kind, _, seat = key.partition("-")
            if kind in {"hand", "cards", "contract", "expiry"} and seat not in seats:
                self.errors["general"] = (
                    f"There is no seat {seat[:10]} in this game: reload the page and enter "
                    "the round again."
                )
                return

    def _read_went_out(self, form: MultiDict[str, str]) -> str | None:
        variant = self.s.variant
        raw = form.get("went_out", "")
        self.values["went_out"] = raw
        by_seat = {str(p.seat): p.name for p in self.players}
        if raw in by_seat:
            return by_seat[raw]
        if not (raw == "" and variant.nobody_out_allowed and "went_out" in form):
            self.errors["went_out"] = "Tap who went out" + (
                " (or Nobody)." if variant.nobody_out_allowed else "."
            )
        return None

    def _read_hands(self, form: MultiDict[str, str], went_out: str | None) -> dict[str, Any]:
        hands: dict[str, Any] = {}
        for p in self.players:
            key, cards_key = f"hand-{p.seat}", f"cards-{p.seat}"
            self.values[key] = form.get(key, "")[:200]
            self.values[cards_key] = form.get(cards_key, "")[:200]
            self.values[f"expiry-{p.seat}"] = form.get(f"expiry-{p.seat}", "rebuy")
            if went_out == p.name:
                continue
            try:
                hands[p.name] = parse_hand_field(
                    form.get(key), form.get(cards_key), self.s.variant.card_codes
                )
            except ValueError as exc:
                self.errors[key] = f"{p.name}: {exc}"
        return hands

    # -- expiries: re-buy or drop -----------------------------------------------------
    def ask(self, expiries: list[services.Expiry]) -> None:
        seats = {p.name: p.seat for p in self.players}
        self.expiries = [
            {
                "name": x.name,
                "seat": seats[x.name],
                "reached": x.reached,
                "reset": x.reset,
                "fee": x.fee,
                "choice": self.values.get(f"expiry-{seats[x.name]}", "rebuy"),
            }
            for x in expiries
        ]

    def must_ask(self, plan: services.RoundPlan, form: MultiDict[str, str]) -> bool:
        """Ask "re-buy or drop?" when someone expires whom the keeper has not seen yet."""
        self.ask(plan.expiries())
        seen = ",".join(str(x["seat"]) for x in self.expiries)
        return bool(self.expiries) and form.get("expiry_seen", "") != seen

    def drops(self) -> list[str]:
        return [x["name"] for x in self.expiries if x["choice"] == "drop"]

    # -- a drop undone: the hands of the later rounds ---------------------------------
    def read_later(
        self, needed: list[tuple[int, str]], form: MultiDict[str, str]
    ) -> dict[int, dict[str, Any]] | None:
        """The hands the player whose drop is undone had in each later round, or None
        while one is still to be given (first shown empty) or wrong (marked)."""
        seats = {p.name: p.seat for p in self.s.players}
        later: dict[int, dict[str, Any]] = {}
        self.later, complete = [], True
        for number, name in needed:
            key = f"later-{number}-{seats[name]}"
            raw = form.get(key)
            self.later.append({"round": number, "name": name, "key": key, "value": raw or ""})
            if raw is None or not raw.strip():
                complete = False
                if raw is not None:
                    self.errors[key] = f"Round {number}: give {name}'s hand."
                continue
            try:
                hand = parse_hand_field(raw, None, self.s.variant.card_codes)
            except ValueError as exc:
                self.errors[key] = f"Round {number}: {name}: {exc}"
                complete = False
                continue
            later.setdefault(number, {})[name] = hand
        return later if complete else None

    @property
    def later_names(self) -> list[str]:
        return list(dict.fromkeys(x["name"] for x in self.later))

    # -- a drop added: the later hands that go ----------------------------------------
    def must_confirm_gone(
        self, gone: list[tuple[int, str, Any]], form: MultiDict[str, str]
    ) -> bool:
        """Show which later hands a drop added takes off the sheet, once: saved when the
        form comes back having shown the same ones (``gone_seen``)."""
        self.gone = [
            {"round": number, "name": name, "hand": hand_text(_listed(hand))}
            for number, name, hand in gone
        ]
        return form.get("gone_seen", "") != self.gone_seen

    @property
    def gone_seen(self) -> str:
        return ",".join(f"{x['round']}:{x['name']}" for x in self.gone)

    @property
    def gone_names(self) -> list[str]:
        return list(dict.fromkeys(x["name"] for x in self.gone))

    # -- refusals -----------------------------------------------------------------------
    def refuse(self, exc: RecordError) -> None:
        """Mark the field a refusal is about, or say it at the top of the form when it is
        not in a field shown (a later round the change would break)."""
        if exc.round is not None and exc.round != self.number:
            self.errors["general"] = (
                f"Not saved: with this change, round {exc.round} would no longer hold: "
                f"{exc.detail}. Correct that round first, or remove the rounds after "
                f"round {self.number} and enter them again."
            )
            return
        self.errors[self._field_for(exc)] = str(exc)

    def _field_for(self, exc: RecordError) -> str:
        shown = {"went_out"} | {f"hand-{p.seat}" for p in self.players}
        shown |= {f"expiry-{x['seat']}" for x in self.expiries}
        for name in self.inputs:
            reader = ROUND_INPUTS.get(name)
            if reader is not None:
                shown |= reader.fields(self)
        key = "general"
        seat = next(
            (p.seat for p in self.players if name_key(p.name) == name_key(exc.player or "")), None
        )
        if seat is not None:
            key = {
                "contracts": f"contract-{seat}",
                "drops": f"expiry-{seat}",
                "went_out": "went_out",
            }.get(exc.field or "", f"hand-{seat}")
        elif exc.field in {"went_out", "wild", "going_rummy"}:
            key = exc.field or "general"
        return key if key in shown else "general"

    # -- the page -----------------------------------------------------------------------
    def render(self, form: VersionedForm, status: int = 200) -> tuple[str | Response, int]:
        if self.queued:
            return _not_saved(self, status)
        s, variant = self.s, self.s.variant
        settings = s.record.settings
        upcoming = None if self.editing else s.upcoming(self.game.pending_joins)
        this = upcoming or NextRound(
            number=self.number,
            dealer=s.rounds[self.number - 1].dealer,
            starts="",
            cards_per_player=variant.cards_per_player(self.number, len(self.players), settings),
            wild=variant.wild(self.number),
            multiplier=variant.multiplier(self.number),
            contracts=None,
            label=variant.round_label(self.number),
        )
        return render_template(
            "games/round.html",
            game=self.game,
            entry=self,
            form=form,
            editing=self.editing,
            variant=variant,
            next_round=upcoming,
            dealt=None if upcoming else this.dealer,
            banner=variant.display.banner(this, settings),
            card_values=variant.card_values(self.number, settings),
            # The counter's keys in one order in every game (A first), whatever they count.
            card_order=[c for c in (*RANKS, JOKER, WILD) if c in variant.card_codes],
            multiplier=variant.multiplier(self.number),
            max_hand_points=MAX_HAND_POINTS,
            max_cards=MAX_CARDS_IN_HAND,
            money=lambda c: format_money(c, s.pot.currency),
            money_moves=ledger.MONEY_MOVES if ledger.money_recorded(self.game.night_id) else None,
        ), status


def _round_players(game: Game, s: Standings, number: int) -> list[RoundPlayer]:
    """Who plays round ``number`` in seat order, with their totals before it (a joiner:
    where the replay starts them) and, where the game has them, their contracts."""
    variant = s.variant
    if number <= s.rounds_played:
        result = s.rounds[number - 1]
        in_round = set(result.scores) | ({result.went_out} if result.went_out else set())
        before = s.rounds[number - 2].totals if number > 1 else {}
        starts = {e.player: e.value for e in result.events if e.kind == "join"}
        handicaps = {p.name: p.handicap for p in s.record.players}
        return [
            RoundPlayer(
                p.name,
                p.seat,
                joining=p.name in starts,
                total_before=(
                    starts[p.name] or 0
                    if p.name in starts
                    else before.get(p.name, handicaps.get(p.name, 0))
                ),
                contract=variant.display.contract_choice(0)
                if "contracts" in variant.round_inputs
                else None,
            )
            for p in s.players
            if p.name in in_round
        ]
    players = [
        RoundPlayer(
            p.name,
            p.seat,
            total_before=p.total,
            contract=variant.display.contract_choice(p.contract or 0)
            if "contracts" in variant.round_inputs
            else None,
        )
        for p in s.players
        if p.in_contention
    ]
    if game.pending_joins:
        # Seats as the engine gives them once the joiners sat down (a newcomer may sit
        # between two players: the seats after theirs move on).
        _, start = s.join_terms()
        seats = {name_key(n): seat for n, seat in s.seats_after_joins(game.pending_joins).items()}
        players = [replace(p, seat=seats.get(name_key(p.name), p.seat)) for p in players]
        for name in map(join_name, game.pending_joins):
            seat = seats.get(name_key(name))
            known = next((p.name for p in s.players if name_key(p.name) == name_key(name)), name)
            if seat is not None:
                players.append(RoundPlayer(known, seat, True, start))
        players.sort(key=lambda p: p.seat)
    return players


def _values_from_round(data: dict[str, Any], players: list[RoundPlayer]) -> dict[str, str]:
    values: dict[str, str] = {}
    keys = {name_key(k): v for k, v in data.get("hands", {}).items()}
    went_out = data.get("went_out")
    values["went_out"] = ""
    for p in players:
        if went_out and name_key(went_out) == name_key(p.name):
            values["went_out"] = str(p.seat)
        hand = keys.get(name_key(p.name))
        values[f"hand-{p.seat}"] = hand_text(hand)
        # A stored card list stays cards when saved unchanged (a lone "2" is the two,
        # not 2 points), also without the script: the hidden field says they are cards.
        values[f"cards-{p.seat}"] = hand_text(hand) if isinstance(hand, list) else ""
    values["wild"] = data.get("wild") or ""
    values["going_rummy"] = "y" if data.get("going_rummy") else ""
    contracts = {name_key(n) for n in data.get("contracts", [])}
    drops = {name_key(n) for n in data.get("drops", [])}
    for p in players:
        if name_key(p.name) in contracts:
            values[f"contract-{p.seat}"] = "y"
        values[f"expiry-{p.seat}"] = "drop" if name_key(p.name) in drops else "rebuy"
    return values


# -------------------------------------------------- what a game's round asks besides ---
@dataclass(frozen=True)
class RoundInput:
    """One of the round's inputs beyond who went out and the hands (a game declares which:
    ``Variant.round_inputs``): how it is read from the form into the round's record, and
    the fields it shows (where a refusal about it is marked)."""

    read: Callable[[RoundEntry, MultiDict[str, str], dict[str, Any]], None]
    fields: Callable[[RoundEntry], set[str]]


def _read_flipped_card(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    raw = form.get("wild", "").strip()[:20]
    entry.values["wild"] = raw
    if not raw:
        return
    wild = parse_flipped_card(raw)
    if wild is None:
        rank = raw.upper()
        entry.errors["wild"] = (
            f"Add the suit to {rank}: {rank}C, {rank}D, {rank}H or {rank}S (or JK for a joker)."
            if rank in RANKS
            else "Write the flipped card as rank and suit, like 7C, QH or 10D, or JK for a joker."
        )
    data["wild"] = wild


def _read_going_rummy(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    entry.values["going_rummy"] = form.get("going_rummy", "")
    if form.get("going_rummy"):
        data["going_rummy"] = True


def _read_contracts(entry: RoundEntry, form: MultiDict[str, str], data: dict[str, Any]) -> None:
    contracts = []
    for p in entry.players:
        ticked = bool(form.get(f"contract-{p.seat}")) or p.name == data["went_out"]
        entry.values[f"contract-{p.seat}"] = "y" if ticked else ""
        if ticked:
            contracts.append(p.name)
    data["contracts"] = contracts


#: "joins" are made on the join page, and drops are asked as expiries.
ROUND_INPUTS: dict[str, RoundInput] = {
    "flipped_card": RoundInput(_read_flipped_card, lambda entry: {"wild"}),
    "going_rummy": RoundInput(_read_going_rummy, lambda entry: {"going_rummy"}),
    "contracts": RoundInput(
        _read_contracts, lambda entry: {f"contract-{p.seat}" for p in entry.players}
    ),
}


def _not_saved(entry: RoundEntry, status: int) -> tuple[Response, int]:
    """What the round form would show (its errors, or the question "re-buy or drop
    out?"), as a sentence for the keeper and the errors by field."""
    errors = dict(entry.errors)
    general = errors.pop("general", "")
    if status == 200 and entry.expiries:  # asked before anything is saved
        currency = entry.s.pot.currency
        price = {
            x["seat"]: format_money(x["fee"], currency) if x["fee"] else "" for x in entry.expiries
        }
        asks = " ".join(
            f"{x['name']} reached {x['reached']}: re-buy"
            f"{' for ' + price[x['seat']] if price[x['seat']] else ''}"
            f" (back to {x['reset']}) or drop out?"
            for x in entry.expiries
        )
        asked = [{**x, "price": price[x["seat"]]} for x in entry.expiries]
        return offline.refused(f"{asks} Choose on the form, then save.", expiries=asked)
    parts = [general] if general else []
    parts += errors.values()
    return offline.refused(" ".join(parts), errors, 400 if status == 400 else 422)


def _listed(hand: Any) -> Any:
    """A hand as the form writes it: cards as a list, points as they are."""
    return list(hand) if isinstance(hand, tuple) else hand
