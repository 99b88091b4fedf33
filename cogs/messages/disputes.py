"""/dispute file|decide|list: a captain's formal dispute, decided by the commissioners within the window.

Discord can't run a command that has subcommands bare, so the spec's ``/dispute game message`` is
``/dispute file game message`` next to ``/dispute decide`` and ``/dispute list``.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, local_label, timestamp
from bot.league.messages import TEXT_LIMIT
from bot.services.messages.disputes import OUTCOME_WORDS, DisputeFiled, DisputeLine
from cogs._common import GameCode, bot_of, game_autocomplete, suggesting_for

Outcome = Literal["upheld", "partly-upheld", "rejected", "withdrawn"]


def filed_text(filed: DisputeFiled) -> str:
    d = filed.dispute
    return clip(f"Dispute #{d.id} about `{d.game_code}` ({d.game_title}) is filed with the commissioners. "
                f"Their decision is due {timestamp(d.due_at)} ({filed.rule}); you'll get it by DM.", 2000)


def dispute_line(d: DisputeLine) -> str:
    head = f"**#{d.id}** `{d.game_code}` {d.game_title} · {d.team} · {d.captain_name}"
    if d.decided_at is not None:
        state = f"{OUTCOME_WORDS.get(d.outcome or '', d.outcome)} by {d.decided_by_name} {timestamp(d.decided_at, 'R')}"
    else:
        state = f"filed {timestamp(d.created_at, 'R')} · decision due {timestamp(d.due_at, 'R')}"
    return f"{head} · {state}\n> {clip(' '.join(d.message.split()), 300)}"


def disputes_embed(lines: tuple[DisputeLine, ...], include_decided: bool) -> discord.Embed:
    embed = discord.Embed(title="Disputes" if include_decided else "Open disputes")
    embed.description = clip("\n".join(dispute_line(d) for d in lines) or "No disputes.", 4000)
    return embed


async def open_dispute_autocomplete(interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot.services.disputes.autocomplete(caller, current[:100])
    tz = caller.league.timezone
    return [app_commands.Choice(name=clip(f"#{d.id} {d.team} · {d.game_code} (due {local_label(d.due_at, tz)})", 100),
                                value=str(d.id)) for d in found[:25]]


@app_commands.guild_only()
class DisputeCog(commands.GroupCog, group_name="dispute", group_description="Formal disputes to the commissioners."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.disputes

    @app_commands.command(name="file", extras=requires(Role.CAPTAIN))
    @app_commands.describe(game="The game the dispute is about", message="What happened and what you ask for")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def file(self, interaction: discord.Interaction, game: GameCode,
                   message: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        """File a formal dispute about a game with the commissioners."""
        filed = await self.service.file(self.bot.caller(interaction), game, message)
        await reply(interaction, filed_text(filed), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="decide", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(dispute="The dispute (pick from the suggestions)", outcome="The decision",
                           text="The reasons, as the captain will read them")
    @app_commands.rename(dispute="id")
    @app_commands.autocomplete(dispute=open_dispute_autocomplete)
    @app_commands.guild_only()
    async def decide(self, interaction: discord.Interaction, dispute: app_commands.Range[str, 1, 20],
                     outcome: Outcome, text: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        """Decide a dispute; the captain is told (commissioners)."""
        d = await self.service.decide(self.bot.caller(interaction), dispute, outcome, text)
        await reply(
            interaction, clip(f"Dispute #{d.id} ({d.team}, `{d.game_code}`) is {OUTCOME_WORDS.get(outcome, outcome)}. "
                 f"The captain is told by DM and the reminders stop.", 2000),
            ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(include_decided="Also show disputes already decided")
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction, include_decided: bool = False) -> None:
        """Open disputes, or all of them (commissioners)."""
        lines = await self.service.list_disputes(self.bot.caller(interaction), include_decided=include_decided)
        await reply(interaction, embed=disputes_embed(lines, include_decided), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(DisputeCog(bot))
