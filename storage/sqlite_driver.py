"""SQLAlchemy's aiosqlite adapter, running a unit of work's statements on the event loop itself.

aiosqlite runs every call on its own thread, and each call is a round trip from the event loop
(queue, thread wake-up, future, loop wake-up). SQLAlchemy's stock adapter makes four per
statement, and on a slow core those trips cost more than the SQLite work of the indexed lookups
every command makes (bench/README.md). The only SQLite call here that can wait long is taking
the write lock while another process (the CLI, a backup) holds it: every unit of work takes it
first (BEGIN IMMEDIATE, storage/db.py), and in WAL mode nothing after it waits on a lock.

So a unit of work tries BEGIN IMMEDIATE on the loop with no busy wait, together with its first
statement. If the lock is free, that statement and the rest of the unit (and its commit) run on
the loop: microseconds each, no trip. If another process holds the lock, that first statement
goes to aiosqlite's thread and waits there (the busy timeout) while the loop serves everyone
else. A statement outside any transaction (the connection's pragmas) goes to the thread too.
The price: a statement that is slow in itself (a big import) holds the loop for its duration.
SQLite's checkpoints, which a commit would otherwise run every 1,000 pages of log, run on a
worker thread while the bot runs (storage/checkpoints.py).

The DBAPI surface SQLAlchemy uses is unchanged, and errors are the same sqlite3 exceptions,
mapped by the stock adapter. `tests/test_sqlite_driver.py` counts the trips and holds the lock
from another process.
"""

from __future__ import annotations

import collections
import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util.concurrency import await_


def _execute(conn: sqlite3.Connection, operation: str, parameters: Any, many: bool,
             begin: bool) -> tuple[Any, ...]:
    """On the database thread: run a statement to the end and hand back everything it produced
    (``begin``: open the unit of work's transaction first)."""
    if begin:
        conn.execute("BEGIN IMMEDIATE")
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else ()
        return description, cursor.rowcount, cursor.lastrowid, rows
    finally:
        cursor.close()


def _begin_without_waiting(conn: sqlite3.Connection, busy_timeout_ms: int) -> bool:
    """BEGIN IMMEDIATE if the write lock is free this instant; False (nothing begun) if it's held."""
    conn.execute("PRAGMA busy_timeout=0")
    try:
        conn.execute("BEGIN IMMEDIATE")
        return True
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
            return False
        raise
    finally:
        conn.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """A buffered cursor: the statement has run and its rows are here before execute returns."""

    # Plain slots in place of the stock properties, which read a driver cursor kept between calls.
    __slots__ = ("arraysize", "description", "lastrowid", "rowcount")

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # no driver cursor lives between calls
        self._soft_closed_memoized = {}
        self._rows = collections.deque()
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self.arraysize = 1

    async def _execute_async(self, operation: Any, parameters: Any) -> None:
        await self._run(operation, parameters, many=False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> None:
        await self._run(operation, seq_of_parameters, many=True)

    async def _run(self, operation: Any, parameters: Any, *, many: bool) -> None:
        connection: aiosqlite.Connection = self._connection
        adapted: OneTripConnection = self._adapt_connection  # type: ignore[assignment]
        conn = connection._conn
        async with adapted._execute_mutex:
            begin, adapted.begin_pending = adapted.begin_pending, False
            # Inside the unit's transaction nothing waits; outside one (the pragmas) it might.
            on_loop = _begin_without_waiting(conn, adapted.busy_timeout_ms) if begin else conn.in_transaction
            if on_loop:
                outcome = _execute(conn, operation, parameters, many, False)
            else:  # may wait for another process's lock: wait on the thread, not the loop
                outcome = await connection._execute(_execute, conn, operation, parameters, many, begin)
        self.description, self.rowcount, self.lastrowid, rows = outcome
        self._rows = collections.deque(rows)

    async def _async_soft_close(self) -> None:
        """Nothing to close: the rows are already buffered here."""

    def close(self) -> None:
        self._rows.clear()


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ("begin_pending", "busy_timeout_ms")
    _cursor_cls = OneTripCursor

    def __init__(self, dbapi: Any, connection: aiosqlite.Connection, busy_timeout_ms: int) -> None:
        super().__init__(dbapi, connection)
        self.begin_pending = False
        self.busy_timeout_ms = busy_timeout_ms

    def begin_immediate(self) -> None:
        """BEGIN IMMEDIATE with the next statement, in its trip (a unit with no statement begins nothing)."""
        self.begin_pending = True

    def _idle(self) -> bool:
        self.begin_pending = False
        connection: aiosqlite.Connection = self._connection
        return connection._connection is None or not connection._conn.in_transaction

    def rows_now(self, operation: str, parameters: Sequence[Any]) -> tuple[Any, ...] | None:
        """A statement run right here, because nothing can make it wait (storage.db.PlainQuery), and
        its rows; None when it must go the usual way: the unit's write lock is held by another
        process (its BEGIN then waits on the thread), or another statement of this connection is
        under way."""
        if self._execute_mutex.locked():
            return None
        conn = self._connection._conn
        if self.begin_pending:
            if not _begin_without_waiting(conn, self.busy_timeout_ms):
                return None
            self.begin_pending = False
        elif not conn.in_transaction:
            return None
        _description, _rowcount, _lastrowid, rows = _execute(conn, operation, parameters, False, False)
        return rows

    def commit(self) -> None:
        """On the loop: the unit holds the write lock, and a WAL commit waits on nothing."""
        if not self._idle():
            self._connection._conn.commit()

    def rollback(self) -> None:
        if not self._idle():
            self._connection._conn.rollback()


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The DBAPI module handed to `create_async_engine(module=...)`."""

    def connect(self, *arg: Any, **kw: Any) -> OneTripConnection:
        # The connection is used from the loop and, while waiting for a lock, from aiosqlite's
        # thread: never both at once (one statement at a time per connection, under its mutex).
        kw["check_same_thread"] = False
        connection = self.aiosqlite.connect(*arg, **kw)
        connection._thread.daemon = True  # as the stock adapter does: never hold the process open
        return OneTripConnection(self, await_(connection), round(kw.get("timeout", 5.0) * 1000))


def one_trip_dbapi() -> OneTripDBAPI:
    return OneTripDBAPI(aiosqlite, sqlite3)
