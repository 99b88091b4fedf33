"""Bring a league's Discord events and team roles up to date: when turned on, and at start."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.services.discord_sync import events as event_sync
from bot.services.discord_sync import problems, team_roles
from storage.db import retried_on_disconnect


@dataclass(frozen=True)
class Resynced:
    events_queued: int
    members_queued: int


@retried_on_disconnect
class DiscordSyncService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def turned_on(self, league: LeagueSettings, league_id: int, *, events: bool = True,
                        roles: bool = True) -> Resynced:
        """The commissioner set a feature on (``events``/``roles``: given True now, maybe again after
        fixing a permission): its problems are forgotten, so a new one is reported, and everything that
        differs is queued."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            if events:
                await problems.clear_prefix(session, league_id, event_sync.SCOPE)
            if roles:
                await problems.clear_prefix(session, league_id, team_roles.SCOPE)
            return Resynced(await event_sync.follow_games(session, league, league_id, now) if events else 0,
                            await team_roles.follow_roster(session, league, league_id, now) if roles else 0)

    async def at_start(self, league_ids: dict[int, int]) -> None:
        """Each league's events and roles that differ from its games and rosters, queued once (problems
        still reported stay parked until the commissioners fix them)."""
        now = self.clock.now()
        for league in self.settings.all_leagues:
            league_id = league_ids.get(league.guild_id)
            if league_id is None or not (league.scheduled_events or league.team_roles):
                continue
            async with self.sessions.begin() as session:
                if event_sync.SCOPE not in await problems.open_scopes(session, league_id):
                    await event_sync.follow_games(session, league, league_id, now)
                await team_roles.follow_roster(session, league, league_id, now)
