"""Payment handles and the pay links made from them: pure, no Flask, no database.

A regular may give a PayPal.me, Venmo, Revolut or Cash App handle, an IBAN, or a line of
text. A transfer of the night's settlement offers every one of the payee's handles: as a
link that opens the payment with the amount filled in where the service takes one in a
link and takes the night's currency; otherwise the handle (or IBAN, or text) to copy, with
the amount beside it.

The link formats, and why:

- PayPal.me: ``https://paypal.me/<name>/<amount><CUR>`` (``12.50EUR``, ``500JPY``): PayPal's
  own short link takes the amount, written in the currency's own decimals, and its
  currency.
- Venmo: ``https://venmo.com/<user>?txn=pay&amount=12.50&note=...``: US dollars only.
- Cash App: ``https://cash.app/$<cashtag>/12.50``: US dollars only.
- Revolut: ``https://revolut.me/<username>``: any currency, but the amount is typed by the
  payer (a revolut.me link does not carry one), so the amount is shown beside it.
- IBAN and text: nothing to open; copied, with the amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from ..rules.money import decimal_text
from ..rules.names import unseen_characters

KINDS: dict[str, str] = {
    "paypal": "PayPal.me",
    "venmo": "Venmo",
    "revolut": "Revolut",
    "cashapp": "Cash App",
    "iban": "IBAN",
    "text": "Other (text)",
}
# The currencies each link service takes in a link; None: any (the amount is not in it).
LINK_CURRENCIES: dict[str, frozenset[str] | None] = {
    "paypal": frozenset(
        {"USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "MXN", "JPY"}
    ),
    "venmo": frozenset({"USD"}),
    "cashapp": frozenset({"USD"}),
    "revolut": None,
}
_PATTERNS = {
    "paypal": (r"[A-Za-z0-9]{1,20}", "a PayPal.me name is letters and digits, at most 20"),
    "venmo": (
        r"(?=.*[A-Za-z0-9])[A-Za-z0-9_-]{5,30}",
        "a Venmo username is 5 to 30 letters, digits, - or _",
    ),
    "cashapp": (r"[A-Za-z][A-Za-z0-9]{0,19}", "a $cashtag is a letter then letters or digits"),
    # A Revtag chosen in the Revolut app is 3 to 16 letters and digits, lower case (Revolut
    # shows it as @name; revolut.me/<name> is the link). Usernames made before Revtags
    # could be edited may hold a dot, an underscore or a hyphen, so those are taken too,
    # one at a time between letters or digits: "ann.smith", never "..." or "a..b".
    "revolut": (
        r"(?=.{3,30}\Z)[a-z0-9]+(?:[._-][a-z0-9]+)*",
        "a Revolut username is 3 to 30 letters and digits, with at most one . _ or - between them",
    ),
}


class HandleError(ValueError):
    """A handle that is not one: the message says what it should look like."""


def clean_handle(kind: str, raw: str) -> str:
    """The handle as stored, or HandleError with a sentence."""
    if kind not in KINDS:
        raise HandleError("choose how to pay: PayPal.me, Venmo, Revolut, Cash App, IBAN or text")
    text = " ".join((raw or "").split())
    if not text:
        raise HandleError("give the handle")
    unseen = unseen_characters(raw or "")
    if unseen is not None:
        # Copied letter for letter into a payment, a handle must be what it shows.
        raise HandleError(f"the handle contains {unseen}: type it again")
    if kind in _PATTERNS:
        text = text.removeprefix("@").removeprefix("$")
        text = re.sub(
            r"^(https?://)?(www\.)?(paypal\.me|venmo\.com|cash\.app|revolut\.me)/", "", text
        )
        text = text.removeprefix("u/").removeprefix("$").split("/")[0]
        if kind == "revolut":
            text = text.lower()  # Revtags are lower case, and so are their links
        pattern, why = _PATTERNS[kind]
        if not re.fullmatch(pattern, text):
            raise HandleError(why)
        return text
    if kind == "iban":
        return _checked_iban(text)
    if len(text) > 80:
        raise HandleError("at most 80 characters")
    return text


def _checked_iban(text: str) -> str:
    """An IBAN in groups of four, checked as the IBAN registry (SWIFT, ISO 13616) gives
    each country's: its country code, its length, the shape of its account number (BBAN)
    and the check digits (mod 97), by the ``schwifty`` library; else HandleError saying
    which."""
    from schwifty import IBAN, exceptions
    from schwifty.registry import get_iban_spec

    compact = re.sub(r"[\s-]", "", text).upper()
    if not re.fullmatch(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}", compact):
        raise HandleError(
            "that is not an IBAN: two letters for the country, two check digits, then the "
            "account number"
        )
    country = compact[:2]
    try:
        iban = IBAN(compact)
    except exceptions.InvalidCountryCode:
        raise HandleError(f"that is not a valid IBAN: no country's IBAN starts {country}") from None
    except exceptions.InvalidLength:
        wanted = get_iban_spec(country).iban_length
        raise HandleError(
            f"that is not a valid IBAN: an IBAN of {country} has {wanted} characters, this one "
            f"has {len(compact)}"
        ) from None
    except exceptions.InvalidStructure:
        raise HandleError(
            f"that is not a valid IBAN: its account number is not one of {country} (check "
            "the letters and digits)"
        ) from None
    except exceptions.SchwiftyException:
        raise HandleError("that is not a valid IBAN (check the digits)") from None
    return str(iban.formatted)


@dataclass(frozen=True, slots=True)
class PayOption:
    """One way to pay a transfer: a link to open, or a text to copy."""

    kind: str
    label: str  # "PayPal.me", "IBAN"...
    handle: str
    url: str | None  # None: copy ``handle``
    amount_in_link: bool


def pay_options(
    handles: list[tuple[str, str]], cents: int, currency: str, note: str = ""
) -> list[PayOption]:
    """The ways to pay ``cents`` (minor units) in ``currency`` to someone with these
    (kind, handle): a link where the service takes the currency in a link, else the
    handle to copy (the page shows the amount beside it)."""
    out = []
    for kind, handle in handles:
        label = KINDS.get(kind, kind)
        takes = LINK_CURRENCIES.get(kind, frozenset())
        if kind in LINK_CURRENCIES and (takes is None or currency in takes):
            url = _link(kind, handle, cents, currency, note)
            out.append(PayOption(kind, label, handle, url, takes is not None))
        else:
            out.append(PayOption(kind, label, handle, None, False))
    return out


def _link(kind: str, handle: str, cents: int, currency: str, note: str) -> str:
    amount = decimal_text(cents, currency)
    if kind == "paypal":
        return f"https://paypal.me/{quote(handle)}/{amount}{currency}"
    if kind == "venmo":
        query = {"txn": "pay", "amount": amount, **({"note": note} if note else {})}
        return f"https://venmo.com/{quote(handle)}?{urlencode(query)}"
    if kind == "cashapp":
        return f"https://cash.app/${quote(handle)}/{amount}"
    return f"https://revolut.me/{quote(handle)}"
