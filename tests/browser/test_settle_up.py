"""Settling up on a phone, tapped through a real Chromium over three nights with
overlapping regulars: a way to pay saved for a regular becomes a pay link on the payout
page, a transfer marked paid is still paid after a reload, what is unpaid is carried into
the next night and settled there, and the regulars' table shows each net as the sum of
the engine's settlements of their nights, to the cent."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import format_cents, load_game, settle
from tests.browser.keeper import Keeper, texas_record

pytestmark = pytest.mark.browser


def start_night(keeper: Keeper, name: str, day: str, picked: list[str], typed: list[str]) -> int:
    keeper.goto("/nights/new")
    keeper.page.get_by_label("Name").fill(name)
    keeper.page.get_by_label("Date").fill(day)
    for person in picked:
        keeper.tap(keeper.page.get_by_label(person, exact=True))
    keeper.page.get_by_label("Who is playing").fill("\n".join(typed))
    keeper.tap(keeper.button("Start the night"))
    expect(keeper.page.get_by_role("heading", name=name)).to_be_visible()
    return keeper.id_from_url(r"/nights/(\d+)$")


def games_part(record: dict) -> dict[str, int]:
    return dict(settle([load_game(record)], "USD").games)


def transfer(page: Page, sentence: str):
    return page.locator("li.pay").filter(has_text=sentence)


def test_three_nights_of_settling_up(page: Page, live_server: str) -> None:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    nets: dict[str, int] = {}

    # Night 1: Ann, Bob, Cy play a Texas game.
    first = keeper.start_night(["Ann", "Bob", "Cy"], name="First")
    record = texas_record(["Ann", "Bob", "Cy"], 11)
    keeper.import_game(first, record)
    for name, cents in games_part(record).items():
        nets[name] = nets.get(name, 0) + cents
    settlement = settle([load_game(record)], "USD")
    assert len(settlement.transfers) == 2
    paid, unpaid = settlement.transfers
    paid_text = paid.sentence("USD")
    unpaid_text = unpaid.sentence("USD")

    # The payee of the first transfer gets a PayPal.me handle: a pay link with the amount.
    keeper.goto("/regulars")
    keeper.follow(keeper.link(paid.payee))
    keeper.page.get_by_label("How").first.select_option("paypal")
    keeper.page.get_by_label("Handle, IBAN or text").first.fill("annpays")
    keeper.tap(keeper.button("Save ways to pay"))
    expect(keeper.page.locator("p.flash")).to_contain_text("Ways to pay saved")

    keeper.goto(f"/nights/{first}")
    keeper.follow(keeper.link("Settle up"))
    link = transfer(page, paid_text).get_by_role("link", name=re.compile("Pay with PayPal"))
    cents = paid.amount
    expect(link).to_have_attribute(
        "href", f"https://paypal.me/annpays/{cents // 100}.{cents % 100:02d}USD"
    )
    keeper.tap(transfer(page, paid_text).get_by_role("button", name="Mark paid"))
    expect(transfer(page, paid_text)).to_contain_text("Paid")
    page.reload()
    expect(transfer(page, paid_text)).to_contain_text("Paid")
    expect(transfer(page, paid_text).get_by_role("button", name="Mark not paid")).to_be_visible()

    # Night 2: two of them picked from the regulars, Dee new; the unpaid transfer is
    # carried in from the first night's payout page.
    second = start_night(keeper, "Second", "2026-11-27", ["Ann", "Bob"], ["Dee"])
    record2 = texas_record(["Bob", "Dee", "Ann"], 11)
    keeper.import_game(second, record2)
    for name, cents in games_part(record2).items():
        nets[name] = nets.get(name, 0) + cents
    keeper.goto(f"/nights/{first}/payout")
    target = keeper.page.get_by_label("Carry what is still unpaid into")
    target.select_option(label="Second · 27 Nov 2026")
    keeper.tap(keeper.button("Carry"))
    expect(transfer(page, unpaid_text)).to_contain_text("Carried to Second")
    keeper.goto(f"/nights/{second}/payout")
    carried = f"{unpaid.payer} owed {unpaid.payee} {format_cents(unpaid.amount, 'USD')}"
    expect(page.locator("main")).to_contain_text(carried)
    owed = {unpaid.payer: -unpaid.amount, unpaid.payee: unpaid.amount}
    both = settle([load_game(record2)], "USD", carried=owed)
    for t in both.transfers:
        expect(transfer(page, t.sentence("USD"))).to_be_visible()
        keeper.tap(transfer(page, t.sentence("USD")).get_by_role("button", name="Mark paid"))
        expect(transfer(page, t.sentence("USD"))).to_contain_text("Paid")

    # Night 3: Cy and Dee picked, "ann" typed is Ann.
    third = start_night(keeper, "Third", "2026-12-04", ["Cy", "Dee"], ["ann"])
    expect(page.locator("main")).to_contain_text("Ann")
    record3 = texas_record(["Cy", "Ann", "Dee"], 11)
    keeper.import_game(third, record3)
    for name, cents in games_part(record3).items():
        nets[name] = nets.get(name, 0) + cents

    # The regulars' table: four people, each net the sum of their nights, to the cent.
    keeper.goto("/regulars")
    rows = page.locator("table.regulars tbody tr")
    expect(rows).to_have_count(4)
    for i in range(4):
        cells = [c.strip() for c in rows.nth(i).locator("th, td").all_inner_texts()]
        assert cells[-1] == format_cents(nets[cells[0]], "USD"), (cells, nets)
    assert sum(nets.values()) == 0
