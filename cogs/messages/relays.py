"""/relay send|inbox: captains relay a message to their game's referees; referees see what's unanswered.

Discord can't run a command that has subcommands bare, so the spec's ``/relay game message`` is
``/relay send game message`` next to ``/relay inbox``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.league.messages import TEXT_LIMIT
from bot.services.messages.relays import RelayLine, RelaySent
from cogs._common import GameCode, game_autocomplete
from cogs.messages._buttons import RelayButton, handle_answer, inbox_view


def sent_text(sent: RelaySent) -> str:
    r = sent.relay
    where = []
    if sent.referees_channel is not None:
        where.append(f"<#{sent.referees_channel}>")
    if sent.referees_dmed:
        where.append(f"{sent.referees_dmed} assigned referee{'s' if sent.referees_dmed != 1 else ''} by DM")
    return clip(f"Relay #{r.id} about `{r.game_code}` ({r.game_title}) sent to {' and '.join(where)}. "
                f"You'll get a DM when a referee acknowledges or answers it. "
                f"({sent.used} of {sent.limit} relays used by {r.team} for this game.)", 2000)


def inbox_line(r: RelayLine) -> str:
    state = f"acknowledged by {r.acknowledged_by_name}" if r.acknowledged_at else "new"
    message = clip(" ".join(r.message.split()), 200)
    return (f"**#{r.id}** `{r.game_code}` {r.game_title} · {r.team} · {r.captain_name} · "
            f"{timestamp(r.created_at, 'R')} · {state}\n> {message}")


def inbox_embed(relays: tuple[RelayLine, ...]) -> discord.Embed:
    embed = discord.Embed(title=f"Unanswered relays ({len(relays)})")
    embed.description = clip("\n".join(inbox_line(r) for r in relays) or "Nothing waiting for an answer.", 4000)
    if relays:
        embed.set_footer(text="The buttons below answer the first five; every relay message has its own.")
    return embed


@app_commands.guild_only()
class RelayCog(commands.GroupCog, group_name="relay", group_description="Captains relay messages to the referees."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.relays

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RelayButton)
        self.bot.forms.add(handle_answer)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RelayButton)
        self.bot.forms.remove(handle_answer)

    @app_commands.command(name="send", extras=requires(Role.CAPTAIN))
    @app_commands.describe(game="Your team's game (today's)", message="What the referees should know")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def send(self, interaction: discord.Interaction, game: GameCode,
                   message: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        """Relay a message to the referees of your game today (captains)."""
        sent = await self.service.send(self.bot.caller(interaction), game, message)
        await reply(interaction, sent_text(sent), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="inbox", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.guild_only()
    async def inbox(self, interaction: discord.Interaction) -> None:
        """Unanswered relays for your games (referees)."""
        relays = await self.service.inbox(self.bot.caller(interaction))
        view = inbox_view(relays)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        await reply(interaction, embed=inbox_embed(relays), ephemeral=True,
                    allowed_mentions=NO_MENTIONS, **kwargs)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RelayCog(bot))
