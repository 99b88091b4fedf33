"""scheduled events and team roles kept in step on Discord

Revision ID: 09ddbaa71558
Revises: d95ee6349980
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '09ddbaa71558'
down_revision = 'd95ee6349980'
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table('discord_problems',
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=64), nullable=False),
    sa.Column('detail', sa.String(length=300), nullable=False),
    sa.Column('reported_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_discord_problems_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('league_id', 'scope', name=op.f('pk_discord_problems'))
    )
    op.create_table('team_role_members',
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('role_id', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_team_role_members_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_team_role_members_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('team_id', 'discord_id', name=op.f('pk_team_role_members'))
    )
    with op.batch_alter_table('team_role_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_team_role_members_league_id'), ['league_id'], unique=False)

    op.create_table('team_roles',
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('role_id', sa.BigInteger(), nullable=False),
    sa.Column('adopted', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_team_roles_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_team_roles_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('team_id', name=op.f('pk_team_roles')),
    sa.UniqueConstraint('league_id', 'role_id', name=op.f('uq_team_roles_league_id_role_id'))
    )
    op.create_table('game_events',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.BigInteger(), nullable=False),
    sa.Column('synced', sa.String(length=64), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_events_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_game_events_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_game_events'))
    )
    with op.batch_alter_table('game_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_events_league_id'), ['league_id'], unique=False)

    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scheduled_events', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('team_roles', sa.Boolean(), server_default=sa.false(), nullable=False))




def downgrade() -> None:

    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.drop_column('team_roles')
        batch_op.drop_column('scheduled_events')

    with op.batch_alter_table('game_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_events_league_id'))

    op.drop_table('game_events')
    op.drop_table('team_roles')
    with op.batch_alter_table('team_role_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_team_role_members_league_id'))

    op.drop_table('team_role_members')
    op.drop_table('discord_problems')

