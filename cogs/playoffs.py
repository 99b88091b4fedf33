"""/bracket show|create|seed|advance: the playoff bracket, seeded from the standings.

Winners move on automatically when a playoff game's result is entered (see bot.services.playoffs);
``/bracket advance`` is the commissioners' manual override.
"""

from __future__ import annotations

from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply, requires
from bot.discord_text import clip
from bot.services.pictures import bracket_png
from bot.services.playoffs import BracketView
from bot.services.standings import trim_name
from cogs._common import DivisionName, TeamName, bot_of, division_autocomplete, suggesting_for
from cogs._pictures import Drawing, attach, file_name

NEXT_UP_SHOWN = 8
MAX_EMBEDS = 10  # Discord's limit per message


def bracket_embed(view: BracketView, title: str = "Playoff bracket") -> discord.Embed:
    if view.division:
        title = f"{title} · {view.division}"
    embed = discord.Embed(title=clip(title, 256))
    text = view.text.replace("`", "'")
    lines = [f"```\n{clip(text, 3500)}\n```"]
    if view.scores:
        lines.append("**Scores**")
        lines += [f"`{m.matchup_id}` {m.top.team} {view.scores[m.matchup_id].text} {m.bottom.team}"
                  for r in view.bracket.rounds for m in r
                  if m.matchup_id in view.scores and m.top is not None and m.bottom is not None]
    if view.next_up:
        lines.append("**Next up**")
        lines += [f"`{m.matchup_id}` {m.teams[0]} v {m.teams[1]}"
                  for m in view.next_up[:NEXT_UP_SHOWN]]
    lines += [f"_{note}_" for note in view.notes]
    embed.description = clip("\n".join(lines), 4000)
    embed.set_footer(text="Winners move on when a playoff game's result is entered · > marks a winner")
    return embed


async def matchup_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    matchups = await bot.services.playoffs.matchups(caller, current[:100])
    return [app_commands.Choice(
        name=clip(f"{m.matchup_id}: {trim_name(m.teams[0], 40)} v {trim_name(m.teams[1], 40)}"
                  + (f" (won by {m.winner.team})" if m.winner else ""), 100),
        value=m.matchup_id) for m in matchups[:25]]


async def winner_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The two teams of the matchup picked in the same command."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    chosen = str(getattr(interaction.namespace, "matchup", "") or "").strip().upper()
    matchups = await bot.services.playoffs.matchups(caller, "")
    teams = [t.team for m in matchups if m.matchup_id == chosen for t in (m.top, m.bottom) if t is not None]
    needle = current.strip().casefold()
    return [app_commands.Choice(name=clip(t, 100), value=t[:100]) for t in teams if needle in t.casefold()]


@app_commands.guild_only()
class BracketCog(commands.GroupCog, group_name="bracket", group_description="The playoff bracket."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.playoffs

    @app_commands.command(name="show", extras=answers(publicly_when="public", writes=False))
    @app_commands.describe(public="Show it to the whole channel (default: only you)",
                           picture="Add a picture of the bracket, easier to read on a phone (the text stays)")
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, public: bool = False, picture: bool = False) -> None:
        """The current playoff bracket, also as an image (picture:True)."""
        views = await self.service.show(self.bot.caller(interaction))
        shown = views[:MAX_EMBEDS]
        attached = await attach(interaction, [
            Drawing(file_name(f"bracket-{v.division}" if v.division else "bracket", "bracket"),
                    f"Playoff bracket{' of ' + v.division if v.division else ''} as a picture; the same bracket "
                    "is in the text of this message.", partial(bracket_png, v))
            for v in shown] if picture else [])
        await reply(interaction, attached.note, embeds=[bracket_embed(v) for v in shown], files=attached.files,
                    ephemeral=not public, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="create", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(teams="How many teams make the playoffs (2-16; top seeds get byes), per division; "
                                 "leave it out where every team qualifies",
                           replace="Replace the existing bracket (its recorded winners are dropped)",
                           division="Only this division's bracket (where the rules draw divisions apart)")
    @app_commands.autocomplete(division=division_autocomplete)
    @app_commands.guild_only()
    async def create(self, interaction: discord.Interaction, teams: app_commands.Range[int, 2, 16] | None = None,
                     replace: bool = False, division: DivisionName | None = None) -> None:
        """Seed a bracket from the standings (commissioners)."""
        views = await self.service.create(self.bot.caller(interaction), teams, replace=replace, division=division)
        await reply(
            interaction,
            embeds=[bracket_embed(v, f"Playoff bracket: {len(v.bracket.seeds)} teams seeded")
                    for v in views[:MAX_EMBEDS]],
            ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="seed", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(teams="The teams level on every seeding criterion, best seed first, e.g. Tigers, Lions")
    @app_commands.guild_only()
    async def seed(self, interaction: discord.Interaction, teams: app_commands.Range[str, 3, 500]) -> None:
        """Order teams level on every seeding criterion (commissioners)."""
        done = await self.service.seed(self.bot.caller(interaction), teams)
        if done.view is None:
            await reply(interaction, done.note, ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        await reply(interaction, done.note, embed=bracket_embed(done.view), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="advance", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(matchup="The matchup, e.g. R1-M2", winner="The team that won it")
    @app_commands.autocomplete(matchup=matchup_autocomplete, winner=winner_autocomplete)
    @app_commands.guild_only()
    async def advance(self, interaction: discord.Interaction, matchup: app_commands.Range[str, 1, 100],
                      winner: TeamName) -> None:
        """Record a matchup's winner by hand (commissioners)."""
        change = await self.service.advance(self.bot.caller(interaction), matchup, winner)
        await reply(interaction, change.note, embed=bracket_embed(change.view), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(BracketCog(bot))
