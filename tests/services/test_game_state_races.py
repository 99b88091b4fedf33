"""Commands that change a game's state, two at once on the same game, on SQLite and PostgreSQL.

Issue #20 item 5: on PostgreSQL ``/result enter`` and ``/game cancel`` at the same moment both
succeeded (a final game with "cancelled" notices queued, or a cancelled game with a result). For
every pair of state-changing commands, both run concurrently on one game, and the end state and both
answers must be those of running them one after the other, in one order or the other.

The race is made deterministic without touching the services: each gets a session factory whose
units of work wait, just before committing, until the other command has also reached its commit
(the two overlapped: without a lock both commit), is waiting for a lock the first holds
(PostgreSQL), or has finished.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import combinations_with_replacement
from typing import Any, cast

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import FixedClock
from bot.errors import UserFacingError
from bot.imports.importer import Importer
from bot.services.games import GameService
from bot.services.results import ResultService
from bot.services.shootout_scoring import ShootoutScoringService
from bot.settings import LeagueSettings
from storage import migrate
from storage.db import create_engine, is_sqlite, session_factory
from storage.models import (
    CheckIn,
    Game,
    OutboxMessage,
    Player,
    Result,
    ResultChange,
    Shootout,
    ShootoutAttempt,
    Team,
)
from tests.conftest import DATA, ROLES, league_config, make_settings

HAWKS_IN = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Ray Moss", "Uma Reed")
STARTED = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
AFTER_OVERTIME = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)
REFEREE, COMMISSIONER = 700_000_000_000_000_001, 700_000_000_000_000_002


@dataclass
class World:
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    league: LeagueSettings
    league_id: int
    clock: FixedClock

    def caller(self, discord_id: int, role: str) -> Caller:
        return Caller(discord_id=discord_id, display_name=role.title(), league=self.league,
                      league_id=self.league_id, role_ids=frozenset({ROLES[role]}))


Op = Callable[[World, async_sessionmaker[AsyncSession], str], Awaitable[Any]]

#: Every command that changes a game's state, as a referee or commissioner would type it.
OPS: dict[str, Op] = {
    "result enter": lambda w, s, code: ResultService(s, w.clock).enter(
        w.caller(REFEREE, "referee"), code, home=3, away=2, decided="regulation"),
    "result forfeit": lambda w, s, code: ResultService(s, w.clock).forfeit(
        w.caller(REFEREE, "referee"), code, "Owls"),
    "result fix": lambda w, s, code: ResultService(s, w.clock).fix(
        w.caller(COMMISSIONER, "commissioner"), code, home=4, away=2),
    "game move": lambda w, s, code: GameService(s, w.clock).move(
        w.caller(COMMISSIONER, "commissioner"), code, "2030-01-20 19:00"),
    "game cancel": lambda w, s, code: GameService(s, w.clock).cancel(w.caller(COMMISSIONER, "commissioner"), code),
    "shootout record": lambda w, s, code: ShootoutScoringService(s, w.clock).record(  # the deciding attempt
        w.caller(REFEREE, "referee"), code, "Pia Lund", False),
    "shootout undo": lambda w, s, code: ShootoutScoringService(s, w.clock).undo_last(
        w.caller(REFEREE, "referee"), code),
}
PAIRS = list(combinations_with_replacement(OPS, 2))


@pytest.fixture
async def world(db_url: str) -> AsyncIterator[World]:
    """The sample teams and players; games are added per pair."""
    engine = create_engine(db_url)
    await migrate.upgrade(engine)
    sessions = session_factory(engine)
    league = make_settings(league_config()).leagues[0]
    importer = Importer(sessions)
    clock = FixedClock(AFTER_OVERTIME)
    for kind in ("teams", "players"):
        await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=clock.now())
    async with sessions() as s:
        league_id = await importer.league_id(s, league)
    try:
        yield World(engine, sessions, league, league_id, clock)
    finally:
        await engine.dispose()


async def add_games(w: World, codes: dict[str, bool]) -> dict[str, int]:
    """Hawks vs Owls, started and gone to a shootout: Hawks lead 2-0 with Owls' second shooter up
    (so the next attempt, a miss, decides it); or, when ``codes[code]`` (final), with its result 3-2."""
    async with w.sessions.begin() as s:
        teams = {t.name: t.id for t in (await s.scalars(select(Team).where(Team.league_id == w.league_id))).all()}
        players = {p.name: p.id for p in (await s.scalars(select(Player).where(Player.league_id == w.league_id)))}
        games = {code: Game(league_id=w.league_id, code=code, home_team_id=teams["Hawks"], away_team_id=teams["Owls"],
                            starts_at=STARTED, venue="Rink A", kind="regular", status="final" if final else "scheduled")
                 for code, final in codes.items()}
        s.add_all(games.values())
        await s.flush()
        for code, game in games.items():
            s.add_all([CheckIn(league_id=w.league_id, game_id=game.id, player_id=players[n], status="in")
                       for n in HAWKS_IN + OWLS_IN])
            if codes[code]:
                s.add(Result(league_id=w.league_id, game_id=game.id, home_score=3, away_score=2,
                             decided="regulation", entered_by=REFEREE, entered_at=AFTER_OVERTIME))
                continue
            s.add(Shootout(league_id=w.league_id, game_id=game.id, tied_score=3, first_side="home",
                           started_by=REFEREE, started_at=AFTER_OVERTIME))
            for seq, (side, name, scored) in enumerate((("home", "Alice Hart", True), ("away", "Omar Fox", False),
                                                        ("home", "Carl Diaz", True)), start=1):
                s.add(ShootoutAttempt(league_id=w.league_id, game_id=game.id, seq=seq, side=side,
                                      shooter_id=players[name], shooter_name=name, scored=scored,
                                      recorded_by=REFEREE, recorded_at=AFTER_OVERTIME))
        return {code: game.id for code, game in games.items()}


async def snapshot(w: World, game_id: int) -> dict[str, Any]:
    """What a game's state commands leave behind, with nothing that names the game itself."""
    async with w.sessions() as s:
        game = await s.get(Game, game_id)
        assert game is not None
        result = await s.scalar(select(Result).where(Result.game_id == game_id))
        shootout = await s.scalar(select(Shootout).where(Shootout.game_id == game_id))
        changes = (await s.scalars(select(ResultChange).where(ResultChange.game_id == game_id)
                                   .order_by(ResultChange.id))).all()
        attempts = (await s.scalars(select(ShootoutAttempt).where(ShootoutAttempt.game_id == game_id)
                                    .order_by(ShootoutAttempt.seq))).all()
        outbox = (await s.scalars(select(OutboxMessage).where(  # keys read "<what>:<game id>:..."
            OutboxMessage.league_id == w.league_id, OutboxMessage.send_key.like(f"%:{game_id}:%")))).all()
        return {
            "status": game.status,
            "starts_at": game.starts_at,
            "result": None if result is None else (result.home_score, result.away_score, result.decided,
                                                   result.shootout_home, result.shootout_away,
                                                   result.forfeit_team_id, result.penalty_waived),
            "changes": [(c.action, c.old, c.new) for c in changes],
            "shootout": None if shootout is None else (shootout.tied_score, shootout.first_side,
                                                       shootout.decided_at is not None),
            "attempts": [(a.seq, a.side, a.shooter_name, a.scored) for a in attempts],
            "outbox": sorted((":".join(["*" if i == 1 else part for i, part in enumerate(parts)]), m.status)
                             for m in outbox if len(parts := m.send_key.split(":")) > 1
                             and parts[1] == str(game_id)),
        }


