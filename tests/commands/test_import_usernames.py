"""/import players accepts a Discord username in the discord_id column, /import teams an @username for
a captain; the CLI, which has no gateway, says such rows need /import or ids. Unknown or ambiguous
names: listed by line, nothing imported."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from bot.services.imports.player_names import captains_with_ids, named_captains, named_rows, with_ids
from storage.models import Player, RosterEntry, Team
from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness, Member

NORA = Member(id=840_000_000_000_000_001, name="Nora New")  # username nora_new
ALEX_1 = Member(id=840_000_000_000_000_002, name="Alex")
ALEX_2 = Member(id=840_000_000_000_000_003, name="Alex")


def csv_file(*rows: str) -> Attachment:
    return Attachment("players.csv", ("discord_id,name,team,position,gender\n" + "\n".join(rows) + "\n").encode())


async def counts(h: Harness) -> tuple[int, int]:
    async with h.bot.sessions() as s:
        return (await s.scalar(select(func.count()).select_from(Player)) or 0,
                await s.scalar(select(func.count()).select_from(RosterEntry)) or 0)


async def test_usernames_resolve_against_the_servers_members(harness: Harness, league: SampleLeague) -> None:
    harness.join(NORA, harness.default_guild or 0)
    reply = await harness.slash("/import players", as_=league.commissioner(),
                                file=csv_file("@nora_new,Nora New,Hawks,skater,woman"))
    assert "players: 1 created" in reply.text, reply.text
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(Player.name).where(Player.discord_id == NORA.id)) == "Nora New"


async def test_unknown_and_ambiguous_names_are_listed_and_nothing_is_imported(
        harness: Harness, league: SampleLeague) -> None:
    for member in (NORA, ALEX_1, ALEX_2):
        harness.join(member, harness.default_guild or 0)
    before = await counts(harness)
    reply = await harness.slash("/import players", as_=league.commissioner(), file=csv_file(
        "nora_new,Nora New,Hawks,skater,woman", "@ghost,Ghost,Hawks,skater,", "alex,Alex,Owls,skater,"))
    assert reply.ephemeral and "Nothing was imported" in reply.text
    assert "line 3: 'ghost' matches no member of this server" in reply.text
    assert "line 4: 'alex' matches 2 members; use their username or id" in reply.text
    assert await counts(harness) == before


def test_the_cli_says_usernames_need_import_in_discord(tmp_path: Path) -> None:
    from tests.cli.test_cli import sideline, write_config

    config = write_config(tmp_path)
    players = tmp_path / "players.csv"
    players.write_text("discord_id,name,team,position,gender\n@nora_new,Nora New,Hawks,skater,woman\n")
    result = sideline("import", "players", str(players), "--league", "coed", "--config", str(config))
    assert result.returncode != 0
    assert "'@nora_new' is not a Discord id" in result.stderr
    assert "a username works with /import players in Discord" in result.stderr


def test_named_rows_are_found_and_replaced_by_line() -> None:
    text = 'discord_id,name,team\n123,"A, B",Hawks\n@sam,Sam,Owls\n'
    assert named_rows(text) == [(3, "sam")]
    assert with_ids(text, {3: 42}) == 'discord_id,name,team\n123,"A, B",Hawks\n42,Sam,Owls\n'


def teams_file(*rows: str) -> Attachment:
    return Attachment("teams.csv", ("team,division,captain_discord_ids,channel_id\n" + "\n".join(rows) + "\n").encode())


async def test_a_teams_file_names_its_captains_by_username(harness: Harness, league: SampleLeague) -> None:
    harness.join(NORA, harness.default_guild or 0)
    reply = await harness.slash("/import teams", as_=league.commissioner(), file=teams_file("Lynx,,@nora_new,"))
    assert "teams: 1 created" in reply.text, reply.text
    async with harness.bot.sessions() as s:
        team = await s.scalar(select(Team).where(Team.name == "Lynx").options(selectinload(Team.captains)))
        assert team is not None and [c.discord_id for c in team.captains] == [NORA.id]


async def test_a_captain_no_member_is_called_is_listed_by_line_and_nothing_is_imported(
        harness: Harness, league: SampleLeague) -> None:
    harness.join(NORA, harness.default_guild or 0)
    async with harness.bot.sessions() as s:
        teams_before = await s.scalar(select(func.count()).select_from(Team))
    reply = await harness.slash("/import teams", as_=league.commissioner(),
                                file=teams_file("Lynx,,@nora_new @ghost,", "Pumas,,@ghost,"))
    assert reply.ephemeral and reply.text.startswith("Nothing was imported. Fix these and upload the file again:")
    assert "line 2: 'ghost' matches no member of this server" in reply.text
    assert "line 3: 'ghost' matches no member of this server" in reply.text
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Team)) == teams_before


def test_named_captains_are_found_and_replaced_beside_ids() -> None:
    text = "team,division,captain_discord_ids,channel_id\nHawks,,123 @Sam,31\nOwls,,,\nBears,,x1,\n"
    assert named_captains(text) == [(2, "Sam")]  # x1 is no id, and no @name: the importer says so
    assert captains_with_ids(text, {"sam": 42}) == ("team,division,captain_discord_ids,channel_id\n"
                                                    "Hawks,,123 42,31\nOwls,,,\nBears,,x1,\n")
