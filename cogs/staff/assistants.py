"""/team assistant (commissioners) and /team standin (captains): who takes the captain's (coach's) place,
youth 1.4 and 1.6. When they hold the captain's powers is bot/league/staff/__init__.py's rule.

The ``/team`` group belongs to cogs/setup/joins.py, which loads first (extensions load alphabetically);
this module adds its subcommands to that group. Without the group they fall back to their own ``/staff``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.services.staff import AssistantChange, StandInChange
from cogs._common import bot_of, game_autocomplete, team_autocomplete

ASSISTANT = {"named": "is now {team}'s assistant coach", "already": "was already {team}'s assistant coach",
             "removed": "is no longer {team}'s assistant coach", "not named": "wasn't {team}'s assistant coach"}
STAND_IN = {"named": "is now {team}'s stand-in captain for", "already": "was already {team}'s stand-in captain for",
            "removed": "is no longer {team}'s stand-in captain for",
            "not named": "wasn't {team}'s stand-in captain for"}


def assistant_text(change: AssistantChange) -> str:
    text = f"{change.name} {ASSISTANT[change.action].format(team=change.team)}."
    if change.replaced:
        text += f" (They replace {change.replaced}.)"
    if change.action == "named":
        text += (f" For each game every captain of {change.team} is out or away for, they hold the captain's powers"
                 " for it; they're told by DM.")
    return clip(text, 2000)


def stand_in_text(change: StandInChange) -> str:
    text = (f"{change.name} {STAND_IN[change.action].format(team=change.team)} `{change.game_code}` "
            f"({change.game_title}, {timestamp(change.starts_at)}).")
    if change.replaced:
        text += f" (They replace {change.replaced}.)"
    if change.action == "named":
        text += (" For that game only they can check the lineup, submit the shootout order and relay to the "
                 "referees; they're told by DM.")
    return clip(text, 2000)


@app_commands.describe(member="The assistant coach (a server member)",
                       team="Their team (default: the team they play for)", remove="Remove them instead")
@app_commands.autocomplete(team=team_autocomplete)
@app_commands.guild_only()
async def assistant(interaction: discord.Interaction, member: discord.Member,
                    team: app_commands.Range[str, 1, 100] | None = None, remove: bool = False) -> None:
    bot = bot_of(interaction)
    change = await bot.services.staff.assistant(bot.caller(interaction), member.id, member.display_name, team,
                                                remove=remove)
    await reply(interaction, assistant_text(change), ephemeral=True, allowed_mentions=NO_MENTIONS)


@app_commands.describe(game="The game they captain", member="A member of your team's roster",
                       remove="Take the naming back instead")
@app_commands.autocomplete(game=game_autocomplete)
@app_commands.guild_only()
async def standin(interaction: discord.Interaction, game: app_commands.Range[str, 1, 64], member: discord.Member,
                  remove: bool = False) -> None:
    bot = bot_of(interaction)
    change = await bot.services.staff.stand_in(bot.caller(interaction), game, member.id, member.display_name,
                                               remove=remove)
    await reply(interaction, stand_in_text(change), ephemeral=True, allowed_mentions=NO_MENTIONS)


def staff_commands() -> list[app_commands.Command[Any, ..., Any]]:
    return [
        app_commands.Command(name="assistant", description="Name a team's assistant coach (commissioners).",
                             callback=assistant, extras=requires(Role.COMMISSIONER)),
        app_commands.Command(name="standin", description="Name a stand-in captain for one game (captains).",
                             callback=standin, extras=requires(Role.CAPTAIN, Role.COMMISSIONER)),
    ]


async def setup(bot: SidelineBot) -> None:
    group = bot.tree.get_command("team")
    if not isinstance(group, app_commands.Group):
        group = app_commands.Group(name="staff", description="Assistant coaches and stand-in captains.",
                                   guild_only=True)
        bot.tree.add_command(group)
    for command in staff_commands():
        group.add_command(command)


async def teardown(bot: SidelineBot) -> None:
    group = bot.tree.get_command("team")
    if isinstance(group, app_commands.Group):
        group.remove_command("assistant")
        group.remove_command("standin")
    bot.tree.remove_command("staff")
