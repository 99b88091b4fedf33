"""/checkin and /whoisin, and the restart-proof In / Out / Maybe buttons."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply
from bot.discord_text import clip, timestamp
from bot.services.checkins.service import Attendance, AttendanceLine
from cogs._common import GameCode, ManagedName, game_autocomplete, my_players_autocomplete
from cogs.checkins._buttons import CheckInButton, checkin_reply
from cogs.setup._gender_ask import ASK, GenderSelect, gender_view

Status = Literal["in", "out", "maybe"]


def _names(lines: tuple[AttendanceLine, ...]) -> str:
    return ", ".join(f"{line.name}{' (G)' if line.goalie else ''}{f' “{line.note}”' if line.note else ''}"
                     for line in lines) or "—"


def attendance_embed(att: Attendance) -> discord.Embed:
    """Names, answers and the lineup's checks that count no gender (a captain's /lineup has them all)."""
    game = att.game
    embed = discord.Embed(title=clip(f"{att.team}: who's in for {game.title}", 256))
    note = " · **cancelled**" if game.status == "cancelled" else ""
    embed.description = f"{timestamp(game.starts_at)} · {game.venue or 'venue TBA'} · `{game.code}`{note}"
    for label, lines in (("✅ In", att.going), ("❌ Out", att.out), ("🧳 Out (away)", att.away),
                         ("❔ Maybe", att.maybe), ("… No reply", att.no_reply)):
        if label.endswith("(away)") and not lines:
            continue
        embed.add_field(name=f"{label} ({len(lines)})", value=clip(_names(lines), 1024), inline=False)
    if att.spares:
        embed.add_field(name=f"🙋 Spares ({len(att.spares)})", value=clip(_names(att.spares), 1024), inline=False)
    if att.guests:
        embed.add_field(name=f"🎟️ Guests ({len(att.guests)})", value=clip(_names(att.guests), 1024), inline=False)
    if att.status:  # the lineup's checks, as the whole team may see them (captains: /lineup)
        embed.add_field(name="Lineup", value=clip("\n".join(line.render() for line in att.status), 1024),
                        inline=False)
    embed.set_footer(text="(G) = goalie · answer with /checkin or the buttons under game reminders")
    return embed


class CheckInCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.checkins

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(CheckInButton, GenderSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(CheckInButton, GenderSelect)

    @app_commands.command(name="checkin")
    @app_commands.describe(status="Are you playing?", game="The game; leave empty for your team's next game",
                           player="A player you manage (no Discord account); needed when you manage several")
    @app_commands.autocomplete(game=game_autocomplete, player=my_players_autocomplete)
    @app_commands.guild_only()
    async def checkin(self, interaction: discord.Interaction, status: Status, game: GameCode | None = None,
                      player: ManagedName | None = None) -> None:
        """Say whether you're in, out or maybe for a game."""
        caller = self.bot.caller(interaction)
        result = await self.service.check_in(caller, status, game, ask_gender=True, player=player)
        await reply(interaction, checkin_reply(result), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)
        if result.ask_gender:  # once, privately, after the answer (never for a guardian's junior)
            await reply(interaction, ASK, ephemeral=True, view=gender_view(caller.league_id),
                        allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="whoisin", extras=answers(writes=False))
    @app_commands.describe(game="The game; leave empty for your team's next game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def whoisin(self, interaction: discord.Interaction, game: GameCode | None = None) -> None:
        """Your team's answers for a game: in, out, maybe, no reply."""
        attendance = await self.service.who_is_in(self.bot.caller(interaction), game)
        await reply(interaction, embed=attendance_embed(attendance), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(CheckInCog(bot))
