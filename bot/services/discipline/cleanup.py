"""/cleanup missed and /cleanup withdraw: a team that didn't clear the arena after the week's last game
(youth 2.15) starts its next game with a bench minor; which game that is, bot/league/discipline/cleanup.py says.

Choices the spec leaves open, decided here:
- Referees and commissioners record it once the game has started; only a commissioner withdraws a
  mistaken record. A withdrawal keeps the row with who withdrew it, when and why: the audit.
- The minutes are the league's setting when it is recorded (kept with the record); the citation is
  the preset's (youth 2.15).
- "Their next game" is worked out whenever it is shown (the lineup, the penalty log), never stored:
  a game moved, cancelled or added in between takes the bench minor with it.
- As for other bench minors, nothing is announced to the league. The team's captains are told by DM
  (without captains, in the team's channel) which game starts with it, and again if it is withdrawn.
- Recording it a second time finds the record standing and says so: nothing is stored twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text, clip, quote, timestamp
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.discipline.cleanup import (
    MINUTES_SETTING,
    TeamGame,
    bench_minor_minutes,
    bench_minor_text,
    check_scheduled_to_clean_up,
    cited,
    next_game,
)
from bot.league.discipline.infractions import DisciplineError
from bot.services import outbox
from bot.services.discipline.core import REASON_LIMIT, refusal
from bot.services.outbox import Outgoing
from bot.services.shared.games import find_game, lock_game
from bot.services.shared.seasons import later_game_in_week
from storage import lookups
from storage.models import Game, MissedCleanup, Team
from storage.text import printable

log = logging.getLogger("sideline.discipline")

#: Later games of a team read to find "their next game" (cancelled ones are skipped).
LOOKAHEAD = 100


@dataclass(frozen=True)
class GameLine:
    """A game as a reply names it."""

    code: str
    starts_at: datetime
    home: str
    away: str

    @classmethod
    def of(cls, game: Game) -> GameLine:
        return cls(game.code, game.starts_at, game.home.name, game.away.name)

    def label(self) -> str:
        return f"{self.code} ({self.home} vs {self.away}, {timestamp(self.starts_at, 'f')})"


@dataclass(frozen=True)
class BenchMinorToServe:
    """A cleanup bench minor a team serves at the start of a game."""

    record_id: int
    team: str
    minutes: int
    missed_game: str  # the code of the game it didn't clean up after
    citation: str

    def text(self) -> str:
        return bench_minor_text(self.minutes, self.missed_game, self.citation)


@dataclass(frozen=True)
class MissedCleanupRecorded:
    id: int
    game: GameLine
    team: str
    minutes: int
    citation: str
    lands_on: GameLine | None  # None: the team has no later game yet; it waits for the next one scheduled
    already: bool  # it was on record before: nothing changed
    captains_told: bool


@dataclass(frozen=True)
class MissedCleanupWithdrawn:
    id: int
    game: GameLine
    team: str
    minutes: int
    lands_on: GameLine | None  # the game that no longer starts with it
    captains_told: bool


def cleanup_citation(league: LeagueSettings) -> str:
    return league.rules.deadlines.deadline_citations.cleanup


async def landing_game(session: AsyncSession, league_id: int, missed: Game, team_id: int) -> Game | None:
    """The team's next game after ``missed``, as the schedule stands now."""
    later = (await session.scalars(
        select(Game).where(Game.league_id == league_id, or_(Game.home_team_id == team_id, Game.away_team_id == team_id),
                           Game.starts_at > missed.starts_at)
        .order_by(Game.starts_at, Game.id).limit(LOOKAHEAD))).unique().all()
    found = next_game(TeamGame(missed.id, missed.starts_at),
                      [TeamGame(g.id, g.starts_at, g.status == "cancelled") for g in later])
    return next((g for g in later if found is not None and g.id == found.id), None)


