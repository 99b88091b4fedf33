"""The command tree and its reply helpers: what a user sees when a command or a button goes wrong.

Cogs import these from here, not from the module that builds the bot (bot/run/app.py), so the bot's
assembly and the commands it loads don't import each other; the same way Red keeps its tree apart
from its bot (``redbot/core/tree.py``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot import logs, metrics
from bot.access import Role
from bot.client.deadline import Acknowledge, DeadlineGuard
from bot.config.settings import Settings
from bot.discord_text import fit_content, fit_embeds
from bot.errors import UserFacingError
from storage.db import is_disconnect

log = logging.getLogger("sideline")

#: Nothing the bot sends pings anyone unless a call opts in for a specific user.
NO_MENTIONS = discord.AllowedMentions.none()
#: A command used in a DM: the league comes from the server, and a DM has none.
IN_A_DM = "Sideline's commands work in your league's server, not in direct messages. Use them there."


def new_reference() -> str:
    return secrets.token_hex(3)


def guard_of(interaction: discord.Interaction[Any]) -> DeadlineGuard | None:
    """The deadline guard of the tree the interaction came through (None on a bare client)."""
    tree = getattr(interaction.client, "tree", None)
    return tree.deadline if isinstance(tree, SidelineTree) else None


async def _claim(interaction: discord.Interaction[Any]) -> Acknowledge | None:
    guard = guard_of(interaction)
    return await guard.claim(interaction) if guard is not None else None


async def reply(interaction: discord.Interaction[Any], content: str | None = None, *, ephemeral: bool = False,
                embed: discord.Embed | None = None, embeds: Sequence[discord.Embed] | None = None,
                view: discord.ui.View | None = None, file: discord.File | None = None,
                files: Sequence[discord.File] = (),
                allowed_mentions: discord.AllowedMentions = NO_MENTIONS) -> None:
    """The one way Sideline answers an interaction, fast or slow: the response itself; or, once the
    deadline guard (bot/client/deadline.py) or the command deferred it, that response filled in; or
    after it, a followup. The user reads the same message every way."""
    attached = [*([file] if file is not None else []), *files]
    content, embed, embeds = within_limits(interaction, content, embed, embeds)
    parts: dict[str, Any] = {name: value for name, value in (("content", content), ("embed", embed),
                                                             ("embeds", embeds), ("view", view)) if value is not None}
    deferred = await _claim(interaction)
    if deferred in (Acknowledge.PRIVATELY, Acknowledge.PUBLICLY):
        if (deferred is Acknowledge.PRIVATELY) == ephemeral:
            attachments: dict[str, Any] = {"attachments": attached} if attached else {}
            await interaction.edit_original_response(**parts, **attachments, allowed_mentions=allowed_mentions)
            forget(view)
            return
        # deferred as the other kind (a refusal of a public answer): the answer replaces the placeholder
        await interaction.delete_original_response()
    if attached:
        parts["files"] = attached
    if interaction.response.is_done():
        await interaction.followup.send(**parts, ephemeral=ephemeral, allowed_mentions=allowed_mentions)
    else:
        await interaction.response.send_message(**parts, ephemeral=ephemeral, allowed_mentions=allowed_mentions)
    forget(view)


def within_limits(interaction: discord.Interaction[Any], content: str | None, embed: discord.Embed | None,
                  embeds: Sequence[discord.Embed] | None,
                  ) -> tuple[str | None, discord.Embed | None, Sequence[discord.Embed] | None]:
    """The last guard before Discord: an answer longer than Discord takes (2,000 characters of text;
    an embed's own limits and 6,000 characters in all) is clipped rather than refused, which would
    leave the user with no answer at all. What repeats the user's text clips it first
    (``bot.discord_text.quote``), so this only trims what nobody foresaw; it says so in the log."""
    fitted = fit_content(content) if content is not None else None
    given = [embed] if embed is not None else list(embeds or ())
    dicts: list[dict[str, Any]] = [dict(e.to_dict()) for e in given]
    fitted_dicts = fit_embeds(dicts) if dicts else dicts
    if fitted == content and fitted_dicts == dicts:
        return content, embed, embeds
    command = f"/{interaction.command.qualified_name}" if interaction.command else "a button or form"
    log.warning("the answer to %s was longer than Discord takes: clipped", command)
    new = [discord.Embed.from_dict(d) for d in fitted_dicts]
    if embed is not None:
        return fitted, new[0], embeds
    return fitted, None, (new if embeds is not None else None)


def forget(view: discord.ui.View | None) -> None:
    """Sideline's buttons and selects are DynamicItems, answered from their custom_id alone (so they
    work after a restart): the view needn't stay in discord.py's store, which keeps an ephemeral
    message's view 15 minutes, each with a task of its own."""
    if view is not None and all(isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable()
                                for item in view.walk_children()):
        view.stop()


async def update(interaction: discord.Interaction[Any], content: str | None = None, *,
                 embeds: Sequence[discord.Embed] | None = None, view: discord.ui.View | None = None,
                 allowed_mentions: discord.AllowedMentions = NO_MENTIONS) -> None:
    """A button's or select's answer that rewrites the message it is on (without ``view``, its
    components go), directly or after the guard deferred it."""
    content, _, embeds = within_limits(interaction, content, None, embeds)
    parts: dict[str, Any] = {"content": content} if content is not None else {}
    if embeds is not None:
        parts["embeds"] = embeds
    deferred = await _claim(interaction)
    if deferred is not None or interaction.response.is_done():
        await interaction.edit_original_response(**parts, view=view, allowed_mentions=allowed_mentions)
    else:
        await interaction.response.edit_message(**parts, view=view, allowed_mentions=allowed_mentions)
    forget(view)


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = True) -> None:
    """For work known to be slow (a file to read, a message to post): "thinking…" now, unless the
    guard already showed it; the answer then goes by ``reply``."""
    deferred = await _claim(interaction)
    if deferred is None and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        deferred = Acknowledge.PRIVATELY if ephemeral else Acknowledge.PUBLICLY
    guard = guard_of(interaction)
    if guard is not None and deferred is not None:
        guard.deferred(interaction, deferred)


