"""/import teams|players check the file against the server it was uploaded in: a captain or player who
isn't a member, a channel that isn't the server's, are refused by line and nothing is imported; ids a
spreadsheet turned into 4.10000E+17 get one line saying what happened and how to fix it."""

from __future__ import annotations

from datetime import UTC
from zoneinfo import ZoneInfo

from sqlalchemy import select

from storage.models import Game, Player, Team
from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness, Member
from tests.reliability.snapshot import changed_tables, snapshot

TEAMS = "team,division,captain_discord_ids,channel_id\n"
PLAYERS = "discord_id,name,team,position,gender\n"
FIX = "Nothing was imported. Fix these and upload the file again:"
JOIN = "check the id, or have them join the server first"
RAVEN = Member(id=810_000_000_000_000_001, name="Rae Raven")


async def refused(h: Harness, league: SampleLeague, command: str, text: str) -> str:
    before = await snapshot(h.bot.sessions)
    reply = await h.slash(command, as_=league.commissioner(), file=Attachment("file.csv", text.encode()))
    assert reply.ephemeral and reply.text.startswith(FIX), reply.text
    assert changed_tables(before, await snapshot(h.bot.sessions)) == []
    return reply.text


async def test_a_teams_file_with_a_captain_and_a_channel_the_server_lacks_is_refused(
        harness: Harness, league: SampleLeague) -> None:
    harness.join(RAVEN, harness.default_guild or 0)
    channel = 610_000_000_000_000_001
    harness.add_channel(harness.default_guild or 0, channel)
    text = await refused(harness, league, "/import teams", f"{TEAMS}Ravens,East,{RAVEN.id},{channel}\n"
                         "Crows,East,123,999\nJays,East,x1,\n")
    assert text == "\n".join([
        FIX,
        f"• line 3: Crows: captain 123 is not a member of this server ({JOIN})",
        "• line 3: Crows: channel 999 is not a channel of this server",
        "• line 4: captain_discord_ids 'x1' is not a Discord id (a number like 123456789012345678)"])
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(Team.id).where(Team.name == "Ravens")) is None


async def test_a_players_file_naming_someone_not_on_the_server_is_refused(
        harness: Harness, league: SampleLeague) -> None:
    harness.join(RAVEN, harness.default_guild or 0)
    text = await refused(harness, league, "/import players", f"{PLAYERS}{RAVEN.id},Rae Raven,Hawks,skater,\n"
                         "810000000000000999,Ghost,Hawks,skater,\n")
    assert text == f"{FIX}\n• line 3: discord_id 810000000000000999 is not a member of this server ({JOIN})"
    ok = await harness.slash("/import players", as_=league.commissioner(), file=Attachment(
        "p.csv", f"{PLAYERS}{RAVEN.id},Rae Raven,Hawks,skater,\n".encode()))
    assert "players: 1 created" in ok.text, ok.text
    # members are asked of Discord by id, all of a file's in one request
    assert (harness.default_guild, None, [RAVEN.id]) in harness.member_queries


async def test_ids_a_spreadsheet_rounded_get_one_line_not_one_per_row(harness: Harness, league: SampleLeague) -> None:
    rows = "".join(f"4.10000E+17,Player {n},Hawks,skater,\n" for n in range(40))
    text = await refused(harness, league, "/import players", PLAYERS + rows)
    assert text == (f"{FIX}\n• the discord_id column has ids a spreadsheet turned into numbers like 4.10000E+17 "
                    "(40 rows, lines 2 to 41): it kept only their first 15 digits, so the ids are lost. Format that "
                    "column as Text and paste the full ids in again")
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(Player.id).where(Player.name == "Player 0")) is None


GAMES = "game_id,starts_at,home,away,venue,kind\n"


async def test_game_times_as_a_us_spreadsheet_writes_them_import(harness: Harness, league: SampleLeague) -> None:
    """2/14/2030 can only be month first, so the file's 3/7/2030 is 7 March; weekdays any common way."""
    data = GAMES + ("U1,Thursdays 2/14/2030 7:00 PM,Hawks,Owls,Rink A,regular\n"
                    "U2,thursday 3/7/2030 19:30,Bears,Wolves,Rink A,\n"
                    "U3,Thu 2030-02-21 8 pm,Hawks,Bears,Rink A,\n")
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("g.csv", data.encode()))
    assert "g.csv: games: 3 created" in reply.text, reply.text
    async with harness.bot.sessions() as s:
        starts = dict((await s.execute(select(Game.code, Game.starts_at).where(Game.code.like("U%")))).all())
    local = {code: at.replace(tzinfo=UTC).astimezone(ZoneInfo("America/Toronto")).strftime("%Y-%m-%d %H:%M")
             for code, at in starts.items()}
    assert local == {"U1": "2030-02-14 19:00", "U2": "2030-03-07 19:30", "U3": "2030-02-21 20:00"}


async def test_a_date_that_could_be_two_days_is_refused_saying_how_to_write_it(
        harness: Harness, league: SampleLeague) -> None:
    text = await refused(harness, league, "/import games", GAMES + "U1,3/7/2030 19:00,Hawks,Owls,Rink A,\n"
                         "U2,Fri 2030-02-14 19:00,Bears,Wolves,Rink A,\n")
    assert text == "\n".join([
        FIX,
        "• line 2: starts_at '3/7/2030 19:00' could be 7 March or 3 July, and the league has no date order set, so "
        "I read only dates that can mean one day: write it year first (2030-03-07 or 2030-07-03) or with its weekday",
        "• line 3: starts_at 'Fri 2030-02-14 19:00': 2030-02-14 is a Thursday, not a Friday"])
