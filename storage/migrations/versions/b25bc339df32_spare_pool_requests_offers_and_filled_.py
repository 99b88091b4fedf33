"""spare pool per league, requests for spares, the offers sent and the spots filled

Revision ID: b25bc339df32
Revises: 09ddbaa71558
Create Date: 2026-12-01 22:16:45.444184
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'b25bc339df32'
down_revision = '09ddbaa71558'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('spares',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('plays_skater', sa.Boolean(), nullable=False),
    sa.Column('plays_goalie', sa.Boolean(), nullable=False),
    sa.Column('free_days', sa.String(length=16), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_spares_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_spares_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_spares')),
    sa.UniqueConstraint('league_id', 'player_id', name=op.f('uq_spares_league_id_player_id'))
    )
    with op.batch_alter_table('spares', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_spares_league_id'), ['league_id'], unique=False)

    op.create_table('spare_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('requested_by', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('filled', sa.Integer(), nullable=False),
    sa.Column('need', sa.String(length=300), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('open', 'filled', 'closed')", name=op.f('ck_spare_requests_status')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_spare_requests_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_spare_requests_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_spare_requests_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_spare_requests')),
    sa.UniqueConstraint('game_id', 'team_id', name=op.f('uq_spare_requests_game_id_team_id'))
    )
    with op.batch_alter_table('spare_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_spare_requests_league_id'), ['league_id'], unique=False)

    op.create_table('game_spares',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.String(length=16), nullable=False),
    sa.Column('filled_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("position IN ('skater', 'goalie')", name=op.f('ck_game_spares_position')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_spares_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_game_spares_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_game_spares_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['request_id'], ['spare_requests.id'], name=op.f('fk_game_spares_request_id_spare_requests'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_game_spares_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_spares')),
    sa.UniqueConstraint('game_id', 'player_id', name=op.f('uq_game_spares_game_id_player_id'))
    )
    with op.batch_alter_table('game_spares', schema=None) as batch_op:
        batch_op.create_index('ix_game_spares_game_team', ['game_id', 'team_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_spares_league_id'), ['league_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_spares_player_id'), ['player_id'], unique=False)

    op.create_table('spare_offers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('wave', sa.Integer(), nullable=False),
    sa.Column('offered_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('answer', sa.String(length=8), nullable=True),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("answer IN ('accepted', 'declined')", name=op.f('ck_spare_offers_answer')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_spare_offers_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_spare_offers_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['request_id'], ['spare_requests.id'], name=op.f('fk_spare_offers_request_id_spare_requests'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_spare_offers')),
    sa.UniqueConstraint('request_id', 'player_id', name=op.f('uq_spare_offers_request_id_player_id'))
    )
    with op.batch_alter_table('spare_offers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_spare_offers_league_id'), ['league_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_spare_offers_player_id'), ['player_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('spare_offers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_spare_offers_player_id'))
        batch_op.drop_index(batch_op.f('ix_spare_offers_league_id'))

    op.drop_table('spare_offers')
    with op.batch_alter_table('game_spares', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_spares_player_id'))
        batch_op.drop_index(batch_op.f('ix_game_spares_league_id'))
        batch_op.drop_index('ix_game_spares_game_team')

    op.drop_table('game_spares')
    with op.batch_alter_table('spare_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_spare_requests_league_id'))

    op.drop_table('spare_requests')
    with op.batch_alter_table('spares', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_spares_league_id'))

    op.drop_table('spares')
