"""Migrations: an empty database upgrades to exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from storage import migrate
from storage.db import create_engine
from storage.models import Base


def test_the_head_found_without_alembic_is_alembics_head() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config())
    assert migrate.head_revisions() == frozenset(script.get_heads())
    assert len(script.get_heads()) == 1, "migrations have branched: merge them"


async def test_an_empty_database_upgrades_to_the_models(empty_db_url: str) -> None:
    engine = create_engine(empty_db_url)
    try:
        before, after = await migrate.upgrade(engine)
        assert before is None and after == migrate.head_revision()
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync, opts={"compare_type": False}),
                                              Base.metadata))
        assert diff == [], f"models and migrations differ: {diff}"
        again = await migrate.upgrade(engine)
        assert again == (after, after)
    finally:
        await engine.dispose()


async def test_a_database_built_at_e02906626356_with_rows_upgrades_keeping_every_row(empty_db_url: str) -> None:
    """The playoff-divisions migration changes playoff_brackets (a division, unique per league and division): a database
    with a league's data at the previous head keeps every row, and the old bracket becomes the league's."""
    from alembic import command
    from sqlalchemy import inspect, text

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "e02906626356"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'coed', 'Coed', 11, 'coed-ball-hockey')",
                "INSERT INTO teams (id, league_id, name) VALUES (1, 1, 'Hawks'), (2, 1, 'Owls')",
                "INSERT INTO players (id, league_id, discord_id, name) VALUES (1, 1, 21, 'Alice')",
                "INSERT INTO roster_entries (id, league_id, team_id, player_id, position, added_at) "
                "VALUES (1, 1, 1, 1, 'skater', '2030-01-01 00:00:00+00:00')",
                "INSERT INTO games (id, league_id, code, home_team_id, away_team_id, starts_at, venue, kind, status) "
                "VALUES (1, 1, 'G1', 1, 2, '2030-01-12 00:00:00+00:00', '', 'regular', 'scheduled')",
                "INSERT INTO suspensions (id, league_id, player_id, team_id, games, games_issued, reason, issued_at, "
                "status, pending_review, games_served) VALUES (1, 1, 1, 1, 2, 2, 'x', '2030-01-05 00:00:00+00:00', "
                "'active', false, 0)",
                "INSERT INTO standings_adjustments (id, league_id, team_id, points, reason, made_at) "
                "VALUES (1, 1, 2, -1, 'brawl', '2030-01-05 00:00:00+00:00')",
                "INSERT INTO playoff_brackets (id, league_id, seeds, winners, created_at, updated_at) "
                "VALUES (1, 1, '[\"Hawks\", \"Owls\"]', '{}', '2030-01-05 00:00:00+00:00', "
                "'2030-01-05 00:00:00+00:00')",
            ):
                await conn.execute(text(statement))

        async def counts() -> dict[str, int]:
            async with engine.connect() as conn:
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                return {n: (await conn.execute(text(f'SELECT COUNT(*) FROM "{n}"'))).scalar_one()
                        for n in sorted(names) if n != "alembic_version"}

        before = await counts()
        assert sum(before.values()) == 9
        before_after = await migrate.upgrade(engine)
        assert before_after == ("e02906626356", migrate.head_revision())
        after = await counts()
        assert {n: c for n, c in after.items() if n in before} == before, "every row is kept"
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT league_id, division, seeds FROM playoff_brackets"))).one()
        assert (row.league_id, row.division) == (1, "") and "Hawks" in str(row.seeds)
    finally:
        await engine.dispose()


async def test_a_database_built_at_840599be67e2_with_rows_gets_a_first_season_keeping_every_row(
        empty_db_url: str) -> None:
    """The seasons migration: every row is kept, and each league with games gets one first season that
    starts on its first game's day and lasts until its last game's week (the date puts them all in it)."""
    from datetime import date

    from alembic import command
    from sqlalchemy import inspect, text

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "840599be67e2"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'coed', 'Coed', 11, 'coed-ball-hockey'), (2, 'quiet', 'Quiet', 12, 'coed-ball-hockey')",
                "INSERT INTO teams (id, league_id, name) VALUES (1, 1, 'Hawks'), (2, 1, 'Owls'), (3, 2, 'Lone')",
                "INSERT INTO players (id, league_id, discord_id, name) VALUES (1, 1, 21, 'Alice')",
                "INSERT INTO roster_entries (id, league_id, team_id, player_id, position, added_at) "
                "VALUES (1, 1, 1, 1, 'skater', '2030-01-01 00:00:00+00:00')",
                "INSERT INTO games (id, league_id, code, home_team_id, away_team_id, starts_at, venue, kind, status) "
                "VALUES (1, 1, 'G1', 1, 2, '2030-01-12 00:30:00+00:00', '', 'regular', 'final'), "
                "(2, 1, 'G2', 2, 1, '2030-02-20 19:00:00+00:00', '', 'regular', 'scheduled')",
                "INSERT INTO results (id, league_id, game_id, home_score, away_score, decided, penalty_waived, "
                "entered_at) "
                "VALUES (1, 1, 1, 3, 1, 'regulation', false, '2030-01-12 02:00:00+00:00')",
                "INSERT INTO standings_adjustments (id, league_id, team_id, points, reason, made_at) "
                "VALUES (1, 1, 2, -1, 'brawl', '2030-01-05 00:00:00+00:00')",
            ):
                await conn.execute(text(statement))

        async def counts() -> dict[str, int]:
            async with engine.connect() as conn:
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                return {n: (await conn.execute(text(f'SELECT COUNT(*) FROM "{n}"'))).scalar_one()
                        for n in sorted(names) if n != "alembic_version"}

        before = await counts()
        assert sum(before.values()) == 11
        assert await migrate.upgrade(engine) == ("840599be67e2", migrate.head_revision())
        after = await counts()
        assert {n: c for n, c in after.items() if n in before} == before, "every row is kept"
        async with engine.connect() as conn:
            seasons = (await conn.execute(
                text("SELECT league_id, name, first_day, weeks, ended_at FROM seasons"))).all()
        assert len(seasons) == 1, "the league without games gets none"
        league_id, name, first_day, weeks, ended_at = seasons[0]
        assert (league_id, name, ended_at) == (1, "Season 1", None)
        assert str(first_day)[:10] == date(2030, 1, 12).isoformat() and weeks == 6  # 12 Jan .. 20 Feb
    finally:
        await engine.dispose()


async def test_a_database_built_at_5e1a7c0d9b42_with_rows_gets_missed_cleanups_keeping_every_row(
        empty_db_url: str) -> None:
    """The cleanup-duty migration (youth 2.15) adds one table and changes none: every row is kept, and one
    standing record per team and game is allowed, beside any number of withdrawn ones."""
    import pytest
    from alembic import command
    from sqlalchemy import inspect, text
    from sqlalchemy.exc import IntegrityError

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "5e1a7c0d9b42"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'youth', 'Youth', 11, 'youth-ball-hockey')",
                "INSERT INTO teams (id, league_id, name) VALUES (1, 1, 'Bears'), (2, 1, 'Wolves')",
                "INSERT INTO players (id, league_id, discord_id, name) VALUES (1, 1, 21, 'Walt')",
                "INSERT INTO games (id, league_id, code, home_team_id, away_team_id, starts_at, venue, kind, status) "
                "VALUES (1, 1, 'G2', 1, 2, '2030-01-12 01:00:00+00:00', '', 'regular', 'scheduled')",
                "INSERT INTO penalties (id, league_id, game_id, player_id, team_id, infraction_key, called_key, "
                "category, minutes, ejected, game_misconduct, suspension_games, pending_review, summary, referee_id, "
                "created_at) VALUES (1, 1, 1, 1, 1, 'bench_minor_heckling', 'bench_minor_heckling', 'bench_minor', "
                "2, false, false, 0, false, 'Bench minor', 5, '2030-01-12 01:30:00+00:00')",
                "INSERT INTO seasons (id, league_id, name, first_day, weeks, starts_at, created_at) "
                "VALUES (1, 1, 'Season 1', '2030-01-06', 8, '2030-01-06 05:00:00+00:00', "
                "'2030-01-05 00:00:00+00:00')",
            ):
                await conn.execute(text(statement))

        async def counts() -> dict[str, int]:
            async with engine.connect() as conn:
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                return {n: (await conn.execute(text(f'SELECT COUNT(*) FROM "{n}"'))).scalar_one()
                        for n in sorted(names) if n != "alembic_version"}

        before = await counts()
        assert sum(before.values()) == 7
        assert await migrate.upgrade(engine) == ("5e1a7c0d9b42", migrate.head_revision())
        after = await counts()
        assert {n: c for n, c in after.items() if n in before} == before, "every row is kept"
        assert after["missed_cleanups"] == 0
        record = ("INSERT INTO missed_cleanups (league_id, game_id, team_id, minutes, recorded_by, recorded_at, "
                  "withdrawn_at, withdrawal_note) VALUES (1, 1, 1, 2, 5, '2030-01-12 03:00:00+00:00', {}, '')")
        async with engine.begin() as conn:
            await conn.execute(text(record.format("'2030-01-12 04:00:00+00:00'")))  # withdrawn
            await conn.execute(text(record.format("NULL")))  # standing
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(text(record.format("NULL")))  # a second standing one
        assert (await counts())["missed_cleanups"] == 2
    finally:
        await engine.dispose()


async def test_a_database_built_at_5e1a7c0d9b42_with_rows_keeps_every_departure_with_its_stint_unknown(
        empty_db_url: str) -> None:
    """The rosters-by-season migration: departures gain the stint they end (arrival, position, reason); every
    row is kept, and a departure recorded before keeps its values with NULLs for what wasn't kept then."""
    from alembic import command
    from sqlalchemy import inspect, text

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "5e1a7c0d9b42"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'coed', 'Coed', 11, 'coed-ball-hockey')",
                "INSERT INTO teams (id, league_id, name) VALUES (1, 1, 'Hawks'), (2, 1, 'Owls')",
                "INSERT INTO players (id, league_id, discord_id, name) VALUES (1, 1, 21, 'Alice'), (2, 1, 22, 'Bea')",
                "INSERT INTO roster_entries (id, league_id, team_id, player_id, position, added_at) "
                "VALUES (1, 1, 2, 1, 'skater', '2030-01-10 00:00:00+00:00'), "
                "(2, 1, 1, 2, 'goalie', '2030-01-01 00:00:00+00:00')",
                "INSERT INTO roster_departures (id, league_id, player_id, team_id, left_at) "
                "VALUES (1, 1, 1, 1, '2030-01-10 00:00:00+00:00'), (2, 1, 2, 2, '2029-12-20 00:00:00+00:00')",
                "INSERT INTO seasons (id, league_id, name, first_day, weeks, starts_at, ended_at, created_by, "
                "created_at) VALUES (1, 1, 'Season 1', '2030-01-07', 8, '2030-01-07 00:00:00+00:00', NULL, NULL, "
                "'2030-01-01 00:00:00+00:00')",
            ):
                await conn.execute(text(statement))

        async def counts() -> dict[str, int]:
            async with engine.connect() as conn:
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                return {n: (await conn.execute(text(f'SELECT COUNT(*) FROM "{n}"'))).scalar_one()
                        for n in sorted(names) if n != "alembic_version"}

        before = await counts()
        assert sum(before.values()) == 10
        assert await migrate.upgrade(engine) == ("5e1a7c0d9b42", migrate.head_revision())
        after = await counts()
        assert {n: c for n, c in after.items() if n in before} == before, "every row is kept"
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, player_id, team_id, left_at, joined_at, position, reason "
                                            "FROM roster_departures ORDER BY id"))).all()
        assert [(r.id, r.player_id, r.team_id, str(r.left_at)[:10], r.joined_at, r.position, r.reason)
                for r in rows] == [(1, 1, 1, "2030-01-10", None, None, None), (2, 2, 2, "2029-12-20", None, None, None)]
    finally:
        await engine.dispose()


