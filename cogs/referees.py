"""/game referee game member [role]: commissioners assign a game's officials, its referee (relays reach them
by DM) or its timekeeper (youth 2.2).

The ``/game`` group belongs to cogs/games.py, which loads first (extensions load alphabetically);
this module adds its subcommand to that group. Without the group it falls back to its own
``/referee assign game member``.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.services.messages.relays import RefereeChange
from cogs._common import GameCode, bot_of, game_autocomplete

VERBS = {"assigned": "is now a {role} of", "already assigned": "was already a {role} of",
         "removed": "is no longer a {role} of", "not assigned": "wasn't a {role} of",
         "switched": "is now a {role} of"}
Official = Literal["referee", "timekeeper"]


def change_text(change: RefereeChange, *, has_role: bool) -> str:
    verb = VERBS[change.action].format(role=change.role)
    text = (f"{change.referee_name} {verb} `{change.game_code}` ({change.game_title}). "
            f"Referees of this game now: {', '.join(change.referees) or 'nobody'}.")
    if change.timekeepers or change.role == "timekeeper":
        text += f" Timekeepers: {', '.join(change.timekeepers) or 'nobody'}."
    if change.action == "switched":
        text += f" (They were its {'timekeeper' if change.role == 'referee' else 'referee'}: one role per game.)"
    if change.action in ("assigned", "switched") and change.role == "referee":
        text += " Relays for this game reach them by DM too."
        if not has_role:
            text += " They don't have the league's referee role; they can still answer this game's relays."
    elif change.action in ("assigned", "switched") and not has_role:
        text += " They don't have the league's timekeeper role."
    return clip(text, 2000)


@app_commands.describe(game="The game", member="The official (a server member)",
                       remove="Unassign them instead",
                       role="Referee (the default) or timekeeper, the second official (youth 2.2)")
@app_commands.autocomplete(game=game_autocomplete)
@app_commands.guild_only()
async def assign_referee(interaction: discord.Interaction, game: GameCode,
                         member: discord.Member, remove: bool = False, role: Official = "referee") -> None:
    bot = bot_of(interaction)
    caller = bot.caller(interaction)
    change = await bot.services.relays.assign_referee(
        caller, game, member.id, member.display_name, remove=remove, role=role)
    league_role = caller.league.roles.referee if role == "referee" else caller.league.roles.timekeeper
    has_role = league_role is not None and any(r.id == league_role for r in getattr(member, "roles", ()))
    await reply(interaction, change_text(change, has_role=has_role), ephemeral=True,
                allowed_mentions=NO_MENTIONS)


def referee_command(name: str) -> app_commands.Command:
    return app_commands.Command(name=name,
                                description="Assign a referee or timekeeper to a game, or unassign (commissioners).",
                                callback=assign_referee, extras=requires(Role.COMMISSIONER))


async def setup(bot: SidelineBot) -> None:
    group = bot.tree.get_command("game")
    if isinstance(group, app_commands.Group):
        group.add_command(referee_command("referee"))
        return
    fallback = app_commands.Group(name="referee", description="Referee assignments.", guild_only=True)
    fallback.add_command(referee_command("assign"))
    bot.tree.add_command(fallback)


async def teardown(bot: SidelineBot) -> None:
    group = bot.tree.get_command("game")
    if isinstance(group, app_commands.Group):
        group.remove_command("referee")
    bot.tree.remove_command("referee")
