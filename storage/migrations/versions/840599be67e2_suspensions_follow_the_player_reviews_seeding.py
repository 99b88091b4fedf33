"""suspensions follow the player, commissioner review, playoff draws you can settle

New tables: roster departures (a suspension follows the player to a new team, youth 1.20.1),
suspension reviews (the audit of the commissioners' review, 1.12), playoff disqualifications (1.22)
and seeding decisions (/bracket seed). One changed table: playoff_brackets gains ``division`` (""
for the existing whole-league bracket) and is unique per (league, division); every row is kept.

Revision ID: 840599be67e2
Revises: b25bc339df32
Create Date: 2026-12-01 22:51:39.127882
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '840599be67e2'
down_revision = 'b25bc339df32'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('seeding_decisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('team_ids', sa.JSON(), nullable=False),
    sa.Column('made_by', sa.BigInteger(), nullable=True),
    sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_seeding_decisions_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seeding_decisions'))
    )
    with op.batch_alter_table('seeding_decisions', schema=None) as batch_op:
        batch_op.create_index('ix_seeding_decisions_league', ['league_id', 'made_at'], unique=False)

    op.create_table('playoff_disqualifications',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=300), nullable=False),
    sa.Column('made_by', sa.BigInteger(), nullable=True),
    sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_playoff_disqualifications_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_playoff_disqualifications_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_playoff_disqualifications')),
    sa.UniqueConstraint('league_id', 'team_id', name=op.f('uq_playoff_disqualifications_league_id_team_id'))
    )
    op.create_table('roster_departures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('left_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_roster_departures_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_roster_departures_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_roster_departures_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_roster_departures'))
    )
    with op.batch_alter_table('roster_departures', schema=None) as batch_op:
        batch_op.create_index('ix_roster_departures_player', ['league_id', 'player_id', 'left_at'], unique=False)

    op.create_table('suspension_reviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('suspension_id', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('games_before', sa.Integer(), nullable=False),
    sa.Column('games_after', sa.Integer(), nullable=False),
    sa.Column('note', sa.String(length=1000), nullable=False),
    sa.Column('decided_by', sa.BigInteger(), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("action IN ('confirm', 'set-games', 'lift')", name=op.f('ck_suspension_reviews_action')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_suspension_reviews_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['suspension_id'], ['suspensions.id'], name=op.f('fk_suspension_reviews_suspension_id_suspensions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_suspension_reviews')),
    sa.UniqueConstraint('suspension_id', name=op.f('uq_suspension_reviews_suspension_id'))
    )
    with op.batch_alter_table('suspension_reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_suspension_reviews_league_id'), ['league_id'], unique=False)

    with op.batch_alter_table('playoff_brackets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('division', sa.String(length=100), server_default='', nullable=False))
        batch_op.drop_constraint(batch_op.f('uq_playoff_brackets_league_id'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_playoff_brackets_league_id_division'), ['league_id', 'division'])



def downgrade() -> None:
    with op.batch_alter_table('playoff_brackets', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_playoff_brackets_league_id_division'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_playoff_brackets_league_id'), ['league_id'])
        batch_op.drop_column('division')

    with op.batch_alter_table('suspension_reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_suspension_reviews_league_id'))

    op.drop_table('suspension_reviews')
    with op.batch_alter_table('roster_departures', schema=None) as batch_op:
        batch_op.drop_index('ix_roster_departures_player')

    op.drop_table('roster_departures')
    op.drop_table('playoff_disqualifications')
    with op.batch_alter_table('seeding_decisions', schema=None) as batch_op:
        batch_op.drop_index('ix_seeding_decisions_league')

    op.drop_table('seeding_decisions')