async def test_a_database_built_at_c99c8e39b679_keeps_its_rulebook_as_one_imported_from_a_file(
        empty_db_url: str) -> None:
    """Rulebooks say whether they were uploaded in Discord and by whom: every rulebook stored before came
    from a file, so it says "file" with no uploader, and its sections are all kept."""
    from alembic import command
    from sqlalchemy import text

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "c99c8e39b679"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'coed', 'Coed', 11, 'coed-ball-hockey')",
                "INSERT INTO rulebooks (id, league_id, source, fingerprint, section_count, imported_at) "
                "VALUES (1, 1, '/srv/rules/coed.txt', 'abc', 2, '2030-01-05 00:00:00+00:00')",
                "INSERT INTO rule_sections (id, league_id, ordinal, citation, title, text, kind, parent, lines, "
                "line_numbers) VALUES (1, 1, 0, '1.1', 'Offsides', 'No offside.', 'rule', '', '1.1 Offsides', '[1]'), "
                "(2, 1, 1, '1.2', 'Icing', 'No icing.', 'rule', '', '1.2 Icing', '[2]')",
            ):
                await conn.execute(text(statement))
        assert await migrate.upgrade(engine) == ("c99c8e39b679", migrate.head_revision())
        async with engine.connect() as conn:
            book = (await conn.execute(text("SELECT source, origin, imported_by, section_count FROM rulebooks"))).one()
            sections = (await conn.execute(text("SELECT citation FROM rule_sections ORDER BY ordinal"))).scalars()
            assert tuple(book) == ("/srv/rules/coed.txt", "file", None, 2)
            assert list(sections) == ["1.1", "1.2"]
    finally:
        await engine.dispose()


