"""co-keepers: keeper links and the accounts that keep a night with its owner

Revision ID: 0012_co_keepers
Revises: 0011_accounts
Create Date: 2026-11-28 21:00:00

``keeper_links``: the link a keeper hands out (one in force per night, a partial unique
index, like ``live_links``). ``co_keepers``: who else keeps a night, one row per night and
account (removing one deletes the row).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0012_co_keepers'
down_revision = '0011_accounts'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'keeper_links',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=43), nullable=False),
        sa.Column('night_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['night_id'], ['nights.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('keeper_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_keeper_links_token'), ['token'], unique=True)
        batch_op.create_index(batch_op.f('ix_keeper_links_night_id'), ['night_id'],
                              unique=False)
        batch_op.create_index('uq_keeper_links_night_in_force', ['night_id'], unique=True,
                              sqlite_where=sa.text('revoked_at IS NULL'),
                              postgresql_where=sa.text('revoked_at IS NULL'))
    op.create_table(
        'co_keepers',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('night_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['night_id'], ['nights.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('night_id', 'user_id'),
    )
    with op.batch_alter_table('co_keepers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_co_keepers_user_id'), ['user_id'], unique=False)
    # Who recorded a ledger entry may be an account deleted since (a co-keeper's): the
    # entry stays, recorded by nobody, rather than re-attributed to someone else.
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=True)


def downgrade():
    # Before co-keepers only a night's owner recorded its money: entries left by a deleted
    # account go back to the owner, as that schema can say no more.
    op.execute(
        "UPDATE ledger_entries SET user_id = (SELECT owner_id FROM nights"
        " WHERE nights.id = ledger_entries.night_id) WHERE user_id IS NULL"
    )
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.alter_column('user_id', existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table('co_keepers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_co_keepers_user_id'))
    op.drop_table('co_keepers')
    with op.batch_alter_table('keeper_links', schema=None) as batch_op:
        batch_op.drop_index('uq_keeper_links_night_in_force')
        batch_op.drop_index(batch_op.f('ix_keeper_links_night_id'))
        batch_op.drop_index(batch_op.f('ix_keeper_links_token'))
    op.drop_table('keeper_links')
