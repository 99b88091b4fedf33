"""/result enter|forfeit|fix: referees enter scores, commissioners correct them.

Discord does not let a command with subcommands run on its own, so the spec's
``/result game:... home:... away:...`` is ``/result enter game:... home:... away:...``.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, local_label
from bot.services.results import RecordedResult
from cogs._common import GameCode, TeamName, bot_of, suggesting_for, team_autocomplete

Goals = app_commands.Range[int, 0, 99]
Decided = Literal["regulation", "overtime", "shootout"]
AnyDecided = Literal["regulation", "overtime", "shootout", "forfeit"]

#: Fired after any result change; the standings cog refreshes the league's standings message.
STANDINGS_CHANGED = "standings_changed"


def result_reply(outcome: RecordedResult) -> str:
    """What the referee or commissioner reads after a result command."""
    result = outcome.result
    if outcome.action == "unchanged":
        return f"Game {result.game} already stands as {result.summary}. Nothing changed."
    if outcome.action == "fixed" and outcome.previous is not None:
        text = f"Corrected game {result.game}: {result.summary} (was {outcome.previous.summary})."
    else:
        text = f"Recorded game {result.game}: {result.summary}."
    if outcome.points_deducted:
        text += (f" {result.score.forfeit_team} lose {outcome.points_deducted} standings "
                 f"point{'s' if outcome.points_deducted != 1 else ''} for the forfeit.")
    elif result.score.decided == "forfeit" and result.score.penalty_waived:
        text += " The forfeit costs no standings point (waived)."
    if outcome.guests:
        text += f"\nGuests who played: {', '.join(outcome.guests)}."
    if outcome.goals is not None:
        home, away = outcome.goals
        counted = f"the goals recorded ({result.home} {home}, {result.away} {away})"
        if outcome.goal_differences:
            text += f"\n⚠️ The score differs from {counted}: {'; '.join(outcome.goal_differences)}."
        else:
            text += f"\nIt agrees with {counted}."
    if outcome.bracket_note:
        text += f"\nBracket: {outcome.bracket_note}"
    return text + "\nStandings are updated."


async def played_game_autocomplete(interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
    """Games that have started, most recent first; games with a result show it."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    games = await bot.services.results.played_games(caller, current[:100])
    tz = caller.league.timezone
    return [
        app_commands.Choice(
            name=clip(f"{local_label(g.starts_at, tz)} · {g.home} vs {g.away} ({g.code})"
                      + (f" · final {g.summary}" if g.summary else ""), 100),
            value=g.code[:100],
        )
        for g in games[:25]
    ]


@app_commands.guild_only()
class ResultCog(commands.GroupCog, group_name="result", group_description="Enter and correct game results."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.results

    async def _done(self, interaction: discord.Interaction, outcome: RecordedResult) -> None:
        await reply(interaction, result_reply(outcome), ephemeral=True, allowed_mentions=NO_MENTIONS)
        if outcome.action != "unchanged":
            self.bot.dispatch(STANDINGS_CHANGED, interaction.guild_id)

    @app_commands.command(name="enter", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game", home="Home team's goals", away="Away team's goals",
                           decided="How the game was decided",
                           shootout_home="Home team's shootout goals (shootouts only)",
                           shootout_away="Away team's shootout goals (shootouts only)")
    @app_commands.autocomplete(game=played_game_autocomplete)
    @app_commands.guild_only()
    async def enter(self, interaction: discord.Interaction, game: GameCode, home: Goals, away: Goals, decided: Decided,
                    shootout_home: Goals | None = None, shootout_away: Goals | None = None) -> None:
        """Enter a played game's score (referees and commissioners)."""
        outcome = await self.service.enter(self.bot.caller(interaction), game, home=home, away=away,
                                           decided=decided, shootout_home=shootout_home,
                                           shootout_away=shootout_away)
        await self._done(interaction, outcome)

    @app_commands.command(name="forfeit", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game", team="The team that forfeited")
    @app_commands.autocomplete(game=played_game_autocomplete, team=team_autocomplete)
    @app_commands.guild_only()
    async def forfeit(self, interaction: discord.Interaction, game: GameCode, team: TeamName) -> None:
        """Record that a team forfeited a game (referees, commissioners)."""
        outcome = await self.service.forfeit(self.bot.caller(interaction), game, team)
        await self._done(interaction, outcome)

    @app_commands.command(name="fix", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(game="The game", home="Home team's goals", away="Away team's goals",
                           decided="How the game was decided",
                           shootout_home="Home team's shootout goals (shootouts only)",
                           shootout_away="Away team's shootout goals (shootouts only)",
                           forfeit_team="The team that forfeited (forfeits only)",
                           waive_penalty="Forfeits: true when an appeal waived the lost standings point",
                           reason="Why it is corrected (kept in the results log)")
    @app_commands.autocomplete(game=played_game_autocomplete, forfeit_team=team_autocomplete)
    @app_commands.guild_only()
    async def fix(self, interaction: discord.Interaction, game: GameCode, home: Goals | None = None,
                  away: Goals | None = None, decided: AnyDecided | None = None, shootout_home: Goals | None = None,
                  shootout_away: Goals | None = None, forfeit_team: TeamName | None = None,
                  waive_penalty: bool | None = None,
                  reason: app_commands.Range[str, 1, 300] | None = None) -> None:
        """Correct a game's result; left-out options keep their values."""
        outcome = await self.service.fix(
            self.bot.caller(interaction), game, home=home, away=away, decided=decided,
            shootout_home=shootout_home, shootout_away=shootout_away, forfeit_team=forfeit_team,
            penalty_waived=waive_penalty, reason=reason,
        )
        await self._done(interaction, outcome)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ResultCog(bot))
