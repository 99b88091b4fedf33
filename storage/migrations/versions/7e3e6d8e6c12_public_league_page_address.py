"""public league page address

Revision ID: 7e3e6d8e6c12
Revises: 2f5d936bab4a
Create Date: 2026-12-05 01:19:16.294770
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '7e3e6d8e6c12'
down_revision = '2f5d936bab4a'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.add_column(sa.Column('public_slug', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_leagues_public_slug'), ['public_slug'])



def downgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_leagues_public_slug'), type_='unique')
        batch_op.drop_column('public_slug')

