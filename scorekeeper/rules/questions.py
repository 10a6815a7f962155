"""What the keeper must still be asked before a change to a game is saved, as typed objects.

A question says what it asks in words and fields (:class:`Item`: a sentence and at most
one :class:`Choice` or :class:`HandBox`), so a page can show any question the same way (one
fieldset a question) and read its answers back by field name. Every word is an engine
sentence (a ``Said``, ids in ``rules/said_questions.py``): the page says it in its reader's
language, the command line and the API in English. A question that only tells
(``confirms``) is answered once the keeper has seen it: the page sends the keys of the
questions it showed (``Answers.seen``), and a key changes whenever what the question says
changes, so a confirmation of something else never counts. A key is made of numbers
(rounds, seats, totals), never of words, so it means the same in every language. A new
question (Pool's rejoin, Gin's knock) is one more class here and its place in
:func:`scorekeeper.rules.plan.plan`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .errors import Param, Said, say
from .hands import hand_text, parse_hand_field
from .money import format_money
from .names import name_key
from .rounds import Hand
from .state import RejoinOffer


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: Said


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few options (radio buttons), ``default`` chosen until the keeper says."""

    name: str  # the form field
    options: tuple[Option, ...]
    default: str


@dataclass(frozen=True, slots=True)
class HandBox:
    """A hand, typed as on the round form (points, a sum or cards), for ``player`` in
    round ``round``."""

    name: str  # the form field
    label: Said
    round: int
    player: str


Ask = Choice | HandBox


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a question: ``lead`` said first (in bold), then ``text``, then what it
    asks, if anything (a line that asks nothing is listed)."""

    lead: Said | None = None
    text: Said | None = None
    ask: Ask | None = None


@dataclass(frozen=True, slots=True)
class Answers:
    """The keeper's answers: the questions' fields by name, as typed, and the keys of the
    questions the keeper was shown. ``confirmed``: every question that only tells counts
    as seen (a caller that shows none, such as an import)."""

    values: Mapping[str, str] = field(default_factory=dict)
    seen: frozenset[str] = frozenset()
    confirmed: bool = False


class Question:
    """What every question has; each kind is a frozen dataclass below."""

    kind: ClassVar[str]
    #: Shown for the keeper to see, answered by being seen (the button says "Confirm").
    confirms: ClassVar[bool] = False

    @property
    def key(self) -> str:
        raise NotImplementedError

    @property
    def legend(self) -> Said:
        raise NotImplementedError

    @property
    def hint(self) -> Said | None:
        return None

    @property
    def items(self) -> tuple[Item, ...]:
        raise NotImplementedError

    @property
    def words(self) -> tuple[Said, ...]:
        """The question's lines (each one's lead, then its text), for a round sent from
        the phone's queue."""
        return tuple(w for i in self.items for w in (i.lead, i.text) if w is not None)

    @property
    def sentence(self) -> str:
        """The question in English words."""
        return " ".join(w.english for w in self.words)

    @property
    def asks(self) -> tuple[Ask, ...]:
        return tuple(i.ask for i in self.items if i.ask is not None)

    def read(
        self, answers: Answers, card_codes: frozenset[str], errors: dict[str, Said]
    ) -> dict[str, str | Hand] | None:
        """The answers by field (a choice's value, a hand), or None while the question is
        still open; a wrong or missing answer given is put in ``errors`` by field."""
        seen = answers.confirmed or self.key in answers.seen
        got: dict[str, str | Hand] = {}
        complete = seen or not self.confirms
        for ask in self.asks:
            raw = answers.values.get(ask.name)
            if isinstance(ask, Choice):
                valid = {o.value for o in ask.options}
                got[ask.name] = raw if raw in valid else ask.default
                continue
            hand = _read_hand(ask, raw, card_codes, errors)
            if hand is None:
                complete = False
            else:
                got[ask.name] = hand
        return got if complete else None


