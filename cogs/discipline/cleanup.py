"""/cleanup missed (referees) and /cleanup withdraw (commissioners): an arena duty missed puts a bench minor
on a team: cleanup after the week's last game (youth 2.15), on the team's next game; setting the arena up
before the day's first game (youth 2.1, 3.7 (6)), on that game. The officials' game card has the same as a
button (cogs/officials.py)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.league.discipline.cleanup import MINUTE_SETTINGS, cited
from bot.services.discipline.cleanup import MissedCleanupRecorded, MissedCleanupWithdrawn
from bot.services.discipline.core import REASON_LIMIT
from cogs._common import GameCode, TeamName, team_autocomplete
from cogs.discipline.penalties import started_game_autocomplete

Duty = Literal["cleanup", "setup"]
MISSED = {"setup": "didn't help set up before", "cleanup": "didn't clean up after"}


def missed_reply(recorded: MissedCleanupRecorded) -> str:
    """What the referee reads: where the bench minor lands, and who was told."""
    if recorded.duty == "setup":
        where = f"that game, {recorded.lands_on.label()}" if recorded.lands_on is not None else "that game"
    else:
        where = (f"their next game, {recorded.lands_on.label()}" if recorded.lands_on is not None
                 else "their next game once one is scheduled (none is yet)")
    minor = (f"a {recorded.minutes}-minute bench minor at the start of {where} "
             f"({cited(recorded.citation, MINUTE_SETTINGS[recorded.duty])})")
    if recorded.already:
        return clip(f"Already on record (#{recorded.id}): {recorded.team} {MISSED[recorded.duty]} "
                    f"{recorded.game.code}; {minor}. Nothing changed.", 2000)
    told = " Their captains are told." if recorded.captains_told else " (The team has no captain or channel to tell.)"
    return clip(f"Recorded (#{recorded.id}): {recorded.team} {MISSED[recorded.duty]} {recorded.game.label()}: "
                f"{minor}.{told}", 2000)


def withdrawn_reply(withdrawn: MissedCleanupWithdrawn) -> str:
    where = f" {withdrawn.lands_on.code} no longer starts with it." if withdrawn.lands_on is not None else ""
    told = " Their captains are told." if withdrawn.captains_told else ""
    return clip(f"Withdrawn (#{withdrawn.id}): the record that {withdrawn.team} {MISSED[withdrawn.duty]} "
                f"{withdrawn.game.code}, and its {withdrawn.minutes}-minute bench minor.{where} The record is kept, "
                f"marked withdrawn by you.{told}", 2000)


@app_commands.guild_only()
class CleanupCog(commands.GroupCog, group_name="cleanup",
                 group_description="Arena duties: setting up before games, cleaning up after them."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.cleanup

    @app_commands.command(name="missed", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game the team had the duty for",
                           team="The team that didn't do it",
                           duty="Cleaning up after the game (the default), or setting the arena up before it")
    @app_commands.autocomplete(game=started_game_autocomplete, team=team_autocomplete)
    async def missed(self, interaction: discord.Interaction, game: GameCode,
                     team: TeamName, duty: Duty = "cleanup") -> None:
        """Record that a team didn't clean up (or set up): a bench minor (referees)."""
        recorded = await self.service.missed(self.bot.caller(interaction), game_code=game, team_name=team,
                                             duty=duty)
        await reply(interaction, missed_reply(recorded), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="withdraw", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(game="The game the record is about", team="The team it was recorded against",
                           note="Why it is withdrawn (kept with the record; the captains read it)",
                           duty="The duty the record is about: cleanup (the default) or setup")
    @app_commands.autocomplete(game=started_game_autocomplete, team=team_autocomplete)
    async def withdraw(self, interaction: discord.Interaction, game: GameCode,
                       team: TeamName,
                       note: app_commands.Range[str, 1, REASON_LIMIT] | None = None, duty: Duty = "cleanup") -> None:
        """Withdraw a mistaken "didn't clean up" (or set up) and its bench minor (commissioners)."""
        withdrawn = await self.service.withdraw(self.bot.caller(interaction), game_code=game, team_name=team,
                                                note=note, duty=duty)
        await reply(interaction, withdrawn_reply(withdrawn), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(CleanupCog(bot))
