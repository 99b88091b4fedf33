"""leagues set up in Discord and their audit trail; players asked their gender category once

Revision ID: e02906626356
Revises: 7d1e0a4c2b19
Create Date: 2026-12-01 18:48:28.042920
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'e02906626356'
down_revision = '7d1e0a4c2b19'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('league_setups',
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('captain_role_id', sa.BigInteger(), nullable=True),
    sa.Column('referee_role_id', sa.BigInteger(), nullable=True),
    sa.Column('commissioner_role_id', sa.BigInteger(), nullable=True),
    sa.Column('announcements_channel_id', sa.BigInteger(), nullable=True),
    sa.Column('standings_channel_id', sa.BigInteger(), nullable=True),
    sa.Column('referees_channel_id', sa.BigInteger(), nullable=True),
    sa.Column('admin_channel_id', sa.BigInteger(), nullable=True),
    sa.Column('rule_overrides', sa.JSON(), nullable=False),
    sa.Column('game_offsets', sa.JSON(), nullable=True),
    sa.Column('captain_alert_offsets', sa.JSON(), nullable=True),
    sa.Column('created_by', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_league_setups_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('league_id', name=op.f('pk_league_setups'))
    )
    op.create_table('setup_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('changed_by', sa.BigInteger(), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('old_value', sa.Text(), nullable=True),
    sa.Column('new_value', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_setup_changes_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_setup_changes'))
    )
    with op.batch_alter_table('setup_changes', schema=None) as batch_op:
        batch_op.create_index('ix_setup_changes_league_key', ['league_id', 'key'], unique=False)
    op.create_table('gender_asks',
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_gender_asks_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_gender_asks_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('league_id', 'player_id', name=op.f('pk_gender_asks'))
    )



def downgrade() -> None:
    op.drop_table('gender_asks')
    with op.batch_alter_table('setup_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_setup_changes_league_key')

    op.drop_table('setup_changes')
    op.drop_table('league_setups')