def _read_hand(
    ask: HandBox, raw: str | None, card_codes: frozenset[str], errors: dict[str, Said]
) -> Hand | None:
    if raw is None:  # not asked yet
        return None
    if not raw.strip():
        errors[ask.name] = say("question.give_hand", number=ask.round, player=ask.player)
        return None
    try:
        hand = parse_hand_field(raw, None, card_codes)
    except ValueError as exc:
        errors[ask.name] = say(
            "question.bad_hand", number=ask.round, player=ask.player, problem=str(exc)
        )
        return None
    return tuple(hand) if isinstance(hand, list) else hand


# ----------------------------------------------------------------- the questions ---
@dataclass(frozen=True, slots=True)
class Expiry:
    """A player who reaches the max in the round, if they re-buy."""

    name: str
    seat: int
    reached: int
    reset: int  # the total a re-buy sets them back to
    fee: int  # what a re-buy costs, in minor units
    dropping: bool = False  # the round as typed has them drop (the answer until asked)


@dataclass(frozen=True)
class RebuyOrDrop(Question):
    """Vegas: these players expire in the round: re-buy (the default) or drop out?"""

    round: int
    players: tuple[Expiry, ...]
    currency: str
    kind: ClassVar[str] = "expiry"
    confirms: ClassVar[bool] = True

    @property
    def key(self) -> str:
        return f"rebuy-or-drop:{self.round}:" + ",".join(str(x.seat) for x in self.players)

    @property
    def legend(self) -> Said:
        return say("question.expired")

    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(self._item(x) for x in self.players)

    def _price(self, x: Expiry) -> str:
        """ "$1.00" and the like; nothing in a game with no stakes (never "$0.00")."""
        return format_money(x.fee, self.currency) if x.fee else ""

    def _item(self, x: Expiry) -> Item:
        price, reset = self._price(x), x.reset
        if price:
            ask = say("question.rebuy_ask_price", price=price, reset=reset)
            rebuy = say("question.rebuy_price", price=price, reset=reset)
        else:
            ask, rebuy = say("question.rebuy_ask", reset=reset), say("question.rebuy", reset=reset)
        return Item(
            say("question.reached", name=x.name, points=x.reached),
            ask,
            Choice(
                f"expiry-{x.seat}",
                (Option("rebuy", rebuy), Option("drop", say("question.drop_out"))),
                "drop" if x.dropping else "rebuy",
            ),
        )

    def offline(self) -> list[dict[str, str | int]]:
        """The question as the phone's queue puts it back on the form (static/js/offline.js)."""
        return [
            {
                "seat": x.seat,
                "name": x.name,
                "reached": x.reached,
                "reset": x.reset,
                "price": self._price(x),
                "key": self.key,
            }
            for x in self.players
        ]

    def drops(self, got: Mapping[str, str | Hand]) -> tuple[str, ...]:
        return tuple(x.name for x in self.players if got[f"expiry-{x.seat}"] == "drop")


@dataclass(frozen=True, slots=True)
class LaterHand:
    round: int
    name: str
    seat: int

    @property
    def label(self) -> Said:
        return say("question.later_hand", name=self.name, number=self.round)


@dataclass(frozen=True)
class LaterHandsNeeded(Question):
    """A correction undoes a drop: the player played on, so each later round needs the
    hand they had."""

    round: int
    hands: tuple[LaterHand, ...]
    kind: ClassVar[str] = "later-hands"

    @property
    def key(self) -> str:
        return f"later-hands:{self.round}:" + ",".join(f"{h.round}.{h.seat}" for h in self.hands)

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(h.name for h in self.hands))

    @property
    def legend(self) -> Said:
        return say("question.played_on", names=spoken_list(self.names))

    @property
    def hint(self) -> Said:
        return say("question.later_hint")

    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(
            Item(ask=HandBox(f"later-{h.round}-{h.seat}", h.label, h.round, h.name))
            for h in self.hands
        )

    def given(self, got: Mapping[str, str | Hand]) -> dict[int, dict[str, Hand]]:
        """The hands by round and player."""
        later: dict[int, dict[str, Hand]] = {}
        for h in self.hands:
            hand = got[f"later-{h.round}-{h.seat}"]
            assert not isinstance(hand, str)
            later.setdefault(h.round, {})[h.name] = hand
        return later


