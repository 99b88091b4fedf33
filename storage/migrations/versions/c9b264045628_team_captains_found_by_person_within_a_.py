"""team captains found by person within a league: the membership query every command asks seeks, not scans

Revision ID: c9b264045628
Revises: bd5396b5b20a
Create Date: 2026-11-30 10:47:17.980960
"""

from __future__ import annotations

from alembic import op


revision = 'c9b264045628'
down_revision = 'bd5396b5b20a'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('team_captains', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_team_captains_discord_id'))
        batch_op.create_index('ix_team_captains_discord_id_league_id', ['discord_id', 'league_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('team_captains', schema=None) as batch_op:
        batch_op.drop_index('ix_team_captains_discord_id_league_id')
        batch_op.create_index(batch_op.f('ix_team_captains_discord_id'), ['discord_id'], unique=False)

