"""Issue 22, point 6: Undo stays reachable. After a round is saved, the sheet keeps "Round
N saved. Undo" until the game changes (the next round entered, or anything else): on the
page it opened at, on a reload, and on the sheet opened again from elsewhere (never a 304
of a copy without it). Undo removes the round once under a double tap and refuses when
the game changed meanwhile."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.web.keeper import Keeper, inputs, text_of


@pytest.fixture
def keeper(client: FlaskClient) -> Keeper:
    k = Keeper(client)
    k.signup()
    return k


def undo_of(html: str) -> str | None:
    """The round number the sheet's Undo offers, or None when there is no Undo."""
    found = re.search(
        r'class="undo" data-undo>.*?<span>(?:Round|Deal) (\d+) saved\.</span>', html, re.S
    )
    return found.group(1) if found else None


def undo_fields(html: str) -> dict[str, str]:
    form = re.search(r'<form[^>]*class="undo" data-undo>(.*?)</form>', html, re.S)
    assert form, "no Undo on the sheet"
    return inputs(form.group(1))


def rounds_played(client: FlaskClient, game: int) -> int:
    return int(client.get(f"/api/v1/games/{game}").get_json()["standings"]["rounds_played"])


def test_undo_stays_on_the_sheet_until_the_next_round(keeper: Keeper, client: FlaskClient) -> None:
    night = keeper.night(["Ann", "Bob", "Cy"])
    game = keeper.game(night, "rummy", ["Ann", "Bob", "Cy"])
    saved = keeper.enter(game, "Ann", {"Bob": 5, "Cy": 7})
    assert saved.headers["Location"] == f"/games/{game}?saved=1"
    assert undo_of(client.get(saved.headers["Location"]).get_data(as_text=True)) == "1"
    # The sheet opened again without ?saved (from the night page, after a while), and
    # asked with the ETag of a copy: the Undo is still there, in a full answer.
    plain = client.get(f"/games/{game}")
    assert plain.status_code == 200 and undo_of(plain.get_data(as_text=True)) == "1"
    client.get(f"/nights/{night}")
    again = client.get(f"/games/{game}", headers={"If-None-Match": '"anything"'})
    assert again.status_code == 200 and undo_of(again.get_data(as_text=True)) == "1"
    assert 'class="just-saved"' not in again.get_data(as_text=True)

    # The next round: its Undo replaces the first one's; the first one's page shows none
    # of round 1 (round 1 is not the last any more).
    saved = keeper.enter(game, "Bob", {"Ann": 3, "Cy": 4})
    assert undo_of(client.get(saved.headers["Location"]).get_data(as_text=True)) == "2"
    assert undo_of(client.get(f"/games/{game}?saved=1").get_data(as_text=True)) == "2"
    assert undo_of(client.get(f"/games/{game}").get_data(as_text=True)) == "2"

    # Undo, tapped twice: round 2 goes once; then no Undo is left to show.
    fields = undo_fields(client.get(f"/games/{game}").get_data(as_text=True))
    first = client.post(f"/games/{game}/rounds/last/delete", data=fields)
    second = client.post(f"/games/{game}/rounds/last/delete", data=fields)
    assert first.status_code == second.status_code == 302
    assert rounds_played(client, game) == 1
    page = client.get(f"/games/{game}")
    assert "That deal was already removed." in text_of(page)  # Rummy says deal
    assert undo_of(page.get_data(as_text=True)) is None
    assert undo_of(client.get(f"/games/{game}").get_data(as_text=True)) is None


def test_a_kept_undo_refuses_once_the_game_changed(keeper: Keeper, client: FlaskClient) -> None:
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    client.get(keeper.enter(game, "Ann", {"Bob": 20}).headers["Location"])
    kept = client.get(f"/games/{game}").get_data(as_text=True)
    assert undo_of(kept) == "1"
    # Round 1 corrected (from this phone or another): the Undo of the old page is refused,
    # nothing is removed, and the sheet no longer offers it.
    assert keeper.enter(game, "Ann", {"Bob": 25}, number=1).status_code == 302
    refused = client.post(f"/games/{game}/rounds/last/delete", data=undo_fields(kept))
    assert refused.status_code == 302
    page = client.get(f"/games/{game}")
    assert "nothing was removed" in text_of(page)
    assert rounds_played(client, game) == 1
    assert undo_of(page.get_data(as_text=True)) is None


def test_an_old_saved_link_offers_no_undo_of_a_round_not_last(
    keeper: Keeper, client: FlaskClient
) -> None:
    """?saved=1 of another phone's round 1 after round 2: no Undo that names round 1."""
    night = keeper.night(["Ann", "Bob"])
    game = keeper.game(night, "rummy", ["Ann", "Bob"])
    assert keeper.enter(game, "Ann", {"Bob": 20}).status_code == 302
    other = Keeper(client.application.test_client())
    other.login("keeper@example.com")
    saved = other.enter(game, "Bob", {"Ann": 4})
    assert undo_of(other.client.get(saved.headers["Location"]).get_data(as_text=True)) == "2"
    html = client.get(f"/games/{game}?saved=1").get_data(as_text=True)
    assert undo_of(html) is None
    assert other.client.get(f"/games/{game}").get_data(as_text=True).count("Deal 2 saved.") == 1