async def bench_minors_at_start(session: AsyncSession, league: LeagueSettings, league_id: int, *, game_id: int,
                                starts_at: datetime, team_ids: Iterable[int]) -> tuple[BenchMinorToServe, ...]:
    """The cleanup bench minors the given teams serve at the start of a game (oldest record first)."""
    teams = list(team_ids)
    rows = (await session.scalars(
        select(MissedCleanup).join(Game, Game.id == MissedCleanup.game_id)
        .where(MissedCleanup.league_id == league_id, MissedCleanup.team_id.in_(teams),
               MissedCleanup.withdrawn_at.is_(None), Game.starts_at < starts_at)
        .order_by(MissedCleanup.recorded_at, MissedCleanup.id))).unique().all() if teams else []
    out = []
    for row in rows:
        lands = await landing_game(session, league_id, row.game, row.team_id)
        if lands is not None and lands.id == game_id:
            out.append(BenchMinorToServe(row.id, row.team.name, row.minutes, row.game.code, cleanup_citation(league)))
    return tuple(out)


async def export_rows(session: AsyncSession, league_id: int) -> list[dict[str, object]]:
    """Every missed cleanup of a league, oldest first, with the game its bench minor is served in as the
    schedule stands now ("" while none is scheduled, or when withdrawn), for `sideline discipline export`."""
    rows = (await session.scalars(select(MissedCleanup).where(MissedCleanup.league_id == league_id)
                                  .order_by(MissedCleanup.recorded_at, MissedCleanup.id))).unique().all()
    out: list[dict[str, object]] = []
    for row in rows:
        lands = None if row.withdrawn_at is not None else await landing_game(session, league_id, row.game, row.team_id)
        out.append({
            "id": row.id, "game": row.game.code, "game_starts_at": row.game.starts_at.isoformat(),
            "team": row.team.name, "minutes": row.minutes, "served_in": lands.code if lands is not None else "",
            "recorded_by": row.recorded_by, "recorded_at": row.recorded_at.isoformat(),
            "withdrawn_at": row.withdrawn_at.isoformat() if row.withdrawn_at is not None else "",
            "withdrawn_by": row.withdrawn_by or "", "withdrawal_note": row.withdrawal_note,
        })
    return out


def side_named(game: Game, name: str) -> Team:
    """The game's home or away team by name (case-insensitive), else why not."""
    typed = printable(name).strip()
    for team in (game.home, game.away):
        if team.name.casefold() == typed.casefold():
            return team
    raise InvalidInput(f"{quote(typed) or 'That team'} didn't play game {game.code} "
                       f"({game.home.name} vs {game.away.name}).")


async def standing_record(session: AsyncSession, league_id: int, game_id: int, team_id: int) -> MissedCleanup | None:
    return await session.scalar(select(MissedCleanup).where(
        MissedCleanup.league_id == league_id, MissedCleanup.game_id == game_id, MissedCleanup.team_id == team_id,
        MissedCleanup.withdrawn_at.is_(None)))


async def tell_captains(session: AsyncSession, league: LeagueSettings, league_id: int, team: Team, *, key: str,
                        text: str, now: datetime) -> bool:
    """A team's own news: a DM to each captain, else its channel; False when the team has neither."""
    captains = await lookups.captain_ids(session, team.id)
    for captain in captains:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=f"{key}:{captain}",
                             due_at=now, user_id=captain, message=Outgoing(content=text))
    if not captains and team.channel_id:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                             channel_id=team.channel_id, message=Outgoing(content=text))
    return bool(captains or team.channel_id)


def _where(lands: GameLine | None) -> str:
    return lands.label() if lands is not None else "the next one scheduled (none is yet)"


def recorded_notice(league: LeagueSettings, team: str, game: GameLine, minutes: int, lands: GameLine | None) -> str:
    """What the team's captains read: which game starts with the bench minor, and that it can be withdrawn."""
    cite = cited(cleanup_citation(league), MINUTES_SETTING)
    return clip(f"🧹 {clip(league.name, 100)}: {team} didn't clear the arena after {game.label()}, the week's last "
                f"game. Your team starts its next game, {_where(lands)}, with a {minutes}-minute bench minor "
                f"({cite}). If this is a mistake, a commissioner can withdraw it.", 2000)


