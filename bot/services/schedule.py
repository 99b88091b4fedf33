"""Upcoming games for a team, and finding games by the id people type."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.services.availability.away import with_away
from bot.services.people import membership, resolve_team_ref
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game


@dataclass(frozen=True)
class GameLine:
    code: str
    starts_at: datetime
    home: str
    away: str
    venue: str
    kind: str
    status: str
    my_status: str | None = None  # the caller's check-in answer, when known

    def opponent_of(self, team: str) -> str:
        return self.away if self.home == team else self.home


@dataclass(frozen=True)
class ScheduleView:
    team: str
    games: tuple[GameLine, ...]


def game_line(game: Game, my_status: str | None = None) -> GameLine:
    return GameLine(game.code, game.starts_at, game.home.name, game.away.name, game.venue,
                    game.kind, game.status, my_status)


@retried_on_disconnect
class ScheduleService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def upcoming(self, caller: Caller, team_name: str | None, limit: int = 10) -> ScheduleView:
        async with self.sessions() as session:
            member = await membership(session, caller)
            team = await resolve_team_ref(session, caller, team_name, member)
            player_id = member.player_id if member.team_id == team.id else None
            rows = await lookups.team_schedule(session, caller.league_id, team.id, self.clock.now(), limit, player_id)
            answers = [r.answer for r in rows] if player_id is None else await with_away(
                session, caller.league_id, player_id, [(r.code, r.starts_at, r.answer) for r in rows])
            return ScheduleView(team.name, tuple(GameLine(r.code, r.starts_at, r.home, r.away, r.venue, r.kind,
                                                          r.status, answer) for r, answer in zip(rows, answers,
                                                                                                 strict=True)))

    async def autocomplete_teams(self, caller: Caller, text: str) -> list[str]:
        """The league's team names that start with (or contain) what was typed, for a team option."""
        async with self.sessions() as session:
            return [t.name for t in await lookups.search_teams(session, caller.league_id, text)]

    async def autocomplete_games(self, caller: Caller, text: str, *, mine_only: bool = False) -> list[Game]:
        async with self.sessions() as session:
            team_ids = None
            if mine_only:
                member = await membership(session, caller)
                ids = set(member.captain_of) | ({member.team_id} if member.team_id else set())
                team_ids = list(ids) if ids else None
            since = self.clock.now().replace(hour=0, minute=0, second=0, microsecond=0)
            return list(await lookups.search_games(session, caller.league_id, since, text, team_ids))
