"""rosters belong to a season; a departure keeps the stint it ends

``roster_departures`` gains ``joined_at`` (when the player arrived on the team they left: the roster
entry's ``added_at``), ``position`` and ``reason`` (removed, moved, season), so "who was on team X on
day D" has one answer even when a player leaves, sits out and comes back, and ``/roster show season:``
can list an earlier season's roster. Existing departures keep every value and get NULLs: their stint
is taken to start when the player's previous one ended, as before. A new index serves a team's
history.

Revision ID: c99c8e39b679
Revises: 72e95e391e4d
Create Date: 2026-12-02 02:58:51.699990
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = 'c99c8e39b679'
down_revision = '72e95e391e4d'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('roster_departures', schema=None) as batch_op:
        batch_op.add_column(sa.Column('joined_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('position', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('reason', sa.String(length=16), nullable=True))
        batch_op.create_index('ix_roster_departures_team', ['league_id', 'team_id', 'left_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('roster_departures', schema=None) as batch_op:
        batch_op.drop_index('ix_roster_departures_team')
        batch_op.drop_column('reason')
        batch_op.drop_column('position')
        batch_op.drop_column('joined_at')
