"""A rulebook says whether it was uploaded in Discord, and by whom

``rulebooks`` gains ``origin`` ("file": imported from config.toml's ``rulebook`` or with
``sideline rules import``; "upload": /setup rulebook file:) and ``imported_by`` (the member who
uploaded it). Every rulebook stored before was imported from a file, so existing rows get "file"
and no uploader; their sections are untouched. A league with no row reads its preset's rulebook.

Revision ID: c90aca7faf10
Revises: c99c8e39b679
Create Date: 2026-12-03 14:12:52.533501
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = 'c90aca7faf10'
down_revision = 'c99c8e39b679'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rulebooks', schema=None) as batch_op:
        batch_op.add_column(sa.Column('origin', sa.String(length=16), server_default='file', nullable=False))
        batch_op.add_column(sa.Column('imported_by', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rulebooks', schema=None) as batch_op:
        batch_op.drop_column('imported_by')
        batch_op.drop_column('origin')
