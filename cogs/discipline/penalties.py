"""/penalty: a referee (or commissioner) records an infraction and learns what followed from it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, local_label, timestamp
from bot.errors import InvalidInput, NoLeague
from bot.league.discipline.cleanup import MINUTES_SETTING, cited
from bot.services.discipline.penalties import MAX_MINUTE, PenaltyRecorded, infraction_choices
from bot.services.discipline.penalty_log import PenaltyLog
from bot.services.discipline.suspensions import MAX_GAMES
from cogs._common import (
    GameCode,
    ManagedName,
    TeamName,
    accountless_autocomplete,
    bot_of,
    game_autocomplete,
    member_or_name,
    suggesting_for,
    team_autocomplete,
)

Minute = app_commands.Range[int, 0, MAX_MINUTE]


def penalty_reply(recorded: PenaltyRecorded, minute: int | None) -> str:
    """What the referee reads: the call, each consequence with its rule, and any suspension."""
    outcome = recorded.outcome
    at = f", minute {minute}" if minute is not None else ""
    lines = [f"Penalty #{recorded.id} recorded: {recorded.player} ({recorded.team}), game {recorded.game}{at}.",
             f"**{outcome.summary}**"]
    lines += [f"• {c.text} — {c.citation}" for c in outcome.consequences]
    issued = recorded.suspension
    if issued is not None:
        text = f"Suspension #{issued.id}: {issued.games} game{'s' if issued.games != 1 else ''}"
        if issued.pending_review:
            text += ", in force and pending the commissioners' review"
            if outcome.suspension_asked > issued.games:
                text += f" ({outcome.suspension_asked} asked)"
        text += ". The player is told privately"
        if issued.appeal_closes is not None:
            text += f" (they may appeal until {timestamp(issued.appeal_closes, 'f')})"
        lines.append(text + ("; it is announced." if issued.announced else "."))
    elif outcome.pending_review:
        lines.append("Reported to the commissioners for review.")
    return clip("\n".join(lines), 2000)


def penalty_log_embed(log: PenaltyLog) -> discord.Embed:
    """A game's penalty log: what each team starts with, then every call, and the minutes per team."""
    game = log.game
    embed = discord.Embed(title=clip(f"Penalty log · {game.home} vs {game.away}", 256))
    embed.description = f"{timestamp(game.starts_at)} · `{game.code}`"
    if log.at_start:
        embed.add_field(name="Served at the start of the game", value=clip("\n".join(
            f"• {b.team} {b.text()}" for b in log.at_start), 1024), inline=False)
    calls = [f"#{p.id}" + (f" · min {p.minute}" if p.minute is not None else "")
             + f" · {p.player} ({p.team}): {clip(p.summary, 300)}" for p in log.penalties]
    embed.add_field(name=f"Calls ({len(log.penalties)})", value=clip("\n".join(calls) or "None recorded.", 1024),
                    inline=False)
    if log.bench:
        embed.add_field(name=f"Bench minors ({len(log.bench)})", value=clip("\n".join(
            f"B{b.id}" + (f" · min {b.minute}" if b.minute is not None else "") + f" · {b.team}: {clip(b.summary, 300)}"
            for b in log.bench), 1024), inline=False)
    if log.cleanup_missed:
        embed.add_field(name="Didn't clean up after this game", value=clip("\n".join(
            f"• {m.team}: a {m.minutes}-minute bench minor at the start of "
            + (f"{m.lands_on.code} ({timestamp(m.lands_on.starts_at, 'f')})" if m.lands_on is not None
               else "their next game (none scheduled yet)")
            + f" ({cited(m.citation, MINUTES_SETTING)})" for m in log.cleanup_missed), 1024), inline=False)
    embed.add_field(name="Penalty minutes", value=clip(" · ".join(f"{team} {minutes}" for team, minutes
                                                                  in log.minutes_by_team), 1024), inline=False)
    embed.set_footer(text="Private: shown only to referees and commissioners.")
    return embed


async def started_game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Games that have started, most recent first."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    games = await bot.services.penalties.recent_games(caller, current[:100])
    tz = caller.league.timezone
    return [app_commands.Choice(name=clip(f"{local_label(g.starts_at, tz)} · {g.home.name} vs {g.away.name} "
                                          f"({g.code})", 100), value=g.code[:100]) for g in games[:25]]


async def infraction_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The league's list of infractions (from its rules preset)."""
    try:
        caller = bot_of(interaction).caller(interaction)
    except NoLeague:
        return []
    return [app_commands.Choice(name=label, value=key[:100])
            for label, key in infraction_choices(caller.league.rules, current[:100])]


class PenaltyCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.penalties

    @app_commands.command(name="penalty", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game it was called in", infraction="The infraction, from the league's list",
                           player="The player it was called against",
                           name="Or the player by name: one without a Discord account",
                           team="For a bench minor against a team (no player), the team",
                           minute="Game minute it was called (0 = opening face-off); checks late-game rules",
                           suspend="A suspension you give with it, in games (over the league's referee limit: "
                                   "held for review)")
    @app_commands.autocomplete(game=started_game_autocomplete, infraction=infraction_autocomplete,
                               team=team_autocomplete, name=accountless_autocomplete)
    @app_commands.guild_only()
    async def penalty(self, interaction: discord.Interaction, game: GameCode,
                      infraction: app_commands.Range[str, 1, 100], player: discord.Member | None = None,
                      team: TeamName | None = None, minute: Minute | None = None,
                      suspend: app_commands.Range[int, 1, MAX_GAMES] | None = None,
                      name: ManagedName | None = None) -> None:
        """Record a penalty; the league's escalations follow (referees)."""
        caller = self.bot.caller(interaction)
        who = member_or_name(player, name, "player", required=False)
        if (who is None) == (team is None):
            caller.require(Role.REFEREE, Role.COMMISSIONER)
            raise InvalidInput("Name the player it was called against, or for a bench minor the team: one of the two.")
        if who is None:
            if suspend is not None:
                raise InvalidInput("A suspension is given to a player: a bench minor has none.")
            bench = await self.service.record_bench(caller, game_code=game, team_name=team or "",
                                                    infraction=infraction, minute=minute)
            at = f", minute {minute}" if minute is not None else ""
            text = (f"Bench penalty B{bench.id} recorded: {bench.team}, game {bench.game}{at}.\n**{bench.summary}** "
                    f"— {bench.citation}. It counts in {bench.team}'s penalty minutes, in no player's.")
            await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        recorded = await self.service.record(caller, game_code=game, discord_id=who,
                                             infraction=infraction, minute=minute, suspend=suspend)
        await reply(interaction, penalty_reply(recorded, minute), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="penalties", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game whose penalties to list")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def penalties(self, interaction: discord.Interaction, game: GameCode) -> None:
        """A game's penalty log: bench minors at the start, then each call (referees)."""
        log = await self.bot.services.penalty_log.game_log(self.bot.caller(interaction), game)
        await reply(interaction, embed=penalty_log_embed(log), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(PenaltyCog(bot))
