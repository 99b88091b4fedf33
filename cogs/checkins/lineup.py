"""/lineup: who is in for a game and the league's lineup rules applied to them (captains)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply, requires
from bot.discord_text import clip, timestamp
from bot.league.checkins.lineup import CheckedInPlayer
from bot.services.checkins.service import TeamLineup
from cogs._common import GameCode, game_autocomplete


def _player(p: CheckedInPlayer, mark_women: bool, spares: frozenset[int] = frozenset()) -> str:
    """Name, goalie mark, and (only where the rule applies) whether they count toward it; a spare's
    category is never shown to a captain, only that they are a spare."""
    goalie = " (G)" if p.position == "goalie" else ""
    if p.player_id in spares:
        return f"{p.name}{goalie} (spare)"
    counts = " (W/NB)" if mark_women and p.counts_toward_women_nonbinary else ""
    return f"{p.name}{goalie}{counts}"


def lineup_embed(lineup: TeamLineup) -> discord.Embed:
    report, game = lineup.report, lineup.game
    mark_women = report.women_nonbinary_required > 0
    embed = discord.Embed(title=clip(f"{lineup.team} lineup · {game.title}", 256))
    embed.description = f"{timestamp(game.starts_at)} · `{game.code}`"
    for line in lineup.status:  # one field per check: the same checks as /whoisin and the captains' alert
        embed.add_field(name=line.label, value=clip(f"{line.mark} {line.detail}", 1024), inline=line.check != "court")
    embed.add_field(name=f"In ({len(lineup.checked_in)})",
                    value=clip(", ".join(_player(p, mark_women, lineup.spare_ids) for p in lineup.checked_in)
                               or "nobody yet", 1024),
                    inline=False)
    if report.starting_skaters:
        embed.add_field(name="A legal starting unit",
                        value=clip(", ".join(p.name for p in report.starting_skaters), 1024), inline=False)
    if report.excluded:
        embed.add_field(name="Excluded", value=clip("\n".join(f"{x.player.name}: {x.reason}" for x in report.excluded),
                                                    1024), inline=False)
    if lineup.starts_with:
        embed.add_field(name="Penalty to serve at the start", value=clip("\n".join(
            f"⏱️ {lineup.team} {b.text()}" for b in lineup.starts_with), 1024), inline=False)
    checks = "\n".join(f"• {f.message} — *{f.rule}*" for f in report.findings) or "✅ Nothing wrong."
    embed.add_field(name="Rules check", value=clip(checks, 1024), inline=False)
    if lineup.guests_pending:
        embed.add_field(name="Guests waiting to be cleared (not counted)",
                        value=clip(", ".join(lineup.guests_pending) + " — a referee or commissioner clears them "
                                   "with /guest clear", 1024), inline=False)
    waiting = f"Maybe: {', '.join(lineup.maybe) or '—'} · no reply: {lineup.no_reply} of {lineup.roster_size}"
    if lineup.away:
        waiting += f" · out (away): {', '.join(lineup.away)}"
    embed.add_field(name="Still to hear from", value=clip(waiting, 1024), inline=False)
    legend = "(G) goalie · (W/NB) counts toward the women/non-binary minimum · " if mark_women else "(G) goalie · "
    if lineup.spare_ids:
        legend += "(spare) from the league's spare list · "
    embed.set_footer(text=f"{legend}Private: shown only to captains and commissioners.")
    return embed


class LineupCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.checkins

    @app_commands.command(name="lineup", extras={**requires(Role.CAPTAIN, Role.COMMISSIONER), **answers(writes=False)})
    @app_commands.describe(game="The game; leave empty for your team's next game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def lineup(self, interaction: discord.Interaction, game: GameCode | None = None) -> None:
        """Who is in for a game, checked against the league's lineup rules."""
        lineups = await self.service.lineup(self.bot.caller(interaction), game)
        await reply(interaction, embeds=[lineup_embed(x) for x in lineups[:10]], ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(LineupCog(bot))
