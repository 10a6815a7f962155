"""Money: integer counts of the currency's minor unit, pot ledger entries, the split of a
pot over a ranking, and the one place where amounts are written and read as text.

An amount is always an ``int`` of the currency's minor unit (ISO 4217: cents for USD and
EUR, whole yen for JPY, thousandths for KWD), never a float. Babel knows each currency's
minor unit (``get_currency_precision``) and each locale's way of writing money
(``format_currency``); :func:`format_money` and :func:`parse_money` are the only
functions that turn amounts into text and back.

The locale money is written in is the night's (a keeper's setting): the web layer sets it
for a request with :func:`money_locale`; everything else writes in English.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.numbers import (
    format_currency,
    get_currency_precision,
    get_currency_symbol,
    get_decimal_symbol,
)

from .errors import Said, say

EntryKind = Literal["buy_in", "rebuy", "join", "ante", "per_round", "payout", "stake", "rejoin"]
#: ``stake``: Gin, what the loser pays on the margin (the winner is paid it as payout).
PAYMENTS_IN: frozenset[str] = frozenset({"buy_in", "rebuy", "join", "ante", "stake", "rejoin"})

# ISO 4217 codes; amounts are kept in each one's minor unit (JPY and KRW have none, KWD
# and BHD have thousandths).
CURRENCIES = (
    "USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "JPY", "MXN",
    "KRW", "KWD", "BHD",
)  # fmt: skip
# The locales a night's money may be written in (Babel identifiers), with their names.
LOCALES = (
    "en", "en_GB", "en_CA", "en_AU", "de", "de_CH", "fr", "fr_CA", "es", "es_MX", "it",
    "nl", "pt", "sv", "da", "nb", "fi", "pl", "ja", "ko",
)  # fmt: skip

DEFAULT_LOCALE = "en"
_LOCALE: ContextVar[str] = ContextVar("money_locale", default=DEFAULT_LOCALE)


@dataclass(frozen=True, slots=True)
class Entry:
    """One money movement, seen from the player's side.

    ``amount`` is negative for a payment into the pot and positive for a payment out.
    ``round`` is 0 for what is paid before the first round.
    """

    player: str
    amount: int
    kind: EntryKind
    round: int

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "amount": self.amount,
            "kind": self.kind,
            "round": self.round,
        }


# ------------------------------------------------------------------ minor units ---
@functools.cache
def minor_digits(currency: str) -> int:
    """How many decimals the currency's minor unit has: 2 for USD, 0 for JPY, 3 for KWD."""
    return int(get_currency_precision(currency))


def to_major(amount: int, currency: str) -> Decimal:
    """``1250`` USD -> ``Decimal("12.50")``; ``1250`` JPY -> ``Decimal("1250")`` (exact)."""
    digits = minor_digits(currency)
    return Decimal(amount).scaleb(-digits).quantize(Decimal(1).scaleb(-digits))


def decimal_text(amount: int, currency: str = "USD") -> str:
    """An amount as a plain decimal in the currency's major unit, for CSV files and pay
    links: ``-150`` USD -> ``-1.50``, ``500`` JPY -> ``500``, ``1500`` KWD -> ``1.500``."""
    return str(to_major(amount, currency))


# -------------------------------------------------------------------- locales ---
def clean_locale(tag: str | None) -> str | None:
    """A locale identifier Babel knows (``de-CH`` -> ``de_CH``), or None."""
    if not tag or len(tag) > 20 or not re.fullmatch(r"[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*", tag):
        return None
    try:
        return str(Locale.parse(tag.replace("-", "_")))
    except (ValueError, UnknownLocaleError):
        return None


@contextmanager
def money_locale(locale: str | None) -> Iterator[None]:
    """Write money in ``locale`` (a night's) inside the block; None leaves it as it is."""
    if locale is None:
        yield
        return
    token = _LOCALE.set(locale)
    try:
        yield
    finally:
        _LOCALE.reset(token)


def use_money_locale(locale: str | None) -> None:
    """Write money in ``locale`` from now on in this context (a web request sets the
    night's at its start; None: English)."""
    _LOCALE.set(locale or DEFAULT_LOCALE)


def current_locale() -> str:
    return _LOCALE.get()


# -------------------------------------------------------------------- writing ---
def format_money(amount: int, currency: str = "USD", locale: str | None = None) -> str:
    """An amount as people write it in the locale: ``-1250`` USD -> ``-$12.50`` in English,
    ``500`` JPY -> ``¥500``, ``1250`` EUR in German -> ``12,50 €``."""
    return _formatted(amount, currency, locale or _LOCALE.get())


