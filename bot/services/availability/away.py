"""/away: a player out for every game of their team in a range of league-local days.

The range is stored and read whenever a game is looked at (``away_marks``), so a game added or
moved into it later is covered; nothing is written per game. A range that takes a checked-in player
out of a game starting within the late drop-out window alerts the captains, as a late drop-out does.
The rules are in bot/league/availability.py.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import clean_user_text
from bot.errors import InvalidInput, NotFound
from bot.league.availability import AWAY, AvailabilityError, away_range, parse_day, status_with_away
from bot.league.calendar import Away
from bot.services.shared.guardians import managed_players, pick_managed
from storage import lookups
from storage.db import retried_on_disconnect, rowcount
from storage.models import AwayRange, CheckIn, Game

log = logging.getLogger("sideline.away")

NOTE_LIMIT = 200
#: At most this many ranges kept per player (ended ones are dropped first): a bound on what one person stores.
MAX_RANGES = 20


@dataclass(frozen=True)
class AwayMark:
    """Why a player's answer for a game reads "away": when the covering range was set, and its note."""

    since: datetime
    note: str


async def away_marks(session: AsyncSession, league_id: int, player_ids: Sequence[int],
                     starts_at: datetime) -> dict[int, AwayMark]:
    """The players (of ``player_ids``) away for a game starting at ``starts_at``: the latest covering range each."""
    if not player_ids:
        return {}
    rows = await session.execute(
        select(AwayRange.player_id, AwayRange.created_at, AwayRange.note)
        .where(AwayRange.league_id == league_id, AwayRange.player_id.in_(list(player_ids)),
               AwayRange.starts_at <= starts_at, AwayRange.ends_at > starts_at)
        .order_by(AwayRange.created_at, AwayRange.id))
    return {r.player_id: AwayMark(r.created_at, r.note) for r in rows}


@dataclass(frozen=True)
class AnswersAsRead:
    """Each player's answer for one game as every view reads it, and the away note of those it reads "away" for."""

    status: dict[int, str | None]
    notes: dict[int, str]


#: (player id, answer or None, when it was given or None): an answer for one game as stored.
GivenAnswer = tuple[int, str | None, datetime | None]


async def answers_as_read(session: AsyncSession, league_id: int, starts_at: datetime,
                          given: Iterable[GivenAnswer]) -> AnswersAsRead:
    """The one reading of check-ins against /away for a game starting at ``starts_at``: /whoisin, /lineup,
    the shootout, the reminders and the captains' alerts all ask this, so they never disagree."""
    answers = list(given)
    away = await away_marks(session, league_id, [player_id for player_id, _, _ in answers], starts_at)
    status: dict[int, str | None] = {}
    notes: dict[int, str] = {}
    for player_id, answer, answered_at in answers:
        mark = away.get(player_id)
        status[player_id] = status_with_away(answer, answered_at, mark.since if mark else None)
        if mark is not None and status[player_id] == AWAY:
            notes[player_id] = mark.note
    return AnswersAsRead(status, notes)


async def away_stretches(session: AsyncSession, league_id: int, player_id: int) -> list[Away]:
    """A player's ranges as the calendar feed leaves them out (bot/services/calendar/service.py)."""
    rows = await session.execute(select(AwayRange.starts_at, AwayRange.ends_at).where(
        AwayRange.league_id == league_id, AwayRange.player_id == player_id))
    # A range ends at the midnight after its last day: a game starting then is not in it.
    return [Away(r.starts_at, r.ends_at - timedelta(microseconds=1)) for r in rows]


