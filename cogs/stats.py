"""/stats player|leaders|team: the league's statistics (youth 2.16), and attendance for those who may see it."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply
from bot.discord_text import clip
from bot.league.stats import CATEGORY_WORDS
from bot.services.stats.service import LeadersView, PlayerView, TeamView
from bot.services.stats.tables import NAME_WIDTH, board_table, cell
from cogs._common import (
    ManagedName,
    accountless_autocomplete,
    division_autocomplete,
    member_or_name,
    season_autocomplete,
    team_autocomplete,
)

CategoryChoice = Literal["points", "goals", "assists", "pim", "gp"]


def leaders_embed(view: LeadersView) -> discord.Embed:
    scope = " · ".join(p for p in (view.league, view.season, view.division) if p)
    embed = discord.Embed(title=clip(f"{CATEGORY_WORDS[view.board.category]} leaders · {scope}", 256))
    embed.description = (board_table(view.board, view.teams) if view.board.rows
                         else "Nobody has any yet: statistics count games with a played result.")
    embed.set_footer(text="Top 10, players level share a place (T). Forfeits count nothing; shoot-out goals are "
                          "a separate statistic.")
    return embed


def player_embed(view: PlayerView) -> discord.Embed:
    s = view.stats
    title = f"{view.name}" + (f" · {view.team}" if view.team else "") + (f" · {view.season}" if view.season else "")
    embed = discord.Embed(title=clip(title, 256))
    embed.description = f"**GP** {s.gp} · **G** {s.goals} · **A** {s.assists} · **PTS** {s.points} · **PIM** {s.pim}"
    if s.so_attempts:
        embed.add_field(name="Shoot-outs (a separate statistic)",
                        value=f"{s.so_goals} goal{'s' if s.so_goals != 1 else ''} in {s.so_attempts} "
                              f"attempt{'s' if s.so_attempts != 1 else ''}", inline=False)
    if s.goalie_gp:
        embed.add_field(name="In goal", value=f"**GP** {s.goalie_gp} · **GA** {s.goals_against} · "
                                              f"**Shutouts** {s.shutouts}", inline=False)
    return embed


def team_embed(view: TeamView) -> discord.Embed:
    embed = discord.Embed(title=clip(f"{view.team} · statistics" + (f" · {view.season}" if view.season else ""), 256))
    att = view.attendance
    head = f"{cell('Player', NAME_WIDTH)} {'GP':>3} {'G':>3} {'A':>3} {'PTS':>3} {'PIM':>3}"
    head += f" {'Att':>7}" if att is not None else ""
    rows = [head]
    for line in view.lines:
        s = line.stats
        row = f"{cell(line.name, NAME_WIDTH)} {s.gp:>3} {s.goals:>3} {s.assists:>3} {s.points:>3} {s.pim:>3}"
        if att is not None:
            a = att.get(line.player_id)
            row += f" {f'{a.played}/{a.games}' if a is not None else '—':>7}"
        rows.append(row)
    t = view.totals
    rows.append(f"{cell('Team', NAME_WIDTH)} {'':>3} {t.goals:>3} {t.assists:>3} {t.points:>3} {t.pim:>3}")
    embed.description = clip("```\n" + "\n".join(rows) + "\n```", 4000)
    if att is not None:
        missed = [f"{line.name} {a.missed}" + (f" ({a.missed_without_spare} with no spare)" if a.missed_without_spare
                                               else "")
                  for line in view.lines if (a := att.get(line.player_id)) is not None and a.missed]
        embed.add_field(name="Missed games (private: the team's captains and the commissioners)",
                        value=clip(", ".join(missed) or "Nobody has missed a game.", 1024), inline=False)
        embed.set_footer(text="Att: games played of the team's games since the player joined it.")
    return embed


@app_commands.guild_only()
class StatsCog(commands.GroupCog, group_name="stats", group_description="Player statistics: goals, assists, points."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.stats

    @app_commands.command(name="player", extras=answers(writes=False))
    @app_commands.describe(member="The player; leave empty for yourself (or the one player you manage)",
                           season="An earlier season; leave empty for the current one",
                           name="Or the player by name: one without a Discord account")
    @app_commands.autocomplete(season=season_autocomplete, name=accountless_autocomplete)
    async def player(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     season: app_commands.Range[str, 1, 100] | None = None, name: ManagedName | None = None) -> None:
        """A player's games, goals, assists, points and penalty minutes."""
        who = member_or_name(member, name, "player", required=False)
        view = await self.service.player(self.bot.caller(interaction), who, season)
        await reply(interaction, embed=player_embed(view), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="leaders", extras=answers(writes=False))
    @app_commands.describe(category="What to rank by (default: points)", division="One division only",
                           season="An earlier season; leave empty for the current one")
    @app_commands.autocomplete(division=division_autocomplete, season=season_autocomplete)
    async def leaders(self, interaction: discord.Interaction, category: CategoryChoice = "points",
                      division: app_commands.Range[str, 1, 100] | None = None,
                      season: app_commands.Range[str, 1, 100] | None = None) -> None:
        """The league's top 10 in a category, ties shown as ties."""
        view = await self.service.leaders(self.bot.caller(interaction), category, division, season)
        await reply(interaction, embed=leaders_embed(view), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="team", extras=answers(writes=False))
    @app_commands.describe(team="The team", season="An earlier season; leave empty for the current one")
    @app_commands.autocomplete(team=team_autocomplete, season=season_autocomplete)
    async def team(self, interaction: discord.Interaction, team: app_commands.Range[str, 1, 100],
                   season: app_commands.Range[str, 1, 100] | None = None) -> None:
        """A team's players' statistics; attendance for its captains and commissioners."""
        view = await self.service.team(self.bot.caller(interaction), team, season)
        await reply(interaction, embed=team_embed(view), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(StatsCog(bot))
