"""seasons; each league with games gets one first season holding them all

New table ``seasons``. No existing table changes: a game belongs to a season by its date (the
season that started last before it; the first season also holds everything before it), so every
existing game, result, roster and bracket row stays as it is and falls into the first season.

The first season starts on the UTC day of the league's first game (the migration doesn't know the
league's time zone; the first season holds everything before its start anyway) and its regular
season lasts until the week of its last game.

Revision ID: 5e1a7c0d9b42
Revises: a30697c26d17
Create Date: 2026-12-01 23:30:00
"""

from __future__ import annotations

from datetime import UTC, datetime, time

import sqlalchemy as sa
from alembic import op

revision = '5e1a7c0d9b42'
down_revision = 'a30697c26d17'
branch_labels = None
depends_on = None

FIRST_SEASON_NAME = "Season 1"


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def upgrade() -> None:
    seasons = op.create_table('seasons',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('first_day', sa.Date(), nullable=False),
    sa.Column('weeks', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_by', sa.BigInteger(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('weeks >= 1', name=op.f('ck_seasons_weeks')),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_seasons_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seasons')),
    sa.UniqueConstraint('league_id', 'name', name=op.f('uq_seasons_league_id_name'))
    )
    with op.batch_alter_table('seasons', schema=None) as batch_op:
        batch_op.create_index('ix_seasons_league_starts', ['league_id', 'starts_at'], unique=False)

    games = sa.table('games', sa.column('league_id', sa.Integer()), sa.column('starts_at', sa.DateTime(timezone=True)))
    spans = op.get_bind().execute(
        sa.select(games.c.league_id, sa.func.min(games.c.starts_at), sa.func.max(games.c.starts_at))
        .group_by(games.c.league_id).order_by(games.c.league_id)
    ).all()
    now = datetime.now(UTC)
    rows = []
    for league_id, first, last in spans:
        first_day = _utc(first).date()
        weeks = min(52, max(1, (_utc(last).date() - first_day).days // 7 + 1))
        rows.append({"league_id": league_id, "name": FIRST_SEASON_NAME, "first_day": first_day, "weeks": weeks,
                     "starts_at": datetime.combine(first_day, time(0), tzinfo=UTC), "ended_at": None,
                     "created_by": None, "created_at": now})
    if rows:
        op.bulk_insert(seasons, rows)


def downgrade() -> None:
    with op.batch_alter_table('seasons', schema=None) as batch_op:
        batch_op.drop_index('ix_seasons_league_starts')

    op.drop_table('seasons')
