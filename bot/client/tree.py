"""The command tree and its reply helpers: what a user sees when a command or a button goes wrong.

Cogs import these from here, not from the module that builds the bot (bot/run/app.py), so the bot's
assembly and the commands it loads don't import each other; the same way Red keeps its tree apart
from its bot (``redbot/core/tree.py``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot import logs, metrics
from bot.access import Role
from bot.config.settings import Settings
from bot.errors import UserFacingError

log = logging.getLogger("sideline")

#: Nothing the bot sends pings anyone unless a call opts in for a specific user.
NO_MENTIONS = discord.AllowedMentions.none()
#: A command used in a DM: the league comes from the server, and a DM has none.
IN_A_DM = "Sideline's commands work in your league's server, not in direct messages. Use them there."


def new_reference() -> str:
    return secrets.token_hex(3)


async def send_ephemeral(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer privately, whether or not the interaction was already answered or deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_MENTIONS)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one place that decides what a user sees when something goes wrong."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and (
        error.__cause__ is not None
    ):
        error = error.__cause__
    refused = isinstance(error, UserFacingError | app_commands.CheckFailure | app_commands.TransformerError)
    metrics.of(interaction.client).interaction_outcome(interaction.id, metrics.REFUSED if refused else metrics.ERROR)
    if isinstance(error, UserFacingError):
        text = error.message
    elif isinstance(error, app_commands.CheckFailure):
        text = str(error) or "You can't use that command here."
    elif isinstance(error, app_commands.TransformerError):
        text = unreadable_option(interaction, error)
    else:
        ref = new_reference()
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error("unhandled error (ref %s) in %s by %s", ref, command, interaction.user.id,
                  exc_info=error)
        text = f"Sorry, something went wrong on our side (ref {ref}). The league admins can look it up."
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id, exc_info=True)


def unreadable_option(interaction: discord.Interaction[Any], error: app_commands.TransformerError) -> str:
    """An option discord.py could not turn into what the command takes: a member option in a DM (there
    is no server to be a member of), or naming someone who isn't in the server."""
    if interaction.guild_id is None:
        return IN_A_DM
    if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        return "That person isn't a member of this server, so I can't use them here. Pick a server member."
    return "I couldn't read one of the options you gave. Pick a value from the suggestions and try again."


async def answer_reporting_errors(interaction: discord.Interaction[Any],
                                  answer: Callable[[discord.Interaction[Any]], Awaitable[None]],
                                  name: str | None = None) -> None:
    """Run a component's answer; discord.py only logs what a button or form raises, so route it to the
    user like a command's error. Its log lines carry the interaction's ids, as a command's do. Metrics
    count it as ``component:<name>`` (the item's class; by default the answer's function)."""
    recorder = metrics.of(interaction.client)
    recorder.interaction_started(interaction.id, f"{interaction.type.name}:{name or _named(answer)}")
    with logs.bound(**interaction_ids(interaction)):
        data: dict[str, object] = dict(interaction.data or {})
        log.debug("%s %s", interaction.type.name, data.get("custom_id"))
        try:
            await answer(interaction)
        except Exception as error:
            await report_error(interaction, error)
        finally:
            recorder.interaction_finished(interaction.id)


def _named(answer: Callable[..., object]) -> str:
    """A bounded name for metrics: ``handle_answer`` for ``handle_answer.<locals>.answer``."""
    return getattr(answer, "__qualname__", "answer").split(".")[0]


def interaction_ids(interaction: discord.Interaction[Any]) -> dict[str, object]:
    """What a log line says about where it came from: server, league (its key) and interaction."""
    settings = getattr(interaction.client, "settings", None)
    league = settings.league_for_guild(interaction.guild_id) if isinstance(settings, Settings) else None
    return {"guild_id": interaction.guild_id, "league": league.key if league else None,
            "interaction_id": interaction.id}


class ReportingItem:
    """Base of every button Sideline answers: its ``answer`` runs with errors reported to the presser.

    Put it first among a ``discord.ui.DynamicItem``'s bases, so this ``callback`` is the one used.
    """

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_reporting_errors(interaction, self.answer, type(self).__name__)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class SidelineTree(app_commands.CommandTree[Any]):
    """The one global error handler for slash commands and their autocomplete."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Runs first for every command and autocomplete, in the task discord.py gives that interaction
        alone: binding its ids here puts them on every line its work logs (bot/logs.py), errors too."""
        logs.bind(**interaction_ids(interaction))
        if interaction.command is not None:
            log.debug("%s /%s", interaction.type.name, interaction.command.qualified_name)
        recorder = metrics.of(self.client)
        if recorder.enabled and interaction.type is discord.InteractionType.application_command:
            # Counted once the task discord.py runs it in ends: after the command, or its error's answer.
            name = interaction.command.qualified_name if interaction.command is not None else "(unknown)"
            recorder.interaction_started(interaction.id, name)
            task = asyncio.current_task()
            if task is not None:
                task.add_done_callback(lambda _: recorder.interaction_finished(interaction.id))
        return True

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


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