@functools.lru_cache(maxsize=8192)
def _formatted(amount: int, currency: str, locale: str) -> str:
    return _currency_spaced(
        str(format_currency(to_major(amount, currency), currency, locale=locale))
    )


# CLDR's currency spacing (Babel does not apply it): a symbol that ends (or starts) with a
# letter is kept apart from the digits by a no-break space, ``KWD 1.250``, not
# ``KWD1.250``; a sign like ``$`` or ``€`` stays where the pattern puts it.
_LETTER_THEN_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)")
_DIGIT_THEN_LETTER = re.compile(r"(?<=\d)(?=[^\W\d_])")


def _currency_spaced(text: str) -> str:
    return _DIGIT_THEN_LETTER.sub("\u00a0", _LETTER_THEN_DIGIT.sub("\u00a0", text))


def signed_money(amount: int, currency: str = "USD") -> str:
    """``+$10.00``, ``-$7.00``, ``$0.00``: a net for the night."""
    return ("+" if amount > 0 else "") + format_money(amount, currency)


def step_label(step: int, currency: str) -> str:
    """A rounding step in words: ``exactly`` for one minor unit, else ``in steps of $0.25``."""
    return step_said(step, currency).english


def step_said(step: int, currency: str) -> Said:
    """A rounding step as a message id (rules/said_night.py), for a page to say in its
    reader's language; the step written in the night's locale."""
    if step <= 1:
        return say("money.exactly")
    return say("money.steps", money=format_money(step, currency))


def rounding_steps(currency: str) -> tuple[int, ...]:
    """The steps a table may settle in, in the currency's minor unit: exactly, then coins
    and notes people hand over (5, 10, 25, 50 cents, a dollar, five; 10, 50, 100, 500 and
    1,000 yen; 5, 10, 50, 100, 250 and 500 fils, a dinar)."""
    return {
        0: (1, 10, 50, 100, 500, 1000),
        3: (1, 5, 10, 50, 100, 250, 500, 1000),
    }.get(minor_digits(currency), (1, 5, 10, 25, 50, 100, 500))


# -------------------------------------------------------------------- reading ---
MAX_MONEY_DIGITS = 15  # digits of an amount in minor units: far beyond any table


_AROUND = re.compile(r"^[^0-9.,]+|[^0-9.,]*[^\W\d_]\.?$|[^0-9.,]+$")


