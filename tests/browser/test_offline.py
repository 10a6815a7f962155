"""Never lose a round (issue 23), on a phone-sized Chromium with the app's service worker:
the sheet and the round form open with no network; rounds saved offline wait on the phone
as pending rows (also after a reload) and are sent once each, in order, when the network is
back, also when it drops in the middle of a request; a round the server refuses stops the
queue until the keeper fixes or discards it; a round another phone added meanwhile is not
overwritten; logging out clears the phone's copies, and a second account on the same
browser sees nothing of the first. Without a service worker, a round form says "No
connection" and keeps the round. And the app is installable (Chrome's own checks).

The API (``/api/v1/games/<id>``) is the judge of what was stored: each round once, in
order, with the hands as typed."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Playwright, Route, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, PHONE, TIMEOUT_MS
from tests.browser.keeper import PASSWORD, Keeper

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy"]
# Wait until the service worker keeps these pages (in the logged-in account's cache): asked
# again and again inside the page (wait_for_function does not wait for a promise).
KEPT = """async ([paths, ms]) => {
  const kept = async () => {
    const name = (await caches.keys()).find((n) => n.startsWith("pages-"));
    if (!name) return false;
    const cache = await caches.open(name);
    for (const path of paths) if (!(await cache.match(location.origin + path))) return false;
    return true;
  };
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await kept()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}"""
# What the phone keeps: the page caches and the rounds waiting in IndexedDB.
KEPT_ON_PHONE = """async () => {
  const pages = (await caches.keys()).filter((n) => n.startsWith("pages-"));
  const rounds = await new Promise((resolve) => {
    const open = indexedDB.open("scorekeeper", 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore("rounds", { keyPath: "id" });
      open.result.createObjectStore("meta");
    };
    open.onsuccess = () => {
      const get = open.result.transaction("rounds").objectStore("rounds").getAll();
      get.onsuccess = () => { open.result.close(); resolve(get.result.length); };
    };
  });
  return { pages, rounds };
}"""


def rounds_of(keeper: Keeper, game: int) -> list[dict[str, Any]]:
    return keeper.api_game(game)["record"]["rounds"]


def log_in(keeper: Keeper, email: str = "keeper@example.com") -> None:
    keeper.goto("/login")
    keeper.page.get_by_label("Email").fill(email)
    keeper.page.get_by_label("Password").fill(PASSWORD)
    keeper.tap(keeper.button("Log in"))
    expect(keeper.page.get_by_role("button", name="Log out")).to_be_visible()


def ready_game(keeper: Keeper, variant: str = "Rummy", **options: Any) -> int:
    """Sign up, start a night and a game, and wait until the service worker keeps its
    sheet and its round form (what the keeper needs with no network)."""
    keeper.sign_up()
    night = keeper.start_night(PLAYERS)
    game = keeper.new_game(night, variant, PLAYERS, **options)
    wait_kept(keeper.page, f"/games/{game}", f"/games/{game}/rounds/new")
    return game


def wait_kept(page: Page, *paths: str) -> None:
    assert page.evaluate(KEPT, [list(paths), TIMEOUT_MS]), f"not kept: {paths}"


def pending(page: Page) -> list[list[str]]:
    """The pending rows of the sheet: round number and label, then each cell as shown."""
    rows = page.locator("tr.pending")
    return [
        [re.sub(r"\s+", " ", c).strip() for c in rows.nth(i).locator("th, td").all_inner_texts()]
        for i in range(rows.count())
    ]


def enter_waiting_round(
    keeper: Keeper,
    went_out: str,
    hands: dict[str, str],
    *,
    cards: dict[str, list[tuple[str, int]]] | None = None,
    wild: str | None = None,
) -> None:
    """Offline, from the sheet: Enter round N (the kept form), fill it in, Save; back on
    the kept sheet with one more pending row."""
    page = keeper.page
    before = page.locator("tr.pending").count()
    last = int(pending(page)[-1][0].split()[0]) if before else None
    keeper.follow(keeper.link(re.compile(r"^Enter (?:round|deal) \d+$")))
    expect(page.locator(".flash-offline")).to_contain_text("Offline: showing the round form as of")
    if last:  # typed behind rounds that wait: numbered after them
        expect(page.get_by_role("heading", level=1)).to_have_text(
            re.compile(rf"^(Round|Deal) {last + 1}$")
        )
    keeper.fill_round(went_out, hands, wild=wild)
    for name, tapped in (cards or {}).items():
        keeper.tap_cards(name, tapped)
    keeper.save()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator("tr.pending")).to_have_count(before + 1)


def offline_game(page: Page, live_server: str, *args: Any, **options: Any) -> tuple[Keeper, int]:
    """A game ready (see ``ready_game``), and the phone offline."""
    keeper = Keeper(page, live_server)
    game = ready_game(keeper, *args, **options)
    page.context.set_offline(True)
    return keeper, game


def settled(read: Callable[[], Any]) -> Any:
    """What ``read`` reads off the page once it stops reloading itself: the phone reloads
    the sheet as the rounds it sent are stored, and a read in the middle of a reload
    loses its page ("Execution context was destroyed")."""
    for _ in range(50):
        try:
            return read()
        except PlaywrightError as exc:
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
            time.sleep(0.2)
    return read()


def all_stored(keeper: Keeper, game: int, expected: list[dict[str, Any]]) -> None:
    """Nothing waits any more: the sheet (reloaded once the rounds were stored) shows them,
    and the API has exactly these rounds, in this order."""
    expect(keeper.page.locator(f"tr#r{len(expected)}")).to_be_visible()
    expect(keeper.page.locator("tr.pending")).to_have_count(0)
    assert rounds_of(keeper, game) == expected


# ----------------------------------------------------------------------- tests ---
def test_three_rounds_saved_offline_are_stored_once_each_in_order(
    page: Page, live_server: str
) -> None:
    keeper, game = offline_game(page, live_server)
    enter_waiting_round(keeper, "Ann", {"Bob": "10", "Cy": "5+5"})
    # The sheet is the kept copy, saying so, with the round as a pending row; the totals
    # are the saved rounds' only (none yet), and say so.
    expect(page.locator(".flash-offline")).to_contain_text("Offline: showing the sheet as of")
    assert pending(page) == [["1 pending", "out", "10", "5+5"]]
    expect(page.locator(".pending-note")).to_contain_text("1 deal typed on this phone waits")
    expect(page.locator("tr.totals th")).to_have_text(re.compile(r"Total\s*saved only"))
    assert keeper.totals() == {"Ann": 0, "Bob": 0, "Cy": 0}

    # The card counter works offline too: Cy's hand is the king and the seven tapped.
    enter_waiting_round(keeper, "Bob", {"Ann": "3"}, cards={"Cy": [("K", 10), ("7", 7)]})
    enter_waiting_round(keeper, "Cy", {"Ann": "12", "Bob": "0"})
    expect(keeper.link("Enter deal 4")).to_be_visible()

    keeper.follow(keeper.link("Friday cards"))  # the night page, kept when it was opened
    expect(page.locator(".flash-offline")).to_contain_text("Offline: showing the night as of")
    expect(page.get_by_role("heading", name="Friday cards")).to_be_visible()
    page.go_back()
    page.reload()  # still offline: the sheet and the pending rows are still there
    expect(page.locator(".flash-offline")).to_contain_text("Offline: showing the sheet as of")
    expect(page.locator("tr.pending")).to_have_count(3)
    assert pending(page) == [
        ["1 pending", "out", "10", "5+5"],
        ["2 pending", "3", "out", "K 7"],
        ["3 pending", "12", "0", "out"],
    ]

    page.context.set_offline(False)  # the page hears "online" and asks for them to be sent
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 10}},
            {"went_out": "Bob", "hands": {"Ann": 3, "Cy": ["K", "7"]}},
            {"went_out": "Cy", "hands": {"Ann": 12, "Bob": 0}},
        ],
    )
    # Rummy: who went out scores what the others held.
    assert settled(keeper.totals) == {"Ann": 10 + 10, "Bob": 3 + 17, "Cy": 12 + 0}
    assert page.evaluate(KEPT_ON_PHONE)["rounds"] == 0  # nothing left waiting


def test_the_network_drops_in_the_middle_of_a_request(page: Page, live_server: str) -> None:
    """The server stores the round but its answer never reaches the phone: the phone keeps
    the round and sends it again, and the server's one-time submission id stores it once.
    Then the same while the waiting rounds are being sent."""
    keeper = Keeper(page, live_server)
    game = ready_game(keeper)
    context = page.context
    dropped: list[str] = []

    def drop_answer(accept: str) -> Callable[[Route], None]:
        def handle(route: Route) -> None:
            asked = route.request.headers.get("accept", "")
            if route.request.method == "POST" and not dropped and asked.startswith(accept):
                route.fetch()  # the server gets the round and stores it...
                dropped.append(route.request.url)
                route.abort("connectionreset")  # ...and the phone hears nothing
            else:
                route.continue_()

        return handle

    # Online: Save, the answer is lost.
    context.route(re.compile(r".*/rounds/new$"), drop_answer("text/html"))
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {"Bob": "10", "Cy": "5+5"})
    keeper.save()
    page.wait_for_url(re.compile(rf"/games/{game}$"))
    expect(page.locator("tr#r1")).to_be_visible()
    expect(page.locator("tr.pending")).to_have_count(0)
    assert dropped and len(rounds_of(keeper, game)) == 1
    context.unroute(re.compile(r".*/rounds/new$"))

    # Offline: two rounds wait; back online, the answer to the first one sent is lost.
    wait_kept(page, f"/games/{game}", f"/games/{game}/rounds/new")
    dropped.clear()
    context.set_offline(True)
    enter_waiting_round(keeper, "Bob", {"Ann": "4", "Cy": "6"})
    enter_waiting_round(keeper, "Cy", {"Ann": "7", "Bob": "8"})
    context.route(re.compile(r".*/rounds/new$"), drop_answer("application/json"))
    with context.expect_event("requestfailed", lambda r: r.method == "POST"):
        context.set_offline(False)
    assert len(dropped) == 1  # round 2 reached the server; its answer never came back
    # The phone sends it again (the page asks on "online" and at every load), and the rest
    # after it: stored once each. Back online, the kept sheet loads itself again, which
    # asks too: a nudge lost in that reload is not needed.
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError:
        page.wait_for_load_state()
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 10}},
            {"went_out": "Bob", "hands": {"Ann": 4, "Cy": 6}},
            {"went_out": "Cy", "hands": {"Ann": 7, "Bob": 8}},
        ],
    )


def test_a_refused_round_stops_the_queue_until_fixed_or_discarded(
    page: Page, live_server: str
) -> None:
    keeper, game = offline_game(page, live_server)
    enter_waiting_round(keeper, "Ann", {"Bob": "10", "Cy": "5"})
    enter_waiting_round(keeper, "Bob", {"Ann": "ZZ", "Cy": "6"})  # not a hand: refused
    enter_waiting_round(keeper, "Cy", {"Ann": "XX", "Bob": "1"})  # refused: discarded below
    enter_waiting_round(keeper, "Ann", {"Bob": "2", "Cy": "3"})

    page.context.set_offline(False)
    # Round 1 is stored; round 2 is refused, and nothing after it is sent.
    note = page.locator(".pending-note")
    expect(note).to_contain_text("Deal 2 was not saved: Ann: 'ZZ' is not points or a card")
    expect(note).to_contain_text("(2 more deals wait behind it)")
    expect(page.locator("tr#r1")).to_be_visible()
    assert [row[0] for row in pending(page)] == ["2 not saved", "3 pending", "4 pending"]
    assert len(rounds_of(keeper, game)) == 1

    # Its form, as typed, with the reason: fixed and saved, the queue goes on.
    keeper.follow(keeper.link("Fix or discard deal 2"))
    expect(page.locator(".queue-note")).to_contain_text("was not saved: Ann: 'ZZ'")
    expect(keeper.hand_input("Ann")).to_have_value("ZZ")
    expect(keeper.hand_input("Ann")).to_have_attribute("aria-invalid", "true")
    expect(keeper.hand_input("Cy")).to_have_value("6")
    expect(keeper.went_out_choice("Bob").get_by_role("radio")).to_be_checked()
    keeper.hand_input("Ann").fill("9")
    keeper.save()
    # Round 3 is refused next; the fourth still waits.
    expect(page.locator(".pending-note")).to_contain_text("Deal 3 was not saved")
    expect(page.locator("tr#r2")).to_be_visible()
    assert len(rounds_of(keeper, game)) == 2

    keeper.follow(keeper.link("Fix or discard deal 3"))
    expect(keeper.hand_input("Ann")).to_have_value("XX")
    page.once("dialog", lambda dialog: dialog.accept())
    keeper.tap(keeper.button("Discard deal 3"))
    page.wait_for_url(re.compile(rf"/games/{game}$"))
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Ann", "hands": {"Bob": 10, "Cy": 5}},
            {"went_out": "Bob", "hands": {"Ann": 9, "Cy": 6}},
            {"went_out": "Ann", "hands": {"Bob": 2, "Cy": 3}},
        ],
    )


def test_an_expiry_waits_for_the_keepers_re_buy_or_drop(page: Page, live_server: str) -> None:
    keeper, game = offline_game(
        page, live_server, "Vegas Rummy", first_dealer="Ann", settings={"Buy-in": "2.00"}
    )
    enter_waiting_round(keeper, "Ann", {"Bob": "60", "Cy": "30"})
    enter_waiting_round(keeper, "Cy", {"Ann": "20", "Bob": "45"})  # Bob reaches 105
    enter_waiting_round(keeper, "Ann", {"Bob": "10", "Cy": "10"})

    page.context.set_offline(False)
    expect(page.locator(".pending-note")).to_contain_text(
        "Round 2 was not saved: Bob reached 105. Re-buy for $2.00 (back to 30) or drop out?"
    )
    keeper.follow(keeper.link("Fix or discard round 2"))
    expect(keeper.hand_input("Bob")).to_have_value("45")
    # The server's question is on the form already (issue 36): re-buy chosen, one Save.
    expect(page.locator("fieldset.money-moment legend")).to_have_text("Expired this round")
    expect(page.locator("fieldset.money-moment")).to_contain_text(
        "Bob reached 105. Re-buy for $2.00 (back to 30) or drop out?"
    )
    expect(page.get_by_role("radio", name="Re-buy $2.00, back to 30")).to_be_checked()
    page.get_by_role("radio", name="Drop out").check()
    keeper.save()
    # Round 3 was typed with Bob's hand, before the keeper chose that Bob drops out: it
    # waits for the keeper too, and is saved without him.
    expect(page.locator(".pending-note")).to_contain_text("Round 3 was not saved: There is no seat")
    expect(page.locator("tr#r2")).to_be_visible()
    keeper.follow(keeper.link("Fix or discard round 3"))
    expect(keeper.hand_input("Cy")).to_have_value("10")
    expect(keeper.hand_box("Bob")).to_have_count(0)
    keeper.save()
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Ann", "hands": {"Bob": 60, "Cy": 30}},
            {"went_out": "Cy", "hands": {"Ann": 20, "Bob": 45}, "drops": ["Bob"]},
            {"went_out": "Ann", "hands": {"Cy": 10}},  # Bob is out of the game
        ],
    )


def test_a_round_from_another_phone_meanwhile_is_not_overwritten(
    page: Page, live_server: str, new_context: Callable[..., BrowserContext]
) -> None:
    keeper, game = offline_game(page, live_server)
    enter_waiting_round(keeper, "Ann", {"Bob": "1", "Cy": "2"})
    enter_waiting_round(keeper, "Bob", {"Ann": "3", "Cy": "4"})

    other = Keeper(new_context().new_page(), live_server)  # the second phone, online
    log_in(other)
    other.goto(f"/games/{game}")
    other.enter_round("Cy", {"Ann": "5", "Bob": "6"})
    assert len(rounds_of(other, game)) == 1

    page.context.set_offline(False)
    expect(page.locator(".pending-note")).to_contain_text(
        "Deal 1 was not saved: The game was changed on another phone while this round waited"
    )
    assert len(rounds_of(keeper, game)) == 1  # nothing overwritten, nothing sent after it
    keeper.follow(keeper.link("Fix or discard deal 1"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")  # the game as it is
    expect(keeper.hand_input("Cy")).to_have_value("2")
    keeper.save()
    all_stored(
        keeper,
        game,
        [
            {"went_out": "Cy", "hands": {"Ann": 5, "Bob": 6}},
            {"went_out": "Ann", "hands": {"Bob": 1, "Cy": 2}},
            {"went_out": "Bob", "hands": {"Ann": 3, "Cy": 4}},
        ],
    )


def test_logout_clears_the_phone_and_another_account_sees_nothing(
    page: Page, live_server: str
) -> None:
    keeper, game = offline_game(page, live_server)
    context = page.context
    enter_waiting_round(keeper, "Ann", {"Bob": "10", "Cy": "5"})
    context.set_offline(False)
    expect(page.locator("tr.pending")).to_have_count(0)  # sent
    context.set_offline(True)
    enter_waiting_round(keeper, "Bob", {"Ann": "1", "Cy": "1"})
    context.route(re.compile(r".*/rounds/new$"), lambda route: route.abort())  # it stays
    context.set_offline(False)
    page.wait_for_function("() => navigator.onLine")
    # Back online, the kept sheet loads itself again as it is now (issue 36): wait for it.
    expect(page.locator("body[data-offline]")).to_have_count(0)
    page.wait_for_load_state()
    kept = page.evaluate(KEPT_ON_PHONE)
    assert len(kept["pages"]) == 1 and kept["rounds"] == 1

    # Logging out asks first about the round not sent, then clears the phone.
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    keeper.tap(keeper.button("Log out"))
    expect(page.get_by_text("Logged out.")).to_be_visible()
    assert asked == [
        "1 round typed on this phone has not been sent yet. Logging out deletes it from "
        "this phone. Log out anyway?"
    ]
    assert page.evaluate(KEPT_ON_PHONE) == {"pages": [], "rounds": 0}
    context.unroute(re.compile(r".*/rounds/new$"))

    # A second account on the same browser: nothing of the first, online or offline.
    second = Keeper(page, live_server)
    second.sign_up("second@example.com")
    response = page.goto(f"{live_server}/games/{game}")
    assert response is not None and response.status == 404
    context.set_offline(True)
    for path in (f"/games/{game}", f"/games/{game}/rounds/new", "/nights/1"):
        page.goto(live_server + path)
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        text = second.text("main")
        assert not any(name in text for name in PLAYERS), text
        assert "Friday cards" not in text, text


def test_a_login_that_ended_keeps_its_rounds_for_its_account_only(
    page: Page, live_server: str
) -> None:
    """The keeper's login ends without logging out (it expired, cookies were cleared) while
    a round waits. Another account on the phone sees none of the first one's pages and its
    session never sends that round; the first account's next login does."""
    keeper, game = offline_game(page, live_server)
    context = page.context
    enter_waiting_round(keeper, "Ann", {"Bob": "10", "Cy": "5"})
    context.clear_cookies()
    # Off the round form first: back online, the form's page would reload itself (the
    # "Offline" notice goes) under the next navigation.
    page.goto("about:blank")
    context.set_offline(False)
    second = Keeper(page, live_server)
    second.sign_up("second@example.com")
    kept = page.evaluate(KEPT_ON_PHONE)
    assert kept["rounds"] == 1  # the first account's round, not lost
    assert len(kept["pages"]) <= 1  # the second account's own pages, if any yet
    context.set_offline(True)
    page.goto(f"{live_server}/games/{game}")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    assert not any(name in second.text("main") for name in PLAYERS)
    context.set_offline(False)
    second.goto("/")
    second.tap(second.button("Log out"))
    expect(page.get_by_text("Logged out.")).to_be_visible()
    assert page.evaluate(KEPT_ON_PHONE) == {"pages": [], "rounds": 1}

    log_in(keeper)  # a new login, a new CSRF token: the round is sent with it
    keeper.goto(f"/games/{game}")
    all_stored(keeper, game, [{"went_out": "Ann", "hands": {"Bob": 10, "Cy": 5}}])


