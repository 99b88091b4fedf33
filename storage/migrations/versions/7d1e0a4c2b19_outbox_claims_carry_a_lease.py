"""outbox claims carry the claiming process and a lease; the standings message is posted through the outbox

Revision ID: 7d1e0a4c2b19
Revises: c9b264045628
Create Date: 2026-12-01 15:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '7d1e0a4c2b19'
down_revision = 'c9b264045628'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_by', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('standings_posts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('send_key', sa.String(length=200), nullable=True))
        batch_op.alter_column('message_id', existing_type=sa.BigInteger(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM standings_posts WHERE message_id IS NULL")
    with op.batch_alter_table('standings_posts', schema=None) as batch_op:
        batch_op.alter_column('message_id', existing_type=sa.BigInteger(), nullable=False)
        batch_op.drop_column('send_key')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('lease_until')
        batch_op.drop_column('claimed_by')
