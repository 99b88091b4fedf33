"""/tellcaptain: a private note to your team's captains; a refused DM falls back to a private thread."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply
from bot.discord_text import clip
from bot.league.messages import TEXT_LIMIT
from bot.services.messages.notes import NoteSent


def sent_text(sent: NoteSent) -> str:
    who = " and ".join(f"<@{c}>" for c in sent.captain_ids)
    return clip(f"Your note went privately to {who} ({sent.team}'s captain{'s' if len(sent.captain_ids) > 1 else ''}) "
                "by DM. If a captain doesn't accept DMs from the bot, it goes to a private thread in your team's "
                "channel for them; if that isn't possible either, you'll get a DM saying so.", 2000)


class TellCaptainCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.notes

    @app_commands.command(name="tellcaptain")
    @app_commands.describe(message="What your captain should know (only they read it)")
    @app_commands.guild_only()
    async def tellcaptain(self, interaction: discord.Interaction,
                          message: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        """Send a private note to your team's captain(s)."""
        sent = await self.service.tell_captain(self.bot.caller(interaction), message)
        await reply(interaction, sent_text(sent), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(TellCaptainCog(bot))
