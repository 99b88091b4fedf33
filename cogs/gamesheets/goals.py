"""/goal add|remove: who scored and who assisted, recorded by the referee, the timekeeper or a commissioner."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.services.gamesheets.goals import GoalRecorded, GoalRemoved
from cogs._common import (
    ManagedName,
    accountless_autocomplete,
    bot_of,
    member_or_name,
    suggesting_for,
    team_autocomplete,
)
from cogs.results import played_game_autocomplete

GOAL_ROLES = (Role.REFEREE, Role.TIMEKEEPER, Role.COMMISSIONER)
MAX_GOAL_ID = 2**53 - 1


def _when(period: int | None, clock: str | None) -> str:
    parts = ([f"period {period}"] if period else []) + ([clock] if clock else [])
    return f" ({', '.join(parts)})" if parts else ""


def recorded_text(done: GoalRecorded) -> str:
    assists = f", assisted by {' and '.join(done.assists)}" if done.assists else ", unassisted"
    head = (f"Goal #{done.id} in `{done.game.code}`: {done.scorer} ({done.team}){assists}"
            f"{_when(done.period, done.clock)}")
    if done.counts:
        text = f"{head}. Recorded."
    else:
        text = f"{head} is recorded as **disallowed**: {done.reason}."
        for minor in done.minors:
            text += f"\nA {minor.minutes}-minute minor is assessed to {minor.player}: penalty #{minor.penalty_id}."
        if done.no_minor:
            text += "\nThis league's list of penalties has no minor for it: none is assessed."
    game = done.game
    text += f"\nGoals recorded so far: {game.home} {done.tally[0]}, {game.away} {done.tally[1]}."
    return clip(text, 2000)


def removed_text(done: GoalRemoved) -> str:
    text = f"Goal #{done.id} in `{done.game.code}` ({done.scorer}, {done.team}) is taken back (kept on record, marked)."
    if done.had_minor:
        text += " The minor it brought stands: it was called."
    return clip(text + f"\nGoals recorded now: {done.game.home} {done.tally[0]}, {done.game.away} {done.tally[1]}.",
                2000)


async def goal_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The named game's goals still on record, newest first."""
    caller = suggesting_for(interaction)
    game = getattr(interaction.namespace, "game", None)
    if caller is None or not isinstance(game, str) or not game.strip():
        return []
    found = await bot_of(interaction).services.goals.choices(caller, game[:64], str(current)[:100])
    return [app_commands.Choice(name=clip(g.label, 100), value=g.id) for g in found[:25]]


@app_commands.guild_only()
class GoalCog(commands.GroupCog, group_name="goal", group_description="Goals and assists, for the statistics."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.goals

    @app_commands.command(name="add", extras=requires(*GOAL_ROLES))
    @app_commands.describe(game="The game", team="The team that scored", scorer="Who scored",
                           assist1="The first assist", assist2="The second assist",
                           period="The period it was scored in (overtime counts on)",
                           time="Time into the period, as on the game sheet, e.g. 12:05",
                           scorer_name="Or who scored by name: a player without a Discord account",
                           assist1_name="Or the first assist by name (no Discord account)",
                           assist2_name="Or the second assist by name (no Discord account)")
    @app_commands.autocomplete(game=played_game_autocomplete, team=team_autocomplete,
                               scorer_name=accountless_autocomplete, assist1_name=accountless_autocomplete,
                               assist2_name=accountless_autocomplete)
    async def add(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                  team: app_commands.Range[str, 1, 100], scorer: discord.Member | None = None,
                  assist1: discord.Member | None = None, assist2: discord.Member | None = None,
                  period: app_commands.Range[int, 1, 10] | None = None,
                  time: app_commands.Range[str, 1, 5] | None = None, scorer_name: ManagedName | None = None,
                  assist1_name: ManagedName | None = None, assist2_name: ManagedName | None = None) -> None:
        """Record a goal and its assists (referees, timekeepers, commissioners)."""
        who = member_or_name(scorer, scorer_name, "scorer")
        assert who is not None  # required
        assists = (member_or_name(assist1, assist1_name, "first assist", required=False),
                   member_or_name(assist2, assist2_name, "second assist", required=False))
        done = await self.service.add(self.bot.caller(interaction), game, team, who, assists=assists,
                                      period=period, time=time)
        await reply(interaction, recorded_text(done), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="remove", extras=requires(*GOAL_ROLES))
    @app_commands.describe(game="The game", goal="The goal to take back, from the suggestions")
    @app_commands.autocomplete(game=played_game_autocomplete)
    @app_commands.autocomplete(goal=goal_autocomplete)
    async def remove(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                     goal: app_commands.Range[int, 1, MAX_GOAL_ID]) -> None:
        """Take back a goal recorded in error (referees, timekeepers, commissioners)."""
        done = await self.service.remove(self.bot.caller(interaction), game, goal)
        await reply(interaction, removed_text(done), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(GoalCog(bot))
