"""keeper removals: a removed co-keeper is barred from the night's keeper link

Revision ID: 0013_keeper_removals
Revises: 0012_co_keepers
Create Date: 2026-11-29 10:30:00

``keeper_removals``: one entry each time a night's owner removes a co-keeper; while it is
in force (``let_back_at`` empty; at most one per night and account, a partial unique
index) the keeper link does not let that account keep the night again. Removals made
before this migration left no trace, so there is nothing to carry over.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013_keeper_removals'
down_revision = '0012_co_keepers'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'keeper_removals',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('night_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('removed_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('let_back_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['night_id'], ['nights.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('keeper_removals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_keeper_removals_user_id'), ['user_id'],
                              unique=False)
        batch_op.create_index('uq_keeper_removals_in_force', ['night_id', 'user_id'],
                              unique=True, sqlite_where=sa.text('let_back_at IS NULL'),
                              postgresql_where=sa.text('let_back_at IS NULL'))


def downgrade():
    # 0012 cannot bar one account from a link: a night with someone barred has its keeper
    # link in force turned off instead, so that going down lets nobody removed back in.
    op.execute(
        "UPDATE keeper_links SET revoked_at = CURRENT_TIMESTAMP WHERE revoked_at IS NULL"
        " AND night_id IN (SELECT night_id FROM keeper_removals WHERE let_back_at IS NULL)"
    )
    with op.batch_alter_table('keeper_removals', schema=None) as batch_op:
        batch_op.drop_index('uq_keeper_removals_in_force')
        batch_op.drop_index(batch_op.f('ix_keeper_removals_user_id'))
    op.drop_table('keeper_removals')
