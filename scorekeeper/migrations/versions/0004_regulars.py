"""Regulars: a keeper's people across nights (each night's person links to one), their
payment handles, transfers marked paid, debts carried from night to night, and settling in
whole units. Existing nights are moved onto regulars: one per keeper and name (compared
as names are: case, spacing, invisible characters and look-alike letters ignored).

Revision ID: 0004
Revises: 0003
"""

import unicodedata
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _name_key(name: str) -> str:
    # A copy of scorekeeper.rules.name_key as it was when this migration was written.
    folded = unicodedata.normalize("NFKC", name).casefold()
    visible = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return " ".join(visible.split())


def upgrade():
    op.create_table(
        "regulars",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("merged_into_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["merged_into_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner_id", "name_key"),
    )
    with op.batch_alter_table("regulars", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_regulars_owner_id"), ["owner_id"], unique=False)
    op.create_table(
        "payment_handles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("regular_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("value", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["regular_id"], ["regulars.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("payment_handles", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_payment_handles_regular_id"), ["regular_id"], unique=False
        )
    op.create_table(
        "transfer_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("paid", sa.Boolean(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"]),
        sa.ForeignKeyConstraint(["payee_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["payer_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("transfer_marks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfer_marks_night_id"), ["night_id"], unique=False)
    op.create_table(
        "carries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("from_night_id", sa.Integer(), nullable=False),
        sa.Column("to_night_id", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("written_off_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("written_off_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["from_night_id"], ["nights.id"]),
        sa.ForeignKeyConstraint(["payee_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["payer_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["to_night_id"], ["nights.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["written_off_by"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("carries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_carries_from_night_id"), ["from_night_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_carries_to_night_id"), ["to_night_id"], unique=False)
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("settle_unit", sa.Integer(), server_default="1", nullable=False)
        )
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.add_column(sa.Column("regular_id", sa.Integer(), nullable=True))

    # Every person of every night onto the keeper's regular of that name.
    conn = op.get_bind()
    people = sa.table(
        "people",
        sa.column("id", sa.Integer),
        sa.column("night_id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("regular_id", sa.Integer),
    )
    nights = sa.table(
        "nights",
        sa.column("id", sa.Integer),
        sa.column("owner_id", sa.Integer),
        sa.column("played_on", sa.Date),
    )
    regulars = sa.table(
        "regulars",
        sa.column("id", sa.Integer),
        sa.column("owner_id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    rows = conn.execute(
        sa.select(people.c.id, people.c.name, nights.c.owner_id)
        .select_from(people.join(nights, people.c.night_id == nights.c.id))
        .order_by(nights.c.played_on, nights.c.id, people.c.id)
    ).fetchall()
    found: dict[tuple[int, str], int] = {}
    now = datetime.now(UTC)
    for row in rows:
        key = (row.owner_id, _name_key(row.name))
        if key not in found:
            found[key] = conn.execute(
                sa.insert(regulars)
                .values(owner_id=row.owner_id, name=row.name, name_key=key[1], created_at=now)
                .returning(regulars.c.id)
            ).scalar_one()
        conn.execute(sa.update(people).where(people.c.id == row.id).values(regular_id=found[key]))

    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.alter_column("regular_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f("ix_people_regular_id"), ["regular_id"], unique=False)
        batch_op.create_foreign_key(
            "fk_people_regular_id_regulars", "regulars", ["regular_id"], ["id"]
        )


def downgrade():
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.drop_constraint("fk_people_regular_id_regulars", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_people_regular_id"))
        batch_op.drop_column("regular_id")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_column("settle_unit")
    with op.batch_alter_table("carries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_carries_to_night_id"))
        batch_op.drop_index(batch_op.f("ix_carries_from_night_id"))
    op.drop_table("carries")
    with op.batch_alter_table("transfer_marks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transfer_marks_night_id"))
    op.drop_table("transfer_marks")
    with op.batch_alter_table("payment_handles", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_payment_handles_regular_id"))
    op.drop_table("payment_handles")
    with op.batch_alter_table("regulars", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_regulars_owner_id"))
    op.drop_table("regulars")