async def with_away(session: AsyncSession, league_id: int, player_id: int,
                    games: Sequence[tuple[str, datetime, str | None]]) -> list[str | None]:
    """One player's answers for their games (code, start, answer), each as it reads with their away ranges."""
    if not games:
        return []
    first, last = min(g[1] for g in games), max(g[1] for g in games)
    ranges = (await session.execute(select(AwayRange.starts_at, AwayRange.ends_at, AwayRange.created_at).where(
        AwayRange.league_id == league_id, AwayRange.player_id == player_id, AwayRange.ends_at > first,
        AwayRange.starts_at <= last))).all()
    if not ranges:
        return [answer for _, _, answer in games]
    rows = await session.execute(select(Game.code, CheckIn.updated_at).join(Game, CheckIn.game_id == Game.id)
                                 .where(CheckIn.league_id == league_id, CheckIn.player_id == player_id,
                                        Game.code.in_([code for code, _, _ in games])))
    answered = {r.code: r.updated_at for r in rows}
    out = []
    for code, starts_at, answer in games:
        since = max((r.created_at for r in ranges if r.starts_at <= starts_at < r.ends_at), default=None)
        out.append(status_with_away(answer, answered.get(code), since))
    return out


@dataclass(frozen=True)
class CoveredGame:
    code: str
    starts_at: datetime
    title: str


@dataclass(frozen=True)
class AwayLine:
    """One of the caller's ranges, with their team's games in it now."""

    first_day: date
    last_day: date
    note: str
    games: tuple[CoveredGame, ...]
    player: str | None = None  # a player the caller manages (None: the caller's own range)


@dataclass(frozen=True)
class AwayCleared:
    ranges: int
    games: int
    player: str | None = None  # a player the caller manages (None: the caller's own ranges)


#: Awaited with (league_id, game_id, player_id) for each game a new range takes a checked-in player out
#: of, close to its start: the captains hear of it as of a late drop-out (bot/services/reminders/plan.py).
DropoutHook = Callable[[int, int, int], Awaitable[None]]


