"""Check-ins under concurrency, on SQLite and PostgreSQL: every answer recorded exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import ColumnElement, select, true
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import FixedClock
from bot.config.settings import LeagueSettings
from bot.errors import NotAllowed
from bot.services.checkins.service import CheckInService, LateDropoutHook
from bot.services.discipline.core import Discipline
from bot.services.shared.eligibility import SuspensionCheck
from storage import migrate
from storage.db import create_engine, session_factory
from storage.models import CheckIn, Game, League, Player, RosterEntry, Team
from tests.conftest import league_config, make_settings

PLAYERS = 200
GAME_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)


@dataclass
class World:
    sessions: async_sessionmaker[AsyncSession]
    league: LeagueSettings
    league_id: int
    game_id: int
    players: list[tuple[int, int]]  # (discord id, player id)
    clock: FixedClock

    def caller(self, discord_id: int) -> Caller:
        return Caller(discord_id=discord_id, display_name=f"P{discord_id}", league=self.league,
                      league_id=self.league_id)

    def service(self, *, suspensions: SuspensionCheck | None = None,
                on_late_dropout: LateDropoutHook | None = None) -> CheckInService:
        async def nobody_told(league_id: int, game_id: int, player_id: int) -> None:
            return None

        return CheckInService(self.sessions, self.clock, suspensions=suspensions or Discipline([self.league]),
                              on_late_dropout=on_late_dropout or nobody_told)

    async def rows(self) -> list[tuple[int, str]]:
        async with self.sessions() as s:
            return [tuple(r) for r in (await s.execute(
                select(CheckIn.player_id, CheckIn.status).order_by(CheckIn.player_id))).all()]


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    """One league, two teams, one game and 200 players on the home roster, written directly."""
    engine = create_engine(db_url)
    await migrate.upgrade(engine)
    sessions = session_factory(engine)
    league = make_settings(league_config()).leagues[0]
    async with sessions.begin() as s:
        row = League(key=league.key, guild_id=league.guild_id, name=league.name, preset=league.preset)
        s.add(row)
        await s.flush()
        home, away = Team(league_id=row.id, name="Home"), Team(league_id=row.id, name="Away")
        s.add_all([home, away])
        await s.flush()
        game = Game(league_id=row.id, code="C1", home_team_id=home.id, away_team_id=away.id,
                    starts_at=GAME_START)
        people = [Player(league_id=row.id, discord_id=800_000_000_000_000_000 + i, name=f"Player {i:03d}")
                  for i in range(PLAYERS)]
        s.add(game)
        s.add_all(people)
        await s.flush()
        s.add_all([RosterEntry(league_id=row.id, team_id=home.id, player_id=p.id) for p in people])
        ids = [(p.discord_id, p.id) for p in people]
        league_id, game_id = row.id, game.id
    try:
        yield World(sessions, league, league_id, game_id, ids,
                    FixedClock(datetime(2030, 1, 5, 12, 0, tzinfo=UTC)))
    finally:
        await engine.dispose()


async def test_200_concurrent_checkins_for_one_game_are_each_recorded_once(world: World) -> None:
    service = world.service()
    statuses = ("in", "out", "maybe")
    results = await asyncio.gather(*(
        service.check_in(world.caller(discord_id), statuses[i % 3], "C1")
        for i, (discord_id, _) in enumerate(world.players)
    ))
    assert len(results) == PLAYERS and all(r.previous is None for r in results)
    rows = await world.rows()
    assert len(rows) == PLAYERS
    expected = sorted((player_id, statuses[i % 3]) for i, (_, player_id) in enumerate(world.players))
    assert rows == expected


async def test_concurrent_changes_by_one_player_leave_exactly_one_answer(world: World) -> None:
    service = world.service()
    discord_id, player_id = world.players[0]
    answers = ["in", "out", "maybe"] * 10
    await asyncio.gather(*(service.check_in(world.caller(discord_id), a, "C1") for a in answers))
    rows = await world.rows()
    assert len(rows) == 1 and rows[0][0] == player_id and rows[0][1] in answers
    # and afterwards the last write still wins
    await service.check_in(world.caller(discord_id), "maybe", "C1")
    assert await world.rows() == [(player_id, "maybe")]


async def test_concurrent_answers_each_replace_exactly_one_previous_answer(world: World) -> None:
    """No lost update: every answer after the first saw the one it replaced."""
    service = world.service()
    discord_id, _ = world.players[1]
    results = await asyncio.gather(*(service.check_in(world.caller(discord_id), "in", "C1") for _ in range(20)))
    assert sorted(r.previous is None for r in results) == [False] * 19 + [True]


async def test_switching_in_to_out_within_24_hours_is_a_late_dropout_and_tells_the_captains(world: World) -> None:
    calls: list[tuple[int, int, int]] = []

    async def alert_then_break(league_id: int, game_id: int, player_id: int) -> None:
        calls.append((league_id, game_id, player_id))
        raise RuntimeError("reminders are down")

    service = world.service(on_late_dropout=alert_then_break)
    discord_id, player_id = world.players[0]
    await service.check_in(world.caller(discord_id), "in", "C1")
    early = await service.check_in(world.caller(discord_id), "out", "C1")  # a week ahead: not late
    assert not early.late_dropout and calls == []

    await service.check_in(world.caller(discord_id), "in", "C1")
    world.clock.set(GAME_START - timedelta(hours=23))
    late = await service.check_in(world.caller(discord_id), "out", "C1")
    assert late.late_dropout and late.previous == "in"
    assert calls == [(world.league_id, world.game_id, player_id)]  # the failing alert didn't undo it
    assert await world.rows() == [(player_id, "out")]

    maybe_then_out = await service.check_in(world.caller(discord_id), "maybe", "C1")
    assert not maybe_then_out.late_dropout
    assert not (await service.check_in(world.caller(discord_id), "out", "C1")).late_dropout
    assert len(calls) == 1


async def test_the_suspension_check_refuses_in_but_accepts_out(world: World) -> None:
    discord_id, player_id = world.players[2]
    seen: list[tuple[int, int, int | None]] = []

    class OneSuspended:
        async def reason(self, session: AsyncSession, *, league_id: int, player_id: int,
                         game_id: int | None) -> str | None:
            seen.append((league_id, player_id, game_id))
            return "suspended for 1 more game (boarding)." if player_id == world.players[2][1] else None

        async def candidates(self, session: AsyncSession, *, league_id: int, player_ids: Sequence[int]) -> set[int]:
            return set(player_ids)

        def might_be_suspended(self, league_id: ColumnElement[int],
                               player_id: ColumnElement[int]) -> ColumnElement[bool]:
            return true()

    service = world.service(suspensions=OneSuspended())
    with pytest.raises(NotAllowed, match="suspended for 1 more game"):
        await service.check_in(world.caller(discord_id), "in", "C1")
    with pytest.raises(NotAllowed):
        await service.check_in(world.caller(discord_id), "maybe", "C1")
    assert await world.rows() == []
    assert seen[0] == (world.league_id, player_id, world.game_id)
    await service.check_in(world.caller(discord_id), "out", "C1")
    assert await world.rows() == [(player_id, "out")]


async def test_checkins_without_the_suspension_check_fail_at_start_up(world: World) -> None:
    """Fail closed: a check-in service that could not refuse a suspended player is never built."""
    async def nobody_told(league_id: int, game_id: int, player_id: int) -> None:
        return None

    with pytest.raises(TypeError, match="suspension check"):
        CheckInService(world.sessions, world.clock, suspensions=None,  # type: ignore[arg-type]
                       on_late_dropout=nobody_told)


async def test_a_refused_checkin_in_a_burst_leaves_the_others_recorded(world: World) -> None:
    """On SQLite a burst commits in groups: refusals (a stranger, an unknown game) in the same group
    get their own error and write nothing, and every other answer, named game or not, is recorded."""
    service = world.service()
    stranger = world.caller(900_000_000_000_000_001)
    asks = [service.check_in(world.caller(d), "in", "C1" if i % 2 else None)  # None: the team's next game
            for i, (d, _) in enumerate(world.players[:30])]
    asks[10:10] = [service.check_in(stranger, "in", "C1"), service.check_in(world.caller(world.players[0][0]),
                                                                            "in", "NOPE")]
    outcomes = await asyncio.gather(*asks, return_exceptions=True)
    assert isinstance(outcomes[10], NotAllowed)
    assert type(outcomes[11]).__name__ == "NotFound"
    recorded = [o for i, o in enumerate(outcomes) if i not in (10, 11)]
    assert all(not isinstance(o, BaseException) and o.status == "in" for o in recorded), recorded
    assert await world.rows() == sorted((p, "in") for _, p in world.players[:30])
