"""each team's game reminder is one message, edited in place

``reminder_messages`` keeps, per game and team, the reminder message posted in the team's channel
(its Discord id once sent, a digest of what it shows, whether an edit is queued), so later
reminders and check-ins edit it instead of posting again. A new table: existing rows are untouched,
and reminders already sent before it simply have no message to edit (the next one posts one).

Revision ID: c583df2a5658
Revises: c90aca7faf10
Create Date: 2026-12-03 14:12:08.522308
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = 'c583df2a5658'
down_revision = 'c90aca7faf10'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('reminder_messages',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('post_key', sa.String(length=200), nullable=False),
    sa.Column('message_id', sa.BigInteger(), nullable=True),
    sa.Column('shown', sa.String(length=32), nullable=False),
    sa.Column('edit_due_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('posted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('edited_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_reminder_messages_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_reminder_messages_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_reminder_messages_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'team_id', name=op.f('pk_reminder_messages'))
    )
    with op.batch_alter_table('reminder_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reminder_messages_league_id'), ['league_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('reminder_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reminder_messages_league_id'))

    op.drop_table('reminder_messages')
