"""Creating forms tapped twice at the same instant, against gunicorn (3 workers) on
PostgreSQL: each creates its thing once, and both taps land on it, whatever names new to
the keeper the form brings (their regulars are made by both posts at once)."""

from __future__ import annotations

import json
import uuid

import pytest

from .harness import Account, Server, connect, integrity_problems, page_text, race

pytestmark = pytest.mark.slow
REPEATS = 6


@pytest.fixture
def keeper(server: Server) -> Account:
    account = Account(server.port, f"taps-{uuid.uuid4().hex[:10]}@example.com")
    account.signup()
    return account


def _same_post_twice(keeper: Account, path: str, form: dict[str, str]) -> list[str]:
    """The form posted by two copies of one phone at once: where each landed."""
    phones = [keeper.phone.copy(), keeper.phone.copy()]
    replies = race(*(lambda p=p: p.post(path, form) for p in phones))
    assert [r.status for r in replies] == [302, 302], [page_text(r.text)[:300] for r in replies]
    return [r.location for r in replies]


def test_a_night_with_new_names_started_twice_at_once_lands_on_one_night(server, keeper):
    for n in range(REPEATS):
        _, hidden = keeper.phone.form("/nights/new")
        people = [f"New{n}a", f"New{n}b", f"New{n}c", "Ann"]
        form = {**hidden, "name": f"Night {n}", "played_on": "2026-11-20",
                "currency": "USD", "paper": "A4", "people": "\n".join(people)}  # fmt: skip
        landed = _same_post_twice(keeper, "/nights/new", form)
        assert landed[0] == landed[1], landed
    with connect(server.db_url) as conn:
        nights = conn.execute(
            "SELECT count(*) FROM nights n JOIN users u ON u.id = n.owner_id WHERE u.email = %s",
            (keeper.email,),
        ).fetchone()[0]
        regulars = conn.execute(
            "SELECT name FROM regulars r JOIN users u ON u.id = r.owner_id WHERE u.email = %s",
            (keeper.email,),
        ).fetchall()
    assert nights == REPEATS
    assert len(regulars) == 3 * REPEATS + 1, regulars
    assert integrity_problems(server.db_url) == []


def test_an_import_with_new_names_sent_twice_at_once_stores_one_game(server, keeper):
    night = keeper.night(["Ann"])
    for n in range(REPEATS):
        _, hidden = keeper.phone.form(f"/nights/{night}/games/import")
        record = {
            "format": "scorekeeper-game/1", "variant": "rummy",
            "settings": {"target_score": 20},
            "players": ["Ann", f"Imp{n}a", f"Imp{n}b"],
            "rounds": [{"went_out": "Ann", "hands": {f"Imp{n}a": 5, f"Imp{n}b": 7}}],
        }  # fmt: skip
        form = {**hidden, "record": json.dumps(record)}
        landed = _same_post_twice(keeper, f"/nights/{night}/games/import", form)
        assert landed[0] == landed[1], landed
    with connect(server.db_url) as conn:
        games = conn.execute("SELECT count(*) FROM games WHERE night_id = %s", (night,))
        assert games.fetchone()[0] == REPEATS
    assert integrity_problems(server.db_url) == []


def test_a_person_added_twice_at_once_is_on_the_list_once(server, keeper):
    night = keeper.night(["Ann"])
    for n in range(REPEATS):
        _, hidden = keeper.phone.form(f"/nights/{night}")
        landed = _same_post_twice(keeper, f"/nights/{night}/people", {**hidden, "name": f"P{n}"})
        assert landed[0] == landed[1], landed
    with connect(server.db_url) as conn:
        people = conn.execute("SELECT count(*) FROM people WHERE night_id = %s", (night,))
        assert people.fetchone()[0] == REPEATS + 1
