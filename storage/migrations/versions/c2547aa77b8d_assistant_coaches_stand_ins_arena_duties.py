"""assistant coaches, stand-in captains, arena duties, the officials' game card

New tables: ``assistant_coaches`` (one per team, youth 1.4), ``stand_in_captains`` (one per team and game,
youth 1.6) and ``game_duties`` (a commissioner's word on a team's setup or cleanup duty for a game). The
``missed_cleanups`` records gain a ``duty`` column (setup or cleanup); every record there was is a missed
cleanup, which the column's default says, and the one-standing-record index now counts per duty.
``league_setups`` gains ``game_card_offsets`` (NULL: the default lead time). Every existing row is kept.

Revision ID: c2547aa77b8d
Revises: 0ea4d3e74746
Create Date: 2026-12-04 21:40:22.549051
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'c2547aa77b8d'
down_revision = '0ea4d3e74746'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('assistant_coaches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('named_by', sa.BigInteger(), nullable=False),
    sa.Column('named_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_assistant_coaches_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_assistant_coaches_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_assistant_coaches')),
    sa.UniqueConstraint('team_id', name=op.f('uq_assistant_coaches_team_id'))
    )
    with op.batch_alter_table('assistant_coaches', schema=None) as batch_op:
        batch_op.create_index('ix_assistant_coaches_discord_id_league_id', ['discord_id', 'league_id'], unique=False)

    op.create_table('game_duties',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('duty', sa.String(length=16), nullable=False),
    sa.Column('on_duty', sa.Boolean(), nullable=False),
    sa.Column('set_by', sa.BigInteger(), nullable=False),
    sa.Column('set_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("duty IN ('setup', 'cleanup')", name=op.f('ck_game_duties_duty')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_duties_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_game_duties_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_game_duties_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_duties')),
    sa.UniqueConstraint('game_id', 'team_id', 'duty', name=op.f('uq_game_duties_game_id_team_id_duty'))
    )
    with op.batch_alter_table('game_duties', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_duties_league_id'), ['league_id'], unique=False)

    op.create_table('stand_in_captains',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('named_by', sa.BigInteger(), nullable=False),
    sa.Column('named_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_stand_in_captains_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_stand_in_captains_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_stand_in_captains_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_stand_in_captains')),
    sa.UniqueConstraint('game_id', 'team_id', name=op.f('uq_stand_in_captains_game_id_team_id'))
    )
    with op.batch_alter_table('stand_in_captains', schema=None) as batch_op:
        batch_op.create_index('ix_stand_in_captains_discord_id_game_id', ['discord_id', 'game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_stand_in_captains_league_id'), ['league_id'], unique=False)

    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_card_offsets', sa.JSON(), nullable=True))

    with op.batch_alter_table('missed_cleanups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('duty', sa.String(length=16), server_default='cleanup', nullable=False))
        batch_op.create_check_constraint(op.f('ck_missed_cleanups_duty'), "duty IN ('setup', 'cleanup')")
        batch_op.drop_index('uq_missed_cleanups_standing', sqlite_where=sa.text('withdrawn_at IS NULL'),
                            postgresql_where=sa.text('withdrawn_at IS NULL'))
        batch_op.create_index('uq_missed_cleanups_standing', ['league_id', 'game_id', 'team_id', 'duty'], unique=True, sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))



def downgrade() -> None:
    with op.batch_alter_table('missed_cleanups', schema=None) as batch_op:
        batch_op.drop_index('uq_missed_cleanups_standing', sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))
        batch_op.create_index('uq_missed_cleanups_standing', ['league_id', 'game_id', 'team_id'], unique=True,
                              sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))
        batch_op.drop_constraint(op.f('ck_missed_cleanups_duty'), type_='check')
        batch_op.drop_column('duty')

    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.drop_column('game_card_offsets')

    with op.batch_alter_table('stand_in_captains', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_stand_in_captains_league_id'))
        batch_op.drop_index('ix_stand_in_captains_discord_id_game_id')

    op.drop_table('stand_in_captains')
    with op.batch_alter_table('game_duties', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_duties_league_id'))

    op.drop_table('game_duties')
    with op.batch_alter_table('assistant_coaches', schema=None) as batch_op:
        batch_op.drop_index('ix_assistant_coaches_discord_id_league_id')

    op.drop_table('assistant_coaches')
