"""/help: what the caller can do here, by league role, with their next game first; and a welcome on joining.

The list comes from the live command tree: a command's ``requires`` (cogs/_common.py) says who may
use it, so a new command shows up under the right role without touching this file.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Caller, Role
from bot.client.bot import SidelineBot
from bot.client.tree import REQUIRES
from bot.discord_text import clip, timestamp
from bot.errors import NoLeague, UserFacingError

log = logging.getLogger("sideline")
QUIET = discord.AllowedMentions.none()
START = ("Sideline isn't set up on this server yet. Someone with Manage Server starts with "
         "`/setup league preset: name: timezone:`, then `/setup roles`, `/setup channels` and `/setup team`.")
WELCOME = ("👋 Thanks for adding Sideline! An admin (Manage Server) sets the league up here with "
           "`/setup league`; then `/help` shows everyone what they can do.")
EMBED_TOTAL = 5800  # Discord's limit is 6,000 characters over a message's embeds
HEADINGS = {Role.PLAYER: "Everyone", Role.CAPTAIN: "Captains", Role.REFEREE: "Referees",
            Role.COMMISSIONER: "Commissioners"}
# What an option's example looks like, by name, then by Discord option type.
EXAMPLE_BY_NAME = {"game": "G1", "team": "Tigers", "home": "Tigers", "away": "Lions", "status": "in",
                   "preset": "coed-ball-hockey", "timezone": "America/Toronto", "key": "roster_limit",
                   "starts_at": "2030-01-10 19:00", "message": "…", "reason": "…", "name": "…"}
EXAMPLE_BY_TYPE = {6: "@member", 8: "@role", 7: "#channel", 9: "@member", 4: "2", 10: "2", 5: "True",
                   11: "file.csv"}


def leaf_commands(tree: app_commands.CommandTree[Any]) -> list[app_commands.Command[Any, ..., Any]]:
    out: list[app_commands.Command[Any, ..., Any]] = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Group):
            out += [c for c in command.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(command, app_commands.Command):
            out.append(command)
    return sorted(out, key=lambda c: c.qualified_name)


def example(command: app_commands.Command[Any, ..., Any]) -> str:
    parts = [f"/{command.qualified_name}"]
    for p in command.parameters:
        if p.required:
            parts.append(f"{p.display_name}:{EXAMPLE_BY_NAME.get(p.name, EXAMPLE_BY_TYPE.get(p.type.value, '…'))}")
    return " ".join(parts)


def roles_of(caller: Caller) -> list[Role]:
    held = [Role.PLAYER]
    held += [Role.CAPTAIN] if caller.has_captain_role else []
    held += [Role.REFEREE] if caller.is_referee else []
    held += [Role.COMMISSIONER] if caller.is_commissioner else []
    return held


def sections(tree: app_commands.CommandTree[Any], held: list[Role]) -> list[tuple[Role, list[str]]]:
    """Per role the caller holds, the commands first open to that role (so none repeats)."""
    shown: set[str] = set()
    out = []
    for role in held:
        lines = []
        for command in leaf_commands(tree):
            needs = command.extras.get(REQUIRES, ())
            if command.qualified_name in shown or (needs and role.value not in needs) or (
                    not needs and role is not Role.PLAYER):
                continue
            shown.add(command.qualified_name)
            lines.append(f"`{example(command)}` · {command.description}")
        if lines:
            out.append((role, lines))
    return out


class HelpCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        try:
            caller = self.bot.caller(interaction)
        except NoLeague as exc:
            text = START if interaction.guild_id is not None else exc.message
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=QUIET)
            return
        try:
            view = await self.bot.services.schedule.upcoming(caller, None, limit=1)
        except UserFacingError:
            view = None  # not on a team
        head = f"Your role here: {', '.join(HEADINGS[r].lower() for r in roles_of(caller))}."
        if view is not None and view.games:
            g = view.games[0]
            head = (f"**Your next game:** {timestamp(g.starts_at)} · {g.home} vs {g.away} · `{g.code}` "
                    f"(`/checkin status:in game:{g.code}`)\n{head}")
        title, head = clip(f"{caller.league.name}: what you can do", 256), clip(head, 1000)
        embeds = [discord.Embed(title=title, description=head)]
        budget = EMBED_TOTAL - len(title) - len(head)
        for role, lines in sections(self.bot.tree, roles_of(caller)):
            if budget < 200:
                break
            text = clip("\n".join(lines), min(4000, budget - len(HEADINGS[role])))
            budget -= len(text) + len(HEADINGS[role])
            embeds.append(discord.Embed(title=HEADINGS[role], description=text))
        await interaction.response.send_message(embeds=embeds, ephemeral=True, allowed_mentions=QUIET)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """What you can do here, with your next game first."""
        try:
            self.bot.tree.copy_global_to(guild=guild)
            await self.bot.tree.sync(guild=guild)
        except discord.HTTPException:
            log.warning("could not publish the commands to server %s", guild.id, exc_info=True)
        channel = guild.system_channel
        if channel is None or guild.me is None or not channel.permissions_for(guild.me).send_messages:
            return
        try:
            await channel.send(WELCOME, allowed_mentions=QUIET)
        except discord.HTTPException:
            log.warning("could not welcome server %s", guild.id, exc_info=True)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(HelpCog(bot))
