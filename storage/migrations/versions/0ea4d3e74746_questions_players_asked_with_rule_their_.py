"""questions players asked with /rule, their feedback, links to sections, league words

``rule_questions`` keeps each /rule question and how sure its answer was; ``rule_feedback`` one
"Helped" / "Not what I asked" per person per answer; ``rule_links`` the questions a commissioner linked
to the section that answers them; ``rule_words`` a league's own words for what its rulebook names
otherwise; ``rule_feedback_settings`` whether commissioners see who asked (off unless a league turns it
on). New tables only: existing rows are untouched.

Revision ID: 0ea4d3e74746
Revises: c583df2a5658
Create Date: 2026-12-04 21:54:35.973715
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0ea4d3e74746'
down_revision = 'c583df2a5658'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('rule_feedback_settings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('show_askers', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('changed_by', sa.BigInteger(), nullable=True),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_feedback_settings_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_feedback_settings')),
    sa.UniqueConstraint('league_id', name=op.f('uq_rule_feedback_settings_league_id'))
    )
    op.create_table('rule_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('question', sa.Text(), nullable=False),
    sa.Column('citation', sa.Text(), nullable=False),
    sa.Column('linked_by', sa.BigInteger(), nullable=False),
    sa.Column('linked_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_links_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_links')),
    sa.UniqueConstraint('league_id', 'question', name=op.f('uq_rule_links_league_id_question'))
    )
    op.create_table('rule_questions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('question', sa.Text(), nullable=False),
    sa.Column('asked_by', sa.BigInteger(), nullable=False),
    sa.Column('asked_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('outcome', sa.String(length=8), nullable=False),
    sa.Column('cited', sa.JSON(), nullable=False),
    sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('resolved_by', sa.BigInteger(), nullable=True),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_questions_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_questions'))
    )
    with op.batch_alter_table('rule_questions', schema=None) as batch_op:
        batch_op.create_index('ix_rule_questions_league_asked', ['league_id', 'asked_at'], unique=False)

    op.create_table('rule_words',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('word', sa.String(length=40), nullable=False),
    sa.Column('means', sa.String(length=40), nullable=False),
    sa.Column('added_by', sa.BigInteger(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_words_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_words')),
    sa.UniqueConstraint('league_id', 'word', name=op.f('uq_rule_words_league_id_word'))
    )
    op.create_table('rule_feedback',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('question_id', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.BigInteger(), nullable=False),
    sa.Column('helped', sa.Boolean(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_rule_feedback_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['question_id'], ['rule_questions.id'], name=op.f('fk_rule_feedback_question_id_rule_questions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rule_feedback')),
    sa.UniqueConstraint('question_id', 'member_id', name=op.f('uq_rule_feedback_question_id_member_id'))
    )
    with op.batch_alter_table('rule_feedback', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rule_feedback_question_id'), ['question_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('rule_feedback', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rule_feedback_question_id'))

    op.drop_table('rule_feedback')
    op.drop_table('rule_words')
    with op.batch_alter_table('rule_questions', schema=None) as batch_op:
        batch_op.drop_index('ix_rule_questions_league_asked')

    op.drop_table('rule_questions')
    op.drop_table('rule_links')
    op.drop_table('rule_feedback_settings')