async def send_ephemeral(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer privately, whether or not the interaction was already answered or deferred."""
    await reply(interaction, content, ephemeral=True)


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
    elif is_disconnect(error):  # lost twice in a row (the services run a call again once): say so, kindly
        ref = new_reference()
        log.warning("database connection lost (ref %s) in %s by %s", ref,
                    interaction.command.qualified_name if interaction.command else "component", interaction.user.id,
                    exc_info=error)
        text = (f"Sorry, I lost my connection to the league's records just then (ref {ref}). "
                "Please try again in a moment.")
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
                                  name: str | None = None, *,
                                  acknowledge: Acknowledge = Acknowledge.PRIVATELY) -> None:
    """Run a component's answer; discord.py only logs what a button or form raises, so route it to the
    user like a command's error. Its log lines carry the interaction's ids, as a command's do. Metrics
    count it as ``component:<name>`` (the item's class; by default the answer's function). The
    deadline guard watches it as a writer (buttons and forms record answers), deferring it as
    ``acknowledge`` says."""
    recorder = metrics.of(interaction.client)
    recorder.interaction_started(interaction.id, f"{interaction.type.name}:{name or _named(answer)}")
    guard = guard_of(interaction)
    if guard is not None:
        guard.watch(interaction, acknowledge, writes=True)
    with logs.bound(**interaction_ids(interaction)):
        data: dict[str, object] = dict(interaction.data or {})
        log.debug("%s %s", interaction.type.name, data.get("custom_id"))
        try:
            await answer(interaction)
        except Exception as error:
            await report_error(interaction, error)
        finally:
            recorder.interaction_finished(interaction.id)
            if guard is not None:
                guard.release(interaction)


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
        await answer_reporting_errors(interaction, self.answer, type(self).__name__,
                                      acknowledge=self.acknowledgement())

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError

    def acknowledgement(self) -> Acknowledge:
        """How the deadline guard may defer a press: by default its answer is a private message."""
        return Acknowledge.PRIVATELY


class SidelineTree(app_commands.CommandTree[Any]):
    """The one global error handler for slash commands and their autocomplete, and the deadline guard
    every command, button and form is watched by."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self.deadline = DeadlineGuard()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Runs first for every command and autocomplete, in the task discord.py gives that interaction
        alone: binding its ids here puts them on every line its work logs (bot/logs.py), errors too."""
        logs.bind(**interaction_ids(interaction))
        if interaction.command is not None and log.isEnabledFor(logging.DEBUG):  # its words only when logged
            log.debug("%s /%s", interaction.type.name, interaction.command.qualified_name)
        if interaction.type is not discord.InteractionType.application_command:
            return True  # an autocomplete answers with its suggestions or not at all: nothing to defer
        recorder = metrics.of(self.client)
        how, writes = acknowledgement(interaction)
        self.deadline.watch(interaction, how, writes=writes)
        name = interaction.command.qualified_name if interaction.command is not None else "(unknown)"
        recorder.interaction_started(interaction.id, name)

        def finished(_: object) -> None:  # once the task discord.py runs it in ends: after its answer or error's
            recorder.interaction_finished(interaction.id)
            self.deadline.release(interaction)

        task = asyncio.current_task()
        if task is not None:
            task.add_done_callback(finished)
        if (interaction.guild_id is None and interaction.type is discord.InteractionType.application_command
                and interaction.command is not None and needs_a_server(interaction.command)):
            # Discord never sends these from a DM; a forged one is refused before any option is read.
            raise app_commands.NoPrivateMessage(IN_A_DM)
        return True

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


#: Names of the ``extras`` keys that say how a command answers (``answers``), for the deadline guard.
PUBLICLY_WHEN, WRITES, OPENS_FORM = "publicly_when", "writes", "opens_form"


def answers(*, publicly_when: str | None = None, writes: bool = True, opens_form: bool = False) -> dict[str, Any]:
    """``extras`` for a command whose answer is public when its option ``publicly_when`` is true
    (else every answer is private), or that only reads (``writes=False``): while the bot is busy,
    commands that write are deferred at once, those that only read when their deadline nears.
    ``opens_form``: its answer is a form, which Discord takes only as the first response."""
    return {PUBLICLY_WHEN: publicly_when, WRITES: writes, OPENS_FORM: opens_form}


def acknowledgement(interaction: discord.Interaction[Any]) -> tuple[Acknowledge, bool]:
    """How a slash command may be deferred, and whether it writes, from its ``answers`` extras."""
    extras = interaction.command.extras if interaction.command is not None else {}
    if extras.get(OPENS_FORM):
        return Acknowledge.NEVER, False
    option = extras.get(PUBLICLY_WHEN)
    public = option is not None and getattr(interaction.namespace, option, None) is True
    return (Acknowledge.PUBLICLY if public else Acknowledge.PRIVATELY), bool(extras.get(WRITES, True))


def needs_a_server(command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu) -> bool:
    """The command (or its group) is offered on servers only, so a DM use of it is not Discord's."""
    root = command.root_parent if isinstance(command, app_commands.Command) else None
    contexts = command.allowed_contexts or (root.allowed_contexts if root is not None else None)
    return contexts is not None and not (contexts.dm_channel or contexts.private_channel)


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
