"""/calendar show|reset: your games as a calendar file and a link to subscribe to, always privately.

The link carries a secret token, so every answer here is ephemeral: a token never appears in a
message anyone else can read.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply
from bot.config.settings import CalendarServer
from bot.services.calendar.service import FeedFile, Reset
from cogs._common import TeamName, team_autocomplete

SCOPE_WORDS = {"player": "your games (your team's, minus the days you're away)", "team": "{title}",
               "league": "every game of {title}"}


def link_line(server: CalendarServer | None, feed: FeedFile) -> str:
    if server is None:
        return ("Import the attached file into your calendar app. (This server's bot has no feed link: "
                "an import doesn't follow later changes, so run /calendar show again after a game moves.)")
    return (f"Subscribe in your calendar app (it then follows every move and cancellation):\n"
            f"<{server.link(feed.token)}>\nThe link is yours alone: if it leaks, run `/calendar reset`.")


def show_text(server: CalendarServer | None, feed: FeedFile) -> str:
    what = SCOPE_WORDS[feed.scope].format(title=feed.title)
    return f"**Calendar: {what}**\n{link_line(server, feed)}"


def reset_text(server: CalendarServer | None, result: Reset) -> str:
    if not result.revoked:
        return "You had no calendar links here, so there was nothing to revoke. Get one with `/calendar show`."
    lines = [f"Revoked {result.revoked} calendar link{'s' if result.revoked != 1 else ''}: "
             "calendars subscribed to them stop updating."]
    if server is not None:
        lines.append("Your new links (subscribe again with these):")
        lines += [f"• {feed.title}: <{server.link(feed.token)}>" for feed in result.reissued]
    else:
        lines.append("New ones are ready: `/calendar show` gives you the file again.")
    return "\n".join(lines)


@app_commands.guild_only()
class CalendarCog(commands.GroupCog, group_name="calendar", group_description="Your games in your calendar app."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.calendar

    @app_commands.command(name="show")
    @app_commands.describe(team="A team's games instead of yours", league="Every game in the league instead")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, team: TeamName | None = None, league: bool = False) -> None:
        """Your games as a calendar feed (only you see the link)."""
        caller = self.bot.caller(interaction)
        feed = await self.service.show(caller, team, whole_league=league)
        await reply(
            interaction,
            show_text(self.bot.settings.calendar_server, feed), ephemeral=True, allowed_mentions=NO_MENTIONS,
            file=discord.File(io.BytesIO(feed.body), filename=feed.filename))

    @app_commands.command(name="reset")
    @app_commands.guild_only()
    async def reset(self, interaction: discord.Interaction) -> None:
        """Revoke your calendar links and get new ones (if a link leaked)."""
        result = await self.service.reset(self.bot.caller(interaction))
        await reply(interaction, reset_text(self.bot.settings.calendar_server, result),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(CalendarCog(bot))
