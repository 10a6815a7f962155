"""Money as people write and type it (issue 19): integers of the currency's minor unit,
written with Babel in a locale and read back forgivingly; each currency's own decimals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.money import (
    CURRENCIES,
    LOCALES,
    decimal_text,
    format_money,
    minor_digits,
    money_locale,
    parse_money,
    rounding_steps,
    signed_money,
    step_label,
)


@pytest.mark.parametrize(
    ("currency", "digits"), [("USD", 2), ("EUR", 2), ("JPY", 0), ("KRW", 0), ("KWD", 3), ("BHD", 3)]
)
def test_each_currency_has_its_own_minor_unit(currency, digits) -> None:
    assert minor_digits(currency) == digits


@pytest.mark.parametrize(
    ("amount", "currency", "locale", "written"),
    [
        (210, "USD", "en", "$2.10"),
        (-1250, "USD", "en", "-$12.50"),
        (500, "JPY", "en", "¥500"),
        (100000, "JPY", "en", "¥100,000"),
        (1500, "KWD", "en", "KWD\xa01.500"),  # a code as symbol: apart (CLDR spacing)
        (-1500, "KWD", "en", "-KWD\xa01.500"),
        (1250, "CHF", "en", "CHF\xa012.50"),
        (1250, "KWD", "de", "1,250\xa0KWD"),
        (-1250, "USD", "es_MX", "-USD\xa012.50"),
        (123450, "EUR", "de", "1.234,50\xa0€"),
        (123450, "EUR", "en", "€1,234.50"),
        (0, "USD", "en", "$0.00"),
    ],
)
def test_money_is_written_in_the_locale(amount, currency, locale, written) -> None:
    assert format_money(amount, currency, locale) == written


def test_the_locale_of_a_block_and_signed_nets() -> None:
    with money_locale("de"):
        assert format_money(700, "EUR") == "7,00\xa0€"
    assert format_money(700, "EUR") == "€7.00"
    assert signed_money(1000) == "+$10.00" and signed_money(-700) == "-$7.00"
    assert signed_money(0) == "$0.00"


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [(-150, "USD", "-1.50"), (500, "JPY", "500"), (1500, "KWD", "1.500"), (5, "USD", "0.05")],
)
def test_decimal_text_for_csv_and_links(amount, currency, text) -> None:
    assert decimal_text(amount, currency) == text


@pytest.mark.parametrize(
    ("typed", "currency", "locale", "amount"),
    [
        ("2.50", "USD", "en", 250),
        ("$2,50", "USD", "en", 250),  # a lone comma before two digits is a decimal point
        ("2", "USD", "en", 200),
        ("1,234.56", "USD", "en", 123456),
        ("1,500", "USD", "en", 150000),  # three digits after a comma: thousands in English
        ("1,500", "USD", "de", 150),  # ...and the decimal point in German
        ("1.234,50", "EUR", "de", 123450),
        ("1 234,50 €", "EUR", "fr", 123450),
        ("1.500", "JPY", "en", 1500),  # yen have no decimals: a group of thousands
        ("1,000", "JPY", "en", 1000),
        ("¥1,000", "JPY", "ja", 1000),
        ("1.250", "KWD", "en", 1250),  # thousandths
        ("0.005", "KWD", "en", 5),
        (".5", "USD", "en", 50),
        ("", "USD", "en", 0),
        ("5 usd", "USD", "en", 500),  # the night's own code or sign, in any case
        ("US$5", "USD", "en", 500),
        ("$5", "CAD", "en", 500),  # "CA$" is written "$" in Canada
        ("CA$5", "CAD", "en", 500),
        ("5 kr", "SEK", "en", 500),
        ("5 KWD", "KWD", "en", 5000),
        ("0,005", "KWD", "en", 5),
        ("10,000", "JPY", "en", 10000),
    ],
)
def test_typed_amounts_are_read_in_minor_units(typed, currency, locale, amount) -> None:
    assert parse_money(typed, currency, locale) == amount


@pytest.mark.parametrize(
    ("typed", "currency", "message"),
    [
        ("0.50", "JPY", "an amount in JPY has no decimals: write it like 500"),
        ("2.555", "USD", "an amount in USD has at most 2 decimals: write it like 2.50"),
        ("1.2345", "KWD", "an amount in KWD has at most 3 decimals: write it like 2.500"),
        ("-1", "USD", "an amount must be 0 or more"),
        ("abc", "USD", "'abc' is not an amount"),
        ("=1+1", "USD", "is not an amount"),
        ("1e9", "USD", "is not an amount"),
        ("²", "USD", "is not an amount"),
        ("1..2", "USD", "is not an amount"),
        ("12,34,56", "USD", "is not an amount"),
        ("9" * 20, "USD", "more than this app will hold"),
        # Another currency's sign or code is refused, never read as this night's money.
        ("€5", "USD", "'€5' is not in USD: this night's money is in USD; write it like 2.50"),
        ("£2.50", "USD", "is not in USD"),
        ("5 USD", "EUR", "is not in EUR"),
        ("$5", "EUR", "is not in EUR"),
        ("¥500", "KRW", "is not in KRW"),
        ("5 kr", "USD", "is not in USD"),
        # Finer than a cent, never re-read as thousands: a group never starts with 0.
        ("0,001", "USD", "an amount in USD has at most 2 decimals"),
        ("0,500", "JPY", "an amount in JPY has no decimals"),
    ],
)
def test_wrong_amounts_are_refused_with_a_sentence(typed, currency, message) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("+", r"\+")):
        parse_money(typed, currency, "en")


@given(
    amount=st.integers(0, 10**12),
    currency=st.sampled_from(["USD", "EUR", "JPY", "KWD", "CHF", "DKK"]),
    locale=st.sampled_from(["en", "de", "fr", "de_CH", "ja", "en_GB", "nl", "sv", "da"]),
)
def test_what_is_written_reads_back_to_the_same_amount(amount, currency, locale) -> None:
    assert parse_money(format_money(amount, currency, locale), currency, locale) == amount
    assert parse_money(decimal_text(amount, currency), currency, "en") == amount


def test_rounding_steps_follow_the_minor_unit() -> None:
    assert rounding_steps("USD") == (1, 5, 10, 25, 50, 100, 500)
    assert rounding_steps("JPY") == (1, 10, 50, 100, 500, 1000)
    assert rounding_steps("KWD")[:3] == (1, 5, 10)
    assert step_label(1, "JPY") == "exactly (no rounding)"
    assert step_label(50, "JPY") == "in steps of ¥50"
    assert step_label(25, "USD") == "in steps of $0.25"


def test_every_amount_written_in_every_offered_locale_reads_back() -> None:
    """Danish kroner are written "12,50 kr.": the sign's own dot was read as part of the
    number, so the app could not read back what it wrote."""
    for locale in LOCALES:
        for currency in CURRENCIES:
            for amount in (0, 5, 1250, 123456789):
                written = format_money(amount, currency, locale)
                assert parse_money(written, currency, locale) == amount, (locale, written)
