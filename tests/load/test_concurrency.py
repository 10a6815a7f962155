"""Two phones at once against gunicorn (3 workers) on PostgreSQL: the same POST sent twice
at the same instant is recorded once; two different changes made against the same version
of a game: exactly one is saved, the other is refused with 409 and says so."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from .harness import (
    Account,
    GameLog,
    Phone,
    Server,
    game_problems,
    integrity_problems,
    page_text,
    race,
    random_round,
    read_round_form,
)

pytestmark = pytest.mark.slow
REPEATS = 6
PLAYERS = ["Ann", "Bob", "Cy"]


def rounds_played(phone: Phone, game: int) -> int:
    return json.loads(phone.get(f"/api/v1/games/{game}").text)["standings"]["rounds_played"]


@pytest.fixture
def table(server: Server) -> tuple[Account, int]:
    keeper = Account(server.port, f"race-{uuid.uuid4().hex[:10]}@example.com")
    keeper.signup()
    night = keeper.night(PLAYERS)
    return keeper, keeper.game(night, "rummy", PLAYERS, target_score="100000")


def test_the_same_round_posted_twice_at_once_is_recorded_once(server, table):
    keeper, game = table
    rng = random.Random(1)
    url = f"/games/{game}/rounds/new"
    log = GameLog(game, "rummy")
    inside = 0  # races where the second POST read the game before the first committed
    for n in range(1, REPEATS + 1):
        form = read_round_form(keeper.phone.get(url).text)
        assert form.number == n
        fields, expected = random_round(form, rng, "rummy")
        body = {**form.hidden, **fields}  # one session cookie, CSRF token, submission id
        phones = [keeper.phone.copy(), keeper.phone.copy()]
        replies = race(*(lambda p=p, b=body: p.post(url, b) for p in phones))
        assert [r.status for r in replies] == [302, 302], [page_text(r.text)[:300] for r in replies]
        saved = [i for i, r in enumerate(replies) if f"saved={n}" in r.location]
        assert len(saved) == 1, [r.location for r in replies]
        other = phones[1 - saved[0]]
        sheet = page_text(other.get(f"/games/{game}").text)
        # (which round it names is checked in test_a_double_tap_names_the_round_it_saved)
        assert "was already saved (sent twice): it is recorded once." in sheet
        inside += f"Deal {n} was already saved" in sheet  # else it names deal n + 1 (Rummy)
        assert rounds_played(keeper.phone, game) == n
        log.acknowledged[n] = expected
    print(f"\n{inside} of {REPEATS}: the second POST read the game before the first committed")
    assert game_problems(server.db_url, keeper.phone, [log], exact=True) == []
    assert integrity_problems(server.db_url) == []


def test_two_phones_saving_different_rounds_at_once_one_is_refused(server, table):
    keeper, game = table
    rng = random.Random(2)
    url = f"/games/{game}/rounds/new"
    phones = [keeper.phone, keeper.another_phone()]  # two sessions of the same keeper
    log = GameLog(game, "rummy")
    for n in range(1, REPEATS + 1):
        forms = [read_round_form(p.get(url).text) for p in phones]
        assert forms[0].hidden["version"] == forms[1].hidden["version"]
        assert forms[0].hidden["submission"] != forms[1].hidden["submission"]
        typed = [random_round(f, rng, "rummy") for f in forms]
        bodies = [{**f.hidden, **t[0]} for f, t in zip(forms, typed, strict=True)]
        replies = race(
            *(lambda p=p, b=b: p.post(url, b) for p, b in zip(phones, bodies, strict=True))
        )
        statuses = [r.status for r in replies]
        assert sorted(statuses) == [302, 409], statuses
        winner, loser = (0, 1) if statuses[0] == 302 else (1, 0)
        refused = page_text(replies[loser].text)
        assert "changed on another phone" in refused and "was not saved" in refused, refused
        assert rounds_played(keeper.phone, game) == n  # never both, never neither
        log.acknowledged[n] = typed[winner][1]
    assert game_problems(server.db_url, keeper.phone, [log], exact=True) == []


def test_two_corrections_of_the_same_round_at_once_one_is_refused(server, table):
    keeper, game = table
    rng = random.Random(3)
    phones = [keeper.phone, keeper.another_phone()]
    log = GameLog(game, "rummy")
    for n in (1, 2):
        form = read_round_form(keeper.phone.get(f"/games/{game}/rounds/new").text)
        fields, log.acknowledged[n] = random_round(form, rng, "rummy")
        r = keeper.phone.post(f"/games/{game}/rounds/new", {**form.hidden, **fields})
        assert r.status == 302
    url = f"/games/{game}/rounds/1"
    for _ in range(REPEATS):
        forms = [read_round_form(p.get(url).text) for p in phones]
        typed = [random_round(f, rng, "rummy") for f in forms]
        bodies = [{**f.hidden, **t[0]} for f, t in zip(forms, typed, strict=True)]
        replies = race(
            *(lambda p=p, b=b: p.post(url, b) for p, b in zip(phones, bodies, strict=True))
        )
        statuses = [r.status for r in replies]
        assert sorted(statuses) == [302, 409], statuses
        winner = statuses.index(302)
        assert "changed on another phone" in page_text(replies[1 - winner].text)
        log.acknowledged[1] = typed[winner][1]
    assert rounds_played(keeper.phone, game) == 2
    assert game_problems(server.db_url, keeper.phone, [log], exact=True) == []
    history = page_text(keeper.phone.get(f"/games/{game}/history").text)
    assert history.count("Deal 1 corrected:") == REPEATS  # one per race: the winner's


# Which round the messages name. Sequential, so the outcome does not depend on timing: the
# second request starts after the first committed, which is also what happens in a race
# whenever one request is a little late.
def test_a_double_tap_names_the_round_it_saved(server, table):
    keeper, game = table
    url = f"/games/{game}/rounds/new"
    form = read_round_form(keeper.phone.get(url).text)
    fields, _ = random_round(form, random.Random(4), "rummy")
    body = {**form.hidden, **fields}
    assert keeper.phone.post(url, body).status == 302
    again = keeper.phone.post(url, body)  # the double tap
    assert again.status == 302
    sheet = page_text(keeper.phone.get(f"/games/{game}").text)
    assert rounds_played(keeper.phone, game) == 1
    flash = sheet[sheet.find("Deal ") :][:70]
    assert "Deal 1 was already saved (sent twice)" in sheet, flash


def test_a_refused_round_names_the_round_that_was_typed(server, table):
    keeper, game = table
    url = f"/games/{game}/rounds/new"
    phones = [keeper.phone, keeper.another_phone()]
    forms = [read_round_form(p.get(url).text) for p in phones]  # both show round 1
    assert [f.number for f in forms] == [1, 1]
    rng = random.Random(5)
    bodies = [{**f.hidden, **random_round(f, rng, "rummy")[0]} for f in forms]
    assert phones[0].post(url, bodies[0]).status == 302
    refused = phones[1].post(url, bodies[1])
    assert refused.status == 409
    text = page_text(refused.text)
    message = text[text.find("This game was changed") :][:140]
    assert "so your deal 1 was not saved" in text, message
