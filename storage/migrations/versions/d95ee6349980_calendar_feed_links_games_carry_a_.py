"""calendar feed links; games carry a SEQUENCE and a revision time for the feeds

Revision ID: d95ee6349980
Revises: e02906626356
Create Date: 2026-12-01 22:17:29.908686
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'd95ee6349980'
down_revision = 'e02906626356'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('calendar_feeds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('owner_discord_id', sa.BigInteger(), nullable=False),
    sa.Column('scope', sa.String(length=16), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=True),
    sa.Column('selector', sa.String(length=32), nullable=False),
    sa.Column('verifier', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("(scope = 'team') = (team_id IS NOT NULL)", name=op.f('ck_calendar_feeds_team_scope_has_team')),
    sa.CheckConstraint("scope IN ('player', 'team', 'league')", name=op.f('ck_calendar_feeds_scope')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_calendar_feeds_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_calendar_feeds_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_calendar_feeds')),
    sa.UniqueConstraint('selector', name=op.f('uq_calendar_feeds_selector'))
    )
    with op.batch_alter_table('calendar_feeds', schema=None) as batch_op:
        batch_op.create_index('ix_calendar_feeds_owner', ['league_id', 'owner_discord_id'], unique=False)

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sequence', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('revised_at', sa.DateTime(timezone=True), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('revised_at')
        batch_op.drop_column('sequence')

    with op.batch_alter_table('calendar_feeds', schema=None) as batch_op:
        batch_op.drop_index('ix_calendar_feeds_owner')

    op.drop_table('calendar_feeds')
