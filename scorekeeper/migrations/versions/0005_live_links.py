"""live links: a read-only view of one game or one night for the players, by token

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28 12:00:00

One row per link ever made; at most one in force (revoked_at empty) per game and per
night, kept by partial unique indexes (SQLite and PostgreSQL both have them).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('live_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=43), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('night_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('(game_id IS NULL) <> (night_id IS NULL)', name='ck_live_links_game_or_night'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id']),
    sa.ForeignKeyConstraint(['night_id'], ['nights.id']),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('live_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_live_links_token'), ['token'], unique=True)
        batch_op.create_index('uq_live_links_game_in_force', ['game_id'], unique=True,
                              sqlite_where=sa.text('revoked_at IS NULL AND game_id IS NOT NULL'),
                              postgresql_where=sa.text('revoked_at IS NULL AND game_id IS NOT NULL'))
        batch_op.create_index('uq_live_links_night_in_force', ['night_id'], unique=True,
                              sqlite_where=sa.text('revoked_at IS NULL AND night_id IS NOT NULL'),
                              postgresql_where=sa.text('revoked_at IS NULL AND night_id IS NOT NULL'))


def downgrade():
    with op.batch_alter_table('live_links', schema=None) as batch_op:
        batch_op.drop_index('uq_live_links_night_in_force')
        batch_op.drop_index('uq_live_links_game_in_force')
        batch_op.drop_index(batch_op.f('ix_live_links_token'))

    op.drop_table('live_links')
