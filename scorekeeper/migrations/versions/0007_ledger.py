"""The ledger: payments, carries and write-offs become entries; money in the currency's
minor unit; each night's locale.

Revision ID: 0007
Revises: 0006

- Every transfer whose latest mark says "paid" becomes a payment of that amount (who
  marked it and when); every carried debt a carry; a carried debt written off also a
  write-off on the night it was carried into. ``transfer_marks`` and ``carries`` go.
- Nights get a ``locale`` (``en``): money on their pages is written in it.
- Zero-decimal currencies (JPY, KRW, ISK...) were kept in hundredths: every stored amount
  of such a night or game (game settings ``buy_in``, ``ante``, ``per_round``, the ones in
  each game's creating history entry, the ledger, the night's rounding step) is divided by
  100, rounded half up to a whole unit, and an amount that was above 0 stays at least 1
  (a fraction of a yen had no coin). Three-decimal currencies were never offered, so no
  amount of one is stored.

The downgrade turns payments back into "paid" marks and carries back into carried debts
(written off when a write-off names them), and multiplies zero-decimal amounts by 100.
"""

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# The currencies with no minor unit, as Babel (ISO 4217) gives them, among those a night
# could have had when this migration was written.
ZERO_DECIMAL = ("JPY", "KRW", "ISK", "CLP", "VND", "PYG", "UGX", "XAF", "XOF")
MONEY_SETTINGS = ("buy_in", "ante", "per_round")
ZERO_DECIMAL_STEPS = (1, 10, 50, 100, 500, 1000)

