"""plan claims: each ledger entry names the plan it was made against; players' claims

Revision ID: 0014_plan_claims
Revises: 0013_keeper_removals
Create Date: 2026-11-28 14:00:00

``ledger_entries.plan``: the stamp of the night's plan of who pays whom that an entry was
made against (``rules.payplan``); entries recorded before have none, and are read as made
against the plan of their own moment. ``ledger_entries.claim_id``: the player's claim ("I
paid", an entry of kind ``claim``) that a payment confirms. Going down, claims are
removed (they moved no money) and both columns go; the payments that confirmed claims
stay, as payments.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0014_plan_claims'
down_revision = '0013_keeper_removals'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('plan', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('claim_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            'fk_ledger_entries_claim_id_ledger_entries', 'ledger_entries', ['claim_id'], ['id']
        )


def downgrade():
    op.execute("UPDATE ledger_entries SET claim_id = NULL")
    op.execute("DELETE FROM ledger_entries WHERE kind = 'claim'")
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.drop_constraint('fk_ledger_entries_claim_id_ledger_entries', type_='foreignkey')
        batch_op.drop_column('claim_id')
        batch_op.drop_column('plan')
