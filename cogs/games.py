"""/game add|move|cancel for commissioners; also wires game reminders and late drop-out alerts to the bot."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.services.games import GameChange
from cogs._common import GameCode, TeamName, game_autocomplete, team_autocomplete

Kind = Literal["regular", "seeding", "playoff"]


def change_text(change: GameChange) -> str:
    g = change.game
    what = f"`{g.code}` {g.home} vs {g.away}, {timestamp(g.starts_at)} at {g.venue or 'venue TBA'}"
    if change.action == "added":
        text = f"Added {what} ({g.kind}). {change.reminders_planned} reminders and lineup checks planned."
    elif change.action == "moved":
        before = timestamp(change.previous_starts_at) if change.previous_starts_at else "?"
        text = (f"Moved {what} (was {before}). {change.reminders_moved} pending reminders re-timed, "
                f"{change.reminders_planned} added, {change.reminders_dropped} dropped; both teams are told.")
    else:
        text = (f"Cancelled {what}. {change.reminders_dropped} pending reminders dropped; "
                "both teams are told.")
    return clip(text, 2000)


@app_commands.guild_only()
class GamesCog(commands.GroupCog, group_name="game", group_description="Add, move or cancel games."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.games

    @app_commands.command(name="add", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(home="Home team", away="Away team",
                           starts_at="Start in the league's time zone, as YYYY-MM-DD HH:MM",
                           venue="Where it is played", kind="Regular season, seeding or playoff",
                           code="Game id people type (leave empty for the next free G<n>)")
    @app_commands.autocomplete(home=team_autocomplete, away=team_autocomplete)
    @app_commands.guild_only()
    async def add(self, interaction: discord.Interaction, home: TeamName, away: TeamName,
                  starts_at: app_commands.Range[str, 1, 40], venue: app_commands.Range[str, 0, 200] = "",
                  kind: Kind = "regular", code: app_commands.Range[str, 1, 32] | None = None) -> None:
        """Schedule a new game (commissioners)."""
        change = await self.service.add(self.bot.caller(interaction), home=home, away=away, starts_at=starts_at,
                                        venue=venue, kind=kind, code=code)
        await reply(interaction, change_text(change), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="move", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(game="The game to move", starts_at="New start, league time zone, YYYY-MM-DD HH:MM")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, game: GameCode,
                   starts_at: app_commands.Range[str, 1, 40]) -> None:
        """Give a game a new start time (commissioners)."""
        change = await self.service.move(self.bot.caller(interaction), game, starts_at)
        await reply(interaction, change_text(change), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="cancel", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(game="The game to cancel")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction, game: GameCode) -> None:
        """Cancel a game and tell both teams (commissioners)."""
        change = await self.service.cancel(self.bot.caller(interaction), game)
        await reply(interaction, change_text(change), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(GamesCog(bot))