@dataclass(frozen=True, slots=True)
class GoneHand:
    round: int
    name: str
    seat: int
    hand: Hand


@dataclass(frozen=True)
class HandsThatGo(Question):
    """A correction adds a drop: the player no longer plays, so their later hands go
    (shown once, saved on Confirm)."""

    round: int
    hands: tuple[GoneHand, ...]
    kind: ClassVar[str] = "hands-that-go"
    confirms: ClassVar[bool] = True

    @property
    def key(self) -> str:
        return f"hands-that-go:{self.round}:" + ",".join(f"{h.round}.{h.seat}" for h in self.hands)

    @property
    def legend(self) -> Said:
        names = list(dict.fromkeys(h.name for h in self.hands))
        if len(names) == 1:
            return say("question.no_longer_plays", name=names[0])
        return say("question.no_longer_play", names=spoken_list(names))

    @property
    def hint(self) -> Said:
        return say("question.gone_hint")

    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(
            Item(
                text=say("question.gone_hand", number=h.round, name=h.name, hand=hand_text(h.hand))
            )
            for h in self.hands
        )


@dataclass(frozen=True)
class RejoinOrOut(Question):
    """Pool: these players reached the pool in the round: rejoin (at ``back_at``, paying
    the fee again) or out? Out is chosen until the keeper says (paying again is the
    player's call). When the rules allow no rejoin, the question only tells why."""

    offer: RejoinOffer
    seats: tuple[tuple[str, int], ...]  # (name key, seat) of each player
    rejoining: frozenset[str]  # name keys, as typed (or stored): the answer until asked
    currency: str
    kind: ClassVar[str] = "rejoin"
    confirms: ClassVar[bool] = True

    @property
    def key(self) -> str:
        allowed = "no" if self.offer.refusal else str(self.offer.back_at)
        seats = ",".join(str(self._seat(name)) for name, _ in self.offer.players)
        return f"rejoin-or-out:{self.offer.round}:{allowed}:{seats}"

    @property
    def legend(self) -> Said:
        return say("question.out_legend")

    @property
    def hint(self) -> Said | None:
        if self.offer.refusal:
            return say("question.nobody_rejoins", why=self.offer.refusal)
        return None

    def _seat(self, name: str) -> int:
        return dict(self.seats)[name_key(name)]

    def _price(self) -> str:
        fee = self.offer.fee
        return format_money(fee, self.currency) if fee else ""

    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(self._item(name, reached) for name, reached in self.offer.players)

    def _item(self, name: str, reached: int) -> Item:
        lead = say("question.reached", name=name, points=reached)
        if self.offer.refusal:
            return Item(lead, say("question.out_no_rejoin", why=self.offer.refusal))
        back, price = self.offer.back_at, self._price()
        if price:
            ask = say("question.rejoin_ask_price", price=price, back=back)
            rejoin = say("question.rejoin_price", price=price, back=back)
        else:
            ask, rejoin = say("question.rejoin_ask", back=back), say("question.rejoin", back=back)
        return Item(
            lead,
            ask,
            Choice(
                f"rejoin-{self._seat(name)}",
                (Option("out", say("question.out")), Option("rejoin", rejoin)),
                "rejoin" if name_key(name) in self.rejoining else "out",
            ),
        )

    def rejoins(self, got: Mapping[str, str | Hand]) -> tuple[str, ...]:
        """Who rejoins, as answered (nobody when the rules allow no rejoin)."""
        if self.offer.refusal:  # as typed: the engine refuses a rejoin, saying why
            return tuple(n for n, _ in self.offer.players if name_key(n) in self.rejoining)
        return tuple(
            name for name, _ in self.offer.players if got[f"rejoin-{self._seat(name)}"] == "rejoin"
        )


def spoken_list(items: Sequence[Param]) -> Param:
    """Names or reasons in a line, as a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy"
    (each language joins them its own way)."""
    if len(items) < 2:
        return items[0] if items else ""
    head: Param = items[0]
    for item in items[1:-1]:
        head = say("question.comma", first=head, next=item)
    return say("question.and", first=head, last=items[-1])
