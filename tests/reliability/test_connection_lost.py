"""PostgreSQL connections terminated while a burst of interactions runs, through the command tree.

A lost connection made 3 to 9 of 16 interactions answer "something went wrong". Now a service call
whose connection is lost runs again once on a fresh one (storage/db.py ``once_more_if_disconnected``):
the user sees the normal answer, or, if the connection is lost again, a polite "try again".

To lose the connections while every unit of work is in flight, a second connection holds an
ACCESS EXCLUSIVE lock on ``games`` (which every one of these commands reads): the burst's units
queue behind it; their backends are terminated with ``pg_terminate_backend``, then the lock goes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import CheckIn
from tests.conftest import SampleLeague
from tests.harness import Harness, Reply

PLAYERS = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole", "Omar Fox", "Pia Lund",
           "Quin Ash", "Ray Moss", "Sam Tate", "Tia Vale")
READERS = ("Walt Orr", "Xena Pope", "Yuri Bell", "Zed Lowe")
WAIT_S = 8.0  # how long to wait for the burst to queue behind the lock; never an assertion
STEADY_S = 0.5  # no more units joined the queue for this long: all that can run are in flight


@pytest.fixture
async def pg_harness(settings: Settings, pg_url: str, clock: FixedClock) -> AsyncIterator[Harness]:
    bot = create_bot(settings, engine=create_engine(pg_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    try:
        yield h
    finally:
        await h.close()


class Terminator:
    """A connection of its own that blocks ``games`` and terminates the backends queued behind it."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.terminated: list[int] = []

    async def __aenter__(self) -> Terminator:
        u = self.url
        self.conn = await asyncpg.connect(host=u.host, port=u.port or 5432, user=u.username, password=u.password,
                                          database=u.database)
        self.tx = self.conn.transaction()
        await self.tx.start()
        await self.conn.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
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