def answer(outcome: object, code: str) -> str:
    """A command's answer as the person who typed it sees it, the game's id left out."""
    if isinstance(outcome, UserFacingError):
        return f"refused: {re.sub(re.escape(code), '<game>', outcome.message)}"
    if isinstance(outcome, BaseException):
        raise AssertionError(f"not a clear answer: {outcome!r}") from outcome
    return f"done: {type(outcome).__name__} {getattr(outcome, 'action', '')}".strip()


async def run(op: Op, w: World, sessions: async_sessionmaker[AsyncSession], code: str) -> object:
    try:
        return await op(w, sessions, code)
    except Exception as exc:  # answered below: a refusal is an answer, anything else fails the test
        return exc


class Rendezvous:
    """Holds the first unit of work that is about to commit until the other command has reached
    its commit too, is waiting for a lock (PostgreSQL), or has finished."""

    def __init__(self, engine: AsyncEngine, patience: float) -> None:
        self.engine, self.patience = engine, patience
        self.arrived = self.finished = 0
        self.both_here = asyncio.Event()

    async def blocked(self) -> bool:
        if is_sqlite(str(self.engine.url)):
            return False  # one connection: the other is waiting for it, not in a transaction
        async with self.engine.connect() as conn:  # a fresh statistics snapshot on every look
            waiting = await conn.scalar(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"))
        return bool(waiting)

    async def arrive(self) -> None:
        self.arrived += 1
        if self.arrived >= 2:
            self.both_here.set()
            return
        deadline = asyncio.get_running_loop().time() + self.patience
        while not self.both_here.is_set() and not self.finished and asyncio.get_running_loop().time() < deadline:
            if await self.blocked():
                return
            with suppress(TimeoutError):
                await asyncio.wait_for(self.both_here.wait(), 0.005)

    async def command(self, op: Op, w: World, code: str) -> object:
        try:
            return await run(op, w, cast(async_sessionmaker[AsyncSession], GatedSessions(w.sessions, self)), code)
        finally:
            self.finished += 1


class GatedSessions:
    """The services' session factory, its units of work meeting at a :class:`Rendezvous` before committing."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], rendezvous: Rendezvous) -> None:
        self.sessions, self.rendezvous = sessions, rendezvous

    def __call__(self) -> AsyncSession:
        return self.sessions()

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions.begin() as session:
            yield session
            await self.rendezvous.arrive()


def consistent(state: dict[str, Any]) -> list[str]:
    """What no sequence of commands can leave behind."""
    wrong = []
    if state["status"] == "cancelled" and state["result"] is not None:
        wrong.append("a cancelled game with a result")
    if state["status"] == "final" and state["result"] is None:
        wrong.append("a final game without a result")
    if state["status"] != "cancelled" and any(k.startswith("game-cancelled") for k, _ in state["outbox"]):
        wrong.append(f"a {state['status']} game with 'cancelled' notices queued")
    return wrong


def runs(n: int, a: str, b: str) -> tuple[str, str, str]:
    """The games a pair is played on: both at once; a then b; b then a (the same as a then b for a pair of one)."""
    return f"Q{n:03d}c", f"Q{n:03d}a", f"Q{n:03d}b" if a != b else f"Q{n:03d}a"


async def test_two_state_changes_at_once_end_as_one_after_the_other(world: World) -> None:
    """Every pair of result enter/fix/forfeit, game move/cancel, shootout record/undo, started together
    on one game, ends as if one ran first: the same state and the same two answers; the one that lost
    the race is told why in words (a UserFacingError), never a traceback."""
    w = world
    games = await add_games(w, {code: "result fix" in (a, b)
                                for n, (a, b) in enumerate(PAIRS) for code in runs(n, a, b)})
    patience = 0.05 if is_sqlite(str(w.engine.url)) else 2.0
    broken: list[str] = []
    for n, (a, b) in enumerate(PAIRS):
        concurrent, a_first, b_first = runs(n, a, b)
        rendezvous = Rendezvous(w.engine, patience)
        got = await asyncio.gather(rendezvous.command(OPS[a], w, concurrent),
                                   rendezvous.command(OPS[b], w, concurrent))
        answers = (answer(got[0], concurrent), answer(got[1], concurrent))
        state = await snapshot(w, games[concurrent])

        serial = []
        for first, second, code in ((a, b, a_first), (b, a, b_first))[:1 if a == b else 2]:
            one = answer(await run(OPS[first], w, w.sessions, code), code)
            two = answer(await run(OPS[second], w, w.sessions, code), code)
            serial.append(((one, two) if first == a else (two, one), await snapshot(w, games[code])))
        assert not any(consistent(end) for _, end in serial), (a, b, serial)
        if (answers, state) not in serial:
            problems = consistent(state) or ["not the end of either order"]
            broken.append(f"{a} + {b}: {'; '.join(problems)}; answers {answers}")
    assert not broken, "\n".join(broken)
