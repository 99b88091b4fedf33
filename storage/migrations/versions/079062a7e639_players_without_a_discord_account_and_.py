"""players without a Discord account and their guardians

``players.discord_id`` becomes nullable (a junior too young for Discord has no account) and
``player_guardians`` says which members manage such a player: they check in and hear reminders for
them. Existing rows are untouched. Downgrading deletes the players without an account first (with
their roster places, check-ins and statistics, by cascade), since the column cannot be NOT NULL with them.

On SQLite the NOT NULL is changed in the stored table definition (SQLite's documented procedure for
removing a NOT NULL constraint, lang_altertable.html "other kinds of table schema changes"), not by
rebuilding the table: with foreign keys on, dropping ``players`` to rebuild it would delete every row that
refers to a player (roster places, check-ins, suspensions...) by cascade.

Revision ID: 079062a7e639
Revises: 7e3e6d8e6c12
Create Date: 2026-12-05 01:20:07.892942
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op


revision = '079062a7e639'
down_revision = '7e3e6d8e6c12'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('player_guardians',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('discord_id', sa.BigInteger(), nullable=False),
    sa.Column('added_by', sa.BigInteger(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_player_guardians_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_guardians_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_guardians')),
    sa.UniqueConstraint('player_id', 'discord_id', name=op.f('uq_player_guardians_player_id_discord_id'))
    )
    with op.batch_alter_table('player_guardians', schema=None) as batch_op:
        batch_op.create_index('ix_player_guardians_discord_id_league_id', ['discord_id', 'league_id'], unique=False)

    _discord_id_nullable(True)



def downgrade() -> None:
    op.execute("DELETE FROM players WHERE discord_id IS NULL")
    _discord_id_nullable(False)

    with op.batch_alter_table('player_guardians', schema=None) as batch_op:
        batch_op.drop_index('ix_player_guardians_discord_id_league_id')

    op.drop_table('player_guardians')


_COLUMN = re.compile(r'(\bdiscord_id"?\s+BIGINT)(\s+NOT\s+NULL)?', re.IGNORECASE)


def _discord_id_nullable(nullable: bool) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.alter_column('players', 'discord_id', existing_type=sa.BIGINT(), nullable=nullable)
        return
    table = bind.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'players'").scalar()
    found = _COLUMN.search(table or "")
    if table is None or found is None:
        raise RuntimeError("players.discord_id not found in the stored table definition")
    changed = table[:found.start()] + found.group(1) + ("" if nullable else " NOT NULL") + table[found.end():]
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar() or 0
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'players'", (changed,))
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
