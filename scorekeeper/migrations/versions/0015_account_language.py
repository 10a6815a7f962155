"""account language: the language a keeper chose for the app's words

Revision ID: 0015_account_language
Revises: 0014_plan_claims
Create Date: 2026-11-28 14:00:00

``users.language``: a language code of ``web.locales.LANGUAGES`` (en, es, de, fr, pt_BR,
hi), or empty to follow the browser's ``Accept-Language``, which every account does until
its keeper chooses. Nothing to carry over.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0015_account_language'
down_revision = '0014_plan_claims'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('language')
