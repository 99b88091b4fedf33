"""/help by role, and the welcome when the bot joins a server."""

from __future__ import annotations

from pathlib import Path

from tests.commands.empty_server import CHANNEL_IDS, GUILD, join_server, open_server
from tests.conftest import SampleLeague
from tests.harness import Harness

README = Path(__file__).resolve().parents[2] / "README.md"


async def test_help_differs_by_role(harness: Harness, league: SampleLeague) -> None:
    player = await harness.slash("/help", as_=league.player("Alice Hart"))
    captain = await harness.slash("/help", as_=league.captain("Hawks"))
    commissioner = await harness.slash("/help", as_=league.commissioner())
    assert player.ephemeral and captain.ephemeral and commissioner.ephemeral
    assert "`/checkin status:in`" in player.text and "Captains" not in player.text
    assert "/setup" not in player.text and "/roster add player:@member" not in player.text
    assert "Captains" in captain.text and "`/roster add player:@member`" in captain.text
    assert "/setup" not in captain.text
    assert "Commissioners" in commissioner.text and "`/setup league preset:coed-ball-hockey" in commissioner.text


async def test_help_shows_the_callers_next_game_first(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/help", as_=league.player("Alice Hart"))
    embeds = reply.first.payload["embeds"]
    assert embeds[0]["description"].startswith("**Your next game:** <t:")
    assert "`G1`" in embeds[0]["description"]
    stranger = await harness.slash("/help", as_=league.stranger())
    assert "Your next game" not in stranger.text


async def test_help_in_a_server_without_a_league_points_to_setup_league(harness: Harness,
                                                                        league: SampleLeague) -> None:
    open_server(harness)
    reply = await harness.slash("/help", as_=league.player("Alice Hart"), guild_id=GUILD)
    assert reply.ephemeral and "/setup league" in reply.content


class TestJoining:
    async def test_a_new_server_gets_the_commands_and_one_welcome(self, harness: Harness) -> None:
        calls = await join_server(harness)
        assert any(c.method == "PUT" and c.path.endswith(f"/guilds/{GUILD}/commands") for c in calls)
        welcome = f"/channels/{CHANNEL_IDS['announcements']}/messages"
        posts = [c for c in calls if c.method == "POST" and c.path == welcome]
        assert len(posts) == 1 and "/setup league" in posts[0].body["content"]

    async def test_no_welcome_where_the_bot_may_not_post(self, harness: Harness) -> None:
        calls = await join_server(harness, may_welcome=False)
        assert not [c for c in calls if c.method == "POST" and c.path.startswith("/channels/")]



async def test_the_readme_lists_every_slash_command_with_who_may_use_it(harness: Harness) -> None:
    from cogs.help import leaf_commands

    readme = README.read_text(encoding="utf-8")
    missing = []
    for command in leaf_commands(harness.bot.tree):
        who = ", ".join(command.extras.get("requires", ())) or "everyone"
        if f"| `/{command.qualified_name}` | {who} |" not in readme:
            missing.append(f"/{command.qualified_name} ({who})")
    assert missing == [], f"README.md's table of slash commands lacks {missing}"
