"""Check-ins (in / out / maybe), who is in, and the lineup check captains run before a game.

Choices the spec leaves open, decided here:
- Only players on the roster of a team in the game check in, for a game not yet started,
  cancelled or final. Captains and commissioners don't check in for others.
- A suspended player may not answer "in" or "maybe"; "out" is always accepted (it is true).
- A late drop-out is a switch from "in" to "out" less than 24 h before the start. The result says
  so and every ``LATE_DROPOUT_HOOKS`` callable is awaited after the answer is saved.
- Writes are one upsert per (game, player): concurrent answers are each recorded exactly once and
  the last write wins.
- On SQLite, this process's check-in writes queue in an asyncio lock before taking the database's
  write lock: SQLite's busy handler is not fair, and in a burst (a reminder goes out, everyone
  presses In) a waiter could otherwise time out with "database is locked".
- Check-ins carry no team: a player's answers count for the team they are on now, so a player
  removed from the roster simply drops out of the lineup.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.lineup import CheckedInPlayer, LineupReport, check_lineup, lineup_rules_for
from bot.league.vocabulary import CHECKIN_STATUSES
from bot.services.checkin_queries import checkins_for_game
from bot.services.eligibility import active_suspension_reason
from bot.services.people import Membership, is_captain_of, membership, resolve_team
from bot.services.schedule import find_game
from storage.models import CheckIn, Game, Team
from storage.repos import core

log = logging.getLogger("sideline.checkins")

#: A switch from "in" to "out" this close to the start is a late drop-out.
LATE_DROPOUT_WINDOW = timedelta(hours=24)

LateDropoutHook = Callable[[int, int, int], Awaitable[None]]
#: Awaited with (league_id, game_id, player_id) after a late drop-out is saved; the reminders
#: feature appends here to alert captains. A failing hook is logged; the check-in stands.
LATE_DROPOUT_HOOKS: list[LateDropoutHook] = []


@dataclass(frozen=True)
class GameRef:
    """A game as the replies name it."""

    code: str
    starts_at: datetime
    home: str
    away: str
    venue: str
    status: str

    @property
    def title(self) -> str:
        return f"{self.home} vs {self.away}"


def game_ref(game: Game) -> GameRef:
    return GameRef(game.code, game.starts_at, game.home.name, game.away.name, game.venue, game.status)


@dataclass(frozen=True)
class CheckInResult:
    game: GameRef
    team: str
    player: str
    status: str
    previous: str | None
    late_dropout: bool

    @property
    def changed(self) -> bool:
        return self.previous != self.status


@dataclass(frozen=True)
class AttendanceLine:
    name: str
    goalie: bool


@dataclass(frozen=True)
class Attendance:
    """A team's answers for one game; names and positions only, never gender."""

    game: GameRef
    team: str
    going: tuple[AttendanceLine, ...]
    out: tuple[AttendanceLine, ...]
    maybe: tuple[AttendanceLine, ...]
    no_reply: tuple[AttendanceLine, ...]


@dataclass(frozen=True)
class TeamLineup:
    """One team's check-ins for a game and the rules check on them (captains, commissioners)."""

    game: GameRef
    team: str
    report: LineupReport
    checked_in: tuple[CheckedInPlayer, ...]
    maybe: tuple[str, ...]
    no_reply: int
    roster_size: int


def _insert_for(session: AsyncSession) -> Any:
    """The dialect's INSERT, which has ON CONFLICT DO UPDATE."""
    name = session.bind.dialect.name if session.bind is not None else session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert
    if name == "sqlite":
        return sqlite.insert
    raise RuntimeError(f"check-ins need an upsert; database {name!r} is not supported")


