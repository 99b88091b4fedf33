"""/profile show|gender|reminders|forget: a player's own data, only ever shown to them."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply
from bot.discord_text import clean_user_text
from bot.services.profile import Forgotten, Profile, ReminderSettings
from cogs._common import ManagedName, my_players_autocomplete

Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]
Delivery = Literal["channel", "dm"]
OnOff = Literal["on", "off"]


def profile_text(profile: Profile) -> str:
    team = f"{profile.team} ({profile.position})" if profile.team else "not on a roster"
    gender = profile.gender or "not set"
    counts = " (counts toward the women/non-binary minimum)" if profile.counts_toward_minimum else ""
    whose = (f"{clean_user_text(profile.name, 100)}'s profile in {profile.league}** (only you, as their guardian, "
             "see this)" if profile.managed else f"Your profile in {profile.league}** (only you see this)")
    text = (f"**{whose}\n"
            f"Name: {profile.name}\nTeam: {team}\nGender: {gender}{counts}\n"
            f"Check-in answers kept: {profile.checkins}\n")
    seen = profile.attendance
    if seen is not None:
        text += f"Games this season (from the game sheets): played {seen.played} of {seen.games}"
        if seen.missed:
            text += f", missed {seen.missed}" + (f" ({seen.missed_without_spare} with no spare in your place)"
                                                  if seen.missed_without_spare else "")
        text += ".\n"
    if profile.managed:
        return text + ("Their gender and games missed are shown only to their guardians, their team's captains "
                       "and commissioners.")
    return text + ("Your gender and games missed are shown only to you, your team's captains and "
                   "commissioners.")


def forgotten_text(result: Forgotten) -> str:
    if not result.removed_anything:
        text = f"{result.league} keeps no personal data about you: nothing to remove."
    else:
        removed = []
        if result.gender_removed:
            removed.append("your gender")
        if result.checkins_removed:
            removed.append(f"{result.checkins_removed} check-in answer{'s' if result.checkins_removed != 1 else ''}")
        if result.away_removed:
            removed.append(f"{result.away_removed} away range{'s' if result.away_removed != 1 else ''}")
        if result.reminders_reset:
            removed.append("your reminder choices")
        listed = f"{', '.join(removed[:-1])} and {removed[-1]}" if len(removed) > 1 else removed[0]
        text = f"Removed from {result.league}: {listed}."
        if result.checkins_removed:
            text += " If you're still playing an upcoming game, answer again with /checkin."
    if result.kept_roster_place:
        text += (f"\nKept: your place on {result.kept_roster_place} (name and position), which your captain "
                 "manages, and league records such as results and suspensions.")
    return text


def reminders_text(settings: ReminderSettings) -> str:
    where = "by DM" if settings.delivery == "dm" else "in your team's channel (with a ping)"
    if settings.delivery == "channel" and not settings.team_has_channel:
        where += "; your team has no channel, so by DM for now"
    lines = [f"**Your reminders in {settings.league}**" + (" (saved)" if settings.changed else ""),
             f"Game reminders: {'on, ' + where if settings.game_reminders else 'muted'}",
             f"Deadline nudges meant for you: {'on' if settings.deadline_nudges else 'muted'}",
             "Game cancellations and new times, and anything you must get as a captain, always reach you."]
    return "\n".join(lines)


@app_commands.guild_only()
class ProfileCog(commands.GroupCog, group_name="profile", group_description="Your own player profile."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.profile

    @app_commands.command(name="show")
    @app_commands.describe(player="A player you manage (no Discord account): what the league keeps about them")
    @app_commands.autocomplete(player=my_players_autocomplete)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, player: ManagedName | None = None) -> None:
        """See what the league keeps about you (only you see it)."""
        profile = await self.service.show(self.bot.caller(interaction), player)
        await reply(interaction, profile_text(profile), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="gender")
    @app_commands.describe(value="Your gender category")
    @app_commands.guild_only()
    async def gender(self, interaction: discord.Interaction, value: Gender) -> None:
        """Set your gender category (woman and non-binary count on court)."""
        profile = await self.service.set_gender(self.bot.caller(interaction), value)
        await reply(
            interaction,
            f"Saved: your gender is **{profile.gender}**. Only you, your captains and commissioners see it.",
            ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="reminders")
    @app_commands.describe(delivery="Where game reminders reach you", game_reminders="Game reminders on or off",
                           deadline_nudges="Deadline nudges meant for you on or off")
    @app_commands.guild_only()
    async def reminders(self, interaction: discord.Interaction, delivery: Delivery | None = None,
                        game_reminders: OnOff | None = None, deadline_nudges: OnOff | None = None) -> None:
        """Choose how reminders reach you: team channel or DM, and mute a kind."""
        settings = await self.service.reminders(
            self.bot.caller(interaction), delivery=delivery,
            game_reminders=None if game_reminders is None else game_reminders == "on",
            deadline_nudges=None if deadline_nudges is None else deadline_nudges == "on")
        await reply(interaction, reminders_text(settings), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="forget")
    @app_commands.guild_only()
    async def forget(self, interaction: discord.Interaction) -> None:
        """Remove your gender, check-in answers, away ranges and reminder choices here."""
        result = await self.service.forget(self.bot.caller(interaction))
        await reply(interaction, forgotten_text(result), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ProfileCog(bot))
