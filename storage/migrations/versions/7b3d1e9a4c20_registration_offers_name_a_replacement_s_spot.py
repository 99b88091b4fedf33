"""a waiting-list offer names what opened the spot: a registration or a replacement request

``registration_offers`` gains ``opening_kind`` ("registration", what every existing offer is, or
"replacement": the spot a player left when a commissioner approved replacing them, youth 1.16), and
the offer's unique key becomes registrant, kind and opening, so a registration and a replacement
request with the same number are two spots, each offered to a registrant once.

Revision ID: 7b3d1e9a4c20
Revises: ce801adcf545
Create Date: 2026-12-06 01:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '7b3d1e9a4c20'
down_revision = 'ce801adcf545'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('registration_offers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('opening_kind', sa.String(length=12), nullable=False,
                                      server_default='registration'))
        batch_op.drop_constraint('uq_registration_offers_registration_id_opening', type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_registration_offers_registration_id_opening_kind_opening'),
                                          ['registration_id', 'opening_kind', 'opening'])


def downgrade() -> None:
    op.execute("DELETE FROM registration_offers WHERE opening_kind = 'replacement'")
    with op.batch_alter_table('registration_offers', schema=None) as batch_op:
        batch_op.drop_constraint('uq_registration_offers_registration_id_opening_kind_opening', type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_registration_offers_registration_id_opening'),
                                          ['registration_id', 'opening'])
        batch_op.drop_column('opening_kind')