async def record_checkin(session: AsyncSession, *, league_id: int, game_id: int, player_id: int,
                         status: str, now: datetime) -> str | None:
    """Upsert one answer (last write wins) and return the answer it replaced, if any.

    The answer replaced is exact under concurrency: an existing row is locked before it is read
    (SQLite's BEGIN IMMEDIATE already serialises writers), and when there is none yet, an INSERT
    that does nothing on conflict either creates it or waits for the concurrent creator to commit.
    """
    current = select(CheckIn.status).where(CheckIn.game_id == game_id, CheckIn.player_id == player_id)
    previous = await session.scalar(current.with_for_update())
    insert = _insert_for(session)
    values = {"league_id": league_id, "game_id": game_id, "player_id": player_id, "status": status,
              "updated_at": now}
    if previous is None:
        created = await session.scalar(
            insert(CheckIn).values(**values).on_conflict_do_nothing(
                index_elements=[CheckIn.game_id, CheckIn.player_id]).returning(CheckIn.id)
        )
        if created is not None:
            return None
        previous = await session.scalar(current.with_for_update())
    stmt = insert(CheckIn).values(**values)
    stmt = stmt.on_conflict_do_update(
        index_elements=[CheckIn.game_id, CheckIn.player_id],
        set_={"status": stmt.excluded.status, "updated_at": stmt.excluded.updated_at},
    )
    await session.execute(stmt)
    return previous


async def forget_checkins(session: AsyncSession, league_id: int, player_id: int) -> int:
    """Delete every answer a player gave in a league; returns how many."""
    result = await session.execute(
        delete(CheckIn).where(CheckIn.league_id == league_id, CheckIn.player_id == player_id)
    )
    return result.rowcount or 0


_sqlite_write_queues: weakref.WeakKeyDictionary[Any, asyncio.Lock] = weakref.WeakKeyDictionary()


def _write_queue(sessions: async_sessionmaker[AsyncSession]) -> contextlib.AbstractAsyncContextManager[Any]:
    """A FIFO queue for check-in writes on a SQLite engine; nothing on PostgreSQL (row locks suffice)."""
    engine = sessions.kw.get("bind")
    if engine is None or engine.dialect.name != "sqlite":
        return contextlib.nullcontext()
    lock = _sqlite_write_queues.get(engine.sync_engine)
    if lock is None:
        lock = _sqlite_write_queues[engine.sync_engine] = asyncio.Lock()
    return lock


async def _notify_late_dropout(league_id: int, game_id: int, player_id: int) -> None:
    for hook in list(LATE_DROPOUT_HOOKS):
        try:
            await hook(league_id, game_id, player_id)
        except Exception:
            log.exception("late drop-out hook %r failed for game %s player %s", hook, game_id, player_id)


