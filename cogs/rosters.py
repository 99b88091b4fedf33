"""/roster show|add|remove for a team's captain or a commissioner."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.services.rosters.roster import RosterLine, RosterView
from cogs._common import SeasonName, TeamName, season_autocomplete, team_autocomplete

Position = Literal["skater", "goalie"]
Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]


def _line(line: RosterLine) -> str:
    return (f"{'🥅' if line.position == 'goalie' else '🏒'} <@{line.discord_id}> {line.name}"
            + (f" · {line.gender}" if line.gender else "")
            + (f" · left {timestamp(line.left_at, 'D')}" if line.left_at else ""))


def roster_embed(view: RosterView) -> discord.Embed:
    limit = f" / {view.limit}" if view.limit else ""
    season = f" · {view.season}" + (", as it finished" if view.past else "") if view.season else ""
    embed = discord.Embed(title=clip(f"{view.team} roster{season} ({len(view.lines)}{limit})", 256))
    embed.description = clip("\n".join(_line(line) for line in view.lines) or (
        "Nobody was on the roster." if view.past else "Nobody on the roster yet."), 4000)
    if view.left:
        embed.add_field(name=clip(f"Left during {view.season} ({len(view.left)})", 256),
                        value=clip("\n".join(_line(line) for line in view.left), 1024), inline=False)
    embed.set_footer(text="Private: gender categories are shown only to captains and commissioners.")
    return embed


@app_commands.guild_only()
class RosterCog(commands.GroupCog, group_name="roster", group_description="Team rosters."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.roster

    @app_commands.command(name="show", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(team="The team; leave empty for your own",
                           season="An earlier season: who was on the team then; leave empty for today's roster")
    @app_commands.autocomplete(team=team_autocomplete, season=season_autocomplete)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, team: TeamName | None = None,
                   season: SeasonName | None = None) -> None:
        """A team's roster (captains and commissioners)."""
        view = await self.service.show(self.bot.caller(interaction), team, season)
        await reply(interaction, embed=roster_embed(view), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="add", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="The server member to add", position="Skater or goalie",
                           gender="Gender category (counts toward on-court minimums)",
                           team="Team (commissioners; captains default to their own team)")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def add(self, interaction: discord.Interaction, player: discord.Member,
                  position: Position | None = None, gender: Gender | None = None,
                  team: TeamName | None = None) -> None:
        """Add a player to your team's roster."""
        change = await self.service.add(
            self.bot.caller(interaction), discord_id=player.id, name=player.display_name,
            position=position, gender=gender, team_name=team,
        )
        limit = f" of {change.limit}" if change.limit else ""
        players = "player" if change.size == 1 and not change.limit else "players"
        verb = "is now on" if change.action == "added" else "was already on"
        await reply(
            interaction, f"{change.player} {verb} {change.team} ({change.size}{limit} {players}).",
            ephemeral=True, allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="remove", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="The server member to remove")
    @app_commands.guild_only()
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        """Remove a player from your team's roster."""
        change = await self.service.remove(self.bot.caller(interaction), discord_id=player.id)
        await reply(
            interaction, f"{change.player} was removed from {change.team} ({change.size} players left).",
            ephemeral=True, allowed_mentions=NO_MENTIONS,
        )


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RosterCog(bot))
