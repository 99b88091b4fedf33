"""Glue shared by the cogs: the caller, how long typed options may be, autocomplete for games and teams;
the privileged markers (``requires``) live with the tree in bot/client/tree.py, which marks
commissioner-only commands at start."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands

from bot.access import Caller
from bot.discord_text import clip, local_label
from bot.errors import InvalidInput, NoLeague

if TYPE_CHECKING:
    from bot.client.bot import SidelineBot


# --- how long a typed option may be ------------------------------------------------------------------
# Discord refuses a value longer than an option's max_length before the bot sees it (discord.py checks
# nothing), so every string option says one, as long as what it names can be: the column that keeps it
# or the rule that reads it. tests/commands/test_command_tree.py fails on a string option without one.
#: A game id (storage/models/core.py: a game's code holds 64 characters).
GameCode = app_commands.Range[str, 1, 64]
#: A team's name (a team's, a division's and a season's name each hold 100).
TeamName = app_commands.Range[str, 1, 100]
DivisionName = app_commands.Range[str, 1, 100]
SeasonName = app_commands.Range[str, 1, 100]
#: A player's name (storage/models/core.py: a player's name holds 100).
ManagedName = app_commands.Range[str, 1, 100]


def bot_of(interaction: discord.Interaction) -> SidelineBot:
    """The bot an interaction came to: discord.py types ``Interaction.client`` as any Client unless the
    interaction is annotated with the bot's class, and every interaction here comes to a SidelineBot."""
    return cast("SidelineBot", interaction.client)


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
    names = await bot.services.schedule.autocomplete_teams(caller, current[:100])
    return [app_commands.Choice(name=clip(n, 100), value=n[:100]) for n in names[:25]]


async def division_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The league's divisions."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    names = await bot.services.standings.division_names(caller, current[:100])
    return [app_commands.Choice(name=clip(n, 100), value=n[:100]) for n in names[:25]]


async def season_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The league's seasons, newest first."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    names = await bot.services.seasons.names(caller, current[:100])
    return [app_commands.Choice(name=clip(n, 100), value=n[:100]) for n in names[:25]]


async def my_players_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The players without a Discord account the caller manages (a guardian's): nobody else's appear."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    mine = await bot_of(interaction).services.checkins.my_players(caller)
    typed = current.strip().casefold()
    return [app_commands.Choice(name=clip(m.name, 100), value=str(m.player_id))
            for m in mine if typed in m.name.casefold()][:25]


async def accountless_autocomplete(interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
    """The league's players without a Discord account: they have no member to pick."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot_of(interaction).services.roster.accountless_names(caller, current[:100])
    return [app_commands.Choice(name=clip(label, 100), value=value) for label, value in found]


def member_or_name(member: discord.abc.User | None, name: str | None, what: str,
                   required: bool = True) -> int | str | None:
    """A player picked as a member (their Discord id) or, without an account, by name; both or (when
    ``required``) neither is refused before anything changes."""
    if member is not None and name is not None:
        raise InvalidInput(f"Give the {what} as a member or by name, not both. Nothing changed.")
    if member is None and name is None and required:
        raise InvalidInput(f"Pick the {what}: a member, or by name a player without a Discord account. "
                           "Nothing changed.")
    return member.id if member is not None else name
