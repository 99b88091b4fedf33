"""Glue shared by the cogs: the caller, autocomplete for games and teams, privileged markers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.access import Caller, Role
from bot.discord_text import clip, local_label
from bot.errors import NoLeague
from storage.repos import core

if TYPE_CHECKING:
    from bot.app import SidelineBot

#: Name of the ``extras`` key that records who may use a command (read by the permission tests).
REQUIRES = "requires"


def requires(*roles: Role) -> dict[str, Any]:
    """``extras`` for a privileged command: who may use it (services enforce it server-side)."""
    return {REQUIRES: tuple(r.value for r in roles)}


def commissioner_only(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> bool:
    """Every subcommand requires the commissioner role and nothing else: the mark ``requires`` leaves."""
    leaves = list(command.walk_commands()) if isinstance(command, app_commands.Group) else [command]
    leaves = [c for c in leaves if isinstance(c, app_commands.Command)]
    return bool(leaves) and all(c.extras.get(REQUIRES) == (Role.COMMISSIONER.value,) for c in leaves)


def hide_commissioner_commands(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Commissioner-only commands carry ``default_member_permissions`` (Manage Server), so players don't
    see them in the picker; a server admin can grant them to a role under Integrations. Roles are
    still checked server-side (bot/access.py). Returns the names it marked."""
    marked = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Command | app_commands.Group) and commissioner_only(command):
            if command.default_permissions is None:
                command.default_permissions = discord.Permissions(manage_guild=True)
            marked.append(command.name)
    return marked


def bot_of(interaction: discord.Interaction) -> SidelineBot:
    return interaction.client  # type: ignore[return-value]


def suggesting_for(interaction: discord.Interaction) -> Caller | None:
    """Who an autocomplete suggests for; None outside a league's server (then it suggests nothing)."""
    try:
        return bot_of(interaction).caller(interaction)
    except NoLeague:
        return None


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Suggest games as "Sat 7 Dec 19:00 · Hawks vs Owls", filling in the game id."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    games = await bot.services.schedule.autocomplete_games(caller, current[:100])
    tz = caller.league.timezone
    return [
        app_commands.Choice(
            name=clip(f"{local_label(g.starts_at, tz)} · {g.home.name} vs {g.away.name} ({g.code})", 100),
            value=g.code[:100],
        )
        for g in games[:25]
    ]


async def team_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    async with bot.sessions() as session:
        teams = await core.search_teams(session, caller.league_id, current[:100])
    return [app_commands.Choice(name=clip(t.name, 100), value=t.name[:100]) for t in teams[:25]]
