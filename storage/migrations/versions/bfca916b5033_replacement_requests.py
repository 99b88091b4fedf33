"""replacement requests

Revision ID: bfca916b5033
Revises: 9d5988c77967
Create Date: 2026-12-05 21:40:10.102777
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'bfca916b5033'
down_revision = '9d5988c77967'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('replacement_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('player_name', sa.String(length=100), nullable=False),
    sa.Column('reason', sa.String(length=16), nullable=False),
    sa.Column('disclosed_on', sa.Date(), nullable=True),
    sa.Column('verdicts', sa.Text(), nullable=False),
    sa.Column('conditions_met', sa.Boolean(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('requested_by', sa.BigInteger(), nullable=False),
    sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_by', sa.BigInteger(), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('decision_note', sa.String(length=300), nullable=False),
    sa.Column('override_reason', sa.String(length=300), nullable=False),
    sa.Column('replacement_name', sa.String(length=100), nullable=False),
    sa.Column('replacement_discord_id', sa.BigInteger(), nullable=True),
    sa.Column('refund_cents', sa.Integer(), nullable=True),
    sa.Column('prorated_fee_cents', sa.Integer(), nullable=True),
    sa.Column('fee_due_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("reason IN ('injury', 'absence')", name=op.f('ck_replacement_requests_reason')),
    sa.CheckConstraint("status IN ('pending', 'approved', 'declined')", name=op.f('ck_replacement_requests_status')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_replacement_requests_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_replacement_requests_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_replacement_requests_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_replacement_requests'))
    )
    with op.batch_alter_table('replacement_requests', schema=None) as batch_op:
        batch_op.create_index('ix_replacement_requests_league_status', ['league_id', 'status'], unique=False)
        batch_op.create_index(batch_op.f('ix_replacement_requests_player_id'), ['player_id'], unique=False)
        batch_op.create_index('uq_replacement_requests_pending', ['player_id'], unique=True,
                              sqlite_where=sa.text("status = 'pending'"), postgresql_where=sa.text("status = 'pending'"))


def downgrade() -> None:
    with op.batch_alter_table('replacement_requests', schema=None) as batch_op:
        batch_op.drop_index('uq_replacement_requests_pending', sqlite_where=sa.text("status = 'pending'"),
                            postgresql_where=sa.text("status = 'pending'"))
        batch_op.drop_index(batch_op.f('ix_replacement_requests_player_id'))
        batch_op.drop_index('ix_replacement_requests_league_status')

    op.drop_table('replacement_requests')
