"""Acceptance: from an empty server to a correct /lineup with slash commands and buttons only.

Roles, channels and people are picked (Discord's own pickers send their ids, as they do here); nobody
types a numeric id anywhere. Gender is given privately with /join, or asked once on check-in with a select.
"""

from __future__ import annotations

import discord
import pytest

from bot.config.settings import Settings
from tests.commands.empty_server import CHANNEL_IDS, ROLE_IDS, Server, no_leagues, open_server
from tests.commands.setup.test_joins import buttons
from tests.harness import Harness

# Hawks: one woman among five skaters and a goalie; co-ed needs two women/non-binary skaters on the court.
HAWKS = [("Wren Woods", "skater", None), ("Mo Hill", "skater", "man"), ("Lee Park", "skater", "man"),
         ("Ty Ng", "skater", "man"), ("Abe Cruz", "skater", "man"), ("Gil Stone", "goalie", "man")]


@pytest.fixture
def settings() -> Settings:
    return no_leagues()


async def join_and_be_approved(h: Harness, server: Server, name: str, position: str, gender: str | None,
                               captain: discord.abc.Snowflake) -> None:
    player = server.person(name)
    asked = await server.slash("/join", as_=player, team="Hawks", position=position, gender=gender)
    assert asked.ephemeral and "Asked Hawks's captains" in asked.content, asked.content
    await h.bot.courier.deliver_due()
    request = h.discord.channel_messages(CHANNEL_IDS["hawks"])[-1]
    approved = await h.press(buttons(request)["Approve"], as_=captain, guild_id=server.guild_id,  # type: ignore[arg-type]
                             channel_id=CHANNEL_IDS["hawks"])
    assert "was approved" in approved.responses[0].payload["content"]


async def test_an_empty_server_reaches_a_correct_lineup_with_commands_and_buttons_only(harness: Harness) -> None:
    server = open_server(harness)
    admin = server.admin()
    cara, oscar = server.person("Cara Captain", "captain"), server.person("Oscar Owl", "captain")
    steps = [
        ("/setup league", {"preset": "coed-ball-hockey", "name": "Thursday Co-ed", "timezone": "america/toronto"}),
        ("/setup roles", {"captain": discord.Object(ROLE_IDS["captain"]),
                          "commissioner": discord.Object(ROLE_IDS["commissioner"])}),
        ("/setup channels", {"announcements": discord.Object(CHANNEL_IDS["announcements"])}),
        ("/setup team", {"name": "Hawks", "channel": discord.Object(CHANNEL_IDS["hawks"]), "captain": cara}),
        ("/setup team", {"name": "Owls", "channel": discord.Object(CHANNEL_IDS["owls"]), "captain": oscar}),
        ("/game add", {"home": "Hawks", "away": "Owls", "starts_at": "2030-01-10 19:00"}),
    ]
    for path, options in steps:
        reply = await server.slash(path, as_=admin, **options)
        assert reply.ephemeral and "Only" not in reply.content and "can't" not in reply.content, (path, reply.text)
    for name, position, gender in HAWKS:
        await join_and_be_approved(harness, server, name, position, gender, cara)
    for name, *_ in HAWKS:
        checked = await server.slash("/checkin", as_=server.person(name), status="in", game="G1")
        assert "**in**" in checked.text, checked.text
        asked = [c for call in checked.responses for row in call.payload.get("components") or []
                 for c in row["components"]]
        assert bool(asked) == (name == "Wren Woods"), name  # only she gave no gender: asked once, privately
        if asked:
            chose = await harness.choose(asked[0]["custom_id"], ["woman"], as_=server.person(name),
                                         guild_id=server.guild_id)
            assert "saved as woman" in chose.responses[0].payload["content"]
    again = await server.slash("/checkin", as_=server.person("Wren Woods"), status="in", game="G1")
    assert not any(call.payload.get("components") for call in again.responses)
    lineup = await server.slash("/lineup", as_=cara, game="G1")
    assert lineup.ephemeral
    assert "Hawks lineup · Hawks vs Owls" in lineup.text
    assert "**4** of 5 skaters + goalie — short by 1 (1 for the women/non-binary rule)" in lineup.text
    assert "— *Co-ed rules: Teams; Co-ed rules: Game Structure reads it the other way" in lineup.text
    assert "Goalie\n✅ Gil Stone" in lineup.text
