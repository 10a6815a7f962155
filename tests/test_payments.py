"""Pay links and handles (scorekeeper.services.payments): the formats, and which currency each
service is offered in."""

from __future__ import annotations

import re

import pytest

from scorekeeper.services.payments import HandleError, clean_handle, pay_options

HANDLES = [
    ("paypal", "AnnSmith"),
    ("venmo", "ann-smith"),
    ("cashapp", "annsmith"),
    ("revolut", "annsmith"),
    ("iban", "DE89 3704 0044 0532 0130 00"),
    ("text", "cash at the table"),
]


def test_dollars_offer_every_link_with_the_amount() -> None:
    options = {o.kind: o for o in pay_options(HANDLES, 1250, "USD", note="Friday cards")}
    assert options["paypal"].url == "https://paypal.me/AnnSmith/12.50USD"
    assert options["venmo"].url == (
        "https://venmo.com/ann-smith?txn=pay&amount=12.50&note=Friday+cards"
    )
    assert options["cashapp"].url == "https://cash.app/$annsmith/12.50"
    assert options["revolut"].url == "https://revolut.me/annsmith"
    assert not options["revolut"].amount_in_link  # the payer types the amount
    assert options["iban"].url is None and options["text"].url is None


def test_a_service_that_cannot_take_the_currency_is_shown_to_copy() -> None:
    euros = {o.kind: o.url for o in pay_options(HANDLES, 1250, "EUR")}
    assert set(euros) == {k for k, _ in HANDLES}  # every handle is shown
    assert euros["venmo"] is None and euros["cashapp"] is None  # US dollars only: to copy
    assert euros["paypal"] == "https://paypal.me/AnnSmith/12.50EUR"
    yen = {o.kind: o.url for o in pay_options(HANDLES, 1250, "JPY")}
    assert yen["paypal"] == "https://paypal.me/AnnSmith/1250JPY"  # whole yen
    dinars = {o.kind: o.url for o in pay_options(HANDLES, 1250, "KWD")}
    assert dinars["paypal"] is None  # PayPal takes no dinars: the handle to copy


@pytest.mark.parametrize(
    ("kind", "raw", "stored"),
    [
        ("paypal", "https://www.paypal.me/AnnSmith/10", "AnnSmith"),
        ("paypal", "paypal.me/AnnSmith", "AnnSmith"),
        ("venmo", "@ann-smith", "ann-smith"),
        ("cashapp", "$annsmith", "annsmith"),
        ("revolut", "revolut.me/ann.smith", "ann.smith"),
        ("iban", "de89370400440532013000", "DE89 3704 0044 0532 0130 00"),
        ("text", "  pay me   in chips ", "pay me in chips"),
    ],
)
def test_handles_are_kept_in_one_form(kind: str, raw: str, stored: str) -> None:
    assert clean_handle(kind, raw) == stored


@pytest.mark.parametrize(
    ("kind", "raw", "message"),
    [
        ("paypal", "ann smith", "letters and digits"),
        ("venmo", "ab", "5 to 30"),
        ("iban", "DE89 3704 0044 0532 0130 01", "not a valid IBAN"),
        ("text", "x" * 81, "at most 80"),
        ("text", "a\x00b", "control characters"),
        ("bitcoin", "abc", "choose how to pay"),
        ("paypal", "", "give the handle"),
    ],
)
def test_bad_handles_are_refused_with_a_sentence(kind: str, raw: str, message: str) -> None:
    with pytest.raises(HandleError, match=message):
        clean_handle(kind, raw)


def _with_check_digits(country: str, bban: str) -> str:
    """An IBAN whose check digits are right (mod 97 is 1), whatever else is wrong."""
    number = int("".join(str(int(ch, 36)) for ch in bban + country + "00"))
    return f"{country}{98 - number % 97:02d}{bban}"


# Example IBANs of the IBAN registry (SWIFT), one per length from the shortest (Norway, 15)
# to one of the longest (Malta, 31).
REGISTRY_EXAMPLES = [
    "NO93 8601 1117 947",
    "BE68 5390 0754 7034",
    "DE89 3704 0044 0532 0130 00",
    "GB29 NWBK 6016 1331 9268 19",
    "FR14 2004 1010 0505 0001 3M02 606",
    "MT84 MALT 0110 0001 2345 MTLC AST0 01S",
]


@pytest.mark.parametrize("iban", REGISTRY_EXAMPLES)
def test_ibans_of_every_length_the_registry_gives_are_taken(iban: str) -> None:
    assert clean_handle("iban", iban.lower().replace(" ", "")) == iban


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        # Right check digits, wrong length for the country: mod 97 alone took these.
        (_with_check_digits("DE", "37040044053201300"), "an IBAN of DE has 22 characters"),
        (_with_check_digits("DE", "3704004405320130001"), "this one has 23"),
        (_with_check_digits("NO", "86011117947123"), "an IBAN of NO has 15 characters"),
        # Right length and check digits, but letters where the country has digits.
        (_with_check_digits("GB", "WEST1234569876543X"), "its account number is not one of GB"),
        # A country with no IBAN.
        (_with_check_digits("US", "12345678901234"), "no country's IBAN starts US"),
        ("DE88 3704 0044 0532 0130 00", "not a valid IBAN (check the digits)"),
        ("12345", "that is not an IBAN"),
    ],
)
def test_an_iban_is_checked_as_the_registry_gives_its_country(raw: str, message: str) -> None:
    with pytest.raises(HandleError, match=re.escape(message)):
        clean_handle("iban", raw)


BIDI = [
    "\u061c",
    "\u200e",
    "\u200f",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u00ad", "\u2060", "\ufeff", "\u2062"]


@pytest.mark.parametrize("kind", ["text", "iban", "paypal", "venmo", "cashapp", "revolut"])
@pytest.mark.parametrize("hidden", BIDI + INVISIBLE)
def test_a_handle_holding_a_bidi_control_or_an_invisible_character_is_refused(
    kind: str, hidden: str
) -> None:
    """A handle is copied into a payment: it must be what it shows. "pay \u202eme" shows
    as "pay em"; a zero-width space makes a copied IBAN or name another one."""
    good = dict(HANDLES)[kind]
    for raw in (hidden + good, good[:3] + hidden + good[3:], good + hidden):
        with pytest.raises(HandleError, match=r"text-direction control|invisible characters"):
            clean_handle(kind, raw)


@pytest.mark.parametrize(
    ("raw", "stored"),
    [("annsmith", "annsmith"), ("@AnnSmith", "annsmith"), ("ann.smith", "ann.smith"),
     ("ann_smith-2", "ann_smith-2"), ("https://revolut.me/ann", "ann")],
)  # fmt: skip
def test_revolut_usernames_are_letters_and_digits_with_single_separators(
    raw: str, stored: str
) -> None:
    assert clean_handle("revolut", raw) == stored


@pytest.mark.parametrize("raw", ["...", "._-", "a..b", ".ann", "ann.", "an", "a" * 31, "ann smith"])
def test_revolut_usernames_of_separators_or_doubled_ones_are_refused(raw: str) -> None:
    with pytest.raises(HandleError, match="Revolut username"):
        clean_handle("revolut", raw)


def test_a_venmo_username_of_separators_only_is_refused() -> None:
    with pytest.raises(HandleError, match="Venmo username"):
        clean_handle("venmo", "-----")
