"""A score keeper driving the app through the test client, the way a phone would:
GET the form, read its CSRF token and hidden fields, POST what a person types."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

_INPUT = re.compile(r"<input\b[^>]*>", re.S)
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


def inputs(html: str) -> dict[str, str]:
    """The named hidden inputs of a page (CSRF token, version, submission)."""
    found: dict[str, str] = {}
    for tag in _INPUT.findall(html):
        attrs = dict(_ATTR.findall(tag))
        if attrs.get("type") == "hidden" and "name" in attrs:
            found.setdefault(attrs["name"], unescape(attrs.get("value", "")))
    return found


def text_of(response: TestResponse) -> str:
    """The page as text: tags removed, whitespace squeezed (what a person reads)."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


class Keeper:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def form(self, url: str) -> tuple[TestResponse, dict[str, str]]:
        page = self.client.get(url)
        assert page.status_code == 200, (url, page.status_code)
        return page, inputs(page.get_data(as_text=True))

    def post_form(
        self, url: str, data: dict[str, Any], *, action: str | None = None, **kwargs: Any
    ) -> TestResponse:
        _, hidden = self.form(url)
        return self.client.post(action or url, data={**hidden, **data}, **kwargs)

    def signup(self, email: str = "keeper@example.com", password: str = "correct horse") -> None:
        r = self.post_form("/signup", {"email": email, "password": password, "confirm": password})
        assert r.status_code == 302, text_of(r)

    def login(self, email: str, password: str = "correct horse") -> TestResponse:
        return self.post_form("/login", {"email": email, "password": password})

    def night(self, people: list[str], name: str = "Friday", currency: str = "USD") -> int:
        r = self.post_form(
            "/nights/new",
            {
                "name": name,
                "played_on": "2026-11-20",
                "currency": currency,
                "paper": "Letter",
                "people": "\n".join(people),
            },
        )
        assert r.status_code == 302, text_of(r)
        return int(r.headers["Location"].rstrip("/").split("/")[-1])

    def person_ids(self, night_id: int) -> dict[str, int]:
        html = self.client.get(f"/nights/{night_id}/games/new?variant=rummy").get_data(as_text=True)
        return {
            unescape(name): int(pid)
            for pid, name in re.findall(r'<label for="seat-(\d+)">([^<]+)</label>', html)
        }

    def game(
        self,
        night_id: int,
        variant: str,
        players: list[str],
        *,
        first_dealer: str | None = None,
        handicaps: dict[str, int] | None = None,
        **settings: Any,
    ) -> int:
        ids = self.person_ids(night_id)
        data: dict[str, Any] = {"variant": variant, "first_dealer": first_dealer or players[0]}
        for pid in ids.values():
            data[f"seat-{pid}"] = ""
        for seat, name in enumerate(players, 1):
            data[f"seat-{ids[name]}"] = str(seat)
            if handicaps and name in handicaps:
                data[f"handicap-{ids[name]}"] = str(handicaps[name])
        url = f"/nights/{night_id}/games/new?variant={variant}"
        _, hidden = self.form(url)
        page = self.client.get(url).get_data(as_text=True)
        defaults = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', page))
        checked = set(re.findall(r'<input[^>]*checked[^>]*name="(\w+)"', page)) | set(
            re.findall(r'<input[^>]*name="(\w+)"[^>]*checked', page)
        )
        form = {k: v for k, v in defaults.items() if not k.startswith(("seat-", "handicap-"))}
        form = {k: v for k, v in form.items() if k not in {"csrf_token"}}
        for key in checked:
            form[key] = "y"
        form.update({k: str(v) for k, v in settings.items()})
        r = self.client.post(url, data={**hidden, **form, **data})
        assert r.status_code == 302, text_of(r)
        return int(r.headers["Location"].rstrip("/").split("/")[-1])

    def seats(self, game_id: int, number: int | None = None) -> dict[str, str]:
        url = (
            f"/games/{game_id}/rounds/new"
            if number is None
            else f"/games/{game_id}/rounds/{number}"
        )
        html = self.client.get(url).get_data(as_text=True)
        return {
            unescape(name.strip()): seat
            for seat, name in re.findall(
                r'name="went_out" value="(\d+)"[^>]*> ([^<]+)</label>', html
            )
        }

    def round_data(
        self,
        game_id: int,
        went_out: str | None,
        hands: dict[str, Any],
        number: int | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        seats = self.seats(game_id, number)
        data: dict[str, Any] = {"went_out": seats[went_out] if went_out else ""}
        for name, hand in hands.items():
            data[f"hand-{seats[name]}"] = " ".join(hand) if isinstance(hand, list) else str(hand)
            if isinstance(hand, list):  # tapped on the card counter: its hidden field too
                data[f"cards-{seats[name]}"] = " ".join(hand)
        for name in extra.pop("contracts", []):
            data[f"contract-{seats[name]}"] = "y"
        for name in extra.pop("drops", []):
            data[f"expiry-{seats[name]}"] = "drop"
        data.update(extra)
        return data

    def enter(
        self,
        game_id: int,
        went_out: str | None,
        hands: dict[str, Any],
        number: int | None = None,
        confirm_expiries: bool = True,
        **extra: Any,
    ) -> TestResponse:
        url = (
            f"/games/{game_id}/rounds/new"
            if number is None
            else f"/games/{game_id}/rounds/{number}"
        )
        data = self.round_data(game_id, went_out, hands, number, **extra)
        r = self.post_form(url, data)
        if r.status_code == 200 and "expiry_seen" in r.get_data(as_text=True) and confirm_expiries:
            hidden = inputs(r.get_data(as_text=True))
            r = self.client.post(url, data={**data, **hidden})
        return r
