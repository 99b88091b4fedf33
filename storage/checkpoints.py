"""The bot's WAL checkpoints, run on a worker thread instead of inside a commit on the event loop.

SQLite copies the write-ahead log back into the database (a checkpoint) when a commit leaves the
log at 1,000 pages or more, inside that commit. The bot commits on the event loop
(storage/sqlite_driver.py), so every few hundred check-ins one commit took 5–6 ms on the benchmark
machine, most of it an fsync, and held every other command for that long; on a slower disk, longer.

While the bot runs, its connection leaves that to this module: after every ``after_commits``
commits, a second connection checkpoints on a worker thread. PASSIVE mode never waits for the
writer, nor the writer for it. When commits come so fast that the log is never fully copied back,
and can't start again from its beginning, a RESTART checkpoint makes the next unit of work wait
(on aiosqlite's thread, not the loop) until it is. A checkpoint inside a commit stays as the
safety valve, at ten times SQLite's usual log size.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.sqlite_driver import OneTripDBAPI

log = logging.getLogger("sideline.checkpoints")

#: SQLite's own default: what the bot's connection goes back to when the background stops.
COMMIT_CHECKPOINT_PAGES = 1000
#: While the background runs, a commit still checkpoints at this size (the safety valve).
VALVE_CHECKPOINT_PAGES = 10_000
#: A log this long after a PASSIVE checkpoint was not restarted (the writer never paused): RESTART.
RESTART_AT_PAGES = 2000


class WalCheckpoints:
    """Checkpoints for one engine's SQLite file: ``start`` once the database is migrated, ``stop``
    before the engine is disposed."""

    def __init__(self, engine: AsyncEngine, path: Path, *, after_commits: int = 100, every: float = 0.25) -> None:
        self.engine = engine
        self.path = path
        self.after_commits = after_commits  # about 400 pages of check-ins: SQLite's default is 1,000
        self.every = every  # seconds between looks at the commit count
        self.checkpoints = 0  # how many ran (for tests)
        self._commits = 0  # since the last checkpoint
        self._connection: sqlite3.Connection | None = None  # opened at the first checkpoint
        self._one_at_a_time = asyncio.Lock()  # the connection is used from one worker thread at a time
        self._in_thread: asyncio.Future[Any] | None = None  # outlives a cancelled caller: close waits for it
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def for_engine(cls, engine: AsyncEngine, **kwargs: Any) -> WalCheckpoints | None:
        """None unless the engine is the bot's SQLite adapter on a file: only its commits run on the loop."""
        if not isinstance(engine.dialect.loaded_dbapi, OneTripDBAPI):
            return None
        database = engine.url.database
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        return cls(engine, Path(database), **kwargs)

    async def start(self) -> None:
        event.listen(self.engine.sync_engine, "connect", _valve_only)
        event.listen(self.engine.sync_engine, "commit", self._committed)
        await self._set_commit_checkpoints(VALVE_CHECKPOINT_PAGES)  # the connection already in the pool
        self._task = asyncio.create_task(self._run(), name="wal-checkpoints")

    async def stop(self) -> None:
        """Stop checkpointing; the bot's connection checkpoints in its commits again."""
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        event.remove(self.engine.sync_engine, "connect", _valve_only)
        event.remove(self.engine.sync_engine, "commit", self._committed)
        try:
            await self._set_commit_checkpoints(COMMIT_CHECKPOINT_PAGES)
        finally:
            async with self._one_at_a_time:
                if self._in_thread is not None:  # a checkpoint the cancelled task left running
                    with contextlib.suppress(Exception):
                        await self._in_thread
                connection, self._connection = self._connection, None
                if connection is not None:
                    await asyncio.to_thread(connection.close)

    async def checkpoint(self, mode: str = "PASSIVE") -> tuple[int, int, int]:
        """One checkpoint now: (busy, pages in the log, pages copied back), as SQLite reports them."""
        async with self._one_at_a_time:
            self._commits = 0
            if self._connection is None:
                self._connection = await self._on_thread(_connect, self.path)
            outcome: tuple[int, int, int] = await self._on_thread(_checkpoint, self._connection, mode)
            self.checkpoints += 1
            return outcome

    async def _on_thread(self, function: Any, *args: Any) -> Any:
        """A cancelled caller stops waiting, but the thread runs on: ``stop`` waits for it before closing."""
        self._in_thread = asyncio.ensure_future(asyncio.to_thread(function, *args))
        result = await asyncio.shield(self._in_thread)
        self._in_thread = None
        return result

    def _committed(self, _connection: Any) -> None:
        self._commits += 1

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self._commits < self.after_commits:
                continue
            try:
                _busy, log_pages, _copied = await self.checkpoint()
                if log_pages >= RESTART_AT_PAGES:
                    await self.checkpoint("RESTART")
            except sqlite3.Error:  # say, the disk is full: the valve in the commits still holds
                log.warning("background WAL checkpoint failed; will try again", exc_info=True)

    async def _set_commit_checkpoints(self, pages: int) -> None:
        async with self.engine.connect() as connection:
            await connection.exec_driver_sql(f"PRAGMA wal_autocheckpoint={pages}")


def _valve_only(dbapi_connection: Any, _record: Any) -> None:
    """A connection the pool opens while the background runs (after an error, say) gets the valve too."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA wal_autocheckpoint={VALVE_CHECKPOINT_PAGES}")
    cursor.close()


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA busy_timeout=1000")  # RESTART waits this long at most for the writer
    return connection


def _checkpoint(connection: sqlite3.Connection, mode: str) -> tuple[int, int, int]:
    busy, log_pages, copied = connection.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
    return int(busy), int(log_pages), int(copied)
