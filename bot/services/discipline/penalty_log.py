"""/penalties: a game's penalty log for its officials (referees and commissioners).

Choices the spec leaves open, decided here:
- The log lists, in order: the bench minors a team serves at the start of the game (a missed cleanup
  after an earlier game, youth 2.15, worked out from the schedule as it stands, or a missed setup before
  this one, youth 2.1, 3.7 (6)), each call recorded with /penalty, the bench minors called against a
  team in it (youth 3.7, a late start), and any missed cleanup recorded after this game with the game
  its bench minor lands on.
- Penalty minutes per team count each penalty once, in the game where it is served: a cleanup bench
  minor in the next game's total, not in the game it was recorded after.
- It reads only; a game not played yet shows what it starts with, so the referee knows before face-off.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.services.discipline.cleanup import (
    BenchMinorToServe,
    GameLine,
    bench_minors_at_start,
    cleanup_citation,
    landing_game,
)
from bot.services.shared.games import find_game
from storage.db import retried_on_disconnect
from storage.models import BenchPenalty, MissedCleanup, Penalty


@dataclass(frozen=True)
class PenaltyLine:
    id: int
    minute: int | None
    player: str
    team: str
    minutes: int
    summary: str


@dataclass(frozen=True)
class BenchLine:
    """A bench minor called in the game against a team (youth 3.7), not withdrawn."""

    id: int
    minute: int | None
    team: str
    minutes: int
    summary: str


@dataclass(frozen=True)
class CleanupMissedAfter:
    """A missed cleanup recorded after this game, and where its bench minor is served."""

    record_id: int
    team: str
    minutes: int
    citation: str
    lands_on: GameLine | None


@dataclass(frozen=True)
class PenaltyLog:
    game: GameLine
    at_start: tuple[BenchMinorToServe, ...]
    penalties: tuple[PenaltyLine, ...]
    cleanup_missed: tuple[CleanupMissedAfter, ...]
    minutes_by_team: tuple[tuple[str, int], ...]  # home first: penalty minutes served in this game
    bench: tuple[BenchLine, ...] = ()  # bench minors called in the game (late start, bench infractions)


@retried_on_disconnect
class PenaltyLogService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def game_log(self, caller: Caller, game_code: str) -> PenaltyLog:
        """Everything called in a game, and what its teams start it with."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        async with self.sessions() as session:
            game = await find_game(session, caller, game_code)
            at_start = await bench_minors_at_start(session, caller.league, caller.league_id, game_id=game.id,
                                                   starts_at=game.starts_at, team_ids=game.team_ids())
            calls = (await session.scalars(
                select(Penalty).where(Penalty.league_id == caller.league_id, Penalty.game_id == game.id)
                .order_by(Penalty.created_at, Penalty.id))).unique().all()
            penalties = tuple(PenaltyLine(p.id, p.minute, p.player.name, p.team.name, p.minutes, p.summary)
                              for p in calls)
            missed = (await session.scalars(
                select(MissedCleanup).where(MissedCleanup.league_id == caller.league_id,
                                            MissedCleanup.game_id == game.id, MissedCleanup.duty == "cleanup",
                                            MissedCleanup.withdrawn_at.is_(None))
                .order_by(MissedCleanup.recorded_at, MissedCleanup.id))).unique().all()
            after = []
            for row in missed:
                lands = await landing_game(session, caller.league_id, game, row.team_id)
                after.append(CleanupMissedAfter(row.id, row.team.name, row.minutes, cleanup_citation(caller.league),
                                                GameLine.of(lands) if lands is not None else None))
            bench = tuple(BenchLine(b.id, b.minute, b.team.name, b.minutes, b.summary) for b in (await session.scalars(
                select(BenchPenalty).where(BenchPenalty.league_id == caller.league_id, BenchPenalty.game_id == game.id,
                                           BenchPenalty.withdrawn_at.is_(None))
                .order_by(BenchPenalty.created_at, BenchPenalty.id))).unique().all())
            totals = {game.home.name: 0, game.away.name: 0}
            for b in at_start:
                totals[b.team] = totals.get(b.team, 0) + b.minutes
            for team, minutes in [(p.team, p.minutes) for p in penalties] + [(b.team, b.minutes) for b in bench]:
                totals[team] = totals.get(team, 0) + minutes
            return PenaltyLog(GameLine.of(game), at_start, penalties, tuple(after), tuple(totals.items()), bench)

