"""cleanup duty missed (youth 2.15): a team's bench minor at the start of its next game

New table ``missed_cleanups``: a referee's record that a team didn't clear the arena after the week's
last game, and a commissioner's withdrawal of it (kept as the audit). One standing record per team and
game (a unique index over the rows not withdrawn). No existing table changes: every row is kept.

Revision ID: 72e95e391e4d
Revises: 5e1a7c0d9b42
Create Date: 2026-12-02 02:59:15.666782
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '72e95e391e4d'
down_revision = '5e1a7c0d9b42'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('missed_cleanups',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=False),
    sa.Column('recorded_by', sa.BigInteger(), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('withdrawn_by', sa.BigInteger(), nullable=True),
    sa.Column('withdrawal_note', sa.String(length=1000), nullable=False),
    sa.CheckConstraint('minutes > 0', name=op.f('ck_missed_cleanups_minutes')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_missed_cleanups_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_missed_cleanups_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_missed_cleanups_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_missed_cleanups'))
    )
    with op.batch_alter_table('missed_cleanups', schema=None) as batch_op:
        batch_op.create_index('ix_missed_cleanups_team', ['league_id', 'team_id'], unique=False)
        batch_op.create_index('uq_missed_cleanups_standing', ['league_id', 'game_id', 'team_id'], unique=True, sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))


def downgrade() -> None:
    with op.batch_alter_table('missed_cleanups', schema=None) as batch_op:
        batch_op.drop_index('uq_missed_cleanups_standing', sqlite_where=sa.text('withdrawn_at IS NULL'), postgresql_where=sa.text('withdrawn_at IS NULL'))
        batch_op.drop_index('ix_missed_cleanups_team')

    op.drop_table('missed_cleanups')
