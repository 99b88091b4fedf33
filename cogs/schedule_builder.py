"""/schedule-generate: a commissioner uploads the booked slots and sees the schedule before anything is saved.

The preview is private, with the games file attached and an Import button that imports exactly the games
shown. The button is a plain view that lives 15 minutes in this process (nothing is stored): after that, or
after a restart, the commissioner generates the preview again, or uploads the attached file to /import games.
(``/schedule`` itself shows a team's games and takes an option, so Discord can't give it subcommands.)
"""

from __future__ import annotations

import io
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, ReportingItem, defer, reply, requires
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import Conflict
from bot.services.imports.service import MAX_CSV_BYTES
from bot.services.schedule_builder import GeneratedSchedule

#: How long the Import button answers: Discord's own limit on editing a private answer.
PREVIEW_SECONDS = 15 * 60
IMPORT_ID = "schedule-generate:import"


def preview_embed(made: GeneratedSchedule, league_tz: ZoneInfo) -> discord.Embed:
    where = f"the {made.division} division" if made.division else "the league"
    embed = discord.Embed(title=clip(f"Schedule for {where}: each pair meets {made.meetings} times", 256))
    weeks = [f"Week {i} (from {timestamp(_midnight(day, league_tz), 'D')}): {count} game{'s' if count != 1 else ''}"
             for i, (day, count) in enumerate(made.weeks, start=1)]
    embed.description = clip(
        f"{len(made.games)} games in {len(made.weeks)} weeks, at most {made.per_week} a team a week; "
        f"{made.unused_slots} of the {made.slots} slots are left free. Nothing is saved until you press "
        "**Import these games** (the games are in the attached file too).\n\n" + "\n".join(weeks), 4000)
    teams = [f"{t.team}: {t.games} games ({t.home} home, {t.away} away)" for t in made.teams]
    embed.add_field(name="Games per team", value=clip("\n".join(teams), 1024), inline=False)
    first = made.games[0]
    embed.add_field(name="First game", value=clip(
        f"{timestamp(first.starts_at)} {first.home} vs {first.away} at {first.venue} (`{first.code}`)", 1024),
        inline=False)
    return embed


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=tz)


class ImportButton(ReportingItem, discord.ui.Button["ImportPreview"]):
    """Imports the previewed games file, once, through the same importer as /import games."""

    def __init__(self) -> None:
        super().__init__(label="Import these games", style=discord.ButtonStyle.success, custom_id=IMPORT_ID)

    async def answer(self, interaction: discord.Interaction) -> None:
        view = self.view
        assert view is not None
        await view.run_import(interaction)


class ImportPreview(discord.ui.View):
    def __init__(self, bot: SidelineBot, made: GeneratedSchedule, commissioner_id: int) -> None:
        super().__init__(timeout=PREVIEW_SECONDS)
        self.bot, self.made, self.commissioner_id = bot, made, commissioner_id
        self.imported = False
        self.add_item(ImportButton())

    async def run_import(self, interaction: discord.Interaction) -> None:
        caller = self.bot.caller(interaction)
        caller.require(Role.COMMISSIONER)
        if caller.discord_id != self.commissioner_id:
            raise Conflict("This preview belongs to the commissioner who made it.")
        if self.imported:
            raise Conflict("These games are already imported.")
        await defer(interaction)
        self.imported = True
        try:
            report = await self.bot.services.imports.run(caller, "games", self.made.csv, now=self.bot.clock.now())
        except BaseException:
            self.imported = False
            raise
        counts = report.summary().splitlines()[0]
        await reply(interaction, f"Imported: {counts}.", ephemeral=True, allowed_mentions=NO_MENTIONS)


class ScheduleBuilderCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.schedule_builder

    @app_commands.command(name="schedule-generate", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(slots="A CSV of booked slots: starts_at,venue and optionally division",
                           meetings="How many times each pair of teams meets (youth 1.8: 5)",
                           division="The division (needed when the league has several)")
    @app_commands.guild_only()
    async def generate(self, interaction: discord.Interaction, slots: discord.Attachment,
                       meetings: app_commands.Range[int, 1, 20],
                       division: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Make a division's schedule from booked slots; preview it, then import it."""
        caller = self.bot.caller(interaction)
        caller.require(Role.COMMISSIONER)  # refuse before downloading anything
        await defer(interaction)
        data = await slots.read() if slots.size <= MAX_CSV_BYTES else b"x" * (MAX_CSV_BYTES + 1)
        made = await self.service.generate_for(caller, data, meetings, division)
        name = clean_user_text(f"schedule-{made.division or 'league'}.csv", 80).replace(" ", "-")
        await reply(interaction, embed=preview_embed(made, caller.league.timezone), ephemeral=True,
                    view=ImportPreview(self.bot, made, caller.discord_id),
                    file=discord.File(io.BytesIO(made.csv), filename=name), allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ScheduleBuilderCog(bot))
