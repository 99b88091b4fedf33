"""/tellcaptain: a private note to your team's captains; a refused DM falls back to a private thread."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import NO_MENTIONS, SidelineBot
from bot.discord_text import clip
from bot.services import outbox
from bot.services.notes import NOTE_KIND, NoteSent, NoteService, parse_dm_key
from storage.models.relays import TEXT_LIMIT

log = logging.getLogger("sideline.notes")

THREAD_ARCHIVE_MINUTES = 10080  # a week


def sent_text(sent: NoteSent) -> str:
    who = " and ".join(f"<@{c}>" for c in sent.captain_ids)
    return clip(f"Your note went privately to {who} ({sent.team}'s captain{'s' if len(sent.captain_ids) > 1 else ''}) "
                "by DM. If a captain doesn't accept DMs from the bot, it goes to a private thread in your team's "
                "channel for them; if that isn't possible either, you'll get a DM saying so.", 2000)


@outbox.on_failure(NOTE_KIND)
async def note_dm_refused(bot: Any, row: Any, error: str) -> None:
    """A captain refused the note's DM: put it in a private thread for them, else tell the player."""
    parsed = parse_dm_key(row.send_key)
    if parsed is None:
        return
    note_id, captain_id = parsed
    service = NoteService(bot.sessions, bot.clock)
    plan = await service.fallback_plan(row.league_id, note_id)
    if plan is None:
        return
    thread_id = plan.thread_id
    if thread_id is None and plan.channel_id is not None:
        try:
            thread = await bot.http.start_thread_without_message(
                plan.channel_id, name=clip(f"Private note for the {plan.team} captains", 100),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES, type=discord.ChannelType.private_thread.value,
                invitable=False, reason="a /tellcaptain note the captain couldn't get by DM")
            thread_id = int(thread["id"])
        except discord.HTTPException as exc:
            log.info("note %s: no private thread in channel %s (%s)", note_id, plan.channel_id, exc)
    # No explicit "add member" call: the note in the thread mentions the captain (and only pings
    # them), and a mention is how Discord adds someone to a private thread.
    outcome = await service.record_fallback(plan, captain_id, thread_id)
    log.info("note %s: DM to %s refused (%s); %s", note_id, captain_id, error, outcome)


class TellCaptainCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = NoteService(bot.sessions, bot.clock)

    @app_commands.command(name="tellcaptain", description="Send a private note to your team's captain(s).")
    @app_commands.describe(message="What your captain should know (only they read it)")
    @app_commands.guild_only()
    async def tellcaptain(self, interaction: discord.Interaction,
                          message: app_commands.Range[str, 1, TEXT_LIMIT]) -> None:
        """Send a private note to your team's captain(s)."""
        sent = await self.service.tell_captain(self.bot.caller(interaction), message)
        await interaction.response.send_message(sent_text(sent), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(TellCaptainCog(bot))