def withdrawn_notice(league: LeagueSettings, team: str, game: str, minutes: int, note: str) -> str:
    text = (f"🧹 {clip(league.name, 100)}: the record that {team} didn't clean up after {game} is withdrawn by a "
            f"commissioner. Your team's next game no longer starts with a {minutes}-minute bench minor.")
    return clip(text + (f"\nNote: {note}" if note else ""), 2000)


class CleanupService:
    """/cleanup missed for referees and commissioners, /cleanup withdraw for commissioners."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def missed(self, caller: Caller, *, game_code: str, team_name: str) -> MissedCleanupRecorded:
        """Record that a team didn't clean up after a game: a bench minor at the start of its next game."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        league, now = caller.league, self.clock.now()
        rules, citation = league.rules.deadlines, cleanup_citation(league)
        try:
            minutes = bench_minor_minutes(duty=rules.cleanup_duty_last_game_each_week,
                                          minutes=rules.cleanup_missed_bench_minor_minutes)
        except DisciplineError as exc:
            raise refusal(exc) from None
        try:
            async with self.sessions.begin() as session:
                game = await lock_game(session, caller, game_code)
                if game.status == "cancelled":
                    raise Conflict(f"Game {game.code} was cancelled: nobody played it, so nobody cleaned up after it.")
                if game.starts_at > now:
                    raise InvalidInput(f"Game {game.code} hasn't been played yet: it starts "
                                       f"{timestamp(game.starts_at)}. Cleanup is recorded after the game.")
                team = side_named(game, team_name)
                later = await later_game_in_week(session, caller.league_id, league.timezone, game)
                try:
                    check_scheduled_to_clean_up(team=team.name, game=game.code, citation=citation,
                                                later_game=later.code if later is not None else None)
                except DisciplineError as exc:
                    raise refusal(exc) from None
                row = await standing_record(session, caller.league_id, game.id, team.id)
                already = row is not None
                if row is None:
                    row = MissedCleanup(league_id=caller.league_id, game_id=game.id, team_id=team.id, minutes=minutes,
                                        recorded_by=caller.discord_id, recorded_at=now)
                    session.add(row)
                    await session.flush()
                lands = await landing_game(session, caller.league_id, game, team.id)
                landing = GameLine.of(lands) if lands is not None else None
                told = False
                if not already:
                    told = await tell_captains(
                        session, league, caller.league_id, team, key=f"cleanup:{row.id}:missed", now=now,
                        text=recorded_notice(league, team.name, GameLine.of(game), row.minutes, landing))
                    log.info("missed cleanup #%s: %s after game %s, recorded by %s", row.id, team.name, game.code,
                             caller.discord_id)
                return MissedCleanupRecorded(row.id, GameLine.of(game), team.name, row.minutes, citation, landing,
                                             already, told)
        except IntegrityError:
            raise Conflict("Someone recorded it at the same moment: it's on record now.") from None

    async def withdraw(self, caller: Caller, *, game_code: str, team_name: str,
                       note: str | None = None) -> MissedCleanupWithdrawn:
        """Withdraw a mistaken record (commissioners): the bench minor is gone; the row stays as the audit."""
        caller.require(Role.COMMISSIONER)
        league, now = caller.league, self.clock.now()
        said = clean_user_text(note or "", REASON_LIMIT)
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            team = side_named(game, team_name)
            row = await standing_record(session, caller.league_id, game.id, team.id)
            if row is None:
                raise NotFound(f"No “did not clean up” is on record for {team.name} after game {game.code}: "
                               "there's nothing to withdraw.")
            row.withdrawn_at, row.withdrawn_by, row.withdrawal_note = now, caller.discord_id, said
            lands = await landing_game(session, caller.league_id, game, team.id)
            landing = GameLine.of(lands) if lands is not None else None
            told = await tell_captains(session, league, caller.league_id, team, key=f"cleanup:{row.id}:withdrawn",
                                       text=withdrawn_notice(league, team.name, game.code, row.minutes, said), now=now)
            log.info("missed cleanup #%s withdrawn by %s", row.id, caller.discord_id)
            return MissedCleanupWithdrawn(row.id, GameLine.of(game), team.name, row.minutes, landing, told)