class CheckInService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def check_in(self, caller: Caller, status: str, game_code: str | None = None) -> CheckInResult:
        """Record the caller's answer for a game (their team's next game when none is named)."""
        if status not in CHECKIN_STATUSES:
            raise InvalidInput(f"Answer one of: {', '.join(CHECKIN_STATUSES)}.")
        async with _write_queue(self.sessions), self.sessions.begin() as session:
            now = self.clock.now()
            member = await membership(session, caller)
            game = await self._game(session, caller, member, game_code, now)
            entry = member.entry
            if entry is None or entry.team_id not in game.team_ids():
                raise NotAllowed(f"Only players on {game.home.name} or {game.away.name} can check in for "
                                 f"{game.code}. Ask your captain if you should be on the roster.")
            _require_open(game, now)
            if status != "out":
                reason = await active_suspension_reason(session, caller.league_id, entry.player_id, game.id)
                if reason:
                    raise NotAllowed(f"You can't check in for {game.code}: {reason}")
            previous = await record_checkin(session, league_id=caller.league_id, game_id=game.id,
                                            player_id=entry.player_id, status=status, now=now)
            team = game.home if game.home_team_id == entry.team_id else game.away
            late = previous == "in" and status == "out" and game.starts_at - now <= LATE_DROPOUT_WINDOW
            result = CheckInResult(game_ref(game), team.name, entry.player.name, status, previous, late)
            ids = (caller.league_id, game.id, entry.player_id)
        if result.late_dropout:
            await _notify_late_dropout(*ids)
        return result

    async def who_is_in(self, caller: Caller, game_code: str | None = None) -> Attendance:
        """The caller's team's answers for a game: in, out, maybe, no reply."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            if member.team_id is None and not member.captain_of:
                raise NotFound("You're not on a team in this league, so there's no team to list. "
                               "Ask your captain to add you.")
            team = await resolve_team(session, caller, None, member)
            game = await self._game(session, caller, member, game_code, self.clock.now(), team=team)
            if team.id not in game.team_ids():
                raise NotAllowed(f"{game.code} is {game.home.name} vs {game.away.name}, not a {team.name} "
                                 "game. /whoisin shows your own team's answers.")
            roster = await core.roster(session, caller.league_id, team.id)
            answers = {c.player_id: c.status for c in await checkins_for_game(session, caller.league_id, game.id)}
            groups: dict[str | None, list[AttendanceLine]] = {s: [] for s in (*CHECKIN_STATUSES, None)}
            for e in roster:
                groups[answers.get(e.player_id)].append(AttendanceLine(e.player.name, e.position == "goalie"))
            return Attendance(game_ref(game), team.name, tuple(groups["in"]), tuple(groups["out"]),
                              tuple(groups["maybe"]), tuple(groups[None]))

    async def lineup(self, caller: Caller, game_code: str | None = None) -> tuple[TeamLineup, ...]:
        """The rules check for the caller's team in a game (both teams for a commissioner)."""
        if not (caller.is_commissioner or caller.has_captain_role):
            raise NotAllowed("Only a team's captain or a commissioner can check a lineup. "
                             "/whoisin shows who is coming.")
        async with self.sessions() as session:
            member = await membership(session, caller)
            if game_code is None and caller.is_commissioner and member.team_id is None and not member.captain_of:
                raise InvalidInput("Name the game to check (pick one from the suggestions).")
            game = await self._game(session, caller, member, game_code, self.clock.now())
            teams = [t for t in (game.home, game.away) if caller.is_commissioner or is_captain_of(caller, member, t.id)]
            if not teams:
                raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name}, or a commissioner, "
                                 f"can check the lineup for {game.code}.")
            return tuple([await self._team_lineup(session, caller, game, team) for team in teams])

    async def _team_lineup(self, session: AsyncSession, caller: Caller, game: Game, team: Team) -> TeamLineup:
        division = team.division.name if team.division else None
        try:
            rules = lineup_rules_for(caller.league.rules.lineup, division)
        except ValueError:
            raise Conflict(f"{team.name}'s division “{division}” has no court size in the league's rules "
                           "(rules.court_sizes_by_division); a commissioner needs to fix the config.") from None
        roster = {e.player_id: e for e in await core.roster(session, caller.league_id, team.id)}
        players: list[CheckedInPlayer] = []
        maybe: list[str] = []
        answered: set[int] = set()
        for checkin in await checkins_for_game(session, caller.league_id, game.id):
            entry = roster.get(checkin.player_id)
            if entry is None:
                continue  # the other team's answer, or someone no longer on a roster here
            answered.add(checkin.player_id)
            if checkin.status == "maybe":
                maybe.append(entry.player.name)
            if checkin.status != "in":
                continue
            suspended = await active_suspension_reason(session, caller.league_id, entry.player_id, game.id)
            players.append(CheckedInPlayer(player_id=entry.player_id, name=entry.player.name,
                                           position=entry.position,  # type: ignore[arg-type]
                                           gender=entry.player.gender,  # type: ignore[arg-type]
                                           rostered=True, suspended=suspended is not None))
        report = check_lineup(rules, players, roster_size=len(roster))
        return TeamLineup(game_ref(game), team.name, report, tuple(players), tuple(maybe),
                          no_reply=len(roster) - len(answered), roster_size=len(roster))

    async def _game(self, session: AsyncSession, caller: Caller, member: Membership, code: str | None,
                    now: datetime, *, team: Team | None = None) -> Game:
        """The named game, or the next one for the caller's team."""
        if code is not None and code.strip():
            return await find_game(session, caller, code)
        if team is None:
            team = await resolve_team(session, caller, None, member)
        games = await core.upcoming_games(session, caller.league_id, [team.id], now, limit=1)
        if not games:
            raise NotFound(f"{team.name} has no upcoming games. Name a game to pick one.")
        return games[0]


def _require_open(game: Game, now: datetime) -> None:
    if game.status == "cancelled":
        raise Conflict(f"{game.code} ({game.home.name} vs {game.away.name}) was cancelled; "
                       "there's nothing to check in for.")
    if game.status == "final" or game.starts_at <= now:
        raise Conflict(f"{game.code} ({game.home.name} vs {game.away.name}) has already "
                       f"{'been played' if game.status == 'final' else 'started'}; check-ins are closed.")