nights = sa.table(
    "nights",
    sa.column("id", sa.Integer),
    sa.column("currency", sa.String),
    sa.column("settle_unit", sa.Integer),
)
games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("night_id", sa.Integer),
    sa.column("settings", sa.JSON),
)
edits = sa.table(
    "edits",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("action", sa.String),
    sa.column("after", sa.Text),
)
marks = sa.table(
    "transfer_marks",
    sa.column("id", sa.Integer),
    sa.column("night_id", sa.Integer),
    sa.column("payer_id", sa.Integer),
    sa.column("payee_id", sa.Integer),
    sa.column("amount", sa.Integer),
    sa.column("paid", sa.Boolean),
    sa.column("user_id", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
carries = sa.table(
    "carries",
    sa.column("id", sa.Integer),
    sa.column("from_night_id", sa.Integer),
    sa.column("to_night_id", sa.Integer),
    sa.column("payer_id", sa.Integer),
    sa.column("payee_id", sa.Integer),
    sa.column("amount", sa.Integer),
    sa.column("user_id", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("written_off_at", sa.DateTime(timezone=True)),
    sa.column("written_off_by", sa.Integer),
)
entries = sa.table(
    "ledger_entries",
    sa.column("id", sa.Integer),
    sa.column("night_id", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("payer_id", sa.Integer),
    sa.column("payee_id", sa.Integer),
    sa.column("amount", sa.BigInteger),
    sa.column("to_night_id", sa.Integer),
    sa.column("user_id", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("submission", sa.String),
    sa.column("undone_at", sa.DateTime(timezone=True)),
    sa.column("undone_by", sa.Integer),
)


def _whole_units(hundredths: int) -> int:
    if hundredths <= 0:
        return hundredths
    return max(1, (hundredths + 50) // 100)


def _step(hundredths: int) -> int:
    units = _whole_units(hundredths)
    return max(s for s in ZERO_DECIMAL_STEPS if s <= units)


def _create_marks_and_carries() -> None:
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


def _drop_marks_and_carries() -> None:
    with op.batch_alter_table("carries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_carries_to_night_id"))
        batch_op.drop_index(batch_op.f("ix_carries_from_night_id"))
    op.drop_table("carries")
    with op.batch_alter_table("transfer_marks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transfer_marks_night_id"))
    op.drop_table("transfer_marks")


def _convert_zero_decimal(conn, convert, step) -> None:
    """Every stored amount of zero-decimal nights and games through ``convert``, their
    rounding step through ``step``."""
    zero = conn.execute(
        sa.select(nights.c.id, nights.c.settle_unit).where(nights.c.currency.in_(ZERO_DECIMAL))
    ).all()
    for night_id, unit in zero:
        conn.execute(
            sa.update(nights).where(nights.c.id == night_id).values(settle_unit=step(unit or 1))
        )
        for entry_id, amount in conn.execute(
            sa.select(entries.c.id, entries.c.amount).where(entries.c.night_id == night_id)
        ).all():
            conn.execute(
                sa.update(entries).where(entries.c.id == entry_id).values(amount=convert(amount))
            )
    for game_id, settings in conn.execute(sa.select(games.c.id, games.c.settings)).all():
        settings = settings if isinstance(settings, dict) else json.loads(settings or "{}")
        if settings.get("currency") not in ZERO_DECIMAL:
            continue
        changed = {k: convert(v) for k, v in settings.items() if k in MONEY_SETTINGS}
        if changed:
            conn.execute(
                sa.update(games)
                .where(games.c.id == game_id)
                .values(settings={**settings, **changed})
            )
        for edit_id, after in conn.execute(
            sa.select(edits.c.id, edits.c.after).where(
                edits.c.game_id == game_id, edits.c.action.in_(("create", "import"))
            )
        ).all():
            record = json.loads(after) if after else None
            if not isinstance(record, dict) or not isinstance(record.get("settings"), dict):
                continue
            kept = record["settings"]
            kept.update({k: convert(v) for k, v in kept.items() if k in MONEY_SETTINGS})
            conn.execute(
                sa.update(edits).where(edits.c.id == edit_id).values(after=json.dumps(record))
            )


def upgrade():
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("to_night_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("submission", sa.String(length=64), nullable=True),
        sa.Column("games_part", sa.JSON(), nullable=True),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("undone_by", sa.Integer(), nullable=True),
        sa.CheckConstraint("amount > 0", name="ck_ledger_entries_amount"),
        sa.CheckConstraint("payer_id <> payee_id", name="ck_ledger_entries_two_people"),
        sa.CheckConstraint(
            "(kind = 'carry') = (to_night_id IS NOT NULL)", name="ck_ledger_entries_carry_target"
        ),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"]),
        sa.ForeignKeyConstraint(["payee_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["payer_id"], ["regulars.id"]),
        sa.ForeignKeyConstraint(["to_night_id"], ["nights.id"]),
        sa.ForeignKeyConstraint(["undone_by"], ["users.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("night_id", "submission", "payer_id", "payee_id"),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_entries_night_id"), ["night_id"], unique=False)
        batch_op.create_index("ix_ledger_entries_to_night_id", ["to_night_id"], unique=False)
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("locale", sa.String(length=20), server_default="en", nullable=False)
        )

    conn = op.get_bind()
    # The latest mark of each transfer says where it stood: "paid" is a payment.
    latest: dict[tuple[int, int, int, int], object] = {}
    for row in conn.execute(sa.select(marks).order_by(marks.c.id)).all():
        latest[(row.night_id, row.payer_id, row.payee_id, row.amount)] = row
    rows = []
    for row in latest.values():
        if row.paid and row.amount > 0 and row.payer_id != row.payee_id:
            rows.append(
                dict(night_id=row.night_id, kind="payment", payer_id=row.payer_id,
                     payee_id=row.payee_id, amount=row.amount, to_night_id=None,
                     user_id=row.user_id, created_at=row.created_at)
            )  # fmt: skip
    for row in conn.execute(sa.select(carries).order_by(carries.c.id)).all():
        if row.amount <= 0 or row.payer_id == row.payee_id:
            continue
        rows.append(
            dict(night_id=row.from_night_id, kind="carry", payer_id=row.payer_id,
                 payee_id=row.payee_id, amount=row.amount, to_night_id=row.to_night_id,
                 user_id=row.user_id, created_at=row.created_at)
        )  # fmt: skip
        if row.written_off_at is not None:
            rows.append(
                dict(night_id=row.to_night_id, kind="write_off", payer_id=row.payer_id,
                     payee_id=row.payee_id, amount=row.amount, to_night_id=None,
                     user_id=row.written_off_by or row.user_id, created_at=row.written_off_at)
            )  # fmt: skip
    rows.sort(key=lambda r: r["created_at"] or datetime.now(UTC))
    if rows:
        conn.execute(sa.insert(entries), rows)
    _convert_zero_decimal(conn, _whole_units, _step)
    _drop_marks_and_carries()


def downgrade():
    _create_marks_and_carries()
    conn = op.get_bind()
    _convert_zero_decimal(conn, lambda amount: amount * 100, lambda unit: unit * 100)
    live = conn.execute(
        sa.select(entries).where(entries.c.undone_at.is_(None)).order_by(entries.c.id)
    ).all()
    written_off = [e for e in live if e.kind == "write_off"]
    for e in live:
        if e.kind == "payment":
            conn.execute(
                sa.insert(marks).values(
                    night_id=e.night_id, payer_id=e.payer_id, payee_id=e.payee_id,
                    amount=e.amount, paid=True, user_id=e.user_id, created_at=e.created_at,
                )
            )  # fmt: skip
        elif e.kind == "carry":
            off = next(
                (w for w in written_off if (w.night_id, w.payer_id, w.payee_id, w.amount)
                 == (e.to_night_id, e.payer_id, e.payee_id, e.amount)),
                None,
            )  # fmt: skip
            if off is not None:
                written_off.remove(off)
            conn.execute(
                sa.insert(carries).values(
                    from_night_id=e.night_id, to_night_id=e.to_night_id, payer_id=e.payer_id,
                    payee_id=e.payee_id, amount=e.amount, user_id=e.user_id,
                    created_at=e.created_at,
                    written_off_at=None if off is None else off.created_at,
                    written_off_by=None if off is None else off.user_id,
                )
            )  # fmt: skip
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_column("locale")
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_ledger_entries_to_night_id")
        batch_op.drop_index(batch_op.f("ix_ledger_entries_night_id"))
    op.drop_table("ledger_entries")
