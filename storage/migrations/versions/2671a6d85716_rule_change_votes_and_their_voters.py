"""rule-change votes and their voters

Revision ID: 2671a6d85716
Revises: 7b3d1e9a4c20
Create Date: 2026-12-06 01:14:44.462763
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '2671a6d85716'
down_revision = '7b3d1e9a4c20'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('rule_votes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('division', sa.String(length=100), nullable=False),
    sa.Column('setting_key', sa.String(length=100), nullable=False),
    sa.Column('proposed_value', sa.String(length=200), nullable=False),
    sa.Column('proposal_text', sa.String(length=200), nullable=False),
    sa.Column('current_value', sa.String(length=200), nullable=False),
    sa.Column('threshold_percent', sa.Integer(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('opened_by', sa.BigInteger(), nullable=False),
    sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closes_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('outcome', sa.String(length=16), nullable=True),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('yes_votes', sa.Integer(), nullable=False),
    sa.Column('no_votes', sa.Integer(), nullable=False),
    sa.Column('eligible_voters', sa.Integer(), nullable=False),
    sa.Column('applied_by', sa.BigInteger(), nullable=True),
    sa.Column('applied_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("outcome IS NULL OR outcome IN ('passed', 'failed')", name=op.f('ck_rule_votes_outcome')),
    sa.CheckConstraint("state IN ('open', 'closed')", name=op.f('ck_rule_votes_state')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_votes_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_votes'))
    )
    with op.batch_alter_table('rule_votes', schema=None) as batch_op:
        batch_op.create_index('ix_rule_votes_league_id_state', ['league_id', 'state'], unique=False)

    op.create_table('rule_vote_voters',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('vote_id', sa.Integer(), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('answer', sa.String(length=8), nullable=True),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("answer IS NULL OR answer IN ('yes', 'no')", name=op.f('ck_rule_vote_voters_answer')),
    sa.CheckConstraint("kind IN ('commissioner', 'captain')", name=op.f('ck_rule_vote_voters_kind')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_vote_voters_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['vote_id'], ['rule_votes.id'], name=op.f('fk_rule_vote_voters_vote_id_rule_votes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_vote_voters')),
    sa.UniqueConstraint('vote_id', 'discord_id', name=op.f('uq_rule_vote_voters_vote_id_discord_id'))
    )
    with op.batch_alter_table('rule_vote_voters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rule_vote_voters_league_id'), ['league_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('rule_vote_voters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rule_vote_voters_league_id'))

    op.drop_table('rule_vote_voters')
    with op.batch_alter_table('rule_votes', schema=None) as batch_op:
        batch_op.drop_index('ix_rule_votes_league_id_state')

    op.drop_table('rule_votes')
