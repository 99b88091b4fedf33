"""/import teams|players|games: a commissioner uploads a CSV file."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.app import NO_MENTIONS, SidelineBot
from bot.discord_text import clean_user_text
from bot.services.imports import MAX_CSV_BYTES, ImportService
from cogs._common import requires


@app_commands.guild_only()
class ImportCog(commands.GroupCog, group_name="import", group_description="Import league data from CSV files."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = ImportService(bot.sessions)

    async def _run(self, interaction: discord.Interaction, kind: str, file: discord.Attachment,
                   allow_past: bool = False) -> None:
        caller = self.bot.caller(interaction)
        caller.require(Role.COMMISSIONER)  # refuse before downloading anything
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await file.read() if file.size <= MAX_CSV_BYTES else b"x" * (MAX_CSV_BYTES + 1)
        report = await self.service.run(caller, kind, data, now=self.bot.clock.now(), allow_past=allow_past)
        name = clean_user_text(file.filename, 80)
        await interaction.followup.send(f"{name}: {report.summary()}.", ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="teams", description="Import teams (team,division,captain_discord_ids,channel_id).",
                          extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="A UTF-8 CSV file with a header row")
    async def teams(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        await self._run(interaction, "teams", file)

    @app_commands.command(name="players", description="Import players (discord_id,name,team,position,gender).",
                          extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="A UTF-8 CSV file with a header row")
    async def players(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        await self._run(interaction, "players", file)

    @app_commands.command(name="games", description="Import games (game_id,starts_at,home,away,venue,kind).",
                          extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="A UTF-8 CSV file with a header row",
                           allow_past="Allow games that already started (backfilling)")
    async def games(self, interaction: discord.Interaction, file: discord.Attachment,
                    allow_past: bool = False) -> None:
        await self._run(interaction, "games", file, allow_past)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ImportCog(bot))
