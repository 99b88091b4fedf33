"""Commands that change a game's state, two at once on the same game, on SQLite and PostgreSQL.

On PostgreSQL ``/result enter`` and ``/game cancel`` at the same moment both
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
from bot.config.settings import LeagueSettings
from bot.errors import UserFacingError
from bot.services.discipline.core import Discipline
from bot.services.games import GameService
from bot.services.imports.importer import Importer
from bot.services.results import ResultService
from bot.services.shootouts.scoring import ShootoutScoringService
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
    discipline: Discipline

    def caller(self, discord_id: int, role: str) -> Caller:
        return Caller(discord_id=discord_id, display_name=role.title(), league=self.league,
                      league_id=self.league_id, role_ids=frozenset({ROLES[role]}))


Op = Callable[[World, async_sessionmaker[AsyncSession], str], Awaitable[Any]]

#: Every command that changes a game's state, as a referee or commissioner would type it.
OPS: dict[str, Op] = {
    "result enter": lambda w, s, code: ResultService(s, w.clock, on_result=w.discipline.count_down).enter(
        w.caller(REFEREE, "referee"), code, home=3, away=2, decided="regulation"),
    "result forfeit": lambda w, s, code: ResultService(s, w.clock, on_result=w.discipline.count_down).forfeit(
        w.caller(REFEREE, "referee"), code, "Owls"),
    "result fix": lambda w, s, code: ResultService(s, w.clock, on_result=w.discipline.count_down).fix(
        w.caller(COMMISSIONER, "commissioner"), code, home=4, away=2),
    "game move": lambda w, s, code: GameService(s, w.clock).move(
        w.caller(COMMISSIONER, "commissioner"), code, "2030-01-20 19:00"),
    "game cancel": lambda w, s, code: GameService(s, w.clock).cancel(w.caller(COMMISSIONER, "commissioner"), code),
    # the deciding attempt
    "shootout record": lambda w, s, code: ShootoutScoringService(s, w.clock, suspensions=w.discipline,
                                                                 on_result=w.discipline.count_down).record(
        w.caller(REFEREE, "referee"), code, "Pia Lund", False),
    "shootout undo": lambda w, s, code: ShootoutScoringService(s, w.clock, suspensions=w.discipline,
                                                                 on_result=w.discipline.count_down).undo_last(
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
    discipline = Discipline([league])
    importer = Importer(sessions, on_result=discipline.count_down)
    clock = FixedClock(AFTER_OVERTIME)
    for kind in ("teams", "players"):
        await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=clock.now())
    async with sessions() as s:
        league_id = await importer.league_id(s, league)
    try:
        yield World(engine, sessions, league, league_id, clock, discipline)
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


async def snapshots(w: World, games: dict[str, int]) -> dict[str, dict[str, Any]]:
    """What the state commands left behind on each game, with nothing that names the game itself."""
    ids = list(games.values())
    async with w.sessions() as s:
        def of(model: Any, *order: Any) -> Any:
            return s.scalars(select(model).where(model.game_id.in_(ids)).order_by(*order))

        rows: dict[int, dict[str, Any]] = {game_id: {"result": None, "changes": [], "shootout": None,
                                                     "attempts": [], "outbox": []} for game_id in ids}
        for game in (await s.scalars(select(Game).where(Game.id.in_(ids)))).all():
            rows[game.id] |= {"status": game.status, "starts_at": game.starts_at}
        for r in (await of(Result)).all():
            rows[r.game_id]["result"] = (r.home_score, r.away_score, r.decided, r.shootout_home, r.shootout_away,
                                         r.forfeit_team_id, r.penalty_waived)
        for c in (await of(ResultChange, ResultChange.id)).all():
            rows[c.game_id]["changes"].append((c.action, c.old, c.new))
        for so in (await of(Shootout)).all():
            rows[so.game_id]["shootout"] = (so.tied_score, so.first_side, so.decided_at is not None)
        for a in (await of(ShootoutAttempt, ShootoutAttempt.seq)).all():
            rows[a.game_id]["attempts"].append((a.seq, a.side, a.shooter_name, a.scored))
        for m in (await s.scalars(select(OutboxMessage).order_by(OutboxMessage.send_key))).all():
            parts = m.send_key.split(":")  # "<what>:<game id>:..."
            if len(parts) > 1 and parts[1].isdigit() and int(parts[1]) in rows:
                rows[int(parts[1])]["outbox"].append((":".join([parts[0], "*", *parts[2:]]), m.status))
    return {code: rows[game_id] for code, game_id in games.items()}


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


def inconsistencies(state: dict[str, Any]) -> list[str]:
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
    """The games a pair is played on: both at once; a then b; b then a."""
    return f"Q{n:03d}c", f"Q{n:03d}a", f"Q{n:03d}b"


async def test_two_state_changes_at_once_end_as_one_after_the_other(world: World) -> None:
    """Every pair of result enter/fix/forfeit, game move/cancel, shootout record/undo, started together
    on one game, ends as if one ran first: the same state and the same two answers; the one that lost
    the race is told why in words (a UserFacingError), never a traceback."""
    w = world
    games = await add_games(w, {code: "result fix" in (a, b)
                                for n, (a, b) in enumerate(PAIRS) for code in runs(n, a, b)})

    async def one_then_other(first: str, second: str, code: str) -> tuple[str, str]:
        return (answer(await run(OPS[first], w, w.sessions, code), code),
                answer(await run(OPS[second], w, w.sessions, code), code))

    # The orders one after the other, each on its own game: these may all run at once.
    serial = await asyncio.gather(*(one_then_other(first, second, code)
                                    for n, (a, b) in enumerate(PAIRS)
                                    for first, second, code in ((a, b, runs(n, a, b)[1]), (b, a, runs(n, a, b)[2]))))
    patience = 0 if is_sqlite(str(w.engine.url)) else 2.0  # SQLite: the other waits for the one connection
    concurrent = []
    for n, (a, b) in enumerate(PAIRS):  # a pair at a time: the rendezvous looks for any lock wait
        code = runs(n, a, b)[0]
        rendezvous = Rendezvous(w.engine, patience)
        got = await asyncio.gather(rendezvous.command(OPS[a], w, code), rendezvous.command(OPS[b], w, code))
        concurrent.append((answer(got[0], code), answer(got[1], code)))

    ends = await snapshots(w, games)
    broken: list[str] = []
    for n, (a, b) in enumerate(PAIRS):
        both, a_first, b_first = runs(n, a, b)
        a_then_b, b_then_a = serial[2 * n], serial[2 * n + 1][::-1]  # answers in the order (a, b)
        allowed = [(a_then_b, ends[a_first]), (b_then_a, ends[b_first])]
        assert not any(inconsistencies(end) for _, end in allowed), (a, b, allowed)
        if (concurrent[n], ends[both]) not in allowed:
            problems = inconsistencies(ends[both]) or ["not the end of either order"]
            broken.append(f"{a} + {b}: {'; '.join(problems)}; answers {concurrent[n]}")
    assert not broken, "\n".join(broken)
