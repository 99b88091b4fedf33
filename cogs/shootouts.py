"""/shootout submit|check|suggest|floor|record: shootout orders for captains, attempts for referees."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.errors import UserFacingError
from bot.services.shootouts.orders import OrderCheck, SubmittedOrder, SuggestedOrder
from bot.services.shootouts.scoring import AttemptRecorded, AttemptUndone, FloorMarked
from cogs._common import GameCode, TeamName, bot_of, game_autocomplete, team_autocomplete
from cogs.results import STANDINGS_CHANGED

Names = app_commands.Range[str, 1, 1000]
LIMIT = 2000


def _numbered(names: tuple[str, ...]) -> str:
    return "\n".join(f"{i}. {name}" for i, name in enumerate(names, 1))


def _notes(notes: tuple[str, ...]) -> str:
    return "".join(f"\nℹ️ {n}" for n in notes)


def submitted_text(s: SubmittedOrder) -> str:
    verb = "Replaced" if s.replaced else "Saved"
    return clip(f"{verb} {s.team}'s shootout order for `{s.game.code}` ({s.game.title}):\n{_numbered(s.shooters)}\n"
                f"It's private to {s.team}'s captains and the game's referees until the first attempt."
                + _notes(s.notes), LIMIT)


def check_text(c: OrderCheck) -> str:
    lines = [f"**Shootout orders · `{c.game.code}` ({c.game.title})**"]
    if c.score:
        lines.append(f"Shootout so far: {c.score}.")
    for team in c.teams:
        if team.hidden:
            lines.append(f"\n**{team.team}**: private until the shootout starts.")
            continue
        if not team.submitted:
            lines.append(f"\n**{team.team}**: no order submitted yet.")
            continue
        when = f" (submitted {timestamp(team.submitted_at, 'R')})" if team.submitted_at else ""
        lines.append(f"\n**{team.team}**{when}:\n{_numbered(team.shooters)}")
        if team.problems:
            lines.append("⚠️ Not legal as things stand now:\n" + "\n".join(f"• {p}" for p in team.problems))
        else:
            lines.append("✅ Legal as things stand now.")
    return clip("\n".join(lines) + _notes(c.notes), LIMIT)


def suggested_text(s: SuggestedOrder) -> str:
    return clip(f"A legal order for {s.team} in `{s.game.code}` ({s.game.title}):\n{_numbered(s.shooters)}\n"
                f"Nothing is saved yet. To submit it:\n```\n{s.command}\n```" + _notes(s.notes), LIMIT)


def floor_text(f: FloorMarked) -> str:
    teams = "\n".join(f"**{team}**: {', '.join(names)}" for team, names in f.teams)
    return clip(f"On the floor at the end of overtime in `{f.game.code}` ({f.game.title}):\n{teams}\n"
                "Only these players may shoot." + _notes(f.notes), LIMIT)


def attempt_text(a: AttemptRecorded) -> str:
    outcome = "scored ✅" if a.scored else "missed ❌"
    text = f"Attempt {a.seq} in `{a.game.code}`: {a.shooter} ({a.team}) {outcome}. Shootout: {a.score}"
    if a.decided:
        text += f". **{a.winner} win the shootout.**\nResult entered: {a.result}. Standings are updated."
    elif a.next_team:
        text += f"; {a.next_team} shoot next."
    text += "".join(f"\n⚠️ {w}" for w in a.warnings)
    return clip(text, LIMIT)


def undone_text(u: AttemptUndone) -> str:
    outcome = "scored" if u.scored else "missed"
    text = f"Took back attempt {u.seq} in `{u.game.code}`: {u.shooter} ({u.team}) {outcome}. Shootout: {u.score}"
    if u.next_team:
        text += f"; {u.next_team} shoot next."
    else:
        text += ". No attempt is left: the next one starts the shootout again (with tied_at)."
    return clip(text, LIMIT)


async def shooter_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The game's eligible shooters, the team due to shoot first (referees only)."""
    bot = bot_of(interaction)
    game = getattr(interaction.namespace, "game", None)
    if not game:
        return []
    try:
        choices = await bot.services.shootout_scoring.shooter_choices(
            bot.caller(interaction), str(game), current[:100])
    except UserFacingError:
        return []
    return [app_commands.Choice(name=clip(c.label, 100), value=c.value[:100]) for c in choices]


