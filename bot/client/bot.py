"""The bot the cogs are loaded into: engine, sessions, clock, services, courier and scheduler, built
from settings. No token and no network needed. bot/run/app.py hands it the cogs and the check-in buttons."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import metrics
from bot.access import Caller
from bot.client.forms import Forms
from bot.client.tree import IN_A_DM, NO_MENTIONS, SidelineTree, hide_commissioner_commands
from bot.clock import Clock, SystemClock
from bot.composition import build_services
from bot.config.settings import ENVIRONMENT, LeagueSettings, Settings
from bot.delivery.courier import CheckInView, Courier
from bot.delivery.scheduler import Scheduler
from bot.errors import NoLeague
from bot.services.leagues import register_leagues
from storage import migrate
from storage.db import create_engine, create_reader, session_factory

if TYPE_CHECKING:
    from bot.web.feed_server import FeedServer
    from bot.web.metrics_server import MetricsServer, PrometheusRecorder

log = logging.getLogger("sideline")

# The bot never joins voice: no "PyNaCl is not installed" (or davey) warning at every start.
discord.VoiceClient.warn_nacl = False
if hasattr(discord.VoiceClient, "warn_dave"):
    discord.VoiceClient.warn_dave = False


class SyncRefused(Exception):
    """Discord refused to publish the commands to a configured server (the bot isn't in it, or was
    invited without the applications.commands scope)."""

    def __init__(self, guild_id: int, league: str, reason: str) -> None:
        super().__init__(f"server {guild_id} (league {league}): {reason}")
        self.guild_id, self.league, self.reason = guild_id, league, reason


class SidelineBot(commands.Bot):
    """``extensions`` are the cogs to load and ``checkin_view`` makes the In / Out / Maybe buttons the
    courier attaches to reminders; both come from the composition root (``bot.run.app.create_bot``), so
    the bot needs nothing from the cogs it loads.

    Sharded (``settings.shards``, bot/config/shards.py) it is a ``ShardedSidelineBot``: this class on
    discord.py's ``AutoShardedBot``, connecting exactly the shards it was given. Unsharded it stays
    a plain ``commands.Bot``, as before sharding existed: one gateway connection with no shard field
    and no extra lookup of Discord's recommended shard count. Either way every line of Sideline is
    here, one code path; ``owns`` tells what the gateway sends this process.
    """

    def __init__(self, settings: Settings, *, extensions: Sequence[str], checkin_view: CheckInView,
                 engine: AsyncEngine | None = None, clock: Clock | None = None, run_scheduler: bool = True,
                 **kwargs: Any) -> None:
        recorder = _recorder(settings)
        if recorder is not None:
            kwargs["http_trace"] = recorder.http_trace()  # each answer Discord gives, timed and counted
        if settings.shards.sharded:  # discord.py's public AutoShardedBot options
            kwargs.update(shard_ids=list(settings.shards.here), shard_count=settings.shards.count)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # no privileged intents
            tree_cls=SidelineTree,
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            **kwargs,
        )
        self.metrics: metrics.Recorder = recorder or metrics.OFF  # the tree and the scheduler count here
        # Its own copy: leagues set up in Discord belong to this bot, not to whoever else holds the config.
        self.settings = dataclasses.replace(settings, in_discord=dict(settings.in_discord))
        self.engine = engine or create_engine(settings.database_url)
        self.reader = create_reader(self.engine)  # SQLite: reads beside the one writer
        self.sessions = session_factory(self.engine, self.reader)
        self.clock: Clock = clock or SystemClock()
        self.league_ids: dict[int, int] = {}  # guild id -> league row id
        self.services = build_services(self.settings, self.sessions, self.clock)
        self.courier = Courier(self, self.services.outbox_kinds, checkin_view=checkin_view)
        self.scheduler = Scheduler(self, self.courier, self.metrics)
        self.run_scheduler = run_scheduler  # tests drive the courier by hand with a fixed clock
        self.extensions_to_load = tuple(extensions)
        self.forms = Forms(self)  # the features' forms, taken back by one listener (bot/client/forms.py)
        # The calendar feed server, when [bot] calendar_port is set: started with the bot, stopped with it;
        # the Prometheus endpoint, when [bot] metrics_port is set, the same. Both share one cap on
        # connections (bot/web/listener.py).
        self.feed_server: FeedServer | None = None
        self.metrics_server: MetricsServer | None = None
        serves_metrics = recorder is not None and settings.metrics_port is not None
        if self.settings.calendar_server is not None or serves_metrics:
            from bot.web.listener import Connections  # aiohttp's web server (2 MB) only where something is served

            connections = Connections(settings.http)
        if self.settings.calendar_server is not None:
            from bot.web.feed_server import FeedServer

            self.feed_server = FeedServer(self.settings.calendar_server, self.services.calendar, connections,
                                          pages=self.services.league_page)
        if recorder is not None and settings.metrics_port is not None:
            from bot.web.metrics_server import MetricsServer

            self.metrics_server = MetricsServer(settings.metrics_host, settings.metrics_port, recorder,
                                                sessions=self.sessions, clock=self.clock,
                                                totals=lambda: self.courier.totals, connections=connections)
        self._said_ready = False

    async def setup_hook(self) -> None:
        async with migrate.one_start_at_a_time(self.engine):  # PostgreSQL: shards starting together
            before, after = await migrate.upgrade(self.engine)
            if before != after:
                log.info("database migrated from %s to %s", before or "empty", after)
            await self._register_leagues()
        for extension in self.extensions_to_load:
            await self.load_extension(extension)
        hide_commissioner_commands(self.tree)
        if self.run_scheduler:
            await self.scheduler.start()
        if self.feed_server is not None:
            await self.feed_server.start()
        if self.metrics_server is not None:
            await self.metrics_server.start()

    async def _register_leagues(self) -> None:
        """Mirror the configured leagues into the database: a renamed key keeps its server's data, and
        a config that would hand one server's data to another league stops the start (SettingsError)."""
        async with self.sessions.begin() as session:
            ids, _ = await register_leagues(session, self.settings)
        self.league_ids = {lg.guild_id: ids[lg.key] for lg in self.settings.leagues}
        self.services.setup.on_league = self.adopt_league
        await self.services.setup.load()  # leagues set up with /setup, from the database
        await self.services.discord_sync.at_start(self.league_ids)  # events and team roles that differ
        await self.services.official_notices.at_start(self.league_ids)  # games planned before the notices were
        await self.services.weekly_stats.at_start(self.league_ids)  # each league's next weekly statistics post
        await self.services.late_starts.at_start(self.league_ids)  # games planned before the prompts were

    def adopt_league(self, league: LeagueSettings, league_id: int) -> None:
        """A league set up in Discord (at start, or just now by /setup): this server is its league's."""
        self.league_ids[league.guild_id] = league_id

    def owns(self, guild_id: int) -> bool:
        """The gateway sends this process the server's events: its shard runs here (always, unsharded)."""
        return self.settings.shards.owns(guild_id)

    async def refresh_leagues(self, guild_ids: Collection[int] | None = None) -> None:
        """Read again the leagues set up in Discord on servers of other processes' shards (all of them,
        or those of ``guild_ids``): their /setup runs in those processes, while this one sends their
        queued messages and, running shard 0, gets every DM (a button pressed in a reminder DM). A
        process keeps its own servers' leagues current itself. Unsharded, every server is its own."""
        if self.settings.shards.all_here:
            return
        others = None if guild_ids is None else [g for g in guild_ids if not self.owns(g)]
        if others is None or others:
            await self.services.setup.reload(others, keep=self.owns)

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

    async def member_with_roles(self, interaction: discord.Interaction, league_id: int) -> Caller | None:
        """The presser of a button in a DM, with their roles on the league's server (asked of Discord: a DM
        carries none), so a role check holds there too. None: no such league, or not a member of its server."""
        plain = self.member_in(interaction, league_id)
        if plain is None:
            return None
        try:
            member = await self.http.get_member(plain.league.guild_id, plain.discord_id)
        except discord.NotFound:
            return None
        roles = frozenset(int(r) for r in member.get("roles", ()))
        return dataclasses.replace(plain, role_ids=roles)

    async def sync_commands(self) -> None:
        """Publish the commands to each configured server only (fast, and nothing global)."""
        for league in self.settings.all_leagues:
            guild = discord.Object(id=league.guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as exc:  # 403 Missing Access: not in that server, or no commands scope
                raise SyncRefused(league.guild_id, league.key, f"{exc.status} {exc.text or 'Forbidden'}") from exc
            log.info("synced %d commands to %s (%s)", len(synced), league.key, league.guild_id)

    async def on_ready(self) -> None:
        """One line once connected: which leagues the bot serves where, and each configured server it
        isn't in (a wrong guild_id, or an invite not accepted yet) as a warning."""
        if self._said_ready:  # on_ready comes again after each reconnect
            return
        self._said_ready = True
        log.info("%s", self.ready_line())
        for line in self.missing_servers():
            log.warning("%s", line)

    def ready_line(self) -> str:
        joined = {g.id: g.name for g in self.guilds}
        served = [lg for lg in self.settings.all_leagues if lg.guild_id in joined]
        names = ", ".join(f"{lg.name} on {joined[lg.guild_id]}" for lg in served)
        shards = f", {self.settings.shards}" if self.settings.shards.sharded else ""
        return (f"ready: {len(served)} league{'s' * (len(served) != 1)} on {len(joined)} "
                f"server{'s' * (len(joined) != 1)}{shards}" + (f" ({names})" if names else ""))

    def missing_servers(self) -> list[str]:
        """Configured servers the gateway did not bring, of this process's shards only: another
        process's shards bring theirs."""
        joined = {g.id for g in self.guilds}
        return [f"league {lg.key} ({lg.name}): the bot is not in its server {lg.guild_id}; invite it with the "
                "scopes bot and applications.commands, or fix guild_id in the config"
                for lg in self.settings.leagues if lg.guild_id not in joined and self.owns(lg.guild_id)]

    async def close(self) -> None:
        if self.feed_server is not None:  # no new feed request reaches the database being closed
            await self.feed_server.stop()
        if self.metrics_server is not None:
            await self.metrics_server.stop()
        self.scheduler.shutdown()
        await super().close()
        await self.courier.close()
        if self.reader is not None:
            await self.reader.dispose()
        await self.engine.dispose()


def _recorder(settings: Settings) -> PrometheusRecorder | None:
    """The metrics' recorder when ``metrics_port`` is set (MetricsUnavailable without the extra); else
    None, and prometheus-client is never imported."""
    if settings.metrics_port is None:
        return None
    where = ENVIRONMENT["metrics_port"] if "metrics_port" in settings.from_environment else "bot.metrics_port"
    metrics.check_available(settings.metrics_port, where)
    from bot.web.metrics_server import PrometheusRecorder

    return PrometheusRecorder()


class ShardedSidelineBot(SidelineBot, commands.AutoShardedBot):
    """The same bot on discord.py's ``AutoShardedBot``, for the shards in ``settings.shards``."""
