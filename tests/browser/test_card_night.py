"""The whole card night on a phone, tapped through a real Chromium: sign up, a night of four,
an 11-round Texas game (one hand counted on the card counter, a bad value refused in place,
an undo, a round corrected from the sheet), a Vegas game with an expiry and re-buy, a late
joiner and a drop, then the payout summary. Every number the page shows is checked against
a hand computation from RULES.md and against the engine (GET /api/v1/games/<id>)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keeper import Keeper

pytestmark = pytest.mark.browser

PEOPLE = ["Ann", "Bob", "Cy", "Dee"]
TEXAS = ["Ann", "Bob", "Cy"]
RANKS = ["Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
         "Queens", "Kings"]  # fmt: skip
MULTIPLIER = {9: 2, 10: 2, 11: 3}

# Texas, as played (who went out; what is typed for each other hand) and, beside it, the
# raw hand values from RULES.md's Texas column (the app multiplies rounds 9-11).
TEXAS_ROUNDS: list[tuple[str, dict[str, str], dict[str, int]]] = [
    # Round 1, threes wild: Cy's hand is counted on the card counter: K 10 + 3 20 + JK 50.
    ("Ann", {"Bob": "12"}, {"Bob": 12, "Cy": 10 + 20 + 50}),
    # Round 2: Ann's 5 is mistyped as 15 and corrected from the sheet after round 4.
    ("Bob", {"Ann": "15", "Cy": "4+4"}, {"Ann": 15, "Cy": 8}),
    ("Cy", {"Ann": "0", "Bob": "9"}, {"Ann": 0, "Bob": 9}),
    ("Ann", {"Bob": "6", "Cy": "10"}, {"Bob": 6, "Cy": 10}),
    ("Bob", {"Ann": "7", "Cy": "3"}, {"Ann": 7, "Cy": 3}),
    ("Cy", {"Ann": "8", "Bob": "8"}, {"Ann": 8, "Bob": 8}),
    ("Ann", {"Bob": "20", "Cy": "1"}, {"Bob": 20, "Cy": 1}),
    ("Bob", {"Ann": "2", "Cy": "2"}, {"Ann": 2, "Cy": 2}),
    ("Cy", {"Ann": "10", "Bob": "4"}, {"Ann": 10, "Bob": 4}),  # x2
    ("Ann", {"Bob": "5", "Cy": "6"}, {"Bob": 5, "Cy": 6}),  # x2
    # Round 11, kings wild, x3: Cy's Q 10 + A 20 = 30 on the counter, 90 on the sheet.
    ("Bob", {"Ann": "3"}, {"Ann": 3, "Cy": 10 + 20}),
]


def texas_totals(rounds: list[dict[str, int]]) -> dict[str, int]:
    totals = dict.fromkeys(TEXAS, 0)
    for number, hands in enumerate(rounds, 1):
        for name, value in hands.items():
            totals[name] += value * MULTIPLIER.get(number, 1)
    return totals


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"


def engine_totals(data: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["total"] for p in data["standings"]["players"]}


def check_saved(keeper: Keeper, number: int, expected: dict[str, int]) -> None:
    """What the keeper sees right after saving round <number>."""
    page = keeper.page
    expect(page).to_have_url(re.compile(rf"/games/\d+\?saved={number}$"))
    undo = page.locator("form.undo")
    expect(undo).to_be_visible()
    expect(undo).to_contain_text(f"Round {number} saved.")
    expect(undo.get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator(f"tr#r{number}")).to_have_class("just-saved")
    assert keeper.totals() == expected, (number, keeper.totals(), expected)


def texas_banner(number: int) -> re.Pattern[str]:
    """Round N · <Rank> wild · N+2 cards [· ×m] · <dealer> deals, <next seat> starts."""
    dealer, starts = TEXAS[(number - 1) % 3], TEXAS[number % 3]
    mult = f" · ×{MULTIPLIER[number]}" if number in MULTIPLIER else ""
    return re.compile(
        rf"^Round {number} · {RANKS[number - 1]} wild · {number + 2} cards{mult} "
        rf"{dealer} deals,? {starts} starts "
    )


def play_texas(keeper: Keeper, night: int) -> int:
    page = keeper.page
    game = keeper.new_game(night, "Texas Rummy", TEXAS, first_dealer="Ann")
    expect(page.locator("p.flash")).to_have_text("Texas Rummy started: Ann deals first.")
    assert re.match(texas_banner(1), keeper.banner() + " "), keeper.banner()
    assert keeper.pot_heading() == "Pot: $1.50"  # three antes of 50 cents
    assert keeper.players() == TEXAS

    raw: list[dict[str, int]] = []
    for number, (went_out, typed, values) in enumerate(TEXAS_ROUNDS, 1):
        keeper.tap(keeper.link(f"Enter round {number}"))
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
        form_banner = keeper.text("main > p.banner-main")
        dealer, starts = TEXAS[(number - 1) % 3], TEXAS[number % 3]
        assert form_banner.startswith(f"{RANKS[number - 1]} wild · {number + 2} cards"), form_banner
        assert form_banner.endswith(f"{dealer} deals, {starts} starts"), form_banner
        keeper.fill_round(went_out, typed)
        if number == 1:
            # The card counter, threes wild: K 10, 3 20 (wild rank), JK 50 -> 80.
            box = keeper.counter("Cy")
            for card, points in [("K", 10), ("3", 20), ("JK", 50)]:
                keeper.tap(box.get_by_role("button", name=f"{card} ({points} points)", exact=True))
            expect(keeper.hand_input("Cy")).to_have_value("K 3 JK")
            expect(box.locator("output.sum")).to_have_text("= 80")
        if number == 3:
            # A bad value: refused next to its field, everything typed kept.
            keeper.hand_input("Bob").fill("twelve")
            keeper.save()
            expect(page.get_by_role("heading", level=1)).to_have_text("Round 3")
            expect(page.locator("p.flash-error")).to_contain_text("Nothing was saved")
            bob = keeper.hand_box("Bob")
            error = bob.locator("p.error")
            expect(error).to_contain_text("Bob: 'TWELVE' is not points or a card")
            expect(keeper.hand_input("Bob")).to_have_value("twelve")
            expect(keeper.hand_input("Bob")).to_have_attribute("aria-invalid", "true")
            expect(keeper.hand_input("Bob")).to_have_attribute(
                "aria-describedby", error.get_attribute("id") or "?"
            )
            expect(keeper.hand_input("Ann")).to_have_value("0")
            expect(keeper.went_out_choice("Cy").get_by_role("radio")).to_be_checked()
            assert keeper.api_game(game)["standings"]["rounds_played"] == 2
            keeper.hand_input("Bob").fill(typed["Bob"])
        if number == 9:
            # A doubled round shows the multiplied value as it is typed.
            expect(keeper.hand_box("Ann").locator("output.sum")).to_have_text("10 → 20")
        if number == 11:
            box = keeper.counter("Cy")
            keeper.tap(box.get_by_role("button", name="Q (10 points)", exact=True))
            keeper.tap(box.get_by_role("button", name="A (20 points)", exact=True))
            expect(keeper.hand_input("Cy")).to_have_value("Q A")
            expect(box.locator("output.sum")).to_have_text("30 → 90")
        keeper.save()
        raw.append(values)
        check_saved(keeper, number, texas_totals(raw))
        if number < 11:
            assert re.match(texas_banner(number + 1), keeper.banner() + " "), keeper.banner()
            # Every round paid a dime from the pot to whoever went out.
            assert keeper.pot_heading() == f"Pot: {money(150 - 10 * number)}"

        if number == 5:
            # Undo right after saving: round 5 goes, the sheet is back at round 5.
            keeper.tap(page.locator("form.undo").get_by_role("button", name="Undo"))
            expect(page.locator("p.flash")).to_have_text(
                "Round 5 removed (it stays in the history)."
            )
            raw.pop()
            assert keeper.totals() == texas_totals(raw)
            assert re.match(texas_banner(5), keeper.banner() + " "), keeper.banner()
            keeper.tap(keeper.link("Enter round 5"))
            keeper.fill_round(went_out, typed)
            keeper.save()
            raw.append(values)
            check_saved(keeper, number, texas_totals(raw))

        if number == 4:
            # Correct round 2 from the sheet: tap its label (Fours), Ann had 5, not 15.
            before = keeper.totals()
            label = keeper.link("Edit round 2")
            expect(label).to_have_text("Fours")
            keeper.tap(label)
            expect(page.get_by_role("heading", level=1)).to_have_text("Correct round 2")
            expect(keeper.hand_input("Ann")).to_have_value("15")
            expect(keeper.hand_input("Cy")).to_have_value("8")  # stored as points: 4+4
            expect(keeper.went_out_choice("Bob").get_by_role("radio")).to_be_checked()
            keeper.hand_input("Ann").fill("5")
            keeper.save()
            expect(page.locator("p.flash")).to_have_text(
                "Round 2 corrected; everything after it is recomputed."
            )
            raw[1] = {"Ann": 5, "Cy": 8}
            after = keeper.totals()
            assert after == texas_totals(raw)
            assert after["Ann"] == before["Ann"] - 10
            assert keeper.cell(2, "Ann") == "5 +5"
            keeper.tap(keeper.link("History"))
            expect(page.locator("ol.history")).to_contain_text("Round 2 corrected: Ann: 15 → 5")
            page.go_back()

    # The end: hand-computed totals (see tests/web/test_games.py for the same game).
    expected = {
        "Ann": 5 + 0 + 7 + 8 + 2 + 2 * 10 + 3 * 3,
        "Bob": 12 + 9 + 6 + 8 + 20 + 2 * 4 + 2 * 5,
        "Cy": (10 + 20 + 50) + 8 + 10 + 3 + 1 + 2 + 2 * 6 + 3 * 30,
    }
    assert expected == {"Ann": 51, "Bob": 73, "Cy": 206}
    assert keeper.totals() == expected
    assert keeper.result() == "Ann won after 11 rounds"
    expect(page.locator("tr#r11 th")).to_have_text("Kings×3")
    assert keeper.cell(11, "Cy") == "206 +90"
    # Pot: 3 x 50 in; Ann went out 4 times, Bob 4, Cy 3: 11 dimes; Ann takes the other 40.
    nets = {"Ann": -50 + 4 * 10 + 40, "Bob": -50 + 4 * 10, "Cy": -50 + 3 * 10}
    rows = keeper.pot_rows()
    assert {name: cells[-1] for name, cells in rows.items()} == {
        n: money(c) for n, c in nets.items()
    }
    data = keeper.api_game(game)
    assert engine_totals(data) == keeper.totals()
    assert data["standings"]["finished"] and data["standings"]["winners"] == ["Ann"]
    assert data["standings"]["pot"]["balances"] == nets
    assert data["record"]["rounds"][0]["hands"]["Cy"] == ["K", "3", "JK"]
    assert data["record"]["rounds"][1]["hands"]["Ann"] == 5
    return game


def expiry_sentence(page: Page) -> str:
    return re.sub(r"\s+", " ", page.locator(".expiry p").inner_text()).strip()


def play_vegas(keeper: Keeper, night: int) -> int:
    page = keeper.page
    players = ["Ann", "Bob", "Cy"]
    game = keeper.new_game(
        night, "Vegas Rummy", players, first_dealer="Ann", settings={"Buy-in": "2.00"}
    )
    assert keeper.pot_heading() == "Pot: $6.00"
    keeper.enter_round("Ann", {"Bob": "60", "Cy": "30"}, wild="7C")
    check_saved(keeper, 1, {"Ann": 0, "Bob": 60, "Cy": 30})

    # Round 2: Bob reaches 60 + 45 = 105 and expires; the highest total of those who did
    # not expire is Cy's 30: re-buy for $2.00 back to 30, preselected.
    keeper.tap(keeper.link("Enter round 2"))
    keeper.fill_round("Cy", {"Ann": "20", "Bob": "45"})
    keeper.save()
    expect(page.locator("fieldset.money-moment legend")).to_have_text("Expired this round")
    assert expiry_sentence(page) == "Bob reached 105. Re-buy for $2.00 (back to 30) or drop out?"
    rebuy = page.get_by_role("radio", name="Re-buy $2.00, back to 30")
    expect(rebuy).to_be_checked()
    expect(page.get_by_role("radio", name="Drop out")).not_to_be_checked()
    expect(keeper.hand_input("Bob")).to_have_value("45")  # what was typed is still there
    assert keeper.api_game(game)["standings"]["rounds_played"] == 1  # not saved yet
    keeper.save()  # "Confirm and save"
    check_saved(keeper, 2, {"Ann": 20, "Bob": 30, "Cy": 30})
    assert keeper.cell(2, "Bob") == "105→30 +45 R"  # reached, then where Bob starts again
    assert keeper.pot_heading() == "Pot: $8.00"  # 3 buy-ins and Bob's re-buy
    assert "1 re-buy" in keeper.text("section.pot")

    # A late joiner: the reference player is Bob (1 expiry, total 30): $2.00 x 1, starts 30.
    keeper.tap(keeper.link("Late joiner"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal someone in at round 3")
    assert keeper.text("p.money-moment") == "They buy in for $2.00 and start on 30 points."
    page.get_by_label("Who joins").select_option("Dee")
    keeper.tap(keeper.button("Join for $2.00"))
    expect(page.locator("p.flash")).to_have_text(
        "Dee joins at the start of round 3, pays $2.00 and starts at 30."
    )
    assert "Joining this round: Dee after Cy (pays $2.00, starts at 30)" in keeper.banner()

    keeper.tap(keeper.link("Enter round 3"))
    expect(keeper.hand_box("Dee").locator(".total")).to_have_text("(joins at 30)")
    keeper.fill_round("Ann", {"Bob": "10", "Cy": "5", "Dee": "5"})
    keeper.save()
    check_saved(keeper, 3, {"Ann": 20, "Bob": 40, "Cy": 35, "Dee": 35})
    assert keeper.cell(3, "Dee") == "35 +5 J@30"
    assert keeper.pot_heading() == "Pot: $10.00"

    # Round 4: Cy reaches 35 + 75 = 110 and drops out (the others: Ann 30, Bob 50, Dee 35).
    keeper.tap(keeper.link("Enter round 4"))
    keeper.fill_round("Dee", {"Ann": "10", "Bob": "10", "Cy": "75"})
    keeper.save()
    assert expiry_sentence(page) == "Cy reached 110. Re-buy for $2.00 (back to 50) or drop out?"
    expect(page.get_by_role("radio", name="Re-buy $2.00, back to 50")).to_be_checked()
    keeper.tap(page.locator("label.choice").filter(has_text="Drop out"))
    expect(page.get_by_role("radio", name="Drop out")).to_be_checked()
    keeper.save()
    check_saved(keeper, 4, {"Ann": 30, "Bob": 50, "Cy": 110, "Dee": 35})
    assert keeper.cell(4, "Cy") == "110 +75 ✗"
    expect(page.locator("th.pn.out")).to_have_attribute("title", "Cy")
    assert keeper.pot_heading() == "Pot: $10.00"
    assert "Cy (dropped)" in keeper.text("section.pot")

    # Round 5: Bob 50 + 60 = 110, Dee 35 + 70 = 105; Ann (30) is the only one under 100:
    # she wins before anyone re-buys. Ranking: Ann, Dee 105, Bob 110, then Cy (dropped).
    keeper.enter_round("Ann", {"Bob": "60", "Dee": "70"})
    totals = {"Ann": 30, "Bob": 110, "Cy": 110, "Dee": 105}
    check_saved(keeper, 5, totals)
    assert keeper.result() == "Ann won after 5 rounds"
    # Pot $10.00 split 70/30: Ann $7.00, Dee $3.00.
    nets = {"Ann": 700 - 200, "Bob": -400, "Cy": -200, "Dee": 300 - 200}
    rows = keeper.pot_rows()
    assert list(rows) == ["Ann", "Dee", "Bob", "Cy"]
    assert {name: cells[-1] for name, cells in rows.items()} == {
        n: money(c) for n, c in nets.items()
    }
    data = keeper.api_game(game)
    assert engine_totals(data) == totals
    standings = data["standings"]
    assert standings["ranking"] == ["Ann", "Dee", "Bob", "Cy"]
    assert standings["pot"]["balances"] == nets
    by_name = {p["name"]: p for p in standings["players"]}
    assert by_name["Bob"]["expiries"] == 1 and not by_name["Cy"]["in_contention"]
    assert by_name["Dee"]["scores"] == [None, None, 5, 0, 70]
    assert data["record"]["rounds"][0]["wild"] == "7C"
    return game


def test_a_card_night_on_a_phone(page: Page, live_server: str) -> None:
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(PEOPLE)
    expect(page.locator("ul.people li")).to_have_count(len(PEOPLE))

    texas = play_texas(keeper, night)
    vegas = play_vegas(keeper, night)

    # The night page lists both games as finished.
    keeper.goto(f"/nights/{night}")
    games = page.locator("section[aria-labelledby=games-h] ul.cards li")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_contain_text("Finished · won by Ann")
    expect(games.nth(1)).to_contain_text("Finished · won by Ann")

    # The payout summary: each person's net over both games and who pays whom.
    keeper.tap(keeper.link("Settle up"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Settle up")
    texas_net = {"Ann": 30, "Bob": -10, "Cy": -20, "Dee": 0}
    vegas_net = {"Ann": 500, "Bob": -400, "Cy": -200, "Dee": 100}
    net = {n: texas_net[n] + vegas_net[n] for n in PEOPLE}
    assert net == {"Ann": 530, "Bob": -410, "Cy": -220, "Dee": 100}
    shown = {
        row.locator("td").nth(0).inner_text().strip(): row.locator("td").nth(1).inner_text().strip()
        for row in page.locator(".nets tbody tr").all()
    }
    assert shown == {n: ("+" if c > 0 else "") + money(c) for n, c in net.items()}, shown
    transfers = page.locator("#settle .pay-sentence").all_inner_texts()
    assert transfers, "no transfers shown"
    expect(page.locator(".transfers")).to_have_count(0)  # once, not again in the summary
    balance = dict.fromkeys(PEOPLE, 0)
    for line in transfers:
        match = re.fullmatch(r"(\w+) pays (\w+) \$(\d+)\.(\d\d)", line.strip())
        assert match, line
        payer, payee, whole, cents = match.groups()
        amount = int(whole) * 100 + int(cents)
        assert amount > 0
        balance[payer] -= amount
        balance[payee] += amount
    assert balance == net, (transfers, net)
    assert len(transfers) <= len(PEOPLE) - 1
    pots = page.locator(".summary section.game .status").all_inner_texts()
    assert pots == ["Ann wins $0.30.", "Ann wins $5.00, Dee wins $1.00."]
    for game in (texas, vegas):
        assert keeper.api_game(game)["standings"]["finished"]


def test_pdf_downloads_from_the_sheet_and_the_payout(page: Page, live_server: str) -> None:
    """The PDF links of a finished game's sheet and of the night's payout summary."""
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(["Ann", "Bob"])
    game = keeper.new_game(night, "Rummy", ["Ann", "Bob"], settings={"Target score": "50"})
    keeper.enter_round("Ann", {"Bob": "K Q J 10 9 8"})  # 10+10+10+10+9+8 = 57: Ann wins
    assert keeper.totals() == {"Ann": 57, "Bob": 0}
    assert keeper.result().startswith("Ann won after 1 deal")
    places = {
        "sheet": f"/games/{game}",
        "payout summary": f"/nights/{night}/payout",
    }
    missing = []
    downloaded = 0
    for where, path in places.items():
        keeper.goto(path)
        got = download_pdfs(keeper)
        if not got:
            missing.append(f"{where} ({path})")
        downloaded += got
    if missing:
        pytest.skip(
            "no PDF link (an <a> whose href contains '.pdf') on the "
            + " or the ".join(missing)
            + f"; {downloaded} PDF(s) downloaded elsewhere"
        )


def download_pdfs(keeper: Keeper) -> int:
    """Tap every link to a .pdf on the page; each must download a file starting %PDF-."""
    page = keeper.page
    links = page.locator("a[href*='.pdf']")
    for i in range(links.count()):
        href = links.nth(i).get_attribute("href")
        with page.expect_download() as info:
            keeper.tap(links.nth(i))
        download = info.value
        target = download.path()
        assert target is not None, (href, download.failure())
        with open(target, "rb") as fh:
            head = fh.read(5)
        assert head == b"%PDF-", (page.url, href, head)
        assert download.suggested_filename.endswith(".pdf"), download.suggested_filename
    return links.count()
