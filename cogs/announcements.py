"""/announce: commissioners post to the league's announcements channel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.services.announcements import MESSAGE_LIMIT


class AnnounceCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.announcements

    @app_commands.command(name="announce", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(message="What to announce (mentions of @everyone, @here and roles never ping)")
    @app_commands.guild_only()
    async def announce(self, interaction: discord.Interaction,
                       message: app_commands.Range[str, 1, MESSAGE_LIMIT]) -> None:
        """Post a message in the league's announcements channel."""
        done = await self.service.announce(self.bot.caller(interaction), message, request_id=interaction.id)
        await reply(interaction, f"Posting it in <#{done.channel_id}>.", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(AnnounceCog(bot))
