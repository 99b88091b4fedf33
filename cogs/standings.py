"""/standings show|post|adjust, and the standings message kept up to date in the standings channel.

``/standings show`` answers privately by default (channels stay clean; the public table lives in the
league's standings channel, edited in place after every result, with its picture where the bot can
draw one); ``public:True`` shares it, ``picture:True`` adds the picture.
"""

from __future__ import annotations

import logging
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, defer, reply, requires
from bot.discord_text import clip
from bot.errors import NoLeague
from bot.services.outbox import Outgoing
from bot.services.pictures import pictures_available, standings_png
from bot.services.standings import Publication, StandingsTable
from cogs._common import (
    DivisionName,
    SeasonName,
    TeamName,
    division_autocomplete,
    season_autocomplete,
    team_autocomplete,
)
from cogs._pictures import Drawing, attach, draw, file_name
from cogs.results import STANDINGS_CHANGED

log = logging.getLogger("sideline.standings")

EMBED_LIMIT = 4000


def standings_embed(table: StandingsTable) -> discord.Embed:
    """A code block per division: narrow columns that stay aligned on a phone."""
    title = f"Standings · {table.league_name}" + (f" · {table.season}" if table.season else "")
    embed = discord.Embed(title=clip(title, 256), timestamp=table.generated_at)
    if not table.rows:
        embed.description = "No teams yet."
        return embed
    parts: list[str] = []
    for division in table.divisions:
        block = f"```\n{table.rendered_rows(division)}\n```"
        part = f"**{clip(division, 100)}**\n{block}" if division else block
        if sum(len(p) + 1 for p in parts) + len(part) > EMBED_LIMIT:
            parts.append("… (more divisions: use /standings show division)")
            break
        parts.append(part)
    embed.description = "\n".join(parts)
    footer = table.order_text
    if table.forfeit_text:
        footer += "\n" + table.forfeit_text
    if table.unsettled:
        footer += "\n* level on every criterion: placed by name until the commissioners decide."
    if not table.games_counted:
        footer += "\nNo results yet."
    embed.set_footer(text=clip(footer, 2048))
    return embed


def table_picture(table: StandingsTable, division: str | None = None) -> Drawing:
    return Drawing(file_name(f"standings-{division or ''}", "standings"),
                   "The standings table as a picture; the same table is in the text of this message.",
                   partial(standings_png, table))


class DiscordPoster:
    """Posts the standings message through the outbox (once, even across a crash) and edits it.

    Where the bot can draw pictures, every edit also puts the table's picture on the message, so
    the picture in the standings channel follows each result, forfeit and adjustment as the text
    does. A new message goes out as text (the outbox carries no files) and gets its picture at once
    by an edit (``add_picture``).
    """

    def __init__(self, bot: SidelineBot, guild_id: int) -> None:
        self.bot, self.guild_id = bot, guild_id
        self.posted: StandingsTable | None = None

    def message(self, table: StandingsTable) -> Outgoing:
        self.posted = table
        return Outgoing(embeds=(standings_embed(table).to_dict(),))

    async def deliver(self, send_key: str) -> None:
        await self.bot.courier.deliver_now(send_key)

    async def edit(self, channel_id: int, message_id: int, table: StandingsTable) -> bool:
        channel = self.bot.get_partial_messageable(channel_id, guild_id=self.guild_id)
        picture = await draw([table_picture(table)] if pictures_available() else [])
        try:  # without a picture, ``attachments=[]`` takes an older one off: it would show a stale table
            await channel.get_partial_message(message_id).edit(embed=standings_embed(table),
                                                               attachments=picture.files,
                                                               allowed_mentions=NO_MENTIONS)
        except discord.NotFound:
            return False
        return True

    async def add_picture(self, done: Publication) -> None:
        """A message just posted gets its picture (a failure waits for the next refresh)."""
        if (done.outcome not in ("posted", "reposted") or self.posted is None or done.channel_id is None
                or done.message_id is None or not pictures_available()):
            return
        try:
            await self.edit(done.channel_id, done.message_id, self.posted)
        except discord.HTTPException:
            log.warning("could not add the picture to the standings message in %s", done.channel_id, exc_info=True)


