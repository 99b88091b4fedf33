"""away ranges, guests and reminder preferences

Revision ID: a30697c26d17
Revises: 840599be67e2
Create Date: 2026-12-01 22:18:03.206695
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'a30697c26d17'
down_revision = '840599be67e2'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('away_ranges',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('first_day', sa.Date(), nullable=False),
    sa.Column('last_day', sa.Date(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('ends_at > starts_at', name=op.f('ck_away_ranges_ordered')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_away_ranges_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_away_ranges_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_away_ranges'))
    )
    with op.batch_alter_table('away_ranges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_away_ranges_league_id'), ['league_id'], unique=False)
        batch_op.create_index('ix_away_ranges_player_ends', ['player_id', 'ends_at'], unique=False)

    op.create_table('reminder_preferences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('delivery', sa.String(length=8), nullable=False),
    sa.Column('mute_game_reminders', sa.Boolean(), nullable=False),
    sa.Column('mute_deadline_nudges', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("delivery IN ('channel', 'dm')", name=op.f('ck_reminder_preferences_delivery')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_reminder_preferences_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_reminder_preferences_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_reminder_preferences')),
    sa.UniqueConstraint('league_id', 'player_id', name=op.f('uq_reminder_preferences_league_id_player_id'))
    )
    op.create_table('guests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=True),
    sa.Column('added_by', sa.BigInteger(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('cleared_by', sa.BigInteger(), nullable=True),
    sa.Column('cleared_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_guests_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_guests_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_guests_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_guests')),
    sa.UniqueConstraint('game_id', 'team_id', 'name_key', name=op.f('uq_guests_game_id_team_id_name_key'))
    )
    with op.batch_alter_table('guests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_guests_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_guests_league_id'), ['league_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('guests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_guests_league_id'))
        batch_op.drop_index(batch_op.f('ix_guests_game_id'))

    op.drop_table('guests')
    op.drop_table('reminder_preferences')
    with op.batch_alter_table('away_ranges', schema=None) as batch_op:
        batch_op.drop_index('ix_away_ranges_player_ends')
        batch_op.drop_index(batch_op.f('ix_away_ranges_league_id'))

    op.drop_table('away_ranges')
