"""SQLAlchemy's aiosqlite adapter, making one trip to the database thread per statement.

aiosqlite runs every call on its own thread, and each call is a round trip from the event loop
(queue, thread wake-up, future, loop wake-up). SQLAlchemy's stock adapter makes four per
statement: open a cursor, execute, fetch the rows, close the cursor. On a slow core those trips
cost more than the SQLite work of an indexed lookup, so every command paid them several times
over (bench/README.md). Here the four run as one function on the thread, and a unit of work's
BEGIN IMMEDIATE (storage/db.py) goes along with its first statement instead of alone: it still
takes the write lock before that statement runs. A commit or rollback with no transaction open
is a no-op in SQLite, so it makes no trip at all: the pool's reset after every committed unit of
work was one.

The DBAPI surface SQLAlchemy uses is unchanged, and errors are the same sqlite3 exceptions,
mapped by the stock adapter. `tests/test_sqlite_driver.py` counts the trips.
"""

from __future__ import annotations

import collections
import sqlite3
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


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """A buffered cursor: the statement has run and its rows are here before execute returns."""

    __slots__ = ("_arraysize", "_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # no driver cursor lives between calls
        self._soft_closed_memoized = {}
        self._rows = collections.deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None
        self._arraysize = 1

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return self._arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._arraysize = value

    async def _execute_async(self, operation: Any, parameters: Any) -> None:
        await self._run(operation, parameters, many=False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> None:
        await self._run(operation, seq_of_parameters, many=True)

    async def _run(self, operation: Any, parameters: Any, *, many: bool) -> None:
        connection: aiosqlite.Connection = self._connection
        adapted: OneTripConnection = self._adapt_connection  # type: ignore[assignment]
        async with adapted._execute_mutex:
            begin, adapted.begin_pending = adapted.begin_pending, False
            outcome = await connection._execute(_execute, connection._conn, operation, parameters, many, begin)
        self._description, self._rowcount, self._lastrowid, rows = outcome
        self._rows = collections.deque(rows)

    async def _async_soft_close(self) -> None:
        """Nothing to close: the rows are already buffered here."""

    def close(self) -> None:
        self._rows.clear()


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ("begin_pending",)
    _cursor_cls = OneTripCursor

    def __init__(self, dbapi: Any, connection: aiosqlite.Connection) -> None:
        super().__init__(dbapi, connection)
        self.begin_pending = False

    def begin_immediate(self) -> None:
        """BEGIN IMMEDIATE with the next statement, in its trip (a unit with no statement begins nothing)."""
        self.begin_pending = True

    def _idle(self) -> bool:
        self.begin_pending = False
        connection: aiosqlite.Connection = self._connection
        return connection._connection is None or not connection._conn.in_transaction

    def commit(self) -> None:
        if not self._idle():
            super().commit()

    def rollback(self) -> None:
        if not self._idle():
            super().rollback()


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The DBAPI module handed to `create_async_engine(module=...)`."""

    def connect(self, *arg: Any, **kw: Any) -> OneTripConnection:
        connection = self.aiosqlite.connect(*arg, **kw)
        connection._thread.daemon = True  # as the stock adapter does: never hold the process open
        return OneTripConnection(self, await_(connection))


def one_trip_dbapi() -> OneTripDBAPI:
    return OneTripDBAPI(aiosqlite, sqlite3)
