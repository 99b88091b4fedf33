"""/join team: (a player asks) and /team invite (a captain posts a Join button): players in without ids."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import reply, requires
from cogs._common import TeamName, team_autocomplete
from cogs.setup._join_buttons import JoinAskButton, JoinDecisionButton, decision_buttons, join_button

QUIET = discord.AllowedMentions.none()
Position = Literal["skater", "goalie"]
Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]


class JoinCog(commands.Cog):
    team = app_commands.Group(name="team", description="Your team.", guild_only=True,
                              allowed_contexts=app_commands.AppCommandContext(guild=True))

    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.joins

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(JoinDecisionButton, JoinAskButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(JoinDecisionButton, JoinAskButton)

    @app_commands.command(name="join")
    @app_commands.describe(team="The team you want to play for", position="Skater or goalie",
                           gender="Your gender category, kept private (counts toward on-court minimums)")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction, team: TeamName,
                   position: Position | None = None, gender: Gender | None = None) -> None:
        """Ask to join a team; its captains approve or decline."""
        asked = await self.service.ask(self.bot.caller(interaction), team, position=position, gender=gender,
                                       make_buttons=decision_buttons)
        await reply(
            interaction, f"Asked {asked.team}'s captains ({asked.asked}); you'll hear back privately.", ephemeral=True,
            allowed_mentions=QUIET)

    @team.command(name="invite", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(team="Team (commissioners; captains default to their own team)")
    @app_commands.autocomplete(team=team_autocomplete)
    async def invite(self, interaction: discord.Interaction,
                     team: TeamName | None = None) -> None:
        """Post a Join button in your team's channel."""
        text = await self.service.invite(self.bot.caller(interaction), team, make_join_button=join_button)
        await reply(interaction, text, ephemeral=True, allowed_mentions=QUIET)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(JoinCog(bot))
