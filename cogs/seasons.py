"""/season start|end|show: the league's seasons, which standings and "week N" count from."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.services.seasons import SeasonsShown, SeasonStarted, SeasonView
from cogs._common import SeasonName


def season_line(season: SeasonView) -> str:
    return (f"**{season.name}**: from {season.first_day.isoformat()}, {season.weeks} regular-season "
            f"week{'s' if season.weeks != 1 else ''}, {season.games} game{'s' if season.games != 1 else ''}; "
            f"{season.when}.")


def rosters_line(started: SeasonStarted) -> str:
    """What the start did to the rosters, so the commissioner sees it happened as they meant."""
    players = f"{started.players} player{'s' if started.players != 1 else ''}"
    teams = f"{started.teams} team{'s' if started.teams != 1 else ''}"
    if started.rosters == "clear":
        if not started.players:
            return "Rosters cleared: nobody was on a roster."
        return (f"Rosters cleared: {players} left their teams ({teams}) as the season starts; the earlier "
                "rosters stay under /roster show season:. Captains stay captains of their teams: they add "
                "players back with /roster add (themselves too) or approve their /join requests.")
    if not started.players:
        return "Rosters kept: nobody is on a roster yet."
    return f"Rosters kept: {players} stay on their teams ({teams})."


def seasons_text(shown: SeasonsShown) -> str:
    if shown.current is None:
        return f"{shown.league_name} has no seasons yet: a commissioner starts one with /season start."
    lines = [("Current season: " if shown.current.ended_at is None else "Last season: ") + season_line(shown.current)]
    if shown.earlier:
        lines.append("Earlier: " + ", ".join(s.name for s in shown.earlier[:20])
                     + (" …" if len(shown.earlier) > 20 else "")
                     + " (see them with /standings show season: and /roster show season:)")
    return clip("\n".join(lines), 2000)


@app_commands.guild_only()
class SeasonCog(commands.GroupCog, group_name="season", group_description="The league's seasons."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.seasons

    @app_commands.command(name="start", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(name="The season's name, e.g. Fall 2026",
                           first_day="Its first day, YYYY-MM-DD (week 1 starts that day)",
                           weeks="Weeks of regular season (then playoffs)",
                           rosters="keep: teams carry on as they are (default); clear: every player leaves their team")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, name: SeasonName,
                    first_day: app_commands.Range[str, 1, 20], weeks: app_commands.Range[int, 1, 52],
                    rosters: Literal["keep", "clear"] = "keep") -> None:
        """Start a season (commissioners): standings count from its first day."""
        started = await self.service.start(self.bot.caller(interaction), name, first_day, weeks, rosters)
        await reply(interaction, f"Started {season_line(started.season)}\n{rosters_line(started)}",
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="end", extras=requires(Role.COMMISSIONER))
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        """End the running season (commissioners); its table stays under /standings show season:."""
        season = await self.service.end(self.bot.caller(interaction))
        await reply(interaction, f"Ended {season_line(season)}", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="show")
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction) -> None:
        """The current season, its week, and the earlier seasons."""
        shown = await self.service.show(self.bot.caller(interaction))
        await reply(interaction, seasons_text(shown), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(SeasonCog(bot))
