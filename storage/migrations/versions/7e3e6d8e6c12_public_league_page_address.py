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
    # A plain ADD COLUMN and a unique index: a batch rebuild of `leagues` would drop the table on SQLite,
    # and with foreign keys on that cascades to every league's rows.
    op.add_column('leagues', sa.Column('public_slug', sa.String(length=64), nullable=True))
    op.create_index(op.f('ix_leagues_public_slug'), 'leagues', ['public_slug'], unique=True)


def downgrade() -> None:
    op.drop_index(op.f('ix_leagues_public_slug'), table_name='leagues')
    op.drop_column('leagues', 'public_slug')  # SQLite 3.35+ drops a column in place