async def test_a_database_built_at_c99c8e39b679_with_rows_gets_reminder_messages_keeping_every_row(
        empty_db_url: str) -> None:
    """Quiet reminders keep each team's reminder message: a new table, empty at first (reminders sent
    before have no message to edit; the next one posts one), and every row there was is kept."""
    from alembic import command
    from sqlalchemy import inspect, text

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "c99c8e39b679"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'coed', 'Coed', 11, 'coed-ball-hockey')",
                "INSERT INTO teams (id, league_id, name, channel_id) VALUES (1, 1, 'Hawks', 31), (2, 1, 'Owls', 32)",
                "INSERT INTO games (id, league_id, code, home_team_id, away_team_id, starts_at, venue, status, kind) "
                "VALUES (1, 1, 'G1', 1, 2, '2030-01-12 00:00:00+00:00', 'Rink', 'scheduled', 'regular')",
                "INSERT INTO outbox (id, league_id, guild_id, send_key, kind, args, channel_id, due_at, status, "
                "attempts, next_attempt_at, message_id, created_at) VALUES (1, 1, 11, "
                "'game-reminders:1:1:remind:2880m', 'game_reminder', '{}', 31, '2030-01-10 00:00:00+00:00', "
                "'sent', 1, '2030-01-10 00:00:00+00:00', 41, '2030-01-10 00:00:00+00:00')",
            ):
                await conn.execute(text(statement))

        async def counts() -> dict[str, int]:
            async with engine.connect() as conn:
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                return {n: (await conn.execute(text(f'SELECT COUNT(*) FROM "{n}"'))).scalar_one()
                        for n in sorted(names) if n != "alembic_version"}

        before = await counts()
        assert sum(before.values()) == 5 and "reminder_messages" not in before
        assert await migrate.upgrade(engine) == ("c99c8e39b679", migrate.head_revision())
        after = await counts()
        assert {n: c for n, c in after.items() if n in before} == before, "every row is kept"
        assert after["reminder_messages"] == 0
    finally:
        await engine.dispose()


