"""game_results: each person's results of each game, kept so that stats need no replay.

Revision ID: 0009
Revises: 0008

Filled here for every stored game by the rules engine, from the game's record as the app
builds it (its header, the seats of round 1 and the rounds); a game whose record no longer
replays (none should) is left out and worked out when the stats are read.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _records(conn):
    games = conn.execute(
        sa.text("SELECT id, variant, settings, first_dealer, version FROM games")
    ).all()
    seats = conn.execute(
        sa.text(
            "SELECT s.game_id, s.position, s.handicap, s.joined_round, p.id, p.name "
            "FROM seats s JOIN people p ON p.id = s.person_id ORDER BY s.game_id, s.position"
        )
    ).all()
    rounds = conn.execute(
        sa.text("SELECT game_id, data FROM game_rounds ORDER BY game_id, number")
    ).all()
    by_game_seats, by_game_rounds = {}, {}
    for row in seats:
        by_game_seats.setdefault(row[0], []).append(row)
    for row in rounds:
        data = row[1] if isinstance(row[1], dict) else json.loads(row[1])
        by_game_rounds.setdefault(row[0], []).append(data)
    for game_id, variant, settings, first_dealer, version in games:
        settings = settings if isinstance(settings, dict) else json.loads(settings)
        seated = by_game_seats.get(game_id, [])
        players = [
            {"name": s[5], "handicap": s[2]} if s[2] else s[5] for s in seated if s[3] == 0
        ]
        record = {
            "format": "scorekeeper-game/1",
            "variant": variant,
            "settings": settings,
            "players": players,
            "first_dealer": first_dealer,
            "rounds": by_game_rounds.get(game_id, []),
        }
        yield game_id, version, record, {s[5].casefold(): s[4] for s in seated}


def upgrade():
    op.create_table(
        "game_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "person_id"),
    )
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_results_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_game_results_person_id"), ["person_id"], unique=False
        )

    from scorekeeper.rules import GameRecord, RecordError, name_key, replay

    conn = op.get_bind()
    table = sa.table(
        "game_results",
        *(sa.column(c) for c in ("game_id", "person_id", "version", "finished", "won",
                                 "place", "players", "balance")),
    )  # fmt: skip
    rows = []
    for game_id, version, record, people in _records(conn):
        try:
            standings = replay(GameRecord.from_json(record))
        except RecordError:
            continue
        by_key = {name_key(name): pid for name, pid in people.items()}
        for p in standings.players:
            person_id = by_key.get(name_key(p.name))
            if person_id is None:
                continue
            rows.append(
                {
                    "game_id": game_id,
                    "person_id": person_id,
                    "version": version,
                    "finished": standings.finished,
                    "won": any(name_key(w) == name_key(p.name) for w in standings.winners),
                    "place": p.place,
                    "players": len(standings.players),
                    "balance": standings.pot.balances.get(p.name, 0) if standings.finished else 0,
                }
            )
    if rows:
        conn.execute(sa.insert(table), rows)


def downgrade():
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_results_person_id"))
        batch_op.drop_index(batch_op.f("ix_game_results_game_id"))
    op.drop_table("game_results")
