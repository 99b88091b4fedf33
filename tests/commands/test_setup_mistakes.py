"""/setup team refuses what would break a season weeks later: a second /setup team quietly replacing a
team's captain or channel, one member captaining two teams, two teams sharing one channel. Each is
refused with the reason and writes nothing; replace:True goes ahead and says what it replaced."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import Team, TeamCaptain
from tests.commands.empty_server import CHANNEL_IDS, Server, no_leagues, open_server
from tests.commands.setup.test_setup import set_up
from tests.harness import Harness
from tests.reliability.snapshot import changed_tables, snapshot

HAWKS, OWLS = discord.Object(CHANNEL_IDS["hawks"]), discord.Object(CHANNEL_IDS["owls"])
GO_AHEAD = "Nothing changed. To go ahead, run /setup team again with replace:True."


@pytest.fixture
def settings() -> Settings:
    return no_leagues()


@pytest.fixture
async def server(harness: Harness) -> AsyncIterator[Server]:
    server = open_server(harness)
    await set_up(server)
    yield server


async def teams(h: Harness) -> dict[str, tuple[int | None, list[int]]]:
    """Each team's channel and captains, as stored."""
    async with h.bot.sessions() as s:
        rows = (await s.execute(select(Team.id, Team.name, Team.channel_id))).all()
        captains = (await s.execute(select(TeamCaptain.team_id, TeamCaptain.discord_id)
                                    .order_by(TeamCaptain.discord_id))).all()
    return {name: (channel, [c for t, c in captains if t == team_id]) for team_id, name, channel in rows}


async def refused(h: Harness, server: Server, **options: object) -> str:
    """The reply to a /setup team that must change nothing, checked to have changed nothing."""
    before = await snapshot(h.bot.sessions)
    reply = await server.slash("/setup team", as_=server.admin(), **options)
    assert reply.ephemeral and "\n" not in reply.content
    assert changed_tables(before, await snapshot(h.bot.sessions)) == []
    return str(reply.content)


async def test_a_second_setup_team_does_not_silently_replace_the_captain(harness: Harness, server: Server) -> None:
    cara, bo = server.person("Cara Captain", "captain"), server.person("Bo Backup", "captain")
    await server.slash("/setup team", as_=server.admin(), name="Hawks", captain=cara, channel=HAWKS)
    text = await refused(harness, server, name="Hawks", captain=bo)
    assert text == f"Hawks already has the captain <@{cara.id}>. {GO_AHEAD}"
    replaced = await server.slash("/setup team", as_=server.admin(), name="Hawks", captain=bo, replace=True)
    assert replaced.content == f"Hawks: captain <@{bo.id}> (replaces <@{cara.id}>)."
    assert await teams(harness) == {"Hawks": (CHANNEL_IDS["hawks"], [bo.id])}


async def test_a_second_setup_team_does_not_silently_move_the_team_to_another_channel(
        harness: Harness, server: Server) -> None:
    await server.slash("/setup team", as_=server.admin(), name="Hawks", channel=HAWKS)
    text = await refused(harness, server, name="Hawks", channel=OWLS)
    assert text == f"Hawks already has the channel <#{CHANNEL_IDS['hawks']}>. {GO_AHEAD}"
    moved = await server.slash("/setup team", as_=server.admin(), name="Hawks", channel=OWLS, replace=True)
    assert moved.content == f"Hawks: channel <#{CHANNEL_IDS['owls']}> (was <#{CHANNEL_IDS['hawks']}>)."


async def test_a_member_who_captains_another_team_is_refused(harness: Harness, server: Server) -> None:
    cara = server.person("Cara Captain", "captain")
    await server.slash("/setup team", as_=server.admin(), name="Hawks", captain=cara)
    text = await refused(harness, server, name="Owls", captain=cara)
    assert text == f"<@{cara.id}> is already captain of Hawks (a member captains one team in a league). {GO_AHEAD}"
    assert set(await teams(harness)) == {"Hawks"}  # Owls was not created either
    moved = await server.slash("/setup team", as_=server.admin(), name="Owls", captain=cara, replace=True)
    assert moved.content == f"Owls: created, captain <@{cara.id}> (no longer captain of Hawks)."
    assert await teams(harness) == {"Hawks": (None, []), "Owls": (None, [cara.id])}


async def test_a_channel_another_team_uses_is_refused(harness: Harness, server: Server) -> None:
    await server.slash("/setup team", as_=server.admin(), name="Hawks", channel=HAWKS)
    await server.slash("/setup team", as_=server.admin(), name="Owls")
    text = await refused(harness, server, name="Owls", channel=HAWKS)
    assert text == f"<#{CHANNEL_IDS['hawks']}> is already the channel of Hawks (each team has its own). {GO_AHEAD}"
    taken = await server.slash("/setup team", as_=server.admin(), name="Owls", channel=HAWKS, replace=True)
    assert taken.content == f"Owls: channel <#{CHANNEL_IDS['hawks']}> (taken from Hawks, which now has no channel)."
    assert await teams(harness) == {"Hawks": (None, []), "Owls": (CHANNEL_IDS["hawks"], [])}


async def test_every_reason_comes_in_one_line(harness: Harness, server: Server) -> None:
    cara, bo = server.person("Cara Captain", "captain"), server.person("Bo Backup", "captain")
    await server.slash("/setup team", as_=server.admin(), name="Hawks", captain=cara, channel=HAWKS)
    await server.slash("/setup team", as_=server.admin(), name="Owls", captain=bo, channel=OWLS)
    text = await refused(harness, server, name="Owls", captain=cara, channel=HAWKS)
    assert text == (f"Owls already has the channel <#{CHANNEL_IDS['owls']}> and the captain <@{bo.id}>. "
                    f"<@{cara.id}> is already captain of Hawks (a member captains one team in a league). "
                    f"<#{CHANNEL_IDS['hawks']}> is already the channel of Hawks (each team has its own). {GO_AHEAD}")


async def test_what_a_team_lacks_is_filled_in_without_replace(harness: Harness, server: Server) -> None:
    """Nothing is overwritten, so nothing needs saying twice: a team made by name gets its channel and captain."""
    cara = server.person("Cara Captain", "captain")
    assert (await server.slash("/setup team", as_=server.admin(), name="Hawks")).content == "Hawks: created."
    filled = await server.slash("/setup team", as_=server.admin(), name="Hawks", channel=HAWKS, captain=cara)
    assert filled.content == f"Hawks: channel <#{CHANNEL_IDS['hawks']}>, captain <@{cara.id}>."
    same = await server.slash("/setup team", as_=server.admin(), name="Hawks", channel=HAWKS, captain=cara)
    assert same.content == "Hawks: nothing to change."
