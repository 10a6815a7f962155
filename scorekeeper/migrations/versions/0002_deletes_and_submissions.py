"""Restorable deletes of nights and games, one-time ids of creating forms, and people's
name keys recomputed for look-alike names (NFKC, invisible characters ignored).

Revision ID: 0002
Revises: 0001
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _name_key(name: str) -> str:
    # A copy of scorekeeper.rules.name_key as it was when this migration was written.
    folded = unicodedata.normalize("NFKC", name).casefold()
    visible = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return " ".join(visible.split())


def upgrade():
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "token"),
    )
    # Name keys under the new rule. People of one night who would now share a key (names
    # that only differed by an invisible character) keep their old keys: nothing is merged
    # behind the keeper's back, and the unique constraint holds.
    conn = op.get_bind()
    people = sa.table(
        "people",
        sa.column("id", sa.Integer),
        sa.column("night_id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
    )
    nights: dict[int, list] = {}
    for row in conn.execute(sa.select(people)).fetchall():
        nights.setdefault(row.night_id, []).append(row)
    for rows in nights.values():
        wanted: dict[str, list] = {}
        for row in rows:
            wanted.setdefault(_name_key(row.name), []).append(row)
        final = {
            row.id: (key if len(group) == 1 else row.name_key)
            for key, group in wanted.items()
            for row in group
        }
        if len(set(final.values())) != len(final):
            continue  # keep this night's keys as they were
        for row in rows:
            if final[row.id] != row.name_key:
                conn.execute(
                    sa.update(people).where(people.c.id == row.id).values(name_key=final[row.id])
                )


def downgrade():
    op.drop_table("submissions")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("deleted_at")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_column("deleted_at")
