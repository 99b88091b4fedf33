"""/away set|list|clear: a player out for every game of their team in a range of days."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply
from bot.discord_text import clean_user_text, clip, timestamp
from bot.services.availability.away import AwayLine
from cogs._common import ManagedName, my_players_autocomplete

PLAYER = "A player you manage (no Discord account); needed when you manage several"


def _games(line: AwayLine) -> str:
    if not line.games:
        return "no games of your team in it (yet: a game added or moved into it is covered too)"
    shown = [f"`{g.code}` {g.title} {timestamp(g.starts_at)}" for g in line.games[:10]]
    more = f" and {len(line.games) - 10} more" if len(line.games) > 10 else ""
    return f"out (away) for {len(line.games)} game{'s' * (len(line.games) != 1)}: " + ", ".join(shown) + more


def range_text(line: AwayLine) -> str:
    note = f" · “{line.note}”" if line.note else ""
    return f"**{line.first_day.isoformat()} to {line.last_day.isoformat()}**{note}: {_games(line)}"


def _for(player: str | None) -> str:
    """A guardian's answer names the player it is about."""
    return f"For **{clean_user_text(player, 100)}**: " if player else ""


@app_commands.guild_only()
class AwayCog(commands.GroupCog, group_name="away", group_description="Say you're away for a range of days."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.away

    @app_commands.command(name="set")
    @app_commands.rename(first="from", last="to")
    @app_commands.describe(first="First day away, YYYY-MM-DD (league time)", last="Last day away, YYYY-MM-DD",
                           note="Why, for your captains (optional)", player=PLAYER)
    @app_commands.autocomplete(player=my_players_autocomplete)
    @app_commands.guild_only()
    async def set_away(self, interaction: discord.Interaction, first: app_commands.Range[str, 1, 30],
                       last: app_commands.Range[str, 1, 30],
                       note: app_commands.Range[str, 0, 200] | None = None,
                       player: ManagedName | None = None) -> None:
        """Mark yourself out for every game of your team in a range of days."""
        line = await self.service.set(self.bot.caller(interaction), first, last, note or "", player)
        if line.player:
            text = (f"Saved: **{clean_user_text(line.player, 100)}** is away {range_text(line)}.\nNo reminders "
                    "for those games, and the captains see them as out (away). Answer /checkin for one of them "
                    "if they can make it after all.")
        else:
            text = (f"Saved: you're away {range_text(line)}.\nYou get no reminders for those games, and your "
                    "captains see you as out (away). Answer /checkin for one of them if you can make it after all.")
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list")
    @app_commands.describe(player=PLAYER)
    @app_commands.autocomplete(player=my_players_autocomplete)
    @app_commands.guild_only()
    async def list_away(self, interaction: discord.Interaction, player: ManagedName | None = None) -> None:
        """Your away ranges that aren't over, and the games in them."""
        lines = await self.service.list_ranges(self.bot.caller(interaction), player)
        text = "\n".join(f"• {range_text(line)}" for line in lines) or (
            "Not marked away for any day ahead." if player else "You're not marked away for any day ahead.")
        text = _for(lines[0].player if lines else None) + text
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="clear")
    @app_commands.rename(day="day")
    @app_commands.describe(day="Only the range covering this day, YYYY-MM-DD (default: all of them)", player=PLAYER)
    @app_commands.autocomplete(player=my_players_autocomplete)
    @app_commands.guild_only()
    async def clear_away(self, interaction: discord.Interaction,
                         day: app_commands.Range[str, 1, 30] | None = None,
                         player: ManagedName | None = None) -> None:
        """Remove your away ranges (or the one covering a day)."""
        cleared = await self.service.clear(self.bot.caller(interaction), day, player)
        if not cleared.ranges:
            text = "Nothing to clear: you're not marked away" + (" on that day." if day else " for any day ahead.")
        else:
            text = (f"Cleared {cleared.ranges} away range{'s' * (cleared.ranges != 1)}. "
                    f"{cleared.games} game{'s' * (cleared.games != 1)} now read as before: answer with /checkin.")
        await reply(interaction, clip(_for(cleared.player) + text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(AwayCog(bot))
