"""A score keeper driving the app through the test client, the way a phone would:
GET the form, read its CSRF token and hidden fields, POST what a person types."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
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
        """Sign up, then log in (signing up logs nobody in: it does not tell whether the
        email had an account)."""
        r = self.post_form("/signup", {"email": email, "password": password, "confirm": password})
        assert r.status_code == 302, text_of(r)
        r = self.post_form("/login", {"email": email, "password": password, "remember": "y"})
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
        warned = re.search(r'name="warned" value="(\w+)"', r.get_data(as_text=True))
        if r.status_code == 200 and warned:  # the setup warned: the keeper starts anyway
            r = self.client.post(url, data={**hidden, **form, **data, "warned": warned[1]})
        assert r.status_code == 302, text_of(r)
        return int(r.headers["Location"].rstrip("/").split("/")[-1])

    def seats(self, game_id: int, number: int | None = None) -> dict[str, str]:
        url = (
            f"/games/{game_id}/rounds/new"
            if number is None
            else f"/games/{game_id}/rounds/{number}"
        )
        html = self.client.get(url).get_data(as_text=True)
        choice = r'name="went_out" value="(\d+)"[^>]*>\s*<span class="who">'
        choice += r'<span class="name">([^<]+)<'
        return {unescape(name.strip()): seat for seat, name in re.findall(choice, html)}

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
        if (
            r.status_code == 200
            and "rebuy-or-drop:" in r.get_data(as_text=True)
            and confirm_expiries
        ):
            hidden = inputs(r.get_data(as_text=True))
            r = self.client.post(url, data={**data, **hidden})
        return r


# ---------------------------------------------------------------- forms as a browser ---
@dataclass
class Control:
    """One input, select, textarea or button of a form, as the page rendered it."""

    tag: str
    type: str
    name: str
    value: str = ""
    checked: bool = False
    id: str = ""
    label: str = ""
    options: list[tuple[str, str, bool]] = field(default_factory=list)  # value, text, selected
    valued: bool = True  # has a value attribute (a box or radio without one sends "on")


@dataclass
class Form:
    """A form of a page: where it posts, and its controls in page order."""

    action: str
    method: str
    enctype: str
    controls: list[Control] = field(default_factory=list)

    def named(self, name: str) -> list[Control]:
        return [c for c in self.controls if c.name == name]

    def has(self, name: str) -> bool:
        return any(c.name == name for c in self.controls)

    def choices(self, name: str) -> list[str]:
        """The values a radio group or a select offers."""
        out: list[str] = []
        for c in self.named(name):
            if c.tag == "select":
                out.extend(value for value, _, _ in c.options)
            elif c.type in {"radio", "checkbox"}:
                out.append(c.value)
        return out

    def labels(self, name: str) -> dict[str, str]:
        """Value -> visible label of a radio group's buttons or a select's options."""
        out: dict[str, str] = {}
        for c in self.named(name):
            if c.tag == "select":
                out.update({value: text for value, text, _ in c.options})
            else:
                out[c.value] = c.label
        return out

    def hidden(self) -> dict[str, str]:
        return {c.name: c.value for c in self.controls if c.type == "hidden" and c.name}

    def values(self) -> dict[str, Any]:
        """What a browser sends when the form is submitted untouched: text and hidden
        inputs, checked boxes and radios, selected options (the first when none is)."""
        out: dict[str, list[str]] = {}
        for c in self.controls:
            if not c.name or c.type in {"submit", "button", "reset", "file", "image"}:
                continue
            if c.type in {"checkbox", "radio"}:
                if c.checked:
                    out.setdefault(c.name, []).append(c.value if c.valued else "on")
            elif c.tag == "select":
                picked = [v for v, _, selected in c.options if selected]
                if not picked and c.options and c.type != "select-multiple":
                    picked = [c.options[0][0]]
                out.setdefault(c.name, []).extend(picked)
            else:
                out.setdefault(c.name, []).append(c.value)
        return {k: v[0] if len(v) == 1 else v for k, v in out.items()}


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Control | None = None
        self._option: list[Any] | None = None
        self._textarea: Control | None = None
        self._labels: list[tuple[str, list[Control], list[str]]] = []  # for, inside, text
        self._for: dict[str, list[str]] = {}
        self._by_id: dict[str, Control] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = Form(
                a.get("action", ""), a.get("method", "get").lower(), a.get("enctype", "")
            )
            self.forms.append(self._form)
        elif tag == "label":
            self._labels.append((a.get("for", ""), [], []))
        elif tag in {"input", "select", "textarea", "button"} and self._form is not None:
            kind = a.get("type", "text" if tag == "input" else "submit").lower()
            if tag == "select":
                kind = "select-multiple" if "multiple" in a else "select-one"
            elif tag == "textarea":
                kind = "textarea"
            control = Control(
                tag, kind, a.get("name", ""), a.get("value", ""), "checked" in a, a.get("id", "")
            )
            control.valued = "value" in a
            self._form.controls.append(control)
            if control.id:
                self._by_id[control.id] = control
            for _, inside, _ in self._labels:
                inside.append(control)
            if tag == "select":
                self._select = control
            elif tag == "textarea":
                self._textarea = control
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), [], "selected" in a]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "option" and self._option is not None and self._select is not None:
            value, text, selected = self._option
            shown = " ".join("".join(text).split())
            self._select.options.append((shown if value is None else value, shown, selected))
            self._option = None
        elif tag == "label" and self._labels:
            target, inside, text = self._labels.pop()
            shown = " ".join("".join(text).split())
            for control in inside:
                control.label = control.label or shown
            if target:
                self._for.setdefault(target, []).append(shown)

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option[1].append(data)
        if self._textarea is not None:
            self._textarea.value += data
        for _, _, text in self._labels:
            text.append(data)

    def close(self) -> None:
        super().close()
        for target, texts in self._for.items():
            control = self._by_id.get(target)
            if control is not None and not control.label:
                control.label = texts[0]


def forms_of(html: str) -> list[Form]:
    """Every form of a page, parsed as a browser reads it (entities decoded)."""
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    for form in parser.forms:
        for control in form.controls:
            if control.tag == "textarea" and control.value.startswith("\n"):
                control.value = control.value[1:]  # HTML drops a textarea's first newline
    return parser.forms


def handle_rows(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """A regular's ways to pay as the form posts them: ``handles-0-kind`` ..."""
    out: dict[str, str] = {}
    for i, (kind, handle) in enumerate(pairs):
        out[f"handles-{i}-kind"] = kind
        out[f"handles-{i}-handle"] = handle
    return out
