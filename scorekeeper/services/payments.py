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

from ..rules.errors import Param, say
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
    "paypal": (r"[A-Za-z0-9]{1,20}", "handles.paypal"),
    "venmo": (
        r"(?=.*[A-Za-z0-9])[A-Za-z0-9_-]{5,30}",
        "handles.venmo",
    ),
    "cashapp": (r"[A-Za-z][A-Za-z0-9]{0,19}", "handles.cashapp"),
    # A Revtag chosen in the Revolut app is 3 to 16 letters and digits, lower case (Revolut
    # shows it as @name; revolut.me/<name> is the link). Usernames made before Revtags
    # could be edited may hold a dot, an underscore or a hyphen, so those are taken too,
    # one at a time between letters or digits: "ann.smith", never "..." or "a..b".
    "revolut": (
        r"(?=.{3,30}\Z)[a-z0-9]+(?:[._-][a-z0-9]+)*",
        "handles.revolut",
    ),
}


class HandleError(ValueError):
    """A handle that is not one: the message says what it should look like, as a message
    id of rules/said_night.py (``said``; ``str(exc)`` is its English)."""

    def __init__(self, message_id: str, **params: Param) -> None:
        self.said = say(message_id, **params)
        super().__init__(self.said.english)


def clean_handle(kind: str, raw: str) -> str:
    """The handle as stored, or HandleError with a sentence."""
    if kind not in KINDS:
        raise HandleError("handles.kind")
    text = " ".join((raw or "").split())
    if not text:
        raise HandleError("handles.empty")
    unseen = unseen_characters(raw or "")
    if unseen is not None:
        # Copied letter for letter into a payment, a handle must be what it shows.
        raise HandleError("handles.unseen", what=unseen)
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
        raise HandleError("handles.too_long", most=80)
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
        raise HandleError("handles.iban_shape")
    country = compact[:2]
    try:
        iban = IBAN(compact)
    except exceptions.InvalidCountryCode:
        raise HandleError("handles.iban_country", country=country) from None
    except exceptions.InvalidLength:
        wanted = get_iban_spec(country).iban_length
        raise HandleError(
            "handles.iban_length", country=country, wanted=wanted, length=len(compact)
        ) from None
    except exceptions.InvalidStructure:
        raise HandleError("handles.iban_structure", country=country) from None
    except exceptions.SchwiftyException:
        raise HandleError("handles.iban_digits") from None
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
