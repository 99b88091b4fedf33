"""/game referee game member: commissioners assign referees to games (relays reach them by DM).

The ``/game`` group belongs to cogs/games.py, which loads first (extensions load alphabetically);
this module adds its subcommand to that group. Without the group it falls back to its own
``/referee assign game member``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.services.messages.relays import RefereeChange
from cogs._common import GameCode, bot_of, game_autocomplete

VERBS = {"assigned": "is now a referee of", "already assigned": "was already a referee of",
         "removed": "is no longer a referee of", "not assigned": "wasn't a referee of"}


def change_text(change: RefereeChange, *, has_role: bool) -> str:
    now = ", ".join(change.referees) or "nobody"
    text = (f"{change.referee_name} {VERBS[change.action]} `{change.game_code}` ({change.game_title}). "
            f"Referees of this game now: {now}.")
    if change.action == "assigned":
        text += " Relays for this game reach them by DM too."
        if not has_role:
            text += " They don't have the league's referee role; they can still answer this game's relays."
    return clip(text, 2000)


@app_commands.describe(game="The game", member="The referee (a server member)",
                       remove="Unassign them instead")
@app_commands.autocomplete(game=game_autocomplete)
@app_commands.guild_only()
async def assign_referee(interaction: discord.Interaction, game: GameCode,
                         member: discord.Member, remove: bool = False) -> None:
    bot = bot_of(interaction)
    caller = bot.caller(interaction)
    change = await bot.services.relays.assign_referee(
        caller, game, member.id, member.display_name, remove=remove)
    role = caller.league.roles.referee
    has_role = role is not None and any(r.id == role for r in getattr(member, "roles", ()))
    await reply(interaction, change_text(change, has_role=has_role), ephemeral=True,
                allowed_mentions=NO_MENTIONS)


def referee_command(name: str) -> app_commands.Command:
    return app_commands.Command(name=name, description="Assign a referee to a game, or unassign (commissioners).",
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
