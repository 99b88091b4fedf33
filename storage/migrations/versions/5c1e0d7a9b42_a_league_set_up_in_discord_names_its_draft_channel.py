"""a league set up in Discord names its draft channel

Revision ID: 5c1e0d7a9b42
Revises: eafd18532173
Create Date: 2026-12-06 02:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '5c1e0d7a9b42'
down_revision = 'eafd18532173'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('draft_channel_id', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.drop_column('draft_channel_id')
