"""/schedule: a team's upcoming games."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply
from bot.discord_text import clip, timestamp
from bot.services.schedule import ScheduleView
from cogs._common import TeamName, team_autocomplete

STATUS_LABEL = {"in": "✅ in", "out": "❌ out", "maybe": "❔ maybe", "away": "🧳 out (away)", None: "no reply yet"}


def schedule_embed(view: ScheduleView, show_status: bool) -> discord.Embed:
    embed = discord.Embed(title=clip(f"{view.team}: upcoming games", 256))
    if not view.games:
        embed.description = "No upcoming games scheduled."
        return embed
    lines = []
    for g in view.games:
        vs = f"vs {g.opponent_of(view.team)}" if view.team in (g.home, g.away) else f"{g.home} vs {g.away}"
        line = f"**{timestamp(g.starts_at)}** {vs} · {g.venue or 'venue TBA'} · `{g.code}`"
        if show_status:
            line += f" · you: {STATUS_LABEL.get(g.my_status, STATUS_LABEL[None])}"
        lines.append(line)
    embed.description = clip("\n".join(lines), 4000)
    return embed


class ScheduleCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.schedule

    @app_commands.command(name="schedule", extras=answers(writes=False))
    @app_commands.describe(team="A team in this league; leave empty for your own team")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def schedule(self, interaction: discord.Interaction, team: TeamName | None = None) -> None:
        """Upcoming games for your team (or another team)."""
        caller = self.bot.caller(interaction)
        view = await self.service.upcoming(caller, team)
        mine = any(g.my_status is not None for g in view.games) or team is None
        await reply(
            interaction, embed=schedule_embed(view, show_status=mine), ephemeral=True, allowed_mentions=NO_MENTIONS
        )


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ScheduleCog(bot))
