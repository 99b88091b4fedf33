"""CSV imports: all or nothing, every bad row reported with its line, re-import changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import String, cast, delete, func, literal, select

from bot.config.settings import LeagueSettings
from bot.services.imports.csv_rows import CsvImportError
from bot.services.imports.importer import Importer
from storage.models import Division, Game, OutboxMessage, Player, RosterEntry, Team, TeamCaptain

DATA = Path(__file__).resolve().parents[2] / "data"
NOW = datetime(2029, 12, 1, tzinfo=UTC)


async def counts(importer: Importer) -> dict[str, int]:
    async with importer.sessions() as s:
        return {m.__name__: await s.scalar(select(func.count()).select_from(m)) or 0
                for m in (Team, TeamCaptain, Player, RosterEntry, Game)}


async def load_samples(importer: Importer, league: LeagueSettings) -> None:
    for kind in ("teams", "players", "games"):
        await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=NOW)


async def test_sample_files_import_and_reimport_changes_nothing(importer: Importer, coed: LeagueSettings) -> None:
    await load_samples(importer, coed)
    first = await counts(importer)
    assert first == {"Team": 4, "TeamCaptain": 5, "Player": 28, "RosterEntry": 28, "Game": 6}
    reports = [await importer.run(k, (DATA / f"{k}.csv").read_bytes(), coed, now=NOW)
               for k in ("teams", "players", "games")]
    assert all(r.created == 0 and r.updated == 0 and r.unchanged > 0 for r in reports)
    assert await counts(importer) == first


async def test_game_times_are_read_in_the_league_time_zone(importer: Importer, coed: LeagueSettings) -> None:
    await load_samples(importer, coed)
    async with importer.sessions() as s:
        g1 = await s.scalar(select(Game).where(Game.code == "G1"))
    assert g1 is not None and g1.starts_at == datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # 19:00 EST


BAD_FILES = [
    ("teams", b"team,division\nHawks,North\n", "line 1: missing column(s): captain_discord_ids"),
    ("teams", b"", "the file is empty"),
    ("teams", b"team,division,captain_discord_ids\n", "header but no rows"),
    ("teams", b"team,division,captain_discord_ids\nH\xe9wks,North,1\n", "not UTF-8"),
    ("teams", b"team,division,captain_discord_ids\nHawks,N,12x\n",
     "line 2: captain_discord_ids '12x' is not a Discord id"),
    ("players", "discord_id,name,team,position\n\u00b2,Al,Hawks,skater\n".encode(),
     "line 2: discord_id '\u00b2' is not a Discord id"),
    ("players", b"discord_id,name,team,position\n1,Al,Hawks,skater\n1,Bo,Hawks,skater\n",
     "line 3: Discord id 1 appears twice (first on line 2)"),
    ("players", b"discord_id,name,team,position\n1,Al,Penguins,skater\n", "line 2: unknown team 'Penguins'"),
    ("players", b"discord_id,name,team,position\n1,Al,Hawks,coach\n",
     "line 2: position 'coach' is not one we know; write one of: skater (skaters, s, player"),
    ("games", b"game_id,starts_at,home,away,venue,kind\nX1,2030-02-30 19:00,Hawks,Owls,A,regular\n",
     "line 2: starts_at '2030-02-30 19:00' is not a date and time"),
    ("games", b"game_id,starts_at,home,away,venue,kind\nX1,2020-01-01 19:00,Hawks,Owls,A,regular\n",
     "line 2: starts_at 2020-01-01 19:00 is in the past (allow past games to import it)"),
    ("games", b"game_id,starts_at,home,away,venue,kind\nX1,2030-03-10 02:30,Hawks,Owls,A,regular\n",
     "does not exist in America/Toronto"),
    ("games", b"game_id,starts_at,home,away,venue,kind\nX1,2030-03-01 19:00,Hawks,Hawks,A,regular\n",
     "home and away are the same team"),
]


@pytest.mark.parametrize(("kind", "data", "expected"), BAD_FILES)
async def test_bad_files_say_exactly_what_is_wrong_and_import_nothing(
        importer: Importer, coed: LeagueSettings, kind: str, data: bytes, expected: str) -> None:
    await importer.run("teams", (DATA / "teams.csv").read_bytes(), coed, now=NOW)
    before = await counts(importer)
    with pytest.raises(CsvImportError) as err:
        await importer.run(kind, data, coed, now=NOW)
    assert expected in str(err.value)
    assert await counts(importer) == before


async def test_one_bad_row_among_good_ones_imports_nothing(importer: Importer, coed: LeagueSettings) -> None:
    await importer.run("teams", (DATA / "teams.csv").read_bytes(), coed, now=NOW)
    before = await counts(importer)
    data = b"discord_id,name,team,position\n1,Al,Hawks,skater\n2,Bo,Hawks,skater\n3,Cy,Nowhere,skater\n"
    with pytest.raises(CsvImportError) as err:
        await importer.run("players", data, coed, now=NOW)
    assert [p.line for p in err.value.problems] == [4]
    assert await counts(importer) == before


async def test_every_bad_row_is_reported(importer: Importer, coed: LeagueSettings) -> None:
    data = b"team,division,captain_discord_ids,channel_id\n,North,1,\nOwls,North,x,\nBears,,1,y\n"
    with pytest.raises(CsvImportError) as err:
        await importer.run("teams", data, coed, now=NOW)
    assert [p.line for p in err.value.problems] == [2, 3, 4]


async def test_names_from_csv_imports_are_cleaned_like_typed_text(importer: Importer, coed: LeagueSettings) -> None:
    """Mentions shown as text, bidi overrides and C1 controls dropped, an invisible name refused."""
    teams = ("team,division,captain_discord_ids,channel_id\n"
             "<@&700000000000000002> Hawks,North,1,\nOwls\u202eslwO,No\x85rth,2,\n").encode()
    await importer.run("teams", teams, coed, now=NOW)
    players = "discord_id,name,team,position\n5,<@500000000000000001>,<@&700000000000000002> Hawks,skater\n"
    await importer.run("players", players.encode(), coed, now=NOW)
    async with importer.sessions() as s:
        names = set((await s.scalars(select(Team.name))).all()) | set((await s.scalars(select(Player.name))).all())
        divisions = set((await s.scalars(select(Division.name))).all())
    assert names == {"<@\u200b&700000000000000002> Hawks", "OwlsslwO", "<@\u200b500000000000000001>"}
    assert divisions == {"North"}
    before = await counts(importer)
    for data, expected in [
            ("team,division,captain_discord_ids\n\u200b\u200d,North,1\n", "line 2: team is empty"),
            ("team,division,captain_discord_ids\n\u202e\x9b,North,1\n", "line 2: team is empty"),
            ("team,division,captain_discord_ids,team\nBears,South,3,Wolves\n", "team appear twice in the header")]:
        with pytest.raises(CsvImportError) as err:
            await importer.run("teams", data.encode(), coed, now=NOW)
        assert expected in str(err.value)
    assert await counts(importer) == before


async def test_importing_again_plans_reminders_a_crash_left_out(importer: Importer, coed: LeagueSettings) -> None:
    """New games' reminders are written after the games, in transactions of their own: games a
    crash left without them get them when the file is imported again."""
    await load_samples(importer, coed)

    async def reminders() -> dict[str, int]:
        async with importer.sessions() as s:
            rows = (await s.execute(select(Game.code, func.count()).join(
                OutboxMessage, OutboxMessage.send_key.startswith(literal("game-reminders:") + cast(Game.id, String)
                                                                 + literal(":"))).group_by(Game.code))).all()
        return {code: n for code, n in rows}

    planned = await reminders()
    assert set(planned) == {"G1", "G2", "G3", "G4", "G5", "G6"}
    async with importer.sessions.begin() as s:
        g3 = await s.scalar(select(Game.id).where(Game.code == "G3"))
        await s.execute(delete(OutboxMessage).where(OutboxMessage.send_key.startswith(f"game-reminders:{g3}:")))
    report = await importer.run("games", (DATA / "games.csv").read_bytes(), coed, now=NOW)
    assert (report.created, report.updated, report.unchanged) == (0, 0, 6)
    assert await reminders() == planned
