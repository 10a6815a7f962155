"""games.rewritten: the version of the last change that did more than add a round

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 17:40:00

A worker that drew a game at a version at or after ``rewritten`` folds the rounds added
since onto what it drew, reading only those rounds. Existing games start at their
current version: nothing drawn before this migration is folded on.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rewritten', sa.Integer(), server_default=sa.text('1'),
                                      nullable=False))
    op.execute('UPDATE games SET rewritten = version')


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('rewritten')
