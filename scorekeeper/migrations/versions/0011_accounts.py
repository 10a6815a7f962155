"""accounts: disabled users, password-reset links

Revision ID: 0011_accounts
Revises: 0010
Create Date: 2026-11-28 10:00:00

``users.disabled_at``: an operator's ``flask users disable`` (the account cannot log in).
``password_resets``: the links of "Forgot password?" and ``flask users reset-link``, kept
as the SHA-256 digests of their tokens, usable once, for an hour (scorekeeper/resets.py).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011_accounts'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'password_resets',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('token_digest', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('submission', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('email', 'submission'),
        sa.UniqueConstraint('token_digest'),
    )
    with op.batch_alter_table('password_resets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_password_resets_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_password_resets_expires_at'), ['expires_at'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_password_resets_user_id'), ['user_id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('password_resets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_password_resets_user_id'))
        batch_op.drop_index(batch_op.f('ix_password_resets_expires_at'))
        batch_op.drop_index(batch_op.f('ix_password_resets_email'))
    op.drop_table('password_resets')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('disabled_at')
