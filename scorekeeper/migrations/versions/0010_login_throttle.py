"""login_attempts: known devices and addresses, buckets, successes

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00

Each password check counts against the allowance of a bucket (a stranger, or a device,
address or login session that logged in to the email before: scorekeeper/logins.py), and
successful log-ins are kept (``ok``) to know those devices and addresses again. Rows kept
before are failures of strangers, as they were counted.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('login_attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('device', sa.String(length=64), server_default='',
                                      nullable=False))
        batch_op.add_column(sa.Column('bucket', sa.String(length=80), server_default='',
                                      nullable=False))
        batch_op.add_column(sa.Column('ok', sa.Boolean(), server_default=sa.text('false'),
                                      nullable=False))
        batch_op.create_index(batch_op.f('ix_login_attempts_remote_addr'), ['remote_addr'],
                              unique=False)


def downgrade():
    op.execute(sa.text('DELETE FROM login_attempts WHERE ok'))
    with op.batch_alter_table('login_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_attempts_remote_addr'))
        batch_op.drop_column('ok')
        batch_op.drop_column('bucket')
        batch_op.drop_column('device')