@app_commands.guild_only()
class ShootoutCog(commands.GroupCog, group_name="shootout", group_description="Shootout orders and attempts."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.orders = bot.services.shootout_orders
        self.scoring = bot.services.shootout_scoring

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        await reply(interaction, text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="submit", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(game="The game", shooters="Shooters in order: names or mentions, separated by commas",
                           team="Commissioners: whose order (captains submit their own team's)",
                           goalie="Your goalie for the shootout (checked where the goalie may not change)")
    @app_commands.autocomplete(game=game_autocomplete, team=team_autocomplete)
    @app_commands.guild_only()
    async def submit(self, interaction: discord.Interaction, game: GameCode, shooters: Names,
                     team: TeamName | None = None, goalie: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Submit your team's shootout order, checked against the rules."""
        result = await self.orders.submit(self.bot.caller(interaction), game, shooters, team, goalie)
        await self._reply(interaction, submitted_text(result))

    @app_commands.command(name="check", extras=requires(Role.CAPTAIN, Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def check(self, interaction: discord.Interaction, game: GameCode) -> None:
        """The stored shootout orders and what is wrong with them now."""
        result = await self.orders.check(self.bot.caller(interaction), game)
        await self._reply(interaction, check_text(result))

    @app_commands.command(name="suggest", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(game="The game", preferred="Shooters you want first, in order, separated by commas",
                           team="Commissioners: which team (captains get their own team's)")
    @app_commands.autocomplete(game=game_autocomplete, team=team_autocomplete)
    @app_commands.guild_only()
    async def suggest(self, interaction: discord.Interaction, game: GameCode, preferred: Names | None = None,
                      team: TeamName | None = None) -> None:
        """Propose a legal shootout order for your team (nothing saved)."""
        result = await self.orders.suggest(self.bot.caller(interaction), game, preferred, team)
        await self._reply(interaction, suggested_text(result))

    @app_commands.command(name="floor", extras=requires(Role.CAPTAIN, Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game", players="Players on the floor: names or mentions, separated by commas")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def floor(self, interaction: discord.Interaction, game: GameCode, players: Names) -> None:
        """Mark who was on the floor at the end of overtime (indoor soccer)."""
        result = await self.scoring.mark_floor(self.bot.caller(interaction), game, players)
        await self._reply(interaction, floor_text(result))

    @app_commands.command(name="record", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game", shooter="Who shot (pick from the list, or type a name)",
                           scored="Whether the shot went in",
                           tied_at="First attempt only: each team's goals after overtime (3 for a 3-3 tie)")
    @app_commands.autocomplete(game=game_autocomplete, shooter=shooter_autocomplete)
    @app_commands.guild_only()
    async def record(self, interaction: discord.Interaction, game: GameCode, shooter: app_commands.Range[str, 1, 100],
                     scored: bool, tied_at: app_commands.Range[int, 0, 99] | None = None) -> None:
        """Record one shootout attempt (referees and commissioners)."""
        result = await self.scoring.record(self.bot.caller(interaction), game, shooter, scored, tied_at)
        await self._reply(interaction, attempt_text(result))
        if result.decided:
            self.bot.dispatch(STANDINGS_CHANGED, interaction.guild_id)


    @app_commands.command(name="undo", extras=requires(Role.REFEREE, Role.COMMISSIONER))
    @app_commands.describe(game="The game")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction, game: GameCode) -> None:
        """Take back the last attempt of an undecided shootout (referees and commissioners)."""
        result = await self.scoring.undo_last(self.bot.caller(interaction), game)
        await self._reply(interaction, undone_text(result))


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ShootoutCog(bot))
