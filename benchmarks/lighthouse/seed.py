"""Seed a fresh Scorekeeper database for the Lighthouse run and print what run.py needs.

    seed.py DATABASE_URI SECRET_KEY   ->   {"night": 1, "game": 1, "live": "/live/...",
                                            "night_live": "/live/night/...",
                                            "cookie": "session=..."}

The database is migrated from empty; a keeper signs up through the app (so the session
and remember cookies are real ones, signed with SECRET_KEY, valid in the server started
with the same key); the night and the long game are made with the app's services: ten
players of Vegas Rummy, sixty rounds, re-buys and flipped wild cards included. The game is
shown to players (its live link, read with no cookie). The same night has two finished
games (Rummy of six, Vegas of three with a re-buy and a drop), so its payout page has
transfers to pay and nets to read; the night is shown to players too (its live link).
"""

from __future__ import annotations

import json
import random
import re
import sys
from datetime import date

from flask_migrate import upgrade
from sqlalchemy import select

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import Night, User
from scorekeeper.services import live

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"]
ROUNDS = 60
EMAIL = "keeper@example.com"
PASSWORD = "correct horse battery"
CARDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK", "W"]
SUITS = "CDHS"


# Two finished games of the night: the payout page's transfers and nets.
FINISHED: list[dict[str, object]] = [
    {
        "format": "scorekeeper-game/1",
        "variant": "rummy",
        "settings": {"buy_in": 300, "target_score": 100, "currency": "USD"},
        "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"],
        "rounds": [
            {"went_out": "Bob", "hands": {"Ann": 10, "Cy": 5, "Dee": 8, "Eve": 12, "Finn": 3}},
            {"went_out": "Ann", "hands": {"Bob": 20, "Cy": 25, "Dee": 30, "Eve": 15, "Finn": 10}},
        ],
    },
    {
        "format": "scorekeeper-game/1",
        "variant": "vegas",
        "settings": {"buy_in": 200, "max_score": 100, "pot_split": [70, 30], "currency": "USD"},
        "players": ["Gus", "Hana", "Ivo"],
        "rounds": [
            {"went_out": "Gus", "hands": {"Hana": 60, "Ivo": 30}, "wild": "7C"},
            {"went_out": "Gus", "hands": {"Hana": 45, "Ivo": 20}, "wild": "QH"},
            {"went_out": "Ivo", "hands": {"Gus": 40, "Hana": 55}, "wild": "JK", "drops": ["Hana"]},
            {
                "went_out": "Gus",
                "hands": {"Ivo": ["K", "Q", "J", "10", "9", "5", "W"]},
                "wild": "3S",
            },
        ],
    },
]


def hidden_inputs(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*type="hidden"[^>]*value="([^"]*)"', html))


def main(uri: str, secret_key: str) -> dict[str, object]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": secret_key})
    with app.app_context():
        upgrade()
    client = app.test_client()
    page = client.get("/signup").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "no CSRF token on /signup"
    r = client.post(
        "/signup",
        data={"csrf_token": token.group(1), "email": EMAIL, "password": PASSWORD,
              "confirm": PASSWORD},
    )  # fmt: skip
    assert r.status_code == 302, r.status_code
    page = client.get("/login").get_data(as_text=True)  # signing up logs nobody in
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "no CSRF token on /login"
    r = client.post(
        "/login",
        data={"csrf_token": token.group(1), "email": EMAIL, "password": PASSWORD,
              "remember": "y"},
    )  # fmt: skip
    assert r.status_code == 302, r.status_code

    rng = random.Random(2026)
    with app.app_context():
        user = db.session.scalar(select(User).where(User.email == EMAIL))
        night = services.create_night(
            user, name="Friday at Ann's", played_on=date(2026, 11, 20), currency="USD",
            paper="Letter", people=PLAYERS,
        )  # fmt: skip
        game = services.create_game(
            db.session.get(Night, night.id), variant="vegas",
            players=[(name, 0) for name in PLAYERS], first_dealer="Ann",
            settings={"buy_in": 200, "pot_split": [70, 30], "currency": "USD"}, user=user,
        )  # fmt: skip
        for number in range(1, ROUNDS + 1):
            went_out = PLAYERS[(number * 3) % len(PLAYERS)]
            for most in (35, 20, 10, 5, 2, 0):
                hands: dict[str, object] = {}
                for name in PLAYERS:
                    if name == went_out:
                        continue
                    if most >= 20 and rng.random() < 0.3:  # cards left, counted by the app
                        hands[name] = rng.sample(CARDS[:13], rng.randint(1, 3))
                    else:
                        hands[name] = rng.randint(0, most)
                wild = f"{rng.choice(CARDS[:13])}{rng.choice(SUITS)}"
                standings = services.save_round(
                    game, {"went_out": went_out, "hands": hands, "wild": wild}, number=None,
                    expected_version=None, submission=None, user=user,
                )  # fmt: skip
                if not standings.finished:
                    break
                # Only one player left under the max: the game would end. Smaller hands.
                services.remove_last_round(game, expected_version=None, submission=None, user=user)
            assert not standings.finished, f"round {number} ends the game"
        for record in FINISHED:
            done = services.import_game(
                db.session.get(Night, night.id), json.dumps(record), user=user, submission=None
            )
            assert services.standings_for(done).finished, f"{record['variant']} should be finished"
        link = live.open_link(game_id=game.id)
        night_link = live.open_link(night_id=night.id)
        ids = {
            "night": night.id,
            "game": game.id,
            "live": f"/live/{link.token}",
            "night_live": f"/live/night/{night_link.token}",
        }
    cookies = [f"{name}={client.get_cookie(name).value}" for name in ("session", "remember_token")]
    check = client.get(f"/games/{ids['game']}")
    assert check.status_code == 200, check.status_code
    check = client.get(f"/nights/{ids['night']}/payout")
    assert check.status_code == 200, check.status_code
    assert "pay-list" in check.get_data(as_text=True), "the payout page should list transfers"
    for path in (ids["live"], ids["night_live"]):
        check = app.test_client().get(str(path))
        assert check.status_code == 200, (path, check.status_code)
    return {**ids, "cookie": "; ".join(cookies)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
