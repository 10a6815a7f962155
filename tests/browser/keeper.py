"""A score keeper's thumb on a real page: tap links and buttons by what they say, type into
fields by their labels, read the sheet the way a person reads it."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

PASSWORD = "correct horse battery"


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def exact(text: str) -> re.Pattern[str]:
    """Match a label's whole text (ignoring surrounding space)."""
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def texas_record(players: list[str], rounds: int) -> dict[str, Any]:
    """A Texas record of <rounds> rounds: players go out in turn, the others hold a little."""
    out = []
    for number in range(1, rounds + 1):
        went_out = players[(number - 1) % len(players)]
        hands: dict[str, Any] = {}
        for i, name in enumerate(players):
            if name != went_out:
                hands[name] = ["K", "JK"] if (number + i) % 5 == 0 else (number * 3 + i) % 17
        out.append({"went_out": went_out, "hands": hands})
    return {
        "format": "scorekeeper-game/1",
        "variant": "texas",
        "players": players,
        "first_dealer": players[0],
        "rounds": out,
    }


class Keeper:
    def __init__(self, page: Page, base: str, *, touch: bool = True) -> None:
        self.page = page
        self.base = base
        self.touch = touch

    # ------------------------------------------------------------------ basics ---
    def tap(self, target: Locator) -> None:
        """A finger on a phone (tap) or, without touch, a click."""
        if self.touch:
            target.tap()
        else:
            target.click()

    def follow(self, link: Locator) -> None:
        """Tap a link and wait until its page has loaded."""
        href = link.get_attribute("href")
        assert href and href.startswith("/"), href
        self.tap(link)
        self.page.wait_for_url(re.compile(re.escape(self.base + href) + r"([?#].*)?$"))

    def goto(self, path: str) -> None:
        response = self.page.goto(self.base + path)
        assert response is not None and response.ok, (path, response and response.status)

    def path(self) -> str:
        return self.page.url.removeprefix(self.base)

    def id_from_url(self, pattern: str) -> int:
        match = re.search(pattern, self.page.url)
        assert match, (pattern, self.page.url)
        return int(match.group(1))

    def text(self, selector: str = "main") -> str:
        return squeeze(self.page.locator(selector).first.inner_text())

    def button(self, name: str | re.Pattern[str]) -> Locator:
        """The button whose accessible name is exactly this (or matches the pattern)."""
        return self.page.get_by_role("button", name=name, exact=isinstance(name, str))

    def link(self, name: str | re.Pattern[str]) -> Locator:
        """The link whose accessible name is exactly this (or matches the pattern)."""
        return self.page.get_by_role("link", name=name, exact=isinstance(name, str))

    def flash(self) -> str:
        return " | ".join(squeeze(t) for t in self.page.locator("p.flash").all_inner_texts())

    def api_game(self, game_id: int) -> dict[str, Any]:
        """The engine's view of the game, fetched with this context's login cookie."""
        response = self.page.request.get(f"{self.base}/api/v1/games/{game_id}")
        assert response.ok, response.status
        return response.json()

    # ---------------------------------------------------------- account & night ---
    def sign_up(self, email: str = "keeper@example.com") -> None:
        self.goto("/")
        self.tap(self.link("Sign up"))
        self.page.get_by_label("Email").fill(email)
        self.page.get_by_label("Password", exact=True).fill(PASSWORD)
        self.page.get_by_label("Password again").fill(PASSWORD)
        self.tap(self.button("Sign up"))
        # Signing up logs nobody in (it does not tell whether the email had an account):
        # the log-in page says so, and the keeper logs in, landing on a new night.
        expect(self.page.locator("p.flash")).to_contain_text("Sign-up received: now log in")
        self.page.get_by_label("Email").fill(email)
        self.page.get_by_label("Password", exact=True).fill(PASSWORD)
        self.tap(self.button("Log in"))
        expect(self.page).to_have_url(re.compile(r"/nights/new$"))
        expect(self.page.get_by_role("heading", name="Start a night")).to_be_visible()

    def start_night(self, people: list[str], name: str = "Friday cards") -> int:
        self.page.get_by_label("Name").fill(name)
        self.page.get_by_label("Date").fill("2026-11-20")
        self.page.get_by_label("Who is playing").fill("\n".join(people))
        self.tap(self.button("Start the night"))
        expect(self.page.get_by_role("heading", name=name)).to_be_visible()
        return self.id_from_url(r"/nights/(\d+)$")

    def new_game(
        self,
        night_id: int,
        variant_title: str,
        players: list[str],
        *,
        first_dealer: str | None = None,
        settings: dict[str, str] | None = None,
    ) -> int:
        """From the night page: New game, the variant's tile, seats, table rules, start."""
        self.goto(f"/nights/{night_id}")
        self.tap(self.link("New game"))
        tile = self.page.locator("a.tile").filter(
            has=self.page.get_by_text(variant_title, exact=True)
        )
        self.tap(tile)
        expect(self.page.get_by_role("heading", name=f"New {variant_title}")).to_be_visible()
        rows = self.page.locator("table.seats tbody tr")
        for i in range(rows.count()):
            row = rows.nth(i)
            person = squeeze(row.locator("th").inner_text())
            seat = str(players.index(person) + 1) if person in players else ""
            row.locator("input[name^=seat-]").fill(seat)
        self.page.get_by_label("First dealer").select_option(first_dealer or players[0])
        rules = self.page.locator("details.rules")
        if settings and rules.count() and rules.get_attribute("open") is None:
            self.tap(rules.locator("summary"))  # the table rules are folded
        for label, value in (settings or {}).items():
            field = self.page.get_by_label(label, exact=True)
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        self.tap(self.button("Start the game"))
        self.page.wait_for_load_state()
        if self.page.locator("input[name=warned]").count():  # warned: start anyway
            self.tap(self.button("Start anyway"))
        self.wait_for_sheet()  # loaded, not only navigated: a page is measured next
        return self.id_from_url(r"/games/(\d+)")

    def import_game(self, night_id: int, record: dict[str, Any]) -> int:
        self.goto(f"/nights/{night_id}")
        self.tap(self.link("Import a game"))
        self.page.get_by_label("Game record (JSON)").fill(json.dumps(record))
        self.tap(self.button("Import"))
        self.wait_for_sheet()  # loaded, not only navigated: a page is measured next
        return self.id_from_url(r"/games/(\d+)")

    # ------------------------------------------------------------------- rounds ---
    def went_out_choice(self, name: str) -> Locator:
        """The "went out" choice of a player's row (or "Nobody"): the name is the choice."""
        names = self.page.locator(".name").filter(has_text=exact(name))
        return self.page.locator("label.out-choice").filter(has=names)

    def hand_input(self, name: str) -> Locator:
        return self.page.get_by_role("textbox", name=re.compile(rf"^{re.escape(name)}\b"))

    def hand_box(self, name: str) -> Locator:
        """A player's row on the round form: went out, hand, sum, card counter."""
        names = self.page.locator(".out-choice .name").filter(has_text=exact(name))
        return self.page.locator("[data-hand]").filter(has=names)

    def counter(self, name: str) -> Locator:
        """A player's row with its card counter open."""
        box = self.hand_box(name)
        button = box.locator("button.count-cards")
        expect(button).to_be_visible()
        if button.get_attribute("aria-expanded") != "true":
            self.tap(button)
        expect(box.locator(".cards-pad")).to_be_visible()
        return box

    def tap_cards(self, name: str, cards: list[tuple[str, int]]) -> None:
        """Tap cards on a player's counter, each by its button: code and points shown."""
        box = self.counter(name)
        for code, points in cards:
            self.tap(box.get_by_role("button", name=f"{code} ({points} points)", exact=True))

    def hand_sum(self, name: str) -> Locator:
        """The live sum beside a player's hand field ("= 15", "14 → 28")."""
        return self.hand_box(name).locator("output.sum")

    def fill_round(
        self, went_out: str | None, hands: dict[str, str], *, wild: str | None = None
    ) -> None:
        self.tap(self.went_out_choice(went_out or "Nobody"))
        expect(self.went_out_choice(went_out or "Nobody").get_by_role("radio")).to_be_checked()
        for name, hand in hands.items():
            self.hand_input(name).fill(hand)
        if wild is not None:
            self.page.get_by_label("Flipped wild card (optional)").fill(wild)

    def save(self) -> None:
        saves = r"^(Save (?:round|deal|hand) \d+|Save correction|Confirm and save)$"  # hand: Gin
        self.tap(self.button(re.compile(saves)))

    def enter_round(
        self,
        went_out: str | None,
        hands: dict[str, str],
        *,
        wild: str | None = None,
    ) -> int:
        """From the sheet: Enter round N, fill it in, save; back on the sheet."""
        self.follow(self.link(re.compile(r"^Enter (?:round|deal|hand) \d+$")))  # hand: Gin
        number = self.round_number()
        self.fill_round(went_out, hands, wild=wild)
        self.save()
        self.wait_for_sheet()
        return number

    def wait_for_sheet(self) -> None:
        """The sheet has loaded. The URL alone changes when the navigation commits, before
        the page's stylesheet applies: a width measured then is an unstyled page's."""
        expect(self.page).to_have_url(re.compile(r"/games/\d+(\?saved=\d+)?(#r\d+)?$"))
        self.page.wait_for_load_state()

    def round_number(self) -> int:
        heading = self.page.get_by_role("heading", level=1).inner_text()
        match = re.search(r"(?:round|deal|hand) (\d+)", heading, re.I)
        assert match, heading
        return int(match.group(1))

    # -------------------------------------------------------------------- sheet ---
    def players(self) -> list[str]:
        return [h.get_attribute("title") or "" for h in self.page.locator("table.grid th.pn").all()]

    def totals(self) -> dict[str, int]:
        cells = self.page.locator("table.grid tr.totals td").all_inner_texts()
        values = [int(re.match(r"-?\d+", c.strip()).group(0)) for c in cells]  # type: ignore[union-attr]
        return dict(zip(self.players(), values, strict=True))

    def cell(self, number: int, name: str) -> str:
        index = self.players().index(name)
        return squeeze(self.page.locator(f"tr#r{number} td").nth(index).inner_text())

    def banner(self) -> str:
        return self.text("section.banner")

    def result(self) -> str:
        """The finished game's headline ("Ann won after 11 rounds")."""
        return self.text("section.banner.finished .banner-main")

    def pot_heading(self) -> str:
        return self.text("#pot-h")

    def pot_rows(self) -> dict[str, list[str]]:
        """The pot card by player: [paid in, taken/paid out, (net)]."""
        out: dict[str, list[str]] = {}
        for row in self.page.locator("section.pot tbody tr").all():
            head = squeeze(row.locator("th").inner_text())
            name = re.sub(r"^\d+\.\s*", "", head).split(" ")[0]
            out[name] = [squeeze(t) for t in row.locator("td").all_inner_texts()]
        return out
