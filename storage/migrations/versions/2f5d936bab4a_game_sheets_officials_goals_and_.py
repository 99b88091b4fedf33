"""game sheets, officials, goals and statistics

Game sheets: ``game_sheets`` (per game and team: confirmed by whom, and when the sheet stopped following
check-ins), ``game_sheet_entries`` (who is on each sheet; a line taken off by hand stays, marked removed)
and ``game_sheet_changes`` (the log of changes made by hand). ``goals`` (scorer, assists, the goalie
scored upon; disallowed ones with their reason; taken-back ones marked). Statistics kept ready to read:
``stat_lines`` (each player's numbers in each counted game), ``stat_totals`` (their running sums per
season, indexed by each leaders' category), ``stats_versions`` (a counter per league) and ``stats_posts``
(the weekly statistics message). Late starts: ``bench_penalties`` (bench minors against a team) and
``late_starts`` (what an official recorded from a late-start prompt, and its undo); the results' log may
now say ``withdrawn`` (a late-start forfeit undone). A game's officials: ``referee_assignments`` gains
``role`` (referee or timekeeper; every existing row is a referee) and ``league_setups`` the timekeeper
role. New tables and nullable or defaulted columns only: existing rows are untouched, and games played
before them simply have no sheet, no goals and no statistics.

Revision ID: 2f5d936bab4a
Revises: c2547aa77b8d
Create Date: 2026-12-04 23:40:41.020113
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '2f5d936bab4a'
down_revision = 'c2547aa77b8d'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('stats_posts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('message_id', sa.BigInteger(), nullable=True),
    sa.Column('send_key', sa.String(length=200), nullable=True),
    sa.Column('posted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_stats_posts_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_stats_posts')),
    sa.UniqueConstraint('league_id', name=op.f('uq_stats_posts_league_id'))
    )
    op.create_table('stats_versions',
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('seasons', sa.String(length=4000), server_default='', nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_stats_versions_league_id_leagues'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('league_id', name=op.f('pk_stats_versions'))
    )
    op.create_table('stat_totals',
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('gp', sa.Integer(), nullable=False),
    sa.Column('goals', sa.Integer(), nullable=False),
    sa.Column('assists', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('pim', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_stat_totals_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_stat_totals_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('league_id', 'season_id', 'player_id', name=op.f('pk_stat_totals'))
    )
    with op.batch_alter_table('stat_totals', schema=None) as batch_op:
        batch_op.create_index('ix_stat_totals_assists', ['league_id', 'season_id', 'assists'], unique=False)
        batch_op.create_index('ix_stat_totals_goals', ['league_id', 'season_id', 'goals'], unique=False)
        batch_op.create_index('ix_stat_totals_gp', ['league_id', 'season_id', 'gp'], unique=False)
        batch_op.create_index('ix_stat_totals_pim', ['league_id', 'season_id', 'pim'], unique=False)
        batch_op.create_index('ix_stat_totals_points', ['league_id', 'season_id', 'points'], unique=False)

    op.create_table('bench_penalties',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('infraction_key', sa.String(length=64), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=False),
    sa.Column('minute', sa.Integer(), nullable=True),
    sa.Column('summary', sa.String(length=1000), nullable=False),
    sa.Column('called_by', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('withdrawn_by', sa.BigInteger(), nullable=True),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('minutes >= 0 AND (minute IS NULL OR minute >= 0)', name=op.f('ck_bench_penalties_minutes')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_bench_penalties_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_bench_penalties_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_bench_penalties_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bench_penalties'))
    )
    with op.batch_alter_table('bench_penalties', schema=None) as batch_op:
        batch_op.create_index('ix_bench_penalties_game', ['league_id', 'game_id'], unique=False)

    op.create_table('game_sheet_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('changed_by', sa.BigInteger(), nullable=False),
    sa.Column('changed_by_name', sa.String(length=100), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("action IN ('added', 'removed', 'confirmed')", name=op.f('ck_game_sheet_changes_action')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_sheet_changes_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_game_sheet_changes_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_game_sheet_changes_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_sheet_changes'))
    )
    with op.batch_alter_table('game_sheet_changes', schema=None) as batch_op:
        batch_op.create_index('ix_game_sheet_changes_game', ['game_id', 'team_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_sheet_changes_league_id'), ['league_id'], unique=False)

    op.create_table('game_sheets',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('confirmed_by', sa.BigInteger(), nullable=True),
    sa.Column('confirmed_by_name', sa.String(length=100), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('frozen_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_sheets_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_game_sheets_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_game_sheets_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'team_id', name=op.f('pk_game_sheets'))
    )
    with op.batch_alter_table('game_sheets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_sheets_league_id'), ['league_id'], unique=False)

    op.create_table('goals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('scorer_id', sa.Integer(), nullable=False),
    sa.Column('assist1_id', sa.Integer(), nullable=True),
    sa.Column('assist2_id', sa.Integer(), nullable=True),
    sa.Column('goalie_id', sa.Integer(), nullable=True),
    sa.Column('period', sa.Integer(), nullable=True),
    sa.Column('clock', sa.String(length=8), nullable=True),
    sa.Column('disallowed', sa.Boolean(), nullable=False),
    sa.Column('disallowed_reason', sa.String(length=300), nullable=False),
    sa.Column('recorded_by', sa.BigInteger(), nullable=False),
    sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('removed_by', sa.BigInteger(), nullable=True),
    sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('period IS NULL OR period >= 1', name=op.f('ck_goals_period')),
    sa.ForeignKeyConstraint(['assist1_id'], ['players.id'], name=op.f('fk_goals_assist1_id_players'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['assist2_id'], ['players.id'], name=op.f('fk_goals_assist2_id_players'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_goals_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['goalie_id'], ['players.id'], name=op.f('fk_goals_goalie_id_players'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_goals_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['scorer_id'], ['players.id'], name=op.f('fk_goals_scorer_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_goals_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_goals'))
    )
    with op.batch_alter_table('goals', schema=None) as batch_op:
        batch_op.create_index('ix_goals_assist1', ['assist1_id'], unique=False, sqlite_where=sa.text('removed_at IS NULL AND NOT disallowed'), postgresql_where=sa.text('removed_at IS NULL AND NOT disallowed'))
        batch_op.create_index('ix_goals_assist2', ['assist2_id'], unique=False, sqlite_where=sa.text('removed_at IS NULL AND NOT disallowed'), postgresql_where=sa.text('removed_at IS NULL AND NOT disallowed'))
        batch_op.create_index('ix_goals_game', ['game_id', 'team_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_goals_league_id'), ['league_id'], unique=False)
        batch_op.create_index('ix_goals_scorer', ['scorer_id'], unique=False, sqlite_where=sa.text('removed_at IS NULL AND NOT disallowed'), postgresql_where=sa.text('removed_at IS NULL AND NOT disallowed'))

    op.create_table('stat_lines',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('gp', sa.Integer(), nullable=False),
    sa.Column('goals', sa.Integer(), nullable=False),
    sa.Column('assists', sa.Integer(), nullable=False),
    sa.Column('pim', sa.Integer(), nullable=False),
    sa.Column('goalie', sa.Integer(), nullable=False),
    sa.Column('goals_against', sa.Integer(), nullable=False),
    sa.Column('shutout', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_stat_lines_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_stat_lines_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_stat_lines_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_stat_lines_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'player_id', name=op.f('pk_stat_lines'))
    )
    with op.batch_alter_table('stat_lines', schema=None) as batch_op:
        batch_op.create_index('ix_stat_lines_player', ['league_id', 'player_id', 'season_id'], unique=False)
        batch_op.create_index('ix_stat_lines_team', ['league_id', 'team_id', 'season_id'], unique=False)

    op.create_table('game_sheet_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('guest_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('position', sa.String(length=16), nullable=False),
    sa.Column('number', sa.Integer(), nullable=True),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('added_by', sa.BigInteger(), nullable=True),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('removed_by', sa.BigInteger(), nullable=True),
    sa.Column('removed_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("position IN ('skater', 'goalie')", name=op.f('ck_game_sheet_entries_position')),
    sa.CheckConstraint("source IN ('checkin', 'spare', 'guest', 'added')", name=op.f('ck_game_sheet_entries_source')),
    sa.CheckConstraint('player_id IS NOT NULL OR guest_id IS NOT NULL', name=op.f('ck_game_sheet_entries_who')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_sheet_entries_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['guest_id'], ['guests.id'], name=op.f('fk_game_sheet_entries_guest_id_guests'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_game_sheet_entries_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_game_sheet_entries_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_game_sheet_entries_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_sheet_entries')),
    sa.UniqueConstraint('game_id', 'guest_id', name=op.f('uq_game_sheet_entries_game_id_guest_id')),
    sa.UniqueConstraint('game_id', 'player_id', name=op.f('uq_game_sheet_entries_game_id_player_id'))
    )
    with op.batch_alter_table('game_sheet_entries', schema=None) as batch_op:
        batch_op.create_index('ix_game_sheet_entries_game_team', ['game_id', 'team_id'], unique=False)
        batch_op.create_index('ix_game_sheet_entries_player', ['league_id', 'player_id', 'game_id'], unique=False, sqlite_where=sa.text('removed_at IS NULL'), postgresql_where=sa.text('removed_at IS NULL'))

    op.create_table('late_starts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('league_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('bench_penalty_id', sa.Integer(), nullable=True),
    sa.Column('made_by', sa.BigInteger(), nullable=False),
    sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('undone_by', sa.BigInteger(), nullable=True),
    sa.Column('undone_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("action IN ('minor', 'forfeit')", name=op.f('ck_late_starts_action')),
    sa.ForeignKeyConstraint(['bench_penalty_id'], ['bench_penalties.id'], name=op.f('fk_late_starts_bench_penalty_id_bench_penalties'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_late_starts_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_late_starts_league_id_leagues'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], name=op.f('fk_late_starts_team_id_teams'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_late_starts'))
    )
    with op.batch_alter_table('late_starts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_late_starts_league_id'), ['league_id'], unique=False)
        batch_op.create_index('uq_late_starts_standing', ['game_id', 'team_id', 'action'], unique=True, sqlite_where=sa.text('undone_at IS NULL'), postgresql_where=sa.text('undone_at IS NULL'))

    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timekeeper_role_id', sa.BigInteger(), nullable=True))

    with op.batch_alter_table('referee_assignments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('role', sa.String(length=16), server_default='referee', nullable=False))
        batch_op.create_check_constraint(op.f('ck_referee_assignments_role'), "role IN ('referee', 'timekeeper')")

    # A late-start forfeit can be undone: the results' log says so (``withdrawn``).
    with op.batch_alter_table('result_changes', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_result_changes_action'), type_='check')
        batch_op.create_check_constraint(op.f('ck_result_changes_action'),
                                         "action IN ('entered', 'fixed', 'imported', 'withdrawn')")


def downgrade() -> None:
    op.execute("DELETE FROM result_changes WHERE action = 'withdrawn'")
    with op.batch_alter_table('result_changes', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_result_changes_action'), type_='check')
        batch_op.create_check_constraint(op.f('ck_result_changes_action'), "action IN ('entered', 'fixed', 'imported')")

    with op.batch_alter_table('referee_assignments', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_referee_assignments_role'), type_='check')
        batch_op.drop_column('role')

    with op.batch_alter_table('league_setups', schema=None) as batch_op:
        batch_op.drop_column('timekeeper_role_id')

    with op.batch_alter_table('late_starts', schema=None) as batch_op:
        batch_op.drop_index('uq_late_starts_standing', sqlite_where=sa.text('undone_at IS NULL'), postgresql_where=sa.text('undone_at IS NULL'))
        batch_op.drop_index(batch_op.f('ix_late_starts_league_id'))

    op.drop_table('late_starts')
    with op.batch_alter_table('game_sheet_entries', schema=None) as batch_op:
        batch_op.drop_index('ix_game_sheet_entries_player', sqlite_where=sa.text('removed_at IS NULL'), postgresql_where=sa.text('removed_at IS NULL'))
        batch_op.drop_index('ix_game_sheet_entries_game_team')

    op.drop_table('game_sheet_entries')
    with op.batch_alter_table('stat_lines', schema=None) as batch_op:
        batch_op.drop_index('ix_stat_lines_team')
        batch_op.drop_index('ix_stat_lines_player')

    op.drop_table('stat_lines')
    with op.batch_alter_table('goals', schema=None) as batch_op:
        batch_op.drop_index('ix_goals_scorer', sqlite_where=sa.text('removed_at IS NULL AND NOT disallowed'), postgresql_where=sa.text('removed_at IS NULL AND NOT disallowed'))
        batch_op.drop_index(batch_op.f('ix_goals_league_id'))
        batch_op.drop_index('ix_goals_game')
        batch_op.drop_index('ix_goals_assist2', sqlite_where=sa.text('removed_at IS NULL AND NOT disallowed'), postgresql_where=sa.text('removed_at IS NULL AND NOT disallowed'))
        batch_op.drop_index('ix_goals_assist1', sqlite_where=sa.text('removed_at IS NULL AND NOT disallowed'), postgresql_where=sa.text('removed_at IS NULL AND NOT disallowed'))

    op.drop_table('goals')
    with op.batch_alter_table('game_sheets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_sheets_league_id'))

    op.drop_table('game_sheets')
    with op.batch_alter_table('game_sheet_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_sheet_changes_league_id'))
        batch_op.drop_index('ix_game_sheet_changes_game')

    op.drop_table('game_sheet_changes')
    with op.batch_alter_table('bench_penalties', schema=None) as batch_op:
        batch_op.drop_index('ix_bench_penalties_game')

    op.drop_table('bench_penalties')
    with op.batch_alter_table('stat_totals', schema=None) as batch_op:
        batch_op.drop_index('ix_stat_totals_points')
        batch_op.drop_index('ix_stat_totals_pim')
        batch_op.drop_index('ix_stat_totals_gp')
        batch_op.drop_index('ix_stat_totals_goals')
        batch_op.drop_index('ix_stat_totals_assists')

    op.drop_table('stat_totals')
    op.drop_table('stats_versions')
    op.drop_table('stats_posts')
