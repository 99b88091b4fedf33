"""/guest add|clear: a guest for one game, counted once a referee or commissioner clears them."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.services.availability.guests import GuestLine
from cogs._common import GameCode, TeamName, game_autocomplete, team_autocomplete


def guest_text(line: GuestLine, verb: str) -> str:
    if line.counts:
        state = "counts in /lineup"
    else:
        state = "pending: a referee or commissioner clears them with /guest clear before they count"
    return f"{line.name} is {verb} as a guest of {line.team} for `{line.game}` ({state})."


@app_commands.guild_only()
class GuestCog(commands.GroupCog, group_name="guest", group_description="Guests: players not on the roster."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.guests

    @app_commands.command(name="add", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(game="The game", name_or_member="The guest's name, or mention them",
                           team="Their team, if you could mean either (commissioners)")
    @app_commands.autocomplete(game=game_autocomplete, team=team_autocomplete)
    @app_commands.guild_only()
    async def add(self, interaction: discord.Interaction, game: GameCode,
                  name_or_member: app_commands.Range[str, 1, 100], team: TeamName | None = None) -> None:
        """Add a guest player for your team in a game (captains)."""
        line = await self.service.add(self.bot.caller(interaction), game, name_or_member, team)
        await reply(interaction, guest_text(line, "added"), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="clear", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game", name_or_member="The guest's name as added, or mention them")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def clear(self, interaction: discord.Interaction, game: GameCode,
                    name_or_member: app_commands.Range[str, 1, 100]) -> None:
        """Clear a guest to play: paid, or staff said so (referees)."""
        line = await self.service.clear(self.bot.caller(interaction), game, name_or_member)
        await reply(interaction, guest_text(line, "cleared"), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(GuestCog(bot))
