"""Merges of regulars are recorded (and can be undone); loops and chains of merged
regulars left by racing merges are repaired.

Revision ID: 0008
Revises: 0007

Two merges at once could store X merged into Y and Y into X: both vanished, and finding
either followed the pointers for ever. Each chain of ``merged_into_id`` is now followed
with a bound: a loop keeps its lowest id as the live regular, and every merged regular
points straight at a live one (one hop). People and ledger entries left on a merged
regular (a merge racing "add person") move to the live one. A regular can no longer be
merged into itself (a check). Merges made before this migration have no record, so they
cannot be undone.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

regulars = sa.table(
    "regulars", sa.column("id", sa.Integer), sa.column("merged_into_id", sa.Integer)
)
people = sa.table("people", sa.column("id", sa.Integer), sa.column("regular_id", sa.Integer))
entries = sa.table(
    "ledger_entries",
    sa.column("id", sa.Integer),
    sa.column("payer_id", sa.Integer),
    sa.column("payee_id", sa.Integer),
)


def _live_of(pointers: dict[int, int | None]) -> dict[int, int]:
    """For each merged regular, the live one it ends at (a loop ends at its lowest id)."""
    live: dict[int, int] = {}
    for start in pointers:
        path: list[int] = []
        at: int | None = start
        while at is not None and pointers.get(at) is not None and at not in path:
            path.append(at)
            at = pointers[at]
        if at is None or at not in pointers:  # a pointer to a missing row: treat as live
            end = path[-1] if at is None else at
        elif at in path:  # a loop: its lowest id is the live one
            end = min(path[path.index(at) :])
        else:
            end = at
        for regular in path:
            if regular != end:
                live[regular] = end
    return live


def upgrade():
    op.create_table(
        "regular_merges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("kept_id", sa.Integer(), nullable=False),
        sa.Column("gone_id", sa.Integer(), nullable=False),
        sa.Column("moved", sa.JSON(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["gone_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["kept_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("regular_merges", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_regular_merges_owner_id"), ["owner_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_regular_merges_gone_id"), ["gone_id"], unique=False)

    conn = op.get_bind()
    pointers = dict(conn.execute(sa.select(regulars.c.id, regulars.c.merged_into_id)).all())
    live = _live_of(pointers)
    for regular_id, end in live.items():
        if pointers[regular_id] != end:
            conn.execute(
                sa.update(regulars).where(regulars.c.id == regular_id).values(merged_into_id=end)
            )
        conn.execute(
            sa.update(people).where(people.c.regular_id == regular_id).values(regular_id=end)
        )
        for column in ("payer_id", "payee_id"):
            conn.execute(
                sa.update(entries)
                .where(getattr(entries.c, column) == regular_id)
                .values({column: end})
            )
    ends = set(live.values())
    for end in ends:
        if pointers.get(end) is not None:  # the lowest id of a loop: live again
            conn.execute(
                sa.update(regulars).where(regulars.c.id == end).values(merged_into_id=None)
            )
    with op.batch_alter_table("regulars", schema=None) as batch_op:
        batch_op.create_check_constraint("ck_regulars_not_into_itself", "merged_into_id <> id")


def downgrade():
    with op.batch_alter_table("regulars", schema=None) as batch_op:
        batch_op.drop_constraint("ck_regulars_not_into_itself", type_="check")
    with op.batch_alter_table("regular_merges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_regular_merges_gone_id"))
        batch_op.drop_index(batch_op.f("ix_regular_merges_owner_id"))
    op.drop_table("regular_merges")
