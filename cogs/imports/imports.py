"""/import teams|players|games: a commissioner uploads a CSV file."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, defer, reply, requires
from bot.discord_text import clean_user_text
from bot.errors import InvalidInput
from bot.services.imports.csv_rows import CsvImportError
from bot.services.imports.service import MAX_CSV_BYTES
from bot.services.imports.workbook import is_workbook, workbook_as_csv
from cogs.imports._player_names import resolve_captain_names, resolve_player_names
from cogs.imports._server_ids import check_on_server

MAX_WARNINGS_SHOWN = 8  # each at most 200 characters: the answer stays under Discord's 2,000


async def spreadsheet(data: bytes) -> bytes:
    """An Excel upload's first sheet as CSV (on a worker thread: unzipping is pure work)."""
    try:
        return await asyncio.to_thread(workbook_as_csv, data)
    except CsvImportError as exc:
        reason = str(exc.problems[0])
        raise InvalidInput(f"Nothing was imported. {reason[:1].upper()}{reason[1:]}.") from None


@app_commands.guild_only()
class ImportCog(commands.GroupCog, group_name="import", group_description="Import league data from CSV files."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.imports

    async def _run(self, interaction: discord.Interaction, kind: str, file: discord.Attachment,
                   allow_past: bool = False) -> None:
        caller = self.bot.caller(interaction)
        caller.require(Role.COMMISSIONER)  # refuse before downloading anything
        await defer(interaction)
        data = await file.read() if file.size <= MAX_CSV_BYTES else b"x" * (MAX_CSV_BYTES + 1)
        if len(data) <= MAX_CSV_BYTES and is_workbook(file.filename, data):
            data = await spreadsheet(data)
        if kind == "players" and len(data) <= MAX_CSV_BYTES:  # usernames, not only ids
            data = await resolve_player_names(interaction.guild, data)
        if kind == "teams" and len(data) <= MAX_CSV_BYTES:  # captains by username too
            data = await resolve_captain_names(interaction.guild, data)
        if len(data) <= MAX_CSV_BYTES:
            await check_on_server(interaction.guild, kind, data)
        report = await self.service.run(caller, kind, data, now=self.bot.clock.now(), allow_past=allow_past)
        name = clean_user_text(file.filename, 80)
        counts, *warnings = report.summary().splitlines()
        shown = [f"• {clean_user_text(w, 200)}" for w in warnings[:MAX_WARNINGS_SHOWN]]
        if len(warnings) > MAX_WARNINGS_SHOWN:
            shown.append(f"• …and {len(warnings) - MAX_WARNINGS_SHOWN} more")
        await reply(interaction, "\n".join([f"{name}: {counts}.", *shown]), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="teams", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="A CSV file with a header row (an Excel .xlsx works too)")
    async def teams(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Import teams (team,division,captain_discord_ids,channel_id); a captain may be a @username."""
        await self._run(interaction, "teams", file)

    @app_commands.command(name="players", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="A CSV (or .xlsx) file with a header row; discord_id may be a username (@name)")
    async def players(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Import players (discord_id,name,team,position,gender)."""
        await self._run(interaction, "players", file)

    @app_commands.command(name="games", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="A CSV file with a header row (an Excel .xlsx works too)",
                           allow_past="Allow games that already started (backfilling)")
    async def games(self, interaction: discord.Interaction, file: discord.Attachment,
                    allow_past: bool = False) -> None:
        """Import games (game_id,starts_at,home,away,venue,kind)."""
        await self._run(interaction, "games", file, allow_past)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ImportCog(bot))