@app_commands.guild_only()
class StandingsCog(commands.GroupCog, group_name="standings", group_description="The league table."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.standings

    async def publish(self, guild_id: int) -> Publication:
        league, league_id = self.bot.league_of(guild_id)
        poster = DiscordPoster(self.bot, guild_id)
        done = await self.service.publish(league, league_id, poster)
        await poster.add_picture(done)
        return done

    @commands.Cog.listener()
    async def on_standings_changed(self, guild_id: int) -> None:
        """After a result: refresh the standings message (a failure waits for the next result or /standings post)."""
        try:
            await self.publish(guild_id)
        except (discord.HTTPException, NoLeague):
            log.warning("could not refresh the standings message for server %s", guild_id, exc_info=True)

    @app_commands.command(name="show", extras=answers(publicly_when="public", writes=False))
    @app_commands.describe(division="One division only; leave empty for all",
                           public="Show it to the whole channel (default: only you)",
                           season="An earlier season; leave empty for the current one",
                           picture="Add a picture of the table, easier to read on a phone (the text stays)")
    @app_commands.autocomplete(division=division_autocomplete, season=season_autocomplete)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, division: DivisionName | None = None, public: bool = False,
                   season: SeasonName | None = None, picture: bool = False) -> None:
        """The current table, ordered by the league's rules, also as an image (picture:True)."""
        table = await self.service.table(self.bot.caller(interaction), division, season)
        attached = await attach(interaction, [table_picture(table, division)] if picture else [])
        await reply(interaction, attached.note, embed=standings_embed(table), files=attached.files,
                    ephemeral=not public, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="post", extras=requires(Role.COMMISSIONER))
    @app_commands.guild_only()
    async def post(self, interaction: discord.Interaction) -> None:
        """Post or refresh the standings message (commissioners)."""
        self.bot.caller(interaction).require(Role.COMMISSIONER)
        await defer(interaction)
        done = await self.publish(interaction.guild_id or 0)
        text = {
            "posted": f"Posted the standings in <#{done.channel_id}>.",
            "edited": f"Refreshed the standings message in <#{done.channel_id}>.",
            "reposted": f"The old standings message was gone: posted a new one in <#{done.channel_id}>.",
            "queued": f"Discord didn't take the standings message yet: it will appear in <#{done.channel_id}> "
                      "shortly.",
            "failed": f"Couldn't post the standings in <#{done.channel_id}>: check that the bot may send "
                      "messages there.",
            "no-channel": "This league has no standings channel yet: pick one with `/setup channels standings:`.",
        }[done.outcome]
        await reply(interaction, text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="adjust", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(team="The team", reason="Why (shown with the adjustment), e.g. rule 1.22 bench brawl",
                           points="Points to add (negative to remove), e.g. -1; the league's rules may bound it",
                           disqualify="Disqualify the team from the playoffs: left out of the draw (youth 1.22)")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def adjust(self, interaction: discord.Interaction, team: TeamName, reason: app_commands.Range[str, 1, 300],
                     points: app_commands.Range[int, -99, 99] | None = None, disqualify: bool = False) -> None:
        """Add or remove standings points outside a game (commissioners)."""
        made = await self.service.adjust(self.bot.caller(interaction), team, points, reason, disqualify=disqualify)
        parts = []
        if points is not None:
            parts.append(f"{made.team}: {made.points:+d} standings point{'s' if abs(made.points) != 1 else ''} "
                         f"({made.reason}). Net adjustment now {made.team_total:+d}.")
        if made.disqualified:
            parts.append(f"{made.team} is disqualified from the playoffs ({made.reason}): left out of the draw.")
        await reply(interaction, " ".join(parts), ephemeral=True, allowed_mentions=NO_MENTIONS)
        self.bot.dispatch(STANDINGS_CHANGED, interaction.guild_id)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(StandingsCog(bot))
