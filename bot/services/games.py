"""Commissioners add, move and cancel games; reminders follow every change.

Choices the spec leaves open, decided here:
- Times are typed as ``YYYY-MM-DD HH:MM`` in the league's time zone (as in the games CSV); a time the
  clocks skip is refused, an ambiguous one (the repeated hour in the autumn) is the first of the two.
- A new game's id, when none is given, is ``G<n>``: the first free number after the game count.
- Only scheduled games move or cancel; a cancelled game stays cancelled (add a new game instead).
  Both lock the game's row first (``lock_game``) and check ``bot.league.game_status``, so a move,
  a cancellation and a result typed at the same moment act one after the other.
- Moving a game re-times its pending reminders and tells both teams the new time; cancelling drops
  them and tells both teams once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import quote
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.local_time import parse_local_time
from bot.league.vocabulary import GAME_KINDS
from bot.services.discord_sync import events
from bot.services.reminders import plan as reminders
from bot.services.schedule import GameLine, game_line
from bot.services.shared.games import check_change, lock_game
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game, Team

CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
VENUE_LIMIT = 200


@dataclass(frozen=True)
class GameChange:
    """What a /game command did: the game as it is now, and what happened to its messages."""

    action: str  # "added" | "moved" | "cancelled"
    game: GameLine
    previous_starts_at: datetime | None = None
    reminders_planned: int = 0
    reminders_moved: int = 0
    reminders_dropped: int = 0
    teams_told: int = 0


def parse_game_time(value: str, caller: Caller, now: datetime) -> datetime:
    """A league-local ``YYYY-MM-DD HH:MM`` in the future, as UTC."""
    tz = caller.league.timezone
    try:
        when = parse_local_time(value.strip(), tz)
    except ValueError as exc:
        raise InvalidInput(f"The start time {exc}. Write it as YYYY-MM-DD HH:MM, {tz.key} time.") from None
    if when <= now:
        raise InvalidInput(f"{value.strip()} ({tz.key}) is in the past; a game needs a start time ahead.")
    return when


def revise(game: Game, now: datetime) -> None:
    """A change calendars must pick up (time, status): a higher SEQUENCE replaces their copy (RFC 5545)."""
    game.sequence = (game.sequence or 0) + 1
    game.revised_at = now


@retried_on_disconnect
class GameService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def add(self, caller: Caller, *, home: str, away: str, starts_at: str, venue: str = "",
                  kind: str = "regular", code: str | None = None) -> GameChange:
        """Schedule a new game and plan its reminders."""
        caller.require(Role.COMMISSIONER)
        now = self.clock.now()
        when = parse_game_time(starts_at, caller, now)
        if kind not in GAME_KINDS:
            raise InvalidInput(f"The kind of game is one of: {', '.join(GAME_KINDS)}.")
        venue = venue.strip()
        if len(venue) > VENUE_LIMIT or any(ord(ch) < 32 for ch in venue):
            raise InvalidInput(f"The venue must be plain text of at most {VENUE_LIMIT} characters.")
        if code is not None and code.strip() and not CODE.fullmatch(code.strip()):
            raise InvalidInput("A game id is 1-32 letters, digits, dots, dashes or underscores (like G12).")
        async with self.sessions.begin() as session:
            home_team = await self._team(session, caller, home)
            away_team = await self._team(session, caller, away)
            if home_team.id == away_team.id:
                raise InvalidInput("A game needs two different teams.")
            code = code.strip() if code and code.strip() else await self._free_code(session, caller.league_id)
            if await lookups.game_by_code(session, caller.league_id, code) is not None:
                raise Conflict(f"There's already a game `{code}`. Pick another id or leave it empty.")
            game = Game(league_id=caller.league_id, code=code, home_team_id=home_team.id,
                        away_team_id=away_team.id, starts_at=when, venue=venue, kind=kind, status="scheduled",
                        revised_at=now)
            session.add(game)
            await session.flush()
            await session.refresh(game, ["home", "away"])
            plan = await reminders.plan_game(session, caller.league, game, now)
            await events.follow_game(session, caller.league, game, now)
            return GameChange("added", game_line(game), reminders_planned=plan.created)

    async def move(self, caller: Caller, code: str, starts_at: str) -> GameChange:
        """Give a game a new start time; its reminders follow and both teams are told."""
        caller.require(Role.COMMISSIONER)
        now = self.clock.now()
        when = parse_game_time(starts_at, caller, now)
        async with self.sessions.begin() as session:
            game = await lock_game(session, caller, code)
            check_change(game, "move")
            if game.starts_at == when:
                raise Conflict(f"`{game.code}` already starts at that time; nothing changed.")
            previous = game.starts_at
            game.starts_at = when
            revise(game, now)
            await session.flush()
            plan = await reminders.plan_game(session, caller.league, game, now)
            told = await reminders.notify_teams(session, caller.league, game, "moved", now)
            await events.follow_game(session, caller.league, game, now)
            return GameChange("moved", game_line(game), previous_starts_at=previous,
                              reminders_planned=plan.created, reminders_moved=plan.moved,
                              reminders_dropped=plan.dropped, teams_told=told)

    async def cancel(self, caller: Caller, code: str) -> GameChange:
        """Cancel a game: no more reminders, and each team is told once."""
        caller.require(Role.COMMISSIONER)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await lock_game(session, caller, code)
            game.status = check_change(game, "cancel")
            revise(game, now)
            await session.flush()
            plan = await reminders.plan_game(session, caller.league, game, now)
            told = await reminders.notify_teams(session, caller.league, game, "cancelled", now)
            await events.follow_game(session, caller.league, game, now)
            return GameChange("cancelled", game_line(game), reminders_dropped=plan.dropped, teams_told=told)

    @staticmethod
    async def _team(session: AsyncSession, caller: Caller, name: str) -> Team:
        team = await lookups.team_by_name(session, caller.league_id, name)
        if team is None:
            raise NotFound(f"There's no team called “{quote(name)}” in {caller.league.name}. "
                           "Pick one from the suggestions.")
        return team

    @staticmethod
    async def _free_code(session: AsyncSession, league_id: int) -> str:
        codes = set((await session.scalars(select(Game.code).where(Game.league_id == league_id))).all())
        n = len(codes) + 1
        while f"G{n}" in codes:
            n += 1
        return f"G{n}"
