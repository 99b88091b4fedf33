"""A league from config.toml is the file's: /setup show works, /setup changes are refused in one line."""

from __future__ import annotations

import discord
from sqlalchemy import func, select

from storage.models import SetupChange
from tests.conftest import CHANNELS, ROLES, SampleLeague
from tests.harness import Harness


async def test_setup_show_works_for_a_league_from_the_file(harness: Harness, league: SampleLeague) -> None:
    shown = await harness.slash("/setup show", as_=league.commissioner())
    assert shown.ephemeral
    assert f"**Captain role** = <@&{ROLES['captain']}> · the bot's config file" in shown.text
    assert f"**Announcements channel** = <#{CHANNELS['announcements']}> · the bot's config file" in shown.text
    assert "test-config.toml" not in shown.text


async def test_setup_changes_to_a_file_league_are_refused(harness: Harness, league: SampleLeague) -> None:
    commissioner = league.commissioner()
    for path, options in (("/setup rule", {"key": "roster_limit", "value": "12"}),
                          ("/setup team", {"name": "Ravens"}),
                          ("/setup roles", {"captain": discord.Object(ROLES["referee"])}),
                          ("/setup league", {"preset": "coed-ball-hockey", "name": "Again",
                                             "timezone": "America/Toronto"})):
        reply = await harness.slash(path, as_=commissioner, **options)
        assert reply.ephemeral and reply.content.startswith(
            "Coed League is set up in the bot's config file; whoever runs the bot changes it there"), \
            (path, reply.content)
        assert "\n" not in reply.content
    assert harness.bot.settings.leagues[0].rules.lineup.roster_limit == 20
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(SetupChange)) == 0


async def test_a_server_without_a_league_is_pointed_to_setup_league(harness: Harness, league: SampleLeague) -> None:
    other = 444_444_444_444_444_444
    harness.add_guild(other, "Elsewhere", [], [5555])
    reply = await harness.slash("/schedule", as_=league.player("Alice Hart"), guild_id=other)
    assert reply.ephemeral and "/setup league" in reply.content


async def test_setup_show_names_the_coed_goalie_contradiction(harness: Harness, league: SampleLeague) -> None:
    shown = await harness.slash("/setup show", as_=league.commissioner(), section="lineup")
    assert "Co-ed rules: Teams (“not including the goalie”); in force: 2 women/non-binary skaters" in shown.text