@retried_on_disconnect
class AwayService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *, on_late_dropout: DropoutHook,
                 late_window: timedelta) -> None:
        self.sessions = sessions
        self.clock = clock
        self.on_late_dropout = on_late_dropout
        self.late_window = late_window

    async def set(self, caller: Caller, first: str, last: str, note: str = "", player: str | None = None) -> AwayLine:
        """Mark the caller (or ``player``, whom they manage) away from ``first`` to ``last`` (league-local
        days, both included)."""
        tz = caller.league.timezone
        now = self.clock.now()
        try:
            days = away_range(parse_day(first, "from"), parse_day(last, "to"), now.astimezone(tz).date(), tz)
        except AvailabilityError as exc:
            raise InvalidInput(str(exc)) from None
        text = clean_user_text(note or "", NOTE_LIMIT).strip()
        async with self.sessions.begin() as session:
            entry = await self._entry(session, caller, player)
            await session.execute(delete(AwayRange).where(AwayRange.league_id == caller.league_id,
                                                          AwayRange.player_id == entry.player_id,
                                                          AwayRange.ends_at <= now))
            count = await session.scalar(select(func.count()).select_from(AwayRange).where(
                AwayRange.league_id == caller.league_id, AwayRange.player_id == entry.player_id)) or 0
            if count >= MAX_RANGES:
                raise InvalidInput(f"{entry.who} already {'has' if entry.name else 'have'} {count} away ranges; "
                                   "clear some with /away clear first.")
            row = AwayRange(league_id=caller.league_id, player_id=entry.player_id, first_day=days.first,
                            last_day=days.last, starts_at=days.starts_at, ends_at=days.ends_at, note=text,
                            created_at=now)
            session.add(row)
            await session.flush()
            line = replace(await self._line(session, caller, entry.team_id, row, now), player=entry.name)
            dropped = (await session.scalars(select(CheckIn.game_id).join(Game, CheckIn.game_id == Game.id).where(
                CheckIn.league_id == caller.league_id, CheckIn.player_id == entry.player_id, CheckIn.status == "in",
                Game.code.in_([g.code for g in line.games if g.starts_at - now <= self.late_window])))).all()
        for game_id in dropped:  # after the commit: the alert reads the range
            try:
                await self.on_late_dropout(caller.league_id, game_id, entry.player_id)
            except Exception:
                log.exception("late drop-out alert failed for game %s player %s", game_id, entry.player_id)
        return line

    async def list_ranges(self, caller: Caller, player: str | None = None) -> tuple[AwayLine, ...]:
        """The caller's (or their managed ``player``'s) ranges not over yet, soonest first, with the games in each."""
        now = self.clock.now()
        async with self.sessions() as session:
            entry = await self._entry(session, caller, player)
            rows = (await session.scalars(select(AwayRange).where(
                AwayRange.league_id == caller.league_id, AwayRange.player_id == entry.player_id,
                AwayRange.ends_at > now).order_by(AwayRange.starts_at, AwayRange.id))).all()
            return tuple([replace(await self._line(session, caller, entry.team_id, r, now), player=entry.name)
                          for r in rows])

    async def clear(self, caller: Caller, day: str | None = None, player: str | None = None) -> AwayCleared:
        """Remove the caller's (or their managed ``player``'s) ranges not over yet (only those covering
        ``day`` when given)."""
        now = self.clock.now()
        query = delete(AwayRange).where(AwayRange.league_id == caller.league_id, AwayRange.ends_at > now)
        if day is not None and day.strip():
            try:
                picked = parse_day(day, "from")
            except AvailabilityError as exc:
                raise InvalidInput(str(exc)) from None
            query = query.where(AwayRange.first_day <= picked, AwayRange.last_day >= picked)
        async with self.sessions.begin() as session:
            entry = await self._entry(session, caller, player)
            lines = await self._lines_for(session, caller, entry.team_id, entry.player_id, now, day)
            removed = rowcount(await session.execute(query.where(AwayRange.player_id == entry.player_id))) or 0
            return AwayCleared(removed, len({g.code for line in lines for g in line.games}), entry.name)

    async def _lines_for(self, session: AsyncSession, caller: Caller, team_id: int, player_id: int,
                         now: datetime, day: str | None) -> list[AwayLine]:
        rows = (await session.scalars(select(AwayRange).where(
            AwayRange.league_id == caller.league_id, AwayRange.player_id == player_id,
            AwayRange.ends_at > now))).all()
        if day is not None and day.strip():
            picked = parse_day(day, "from")
            rows = [r for r in rows if r.first_day <= picked <= r.last_day]
        return [await self._line(session, caller, team_id, r, now) for r in rows]

    @staticmethod
    async def _entry(session: AsyncSession, caller: Caller, player: str | None = None) -> _Entry:
        """The caller's roster place; a guardian's player's (named, or their only one when the caller
        plays on no team)."""
        managed = None
        if player is not None and player.strip():
            managed = pick_managed(await managed_players(session, caller.league_id, caller.discord_id), player)
        else:
            entry = await lookups.roster_entry(session, caller.league_id, caller.discord_id)
            if entry is not None:
                return _Entry(entry.team_id, entry.player_id)
            mine = await managed_players(session, caller.league_id, caller.discord_id)
            if len(mine) > 1:
                raise InvalidInput(f"You manage {len(mine)} players: pick whom with the player option. "
                                   "Nothing changed.")
            managed = mine[0] if mine else None
        if managed is None:
            raise NotFound(f"You're not on a team in {caller.league.name}, so there are no games to be away for.")
        if managed.team_id is None:
            raise NotFound(f"{managed.name} isn't on a team in {caller.league.name}, so there are no games to be "
                           "away for.")
        return _Entry(managed.team_id, managed.player_id, managed.name)

    @staticmethod
    async def _line(session: AsyncSession, caller: Caller, team_id: int, row: AwayRange, now: datetime) -> AwayLine:
        games: Sequence[Game] = await lookups.upcoming_games(session, caller.league_id, [team_id],
                                                             max(now, row.starts_at), limit=None)
        covered = tuple(CoveredGame(g.code, g.starts_at, f"{g.home.name} vs {g.away.name}")
                        for g in games if g.starts_at < row.ends_at)
        return AwayLine(row.first_day, row.last_day, row.note, covered)


@dataclass(frozen=True)
class _Entry:
    team_id: int
    player_id: int
    name: str | None = None  # a player the caller manages (None: the caller themselves)

    @property
    def who(self) -> str:
        return self.name or "You"
