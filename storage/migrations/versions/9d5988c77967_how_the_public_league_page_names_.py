"""How the public league page names players without a Discord account: leagues.public_names (None: initials)

Revision ID: 9d5988c77967
Revises: eef819cae59a
Create Date: 2026-12-05 21:40:57.679983
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '9d5988c77967'
down_revision = 'eef819cae59a'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.add_column(sa.Column('public_names', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.drop_column('public_names')