async def test_a_database_built_at_c583df2a5658_with_a_missed_cleanup_keeps_it_as_a_missed_cleanup(
        empty_db_url: str) -> None:
    """Arena duties: a missed cleanup recorded before keeps every value and reads as a cleanup; the standing
    record is now one per team, game and duty (a missed setup beside it is allowed, a second cleanup not)."""
    import pytest
    from alembic import command
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(migrate.alembic_config(c), "c583df2a5658"))
        async with engine.begin() as conn:
            for statement in (
                "INSERT INTO leagues (id, key, name, guild_id, preset) "
                "VALUES (1, 'youth', 'Youth', 11, 'youth-ball-hockey')",
                "INSERT INTO teams (id, league_id, name) VALUES (1, 1, 'Bears'), (2, 1, 'Wolves')",
                "INSERT INTO games (id, league_id, code, home_team_id, away_team_id, starts_at, venue, kind, status) "
                "VALUES (1, 1, 'G2', 1, 2, '2030-01-12 01:00:00+00:00', '', 'regular', 'scheduled')",
                "INSERT INTO missed_cleanups (league_id, game_id, team_id, minutes, recorded_by, recorded_at, "
                "withdrawal_note) VALUES (1, 1, 1, 2, 5, '2030-01-12 03:00:00+00:00', '')",
            ):
                await conn.execute(text(statement))
        assert await migrate.upgrade(engine) == ("c583df2a5658", migrate.head_revision())
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT team_id, minutes, duty FROM missed_cleanups"))).all()
            assert [tuple(r) for r in rows] == [(1, 2, "cleanup")]
            for table in ("assistant_coaches", "stand_in_captains", "game_duties"):
                assert (await conn.execute(text(f"SELECT COUNT(*) FROM {table}"))).scalar_one() == 0
        record = ("INSERT INTO missed_cleanups (league_id, game_id, team_id, duty, minutes, recorded_by, recorded_at, "
                  "withdrawal_note) VALUES (1, 1, 1, '{}', 2, 5, '2030-01-12 03:00:00+00:00', '')")
        async with engine.begin() as conn:
            await conn.execute(text(record.format("setup")))
        for refused in ("cleanup", "tidying"):  # a second standing cleanup; a duty that isn't one
            with pytest.raises(IntegrityError):
                async with engine.begin() as conn:
                    await conn.execute(text(record.format(refused)))
    finally:
        await engine.dispose()