def test_without_a_service_worker_the_round_stays_in_the_form(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    context = new_context(service_workers="block")
    page = context.new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    night = keeper.start_night(PLAYERS)
    game = keeper.new_game(night, "Rummy", PLAYERS)
    keeper.follow(keeper.link("Enter deal 1"))
    keeper.fill_round("Ann", {"Bob": "10", "Cy": "5+5"})
    context.set_offline(True)
    keeper.save()
    expect(page.locator(".no-connection")).to_have_text(
        "No connection: your round is still in the form. Save again when the network is back."
    )
    assert keeper.path() == f"/games/{game}/rounds/new"
    expect(keeper.hand_input("Cy")).to_have_value("5+5")
    context.set_offline(False)
    keeper.save()
    keeper.wait_for_sheet()
    assert rounds_of(keeper, game) == [{"went_out": "Ann", "hands": {"Bob": 10, "Cy": 10}}]


def test_installable(playwright_instance: Playwright, live_server: str, tmp_path: Path) -> None:
    """Chrome's own installability check (what DevTools shows under Application) finds
    nothing missing, with a service worker controlling the page; the manifest parses
    without errors and has maskable icons. In a profile of its own: Chrome offers no
    install in an incognito window (which a test's usual context is)."""
    context = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
    )
    page = context.pages[0] if context.pages else context.new_page()
    keeper = Keeper(page, live_server)
    keeper.sign_up()
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert '"purpose": "maskable"' in manifest["data"]
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    context.close()