def parse_money(text: str | None, currency: str = "USD", locale: str | None = None) -> int:
    """What a keeper types for an amount, in minor units: ``2.50`` or ``$2,50`` USD -> 250,
    ``1.500`` JPY -> 1500, ``1.250`` KWD -> 1250, ``1.234,50`` in German -> 123450.

    A lone separator is a decimal point when it is the locale's, or when what follows it
    cannot be a group of thousands; a separator that appears twice, or beside another,
    groups thousands. Empty text is 0. Raises ValueError with a sentence: negatives,
    more decimals than the currency has, and anything that is not an amount."""
    raw = (text or "").strip()
    digits = minor_digits(currency)
    example = decimal_text(250 * 10**digits // 100 if digits else 500, currency)
    nope = ValueError(f"{raw[:20]!r} is not an amount: write it like {example}")
    body = re.sub(r"[\s\u00a0\u202f'’]", "", raw)  # spaces and apostrophes group thousands
    if body.startswith("-") or body.endswith("-"):
        raise ValueError("an amount must be 0 or more")
    # A currency sign or code around it (Danish "kr." ends in a dot of its own).
    around = re.findall(_AROUND, body)
    body = re.sub(_AROUND, "", body)
    if not body:
        if raw:
            raise nope
        return 0
    if not re.fullmatch(r"[0-9.,]+", body):
        raise nope
    if any(sign.casefold() not in _signs(currency) for sign in around):
        raise ValueError(
            f"{raw[:20]!r} is not in {currency}: this night's money is in {currency}; "
            f"write it like {example}"
        )
    number = _plain_decimal(body, digits, locale or _LOCALE.get())
    return _minor_units(number, currency, digits, example, nope)


def _minor_units(
    number: str | None, currency: str, digits: int, example: str, nope: ValueError
) -> int:
    """A plain decimal (``"1234.5"``) in the currency's minor unit, or the sentence why not."""
    if number is None:
        raise nope
    try:
        amount = Decimal(number)
    except InvalidOperation:
        raise nope from None
    minor = amount.scaleb(digits)
    if minor != minor.to_integral_value():
        if digits == 0:
            raise ValueError(f"an amount in {currency} has no decimals: write it like {example}")
        raise ValueError(
            f"an amount in {currency} has at most {digits} decimals: write it like {example}"
        )
    if len(str(int(minor))) > MAX_MONEY_DIGITS:
        raise ValueError("that amount is more than this app will hold")
    return int(minor)


@functools.cache
def _signs(currency: str) -> frozenset[str]:
    """How the currency may be written beside an amount, folded: its code, its sign in
    each locale a night may use, and that sign without the letters that tell it apart
    abroad ("CA$" is "$" in Canada, "JP¥" is "¥" in Japan)."""
    signs = {currency}
    for locale in LOCALES:
        try:
            sign = get_currency_symbol(currency, locale)
        except (ValueError, UnknownLocaleError):
            continue
        signs.add(sign)
        signs.add(re.sub(r"^[A-Za-z]{1,3}(?=\W)", "", sign))
    return frozenset(sign.replace(" ", "").casefold() for sign in signs if sign)


def _plain_decimal(body: str, digits: int, locale: str) -> str | None:
    """``1.234,50`` -> ``1234.50`` (the decimal point last, thousands groups dropped), or
    None when the groups are not groups of three."""
    marks = [ch for ch in body if ch in ".,"]
    decimal_mark: str | None = None
    if len(set(marks)) == 2:
        decimal_mark = marks[-1]
        if marks.count(decimal_mark) > 1:
            return None
    elif len(marks) == 1:
        after = len(body) - body.index(marks[0]) - 1
        try:
            locale_decimal = get_decimal_symbol(locale)
        except (ValueError, UnknownLocaleError):
            locale_decimal = "."
        if after != 3 or (marks[0] == locale_decimal and digits > 0):
            decimal_mark = marks[0]
    whole, fraction = body, ""
    if decimal_mark is not None:
        whole, _, fraction = body.rpartition(decimal_mark)
    groups = re.split(r"[.,]", whole)
    if (
        len(groups) > 1
        and (
            not 1 <= len(groups[0]) <= 3
            or groups[0].startswith("0")  # "0,001" is never a thousand: finer than a unit
            or any(len(g) != 3 for g in groups[1:])
        )
    ):
        if decimal_mark is None and len(groups) == 2 and groups[0].startswith("0"):
            return f"{groups[0]}.{groups[1]}"
        return None
    whole = "".join(groups) or "0"
    return f"{whole}.{fraction}" if fraction else whole


# ------------------------------------------------------------------- pot splits ---
def split_pot(
    pot_cents: int,
    percentages: Sequence[int],
    groups: Sequence[Sequence[str]],
    *,
    runner_up_to_third_cents: int = 0,
) -> dict[str, int]:
    """Split a pot over a ranking.

    ``groups`` is the ranking of the players who may be paid, best first, each group the
    players tied in one place (seat order inside a group). ``percentages`` are the whole
    percentages of places 1, 2, ... (adding up to 100).

    RULES.md: each place's share is floored to the minor unit; a share for a place nobody
    holds and the leftover units go to first place. Tied players pool the shares of the
    places they cover and split the pool equally, floored, the leftover units to the
    earliest seat among them. ``runner_up_to_third_cents`` is the Vegas second-runner-up
    option: third place receives up to that much out of the runner-up's share, never more
    than half of it.

    Returns the payout per player (every player of ``groups``, possibly 0); the payouts add
    up to ``pot_cents`` exactly.
    """
    players_paid = sum(len(g) for g in groups)
    if pot_cents <= 0 or players_paid == 0:
        return {name: 0 for g in groups for name in g}
    places = [pot_cents * pct // 100 for pct in percentages]
    places += [0] * max(0, players_paid - len(places))
    # A share for a place nobody holds goes to first place.
    for i in range(players_paid, len(places)):
        places[0] += places[i]
        places[i] = 0
    places = places[:players_paid]
    places[0] += pot_cents - sum(places)
    if runner_up_to_third_cents and players_paid >= 3:
        moved = min(runner_up_to_third_cents, places[1] // 2)
        places[1] -= moved
        places[2] += moved
    payouts: dict[str, int] = {}
    place = 0
    for group in groups:
        pool = sum(places[place : place + len(group)])
        share, leftover = divmod(pool, len(group))
        for i, name in enumerate(group):
            payouts[name] = share + (leftover if i == 0 else 0)
        place += len(group)
    return payouts
