"""Build the bot from settings: engine, sessions, clock, cogs. No token and no network needed."""

from __future__ import annotations

import dataclasses
import gc
import logging
import pkgutil
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncEngine

import cogs
from bot.access import Caller
from bot.clock import Clock, SystemClock
from bot.composition import build_services
from bot.courier import Courier
from bot.errors import NoLeague, UserFacingError
from bot.scheduler import Scheduler
from bot.services.leagues import register_leagues
from bot.settings import LeagueSettings, Settings
from cogs._common import hide_commissioner_commands
from storage import migrate
from storage.db import create_engine, create_reader, session_factory

log = logging.getLogger("sideline")

#: Nothing the bot sends pings anyone unless a call opts in for a specific user.
NO_MENTIONS = discord.AllowedMentions.none()
#: A command used in a DM: the league comes from the server, and a DM has none.
IN_A_DM = "Sideline's commands work in your league's server, not in direct messages. Use them there."


def new_reference() -> str:
    return secrets.token_hex(3)


async def send_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer privately, whether or not the interaction was already answered or deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_MENTIONS)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The one place that decides what a user sees when something goes wrong."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and (
        error.__cause__ is not None
    ):
        error = error.__cause__
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


def unreadable_option(interaction: discord.Interaction, error: app_commands.TransformerError) -> str:
    """An option discord.py could not turn into what the command takes: a member option in a DM (there
    is no server to be a member of), or naming someone who isn't in the server."""
    if interaction.guild_id is None:
        return IN_A_DM
    if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
        return "That person isn't a member of this server, so I can't use them here. Pick a server member."
    return "I couldn't read one of the options you gave. Pick a value from the suggestions and try again."


class SidelineTree(app_commands.CommandTree["SidelineBot"]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


class SidelineBot(commands.Bot):
    def __init__(self, settings: Settings, *, engine: AsyncEngine | None = None,
                 clock: Clock | None = None, run_scheduler: bool = True, **kwargs: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # no privileged intents
            tree_cls=SidelineTree,
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            **kwargs,
        )
        # Its own copy: leagues set up in Discord belong to this bot, not to whoever else holds the config.
        self.settings = dataclasses.replace(settings, in_discord=dict(settings.in_discord))
        self.engine = engine or create_engine(settings.database_url)
        self.reader = create_reader(self.engine)  # SQLite: reads beside the one writer
        self.sessions = session_factory(self.engine, self.reader)
        self.clock: Clock = clock or SystemClock()
        self.league_ids: dict[int, int] = {}  # guild id -> league row id
        self.services = build_services(self.settings, self.sessions, self.clock)
        self.courier = Courier(self, self.services.outbox_kinds)
        self.scheduler = Scheduler(self, self.courier)
        self.run_scheduler = run_scheduler  # tests drive the courier by hand with a fixed clock

    async def setup_hook(self) -> None:
        await migrate.upgrade(self.engine)
        await self._register_leagues()
        for module in sorted(m.name for m in pkgutil.iter_modules(cogs.__path__)):
            if not module.startswith("_"):
                await self.load_extension(f"cogs.{module}")
        hide_commissioner_commands(self.tree)
        if self.run_scheduler:
            await self.scheduler.start()

    async def _register_leagues(self) -> None:
        """Mirror the configured leagues into the database: a renamed key keeps its server's data, and
        a config that would hand one server's data to another league stops the start (SettingsError)."""
        async with self.sessions.begin() as session:
            ids, _ = await register_leagues(session, self.settings)
        self.league_ids = {lg.guild_id: ids[lg.key] for lg in self.settings.leagues}
        self.services.setup.on_league = self.adopt_league
        await self.services.setup.load()  # leagues set up with /setup, from the database

    def adopt_league(self, league: LeagueSettings, league_id: int) -> None:
        """A league set up in Discord (at start, or just now by /setup): this server is its league's."""
        self.league_ids[league.guild_id] = league_id

    def league_of(self, guild_id: int | None) -> tuple[LeagueSettings, int]:
        if guild_id is None:
            raise NoLeague(IN_A_DM)
        league = self.settings.league_for_guild(guild_id)
        if league is None or guild_id not in self.league_ids:
            raise NoLeague("Sideline isn't set up for this server yet. A server admin can start with /setup league.")
        return league, self.league_ids[guild_id]

    def caller(self, interaction: discord.Interaction) -> Caller:
        """The caller in league terms; refuses DMs and servers without a league."""
        league, league_id = self.league_of(interaction.guild_id)
        user = interaction.user
        role_ids = frozenset(r.id for r in getattr(user, "roles", ()))
        perms = interaction.permissions  # resolved by Discord for this member and channel
        return Caller(
            discord_id=user.id,
            display_name=user.display_name,
            league=league,
            league_id=league_id,
            role_ids=role_ids,
            manages_server=bool(perms and perms.manage_guild),
        )

    def member_in(self, interaction: discord.Interaction, league_id: int) -> Caller | None:
        """The presser of a button that names its league, as a plain member of it: in a DM there is no
        server to find the league or roles from. None when no configured league has that id."""
        guild_id = next((g for g, known in self.league_ids.items() if known == league_id), None)
        league = self.settings.league_for_guild(guild_id)
        if league is None:
            return None
        user = interaction.user
        return Caller(discord_id=user.id, display_name=user.display_name, league=league, league_id=league_id)

    async def sync_commands(self) -> None:
        """Publish the commands to each configured server only (fast, and nothing global)."""
        for league in self.settings.all_leagues:
            guild = discord.Object(id=league.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to %s (%s)", len(synced), league.key, league.guild_id)

    async def close(self) -> None:
        self.scheduler.shutdown()
        await super().close()
        await self.courier.close()
        if self.reader is not None:
            await self.reader.dispose()
        await self.engine.dispose()


def freeze_startup_objects() -> None:
    """Once the bot has started: its modules, mappings and settings live as long as the process, so
    take them out of the collector's full passes, which walked every one of them (60–90 ms held on
    the event loop on the benchmark machine; bench/README.md). Not per bot: tests make hundreds."""
    gc.collect()
    gc.freeze()


def create_bot(settings: Settings, *, engine: AsyncEngine | None = None,
               clock: Clock | None = None, run_scheduler: bool = True) -> SidelineBot:
    return SidelineBot(settings, engine=engine, clock=clock, run_scheduler=run_scheduler)
