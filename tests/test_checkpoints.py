"""WAL checkpoints off the event loop: while the bot runs, its commits leave the log to a worker thread."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.checkpoints import COMMIT_CHECKPOINT_PAGES, VALVE_CHECKPOINT_PAGES, WalCheckpoints
from storage.db import create_engine, session_factory
from tests.harness import Harness

PAGE_FILLER = "x" * 100_000  # about 25 pages of log per commit


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"))
    yield engine
    await engine.dispose()


async def commit_checkpoint_pages(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.exec_driver_sql("PRAGMA wal_autocheckpoint")).scalar_one())


async def write(engine: AsyncEngine, commits: int) -> None:
    sessions = session_factory(engine)
    for _ in range(commits):
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (body) VALUES (:body)"), {"body": PAGE_FILLER})


def log_pages(path: Path) -> int:
    """Pages in the log not yet reset, read from another connection (PASSIVE disturbs no one)."""
    with sqlite3.connect(path) as other:
        return int(other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])


async def test_while_running_commits_leave_the_log_to_the_background(engine: AsyncEngine, tmp_path: Path) -> None:
    checkpoints = WalCheckpoints.for_engine(engine, after_commits=10**9)  # the background never turns up
    assert checkpoints is not None
    await checkpoints.start()
    try:
        assert await commit_checkpoint_pages(engine) == VALVE_CHECKPOINT_PAGES
        await write(engine, 60)
        # Past SQLite's usual 1,000 pages: no commit checkpointed, so the log was never started again.
        assert log_pages(tmp_path / "wal.db") > COMMIT_CHECKPOINT_PAGES
    finally:
        await checkpoints.stop()
    assert await commit_checkpoint_pages(engine) == COMMIT_CHECKPOINT_PAGES  # the usual commits again


async def test_without_the_background_a_commit_checkpoints(engine: AsyncEngine, tmp_path: Path) -> None:
    """The control for the test above: the same writes with SQLite's default keep the log short."""
    await write(engine, 60)
    assert log_pages(tmp_path / "wal.db") <= COMMIT_CHECKPOINT_PAGES + 30


async def test_the_background_checkpoints_after_enough_commits(engine: AsyncEngine, tmp_path: Path) -> None:
    checkpoints = WalCheckpoints.for_engine(engine, after_commits=5, every=0.01)
    assert checkpoints is not None
    await checkpoints.start()
    try:
        await write(engine, 4)
        await asyncio.sleep(0.1)
        assert checkpoints.checkpoints == 0  # not yet: four commits
        await write(engine, 1)
        for _ in range(200):
            if checkpoints.checkpoints:
                break
            await asyncio.sleep(0.01)
        assert checkpoints.checkpoints == 1
        await write(engine, 1)  # the writer starts the log again from the top: everything was copied back
        assert log_pages(tmp_path / "wal.db") <= 30
    finally:
        await checkpoints.stop()
    async with session_factory(engine)() as s:
        assert (await s.execute(text("SELECT count(*) FROM t"))).scalar_one() == 6


async def test_a_connection_opened_while_running_gets_the_valve(engine: AsyncEngine) -> None:
    checkpoints = WalCheckpoints.for_engine(engine)
    assert checkpoints is not None
    await checkpoints.start()
    try:
        await engine.dispose()  # as after a connection error: the pool opens a new one
        assert await commit_checkpoint_pages(engine) == VALVE_CHECKPOINT_PAGES
    finally:
        await checkpoints.stop()


async def test_the_bot_runs_them_while_it_runs(harness: Harness) -> None:
    bot = harness.bot
    if bot.engine.dialect.name != "sqlite":
        assert bot.checkpoints is None
        return
    assert bot.checkpoints is not None
    assert await commit_checkpoint_pages(bot.engine) == VALVE_CHECKPOINT_PAGES


async def test_stopping_mid_checkpoint_waits_for_it_before_closing(engine: AsyncEngine,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    import storage.checkpoints as module

    order: list[str] = []
    running = threading.Event()

    class Watched:
        def __init__(self, connection: sqlite3.Connection) -> None:
            self.connection = connection

        def execute(self, sql: str) -> sqlite3.Cursor:
            return self.connection.execute(sql)

        def close(self) -> None:
            order.append("closed")
            self.connection.close()

    real_connect, real_checkpoint = module._connect, module._checkpoint

    def slow_checkpoint(connection: sqlite3.Connection, mode: str) -> tuple[int, int, int]:
        running.set()
        time.sleep(0.2)  # a big log on a slow disk
        outcome = real_checkpoint(connection, mode)
        order.append("checkpointed")
        return outcome

    monkeypatch.setattr(module, "_connect", lambda path: Watched(real_connect(path)))
    monkeypatch.setattr(module, "_checkpoint", slow_checkpoint)
    checkpoints = WalCheckpoints.for_engine(engine, after_commits=1, every=0.01)
    assert checkpoints is not None
    await checkpoints.start()
    await write(engine, 1)
    assert await asyncio.to_thread(running.wait, 5)
    await checkpoints.stop()  # cancels the background while the thread is inside the checkpoint
    assert order == ["checkpointed", "closed"]
    assert await commit_checkpoint_pages(engine) == COMMIT_CHECKPOINT_PAGES
