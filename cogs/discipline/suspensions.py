"""/suspend and /suspension review for commissioners, /suspensions for everyone (details only where allowed)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import InvalidInput
from bot.league.discipline.reviews import ReviewAction
from bot.services.discipline.core import REASON_LIMIT, plural
from bot.services.discipline.reviews import SuspensionReviewed
from bot.services.discipline.suspensions import MAX_GAMES, SuspensionIssued, SuspensionLine
from cogs.discipline.penalties import infraction_autocomplete

log = logging.getLogger("sideline.discipline")


def suspend_reply(issued: SuspensionIssued) -> str:
    text = f"Suspension #{issued.id} recorded: {issued.player} ({issued.team}), {plural(issued.games, 'game')}."
    if issued.replaced is not None:
        text += f" It replaces the referee's suspension #{issued.replaced}, which no longer counts."
    text += " Announced in the announcements channel;" if issued.announced else " (No announcements channel is set.)"
    text += " the player is told privately"
    if issued.appeal_closes is not None:
        text += f" and may appeal until {timestamp(issued.appeal_closes)}"
    return text + "." + (f" {issued.note}" if issued.note else "")


def review_reply(reviewed: SuspensionReviewed) -> str:
    text = (f"Suspension #{reviewed.suspension_id} ({clean_user_text(reviewed.player, 100)}): {reviewed.summary} "
            f"({reviewed.citation})")
    if reviewed.asked > reviewed.games_before:
        text += f"; the call asked for {plural(reviewed.asked, 'game')}"
    text += ". It is final: only an appeal's decision can shorten it now. The player is told privately"
    text += "; it is announced." if reviewed.announced else "."
    return text + (f" {reviewed.note}" if reviewed.note else "")


def suspension_text(line: SuspensionLine) -> str:
    left = f"{line.remaining} of {plural(line.games, 'game')} left"
    when = f"through the game of {timestamp(line.through, 'f')}" if line.through else "not all its games are scheduled"
    mention = f"<@{line.player_discord_id}> " if line.player_discord_id else ""  # none: no Discord account
    text = (f"**#{line.id}** {mention}{clean_user_text(line.player, 100)} "
            f"({clean_user_text(line.team, 100)}) · {left} · {when}")
    if line.ahead:
        text += "\n  Sits out: " + ", ".join(
            f"{clean_user_text(g.code, 32)} ({clean_user_text(g.home, 40)} vs {clean_user_text(g.away, 40)}, "
            f"{timestamp(g.starts_at, 'f')})" for g in line.ahead)
    d = line.details
    if d is not None:
        text += f"\n  Reason: {clean_user_text(d.reason, 300)}"
        if d.pending_review:
            text += " · pending the commissioners' review"
        text += f"\n  Issued {timestamp(d.issued_at, 'f')} · {d.appeal}"
    return text


def suspensions_embed(lines: tuple[SuspensionLine, ...]) -> discord.Embed:
    embed = discord.Embed(title="Active suspensions")
    body = "\n".join(suspension_text(line) for line in lines) or "Nobody is suspended."
    embed.description = clip(body, 4000)
    embed.set_footer(text="Reasons are shown only to the player, their captains and commissioners.")
    return embed


class SuspensionsCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.suspensions
        self.reviews = bot.services.suspension_reviews

    async def cog_load(self) -> None:
        """Count results recorded while the bot was not running (e.g. `sideline import results`)."""
        for league_id in sorted(set(self.bot.league_ids.values())):
            try:
                async with self.bot.sessions.begin() as session:
                    ended = await self.bot.services.discipline.reconcile(session, league_id)
            except Exception:
                log.exception("could not bring suspensions of league %s up to date", league_id)
                continue
            if ended:
                log.info("league %s: %d suspension(s) found served at start", league_id, ended)

    @app_commands.command(name="suspend", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(player="The player to suspend", games="How many of the team's next games they sit out",
                           reason="Why (told to the player privately, never announced)",
                           replace="The player has a referee's suspension: this one takes its place",
                           add="The player has a referee's suspension: this one is a second, served after it",
                           infraction="What it is for, from the league's list: the rulebook's length for it applies")
    @app_commands.autocomplete(infraction=infraction_autocomplete)
    @app_commands.guild_only()
    async def suspend(self, interaction: discord.Interaction, player: discord.Member,
                      games: app_commands.Range[int, 1, MAX_GAMES],
                      reason: app_commands.Range[str, 1, REASON_LIMIT], replace: bool = False,
                      add: bool = False, infraction: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Suspend a player for games; announced, appealable (commissioners)."""
        if replace and add:
            raise InvalidInput("Pick one: `replace: True` puts this suspension in the place of the referee's, "
                               "`add: True` adds a second one. Nothing changed.")
        issued = await self.service.suspend(self.bot.caller(interaction), discord_id=player.id, games=games,
                                            reason=reason, existing="replace" if replace else "add" if add else None,
                                            infraction=infraction)
        await reply(interaction, suspend_reply(issued), ephemeral=True, allowed_mentions=NO_MENTIONS)

    suspension = app_commands.Group(name="suspension", description="Review a referee's suspension (commissioners).",
                                    allowed_contexts=app_commands.AppCommandContext(guild=True))

    @suspension.command(name="review", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(player="The player whose suspension waits for review",
                           action="confirm it as it stands, set its length, or lift it",
                           games="With set-games: the suspension's length in games",
                           note="Told to the player privately (never announced)")
    async def review(self, interaction: discord.Interaction, player: discord.User, action: ReviewAction,
                     games: app_commands.Range[int, 1, MAX_GAMES] | None = None,
                     note: app_commands.Range[str, 1, REASON_LIMIT] | None = None) -> None:
        """Confirm, set or lift a referee's suspension; final after (commissioners)."""
        reviewed = await self.reviews.review(self.bot.caller(interaction), discord_id=player.id, action=action,
                                             games=games, note=note)
        await reply(interaction, review_reply(reviewed), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="suspensions")
    @app_commands.guild_only()
    async def suspensions(self, interaction: discord.Interaction) -> None:
        """Active suspensions: player, games remaining, until when."""
        lines = await self.service.active(self.bot.caller(interaction))
        await reply(interaction, embed=suspensions_embed(lines), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(SuspensionsCog(bot))
