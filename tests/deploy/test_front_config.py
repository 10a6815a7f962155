"""The front's configuration (deploy/nginx.conf) read as nginx reads it.

nginx gives a location the server's ``proxy_set_header`` lines only when the location sets
none of its own. The players' pages set ``Cookie ""`` (public pages: no session), and so
they once lost the forwarded client address: behind the front the app saw every phone as
the front itself, and its per-client limit on the live views counted a whole card room as
one client (the 1,000-table benchmark answered thousands of them 429). Every location
that passes to the app and sets a header of its own must repeat the server's."""

from __future__ import annotations

import re
from pathlib import Path

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
FORWARDED = ("Connection", "Host", "X-Forwarded-For", "X-Forwarded-Proto")


def blocks(text: str) -> list[tuple[str, str]]:
    """Every ``{...}`` block as (its head, its own lines without the nested blocks)."""
    text = re.sub(r"#[^\n]*", "", text)
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, list[str]]] = [("", [])]
    head_start = 0
    for i, ch in enumerate(text):
        if ch == "{":
            head = text[head_start:i].strip().split(";")[-1].strip()
            stack[-1][1].append(text[head_start:i].rsplit(";", 1)[0] + ";")
            stack.append((head, []))
            head_start = i + 1
        elif ch == "}":
            stack[-1][1].append(text[head_start:i])
            head, own = stack.pop()
            found.append((head, "".join(own)))
            head_start = i + 1
    return found


def headers_set(own: str) -> set[str]:
    return {m.lower() for m in re.findall(r"proxy_set_header\s+(\S+)", own)}


def test_every_location_that_passes_to_the_app_forwards_the_client() -> None:
    text = CONF.read_text()
    server = next(own for head, own in blocks(text) if head == "server" and "proxy_pass" not in own)
    assert {h.lower() for h in FORWARDED} <= headers_set(server)
    checked = []
    for head, own in blocks(text):
        if not head.startswith("location") or "proxy_pass" not in own:
            continue
        own_headers = headers_set(own)
        if own_headers:  # nginx inherits none of the server's lines here
            missing = [h for h in FORWARDED if h.lower() not in own_headers]
            assert not missing, f"{head} sets its own headers but not {missing}"
            checked.append(head)
    assert len(checked) >= 3, checked  # the live pages, their fresh copies, the stream auth


def test_the_checker_sees_a_location_that_drops_the_forwarded_address() -> None:
    broken = """
    server {
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        location /live/ { proxy_pass http://app; proxy_set_header Cookie ""; }
    }"""
    (location,) = [(h, o) for h, o in blocks(broken) if h.startswith("location")]
    assert location[0] == "location /live/"
    assert headers_set(location[1]) == {"cookie"}
