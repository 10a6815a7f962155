"""Pay links and handles (scorekeeper.payments): the formats, and which currency each
service is offered in."""

from __future__ import annotations

import pytest

from scorekeeper.payments import HandleError, clean_handle, pay_options

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
