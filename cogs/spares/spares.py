"""/spare join|leave|list|request: the league's spare pool, and asking it for what a lineup is missing."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.services.spares.pool import SpareList
from cogs._common import GameCode, ManagedName, game_autocomplete, my_players_autocomplete
from cogs.spares._buttons import SpareOfferButton, SpareRequestButton, requested_text

Positions = Literal["skater", "goalie", "both"]
Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]


def spare_list_embed(listing: SpareList) -> discord.Embed:
    """Names, positions and days; with a game, whether each would fill the gap. Never a category."""
    title = f"Spares in {listing.league}" if listing.game is None else f"Spares for {listing.team} · {listing.game}"
    embed = discord.Embed(title=clip(title, 256))
    lines = []
    for spare in listing.spares:
        e = spare.entry
        line = f"**{e.name}** · {e.positions} · free {e.days}"
        if spare.fills is not None:
            line += " · ✅ would fill what's missing" if spare.fills else " · —"
            if spare.free is False:
                line += " (busy then)"
        lines.append(line)
    if listing.need is not None:
        embed.add_field(name="Missing", value=clip(listing.need, 1024), inline=False)
    embed.description = clip("\n".join(lines) or "Nobody is on the spare list yet.", 4000)
    embed.set_footer(text="Private: captains and commissioners only. A spare's gender category is never shown.")
    return embed


@app_commands.guild_only()
class SpareCog(commands.GroupCog, group_name="spare", group_description="The league's spare list."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.pool = bot.services.spare_pool
        self.requests = bot.services.spare_requests

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SpareOfferButton, SpareRequestButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(SpareOfferButton, SpareRequestButton)

    @app_commands.command(name="join")
    @app_commands.describe(positions="Where you can play", days="Days you're usually free, e.g. mon, thu, sat "
                           "(empty: any day)", gender="Your gender category (private; counts toward on-court minimums)",
                           player="A guardian's junior (players without a Discord account can't be spares yet)")
    @app_commands.autocomplete(player=my_players_autocomplete)
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction, positions: Positions,
                   days: app_commands.Range[str, 0, 100] | None = None, gender: Gender | None = None,
                   player: ManagedName | None = None) -> None:
        """Join the league's spare list: teams short a player can ask you to fill in."""
        joined = await self.pool.join(self.bot.caller(interaction), positions, days, gender, player)
        e = joined.entry
        verb = "Updated: you're" if joined.updated else "You're now"
        text = f"{verb} on {joined.league}'s spare list as {e.positions}, usually free {e.days}."
        if joined.gender_set:
            text += " Your gender category is saved privately."
        text += " Offers come by DM with Accept / Decline buttons; /spare leave takes you off."
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="leave")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the league's spare list."""
        caller = self.bot.caller(interaction)
        left = await self.pool.leave(caller)
        text = (f"You're off {caller.league.name}'s spare list." if left
                else "You weren't on the spare list; nothing changed.")
        await reply(interaction, text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(game="A game: shows who would fill what your team is missing")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def list_spares(self, interaction: discord.Interaction, game: GameCode | None = None) -> None:
        """The league's spare list (captains and commissioners)."""
        listing = await self.pool.show(self.bot.caller(interaction), game)
        await reply(interaction, embed=spare_list_embed(listing), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="request", extras=requires(Role.CAPTAIN))
    @app_commands.describe(game="The game your team is short for")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def request(self, interaction: discord.Interaction, game: GameCode) -> None:
        """Ask the spare list for what your lineup is missing (captains)."""
        result = await self.requests.request(self.bot.caller(interaction), game)
        await reply(interaction, requested_text(result), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(SpareCog(bot))
