"""Upcoming games for a team, and finding games by the id people type."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.errors import Conflict, NotFound
from bot.league.game_status import Change, GameStateError, GameStatus, after
from bot.services.availability.away import with_away
from bot.services.checkins.queries import GameSides, game_sides
from bot.services.people import membership, resolve_team_ref
from storage.models import Game
from storage.repos import core
from storage.text import printable


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


async def find_game(session: AsyncSession, caller: Caller, code: str) -> Game:
    game = await core.game_by_code(session, caller.league_id, code)
    if game is None:
        raise no_such_game(caller, code)
    return game


async def lock_game(session: AsyncSession, caller: Caller, code: str) -> Game:
    """The game, read afresh with its row locked until the transaction ends: every command that
    changes a game's state starts with this, so two at the same moment act one after the other and
    the second sees what the first did (PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises)."""
    game = await core.game_by_code(session, caller.league_id, code, for_update=True)
    if game is None:
        raise no_such_game(caller, code)
    return game


def check_change(game: Game, change: Change) -> GameStatus:
    """The game's state after ``change`` (``bot.league.game_status``), or a Conflict saying why not."""
    try:
        return after(game.status, change, game.code)
    except GameStateError as exc:
        raise Conflict(exc.message) from None


async def find_game_sides(session: AsyncSession, caller: Caller, code: str) -> GameSides:
    """The game as plain columns, for commands that only read it (/whoisin, /lineup)."""
    game = await game_sides(session, caller.league_id, code)
    if game is None:
        raise no_such_game(caller, code)
    return game


def no_such_game(caller: Caller, code: str) -> NotFound:
    code = printable(code)  # the refusal repeats it: no control characters in a reply
    return NotFound(f"There's no game “{code.strip()[:64]}” in {caller.league.name}. Pick one from the suggestions.")


class ScheduleService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def upcoming(self, caller: Caller, team_name: str | None, limit: int = 10) -> ScheduleView:
        async with self.sessions() as session:
            member = await membership(session, caller)
            team = await resolve_team_ref(session, caller, team_name, member)
            player_id = member.player_id if member.team_id == team.id else None
            rows = await core.team_schedule(session, caller.league_id, team.id, self.clock.now(), limit, player_id)
            answers = [r.answer for r in rows] if player_id is None else await with_away(
                session, caller.league_id, player_id, [(r.code, r.starts_at, r.answer) for r in rows])
            return ScheduleView(team.name, tuple(GameLine(r.code, r.starts_at, r.home, r.away, r.venue, r.kind,
                                                          r.status, answer) for r, answer in zip(rows, answers,
                                                                                                 strict=True)))

    async def autocomplete_games(self, caller: Caller, text: str, *, mine_only: bool = False) -> list[Game]:
        async with self.sessions() as session:
            team_ids = None
            if mine_only:
                member = await membership(session, caller)
                ids = set(member.captain_of) | ({member.team_id} if member.team_id else set())
                team_ids = list(ids) if ids else None
            since = self.clock.now().replace(hour=0, minute=0, second=0, microsecond=0)
            return list(await core.search_games(session, caller.league_id, since, text, team_ids))
