"""/appeal file and /appeal decide.

Discord does not let a command with subcommands run on its own, so the spec's
``/appeal suspension:<id> reason:<text>`` is ``/appeal file suspension:<id> reason:<text>``.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import timestamp
from bot.services.discipline.appeals import AppealDecided, AppealFiled
from bot.services.discipline.core import REASON_LIMIT
from bot.services.discipline.suspensions import MAX_GAMES
from cogs._common import bot_of, suggesting_for

Id = app_commands.Range[int, 1, 2_147_483_647]
Outcome = Literal["upheld", "reduced", "overturned"]


def filed_reply(filed: AppealFiled) -> str:
    who = f" for {filed.player}" if filed.by_captain else ""
    return (f"Appeal #{filed.id} of suspension #{filed.suspension_id} is filed{who}. The commissioners decide by "
            f"{timestamp(filed.decision_due)}; the player gets a DM with the outcome. Meanwhile the suspension "
            "stands and games served still count.")


def decided_reply(decided: AppealDecided) -> str:
    text = f"Appeal #{decided.id} ({decided.player}, suspension #{decided.suspension_id}): {decided.summary}"
    if decided.late:
        text += " (Decided after the decision was due.)"
    if decided.final:
        text += " The suspension is now final."
    return text + " The player is told privately."


async def _choices(interaction: discord.Interaction, current: str, *,
                   waiting: bool) -> list[app_commands.Choice[int]]:
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    service = bot.services.appeals
    found = await (service.waiting if waiting else service.appealable)(caller, str(current)[:100])
    return [app_commands.Choice(name=label, value=value) for label, value in found]


async def suspension_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Your active suspensions (and, for captains, your team's)."""
    return await _choices(interaction, current, waiting=False)


async def appeal_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Appeals waiting for a decision (commissioners)."""
    return await _choices(interaction, current, waiting=True)


@app_commands.guild_only()
class AppealCog(commands.GroupCog, group_name="appeal", group_description="Appeal a suspension, decide appeals."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.appeals

    @app_commands.command(name="file")
    @app_commands.describe(suspension="The suspension's number (see /suspensions)",
                           reason="Why it should be shortened (the commissioners read it)")
    @app_commands.autocomplete(suspension=suspension_autocomplete)
    @app_commands.guild_only()
    async def file(self, interaction: discord.Interaction, suspension: Id,
                   reason: app_commands.Range[str, 1, REASON_LIMIT]) -> None:
        """Appeal a suspension, once, within the window (player or captain)."""
        filed = await self.service.file(self.bot.caller(interaction), suspension, reason)
        await reply(interaction, filed_reply(filed), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="decide", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(appeal="The appeal's number", outcome="Upheld keeps it; reduced sets fewer games; "
                           "overturned removes it", games="The new number of games (reduced only)")
    @app_commands.autocomplete(appeal=appeal_autocomplete)
    @app_commands.guild_only()
    async def decide(self, interaction: discord.Interaction, appeal: Id, outcome: Outcome,
                     games: app_commands.Range[int, 0, MAX_GAMES] | None = None) -> None:
        """Decide an appeal: upheld, reduced or overturned (commissioners)."""
        decided = await self.service.decide(self.bot.caller(interaction), appeal, outcome, games)
        await reply(interaction, decided_reply(decided), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(AppealCog(bot))
