"""PostgreSQL connections terminated while a burst of interactions runs, through the command tree.

A lost connection made 3 to 9 of 16 interactions answer "something went wrong". Now a service call
whose connection is lost runs again once on a fresh one (storage/db.py ``once_more_if_disconnected``):
the user sees the normal answer, or, if the connection is lost again, a polite "try again".

To lose the connections while every unit of work is in flight, a second connection holds an
ACCESS EXCLUSIVE lock on ``games`` (which most of these commands read) and on the tables the others
need (the statistics counter, the questions /rule keeps): the burst's units queue behind it; their
backends are terminated with ``pg_terminate_backend``, then the lock goes.

Every service that reads or writes the database for an interaction is retried so: a guard below walks
bot/services and names the few that are not, and why.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import pkgutil
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime

import asyncpg
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

import bot.services
from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from cogs.rulebooks import rules_service
from storage.db import AsyncSession, create_engine, is_retried
from storage.models import CheckIn, Relay, RuleQuestion
from tests.conftest import SampleLeague
from tests.harness import Harness, Member, Reply

PLAYERS = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole", "Omar Fox", "Pia Lund",
           "Quin Ash", "Ray Moss", "Sam Tate", "Tia Vale")
READERS = ("Walt Orr", "Xena Pope", "Yuri Bell", "Zed Lowe")
WAIT_S = 8.0  # how long to wait for the burst to queue behind the lock; never an assertion
STEADY_S = 0.5  # no more units joined the queue for this long: all that can run are in flight
LOCKED = ("games", "stats_versions", "rule_questions")
G1_DAY = datetime(2030, 1, 11, 23, tzinfo=UTC)  # an hour before G1: relays for it are open
RULES = """\
Section 1 - Game Format
1.1 - Periods Games are played in two 20 minute halves with a running clock.
1.3 - Shootout Each team picks 3 shooters for the shootout.
"""


@pytest.fixture
async def pg_harness(settings: Settings, pg_url: str, clock: FixedClock) -> AsyncIterator[Harness]:
    bot = create_bot(settings, engine=create_engine(pg_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    try:
        yield h
    finally:
        await h.close()


class Terminator:
    """A connection of its own that blocks ``LOCKED`` and terminates the backends queued behind it."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.terminated: list[int] = []

    async def __aenter__(self) -> Terminator:
        u = self.url
        self.conn = await asyncpg.connect(host=u.host, port=u.port or 5432, user=u.username, password=u.password,
                                          database=u.database)
        self.tx = self.conn.transaction()
        await self.tx.start()
        await self.conn.execute(f"LOCK TABLE {', '.join(LOCKED)} IN ACCESS EXCLUSIVE MODE")
        return self

    async def waiting(self) -> list[int]:
        await self.conn.execute("SELECT pg_stat_clear_snapshot()")  # else the lock's transaction sees one snapshot
        rows = await self.conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND wait_event_type = 'Lock'")
        return [r["pid"] for r in rows]

    async def terminate_when_queued(self) -> int:
        """Wait until backends queue behind the lock and no more join them for a while, then terminate
        every other backend; returns how many were queued."""
        loop = asyncio.get_running_loop()
        until, queued, steady_since = loop.time() + WAIT_S, [], loop.time()
        while loop.time() < until and (not queued or loop.time() - steady_since < STEADY_S):
            now_queued = await self.waiting()
            if len(now_queued) != len(queued):
                queued, steady_since = now_queued, loop.time()
            await asyncio.sleep(0.02)
        await self.conn.execute("SELECT pg_stat_clear_snapshot()")
        rows = await self.conn.fetch(
            "SELECT pid, pg_terminate_backend(pid) AS done FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        self.terminated += [r["pid"] for r in rows if r["done"]]
        return len(queued)

    async def release(self) -> None:
        await self.tx.rollback()

    async def __aexit__(self, *exc: object) -> None:
        if not self.conn.is_closed():
            await self.conn.close()


def burst(h: Harness, league: SampleLeague) -> list[asyncio.Future[Reply]]:
    checkins = [asyncio.ensure_future(h.slash("/checkin", as_=league.player(name), status="in", game="G1"))
                for name in PLAYERS]
    reads = [asyncio.ensure_future(h.slash("/schedule", as_=league.player(name))) for name in READERS]
    return checkins + reads


#: One command of each of more services: who asks, with what, how the normal answer starts, and the
#: service call whose unit of work the lock holds up. A burst of their own: with the check-in burst's
#: 16 they would wait for one of the pool's 15 connections rather than be in flight.
OTHER_SERVICES: tuple[tuple[str, Callable[[SampleLeague], Member], dict[str, str], str, str], ...] = (
    ("/standings show", lambda league: league.player("Alice Hart"), {},
     "Standings · Coed League", "StandingsService.table"),
    ("/stats leaders", lambda league: league.player("Bea Quinn"), {},
     "Points leaders · Coed League", "StatsService.leaders"),
    ("/rule", lambda league: league.player("Carl Diaz"), {"question": "how many shooters in a shootout"},
     "1.3 Shootout", "RuleFeedbackService.record"),  # /rule keeps the question asked
    ("/gamesheet show", lambda league: league.captain("Hawks"), {"game": "G1", "team": "Hawks"},
     "Game sheet · Hawks vs Owls", "GameSheetService.show"),
    ("/relay send", lambda league: league.captain("Owls"), {"game": "G1", "message": "Bench too close"},
     "Relay #1 about `G1`", "RelayService.send"),
)


def other_services(h: Harness, league: SampleLeague) -> list[asyncio.Future[Reply]]:
    return [asyncio.ensure_future(h.slash(command, as_=who(league), **options))
            for command, who, options, _, _ in OTHER_SERVICES]


async def before_the_burst(h: Harness) -> None:
    """G1's day, and a rulebook for /rule to cite."""
    h.bot.clock.set(G1_DAY)  # type: ignore[attr-defined]  # the harness runs on a FixedClock
    await rules_service(h.bot).import_rulebook(h.bot.league_ids[h.default_guild], RULES.encode(), "rules.txt")


def answers(h: Harness, start: int) -> list[str]:
    return [c.text for c in h.discord.calls[start:] if c.text]


async def stored_checkins(h: Harness) -> int:
    async with h.bot.sessions() as s:
        return await s.scalar(select(func.count()).select_from(CheckIn).where(CheckIn.status == "in")) or 0


async def test_a_burst_whose_connections_are_terminated_answers_normally(
        pg_harness: Harness, pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    h = pg_harness
    league = await SampleLeague(h).load()
    start = len(h.discord.calls)
    caplog.set_level(logging.WARNING, logger="sideline.storage")
    async with Terminator(pg_url) as killer:
        running = burst(h, league)
        queued = await killer.terminate_when_queued()
        await killer.release()
        await asyncio.gather(*running)

    assert queued >= 1, "the burst's units were in flight when their connections were terminated"
    assert len(killer.terminated) >= queued
    said = answers(h, start)
    assert not [t for t in said if "went wrong" in t or "try again" in t], said
    assert sum("You're **in**" in t for t in said) == len(PLAYERS), said
    assert sum(t.startswith("Bears: upcoming games") for t in said) == len(READERS), said
    assert await stored_checkins(h) == len(PLAYERS)
    assert sum("running it again" in r.getMessage() for r in caplog.records) >= queued


async def test_a_burst_across_the_other_services_answers_normally_and_writes_once(
        pg_harness: Harness, pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    h = pg_harness
    league = await SampleLeague(h).load()
    await before_the_burst(h)
    start = len(h.discord.calls)
    caplog.set_level(logging.WARNING, logger="sideline.storage")
    async with Terminator(pg_url) as killer:
        running = other_services(h, league)
        queued = await killer.terminate_when_queued()
        await killer.release()
        await asyncio.gather(*running)

    assert queued >= len(OTHER_SERVICES), "every command's unit was in flight when its connection was terminated"
    said = answers(h, start)
    assert not [t for t in said if "went wrong" in t or "try again" in t], said
    retried = [r.getMessage() for r in caplog.records if "running it again" in r.getMessage()]
    for _, _, _, begins, call in OTHER_SERVICES:
        assert sum(t.startswith(begins) for t in said) == 1, (begins, said)
        assert any(f"during {call}:" in line for line in retried), (call, retried)
    async with h.bot.sessions() as s:  # the writes among them were stored once
        assert await s.scalar(select(func.count()).select_from(Relay)) == 1
        assert await s.scalar(select(func.count()).select_from(RuleQuestion)) == 1


async def test_lost_again_on_the_second_try_asks_politely_to_try_again_and_stores_nothing(
        pg_harness: Harness, pg_url: str) -> None:
    h = pg_harness
    league = await SampleLeague(h).load()
    start = len(h.discord.calls)
    async with Terminator(pg_url) as killer:
        running = [asyncio.ensure_future(h.slash("/checkin", as_=league.player(name), status="in", game="G1"))
                   for name in PLAYERS[:6]]
        first = await killer.terminate_when_queued()
        second = await killer.terminate_when_queued()  # the retries queue behind the same lock
        await killer.release()
        await asyncio.gather(*running)

    assert first >= 1 and second == first
    said = answers(h, start)
    polite = [t for t in said if "lost my connection" in t and "try again" in t]
    assert len(polite) == 6, said
    assert not [t for t in said if "went wrong" in t or "Traceback" in t or "asyncpg" in t], said
    assert await stored_checkins(h) == 0


# --- every service is retried, or says why not --------------------------------------------------------
#: Services (a class: every public method; or one method) that touch the database but are not run again
#: whole when the connection is lost. Each says why; a new service belongs here only with a reason.
NOT_RUN_AGAIN = {
    # /import: a large file goes in one long transaction, its reminders after in batches; run again it
    # would redo the whole file just as the database comes back. The commissioner is asked to try
    # again, and the file imported again finds what is already stored.
    "bot.services.imports.service.ImportService",
    "bot.services.imports.importer.Importer",
    "bot.services.imports.results.import_results",
    # Opens a private thread on Discord between its two units of work, which are each run again on
    # their own: run again whole, it could open a second thread.
    "bot.services.messages.notes.NoteService.dm_refused",
}


def service_calls() -> Iterator[tuple[str, object]]:
    """Every public coroutine of bot/services that is handed the session factory (``sessions``): the
    methods of classes built with it, and functions taking it. Dunder methods (``__call__``) are the
    courier's Discord actions, which the courier itself tries again later (bot/delivery/courier.py)."""
    for found in pkgutil.walk_packages(bot.services.__path__, "bot.services."):
        module = importlib.import_module(found.name)
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__ or name.startswith("_"):
                continue
            if inspect.isclass(obj) and "sessions" in inspect.signature(obj.__init__).parameters:
                for method, member in vars(obj).items():
                    if not method.startswith("_") and inspect.iscoroutinefunction(member):
                        yield f"{module.__name__}.{name}.{method}", member
            elif inspect.iscoroutinefunction(obj) and "sessions" in inspect.signature(obj).parameters:
                yield f"{module.__name__}.{name}", obj


def in_its_callers_transaction(call: object) -> bool:
    """Handed a session: it runs inside its caller's unit of work, which is the one run again."""
    parameters = inspect.signature(call).parameters.values()  # type: ignore[arg-type]
    return any(p.annotation in ("AsyncSession", AsyncSession) for p in parameters)


def test_every_service_touching_the_database_is_run_again_on_a_lost_connection_or_says_why_not() -> None:
    calls = dict(service_calls())
    assert len(calls) > 150 and "bot.services.checkins.service.CheckInService.check_in" in calls  # the walk finds them
    allowed = [name for name in calls if name in NOT_RUN_AGAIN or name.rsplit(".", 1)[0] in NOT_RUN_AGAIN]
    assert allowed and all(any(name.startswith(a) for name in allowed) for a in NOT_RUN_AGAIN), allowed
    bare = [name for name, call in calls.items()
            if not is_retried(call) and not in_its_callers_transaction(call) and name not in allowed]
    assert bare == []
