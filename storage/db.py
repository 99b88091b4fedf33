"""The async engine and the unit-of-work session factory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession  # re-export for callers
from sqlalchemy.orm import Session

from storage.sqlite_driver import OneTripConnection, OneTripDBAPI, one_trip_dbapi

SQLITE_BUSY_TIMEOUT_MS = 30_000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An engine with SQLite's pragmas set on every connection (WAL, foreign keys, busy timeout)."""
    if is_sqlite(url):
        kwargs.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        # SQLite has one writer at a time and every unit of work here takes the write lock
        # (BEGIN IMMEDIATE), so one connection per process: work queues fairly in asyncio
        # instead of racing for the file lock, which SQLite does not hand out in order.
        kwargs.setdefault("pool_size", 1)
        kwargs.setdefault("max_overflow", 0)
        kwargs.setdefault("pool_timeout", 120)
        if make_url(url).get_driver_name() == "aiosqlite":
            kwargs.setdefault("module", one_trip_dbapi())
    else:
        kwargs.setdefault("pool_pre_ping", True)
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy, not the driver, decide when a transaction begins (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(conn: Any) -> None:
    """Take the write lock up front: a read-then-write unit never loses an update (testing.md)."""
    dbapi_connection = conn.connection.dbapi_connection
    if isinstance(dbapi_connection, OneTripConnection):
        dbapi_connection.begin_immediate()  # sent with the first statement, in one trip
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    if isinstance(engine.dialect.loaded_dbapi, OneTripDBAPI):
        return OnLoopSessions(engine, expire_on_commit=False, class_=OnLoopSession)
    return async_sessionmaker(engine, expire_on_commit=False)


class OnLoopSession(AsyncSession):
    """A unit of work on SQLite (storage/sqlite_driver.py): it closes in the caller's own task.

    SQLAlchemy closes an async session, and commits a ``sessions.begin()`` block, in a task of its
    own, so that a cancelled caller can't abandon the close halfway through a network round trip.
    Here commit, rollback and handing the connection back run on the loop without suspending, so
    there is no halfway to abandon. (A commit whose flush is the unit's first statement can wait
    for another process's write lock; cancelled there, the unit rolls back whole.) The two tasks,
    with their trips round the loop, cost a command about 0.13 ms (bench/README.md).
    """

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        await self.close()


class OnLoopSessions(async_sessionmaker[OnLoopSession]):
    def begin(self) -> _UnitOfWork:  # type: ignore[override]
        return _UnitOfWork(self())


class _UnitOfWork:
    """``async with sessions.begin() as session``: commits (or rolls back on error), then closes."""

    __slots__ = ("session", "transaction")

    def __init__(self, session: OnLoopSession) -> None:
        self.session = session

    async def __aenter__(self) -> OnLoopSession:
        self.transaction = self.session.begin()
        await self.transaction.__aenter__()
        return self.session

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        try:
            await self.transaction.__aexit__(type_, value, traceback)
        finally:
            await self.session.close()


def upsert_insert(session: AsyncSession) -> Any:
    """The database's own INSERT, the one with ON CONFLICT. PostgreSQL's is imported only on
    PostgreSQL: its dialect package loads every PostgreSQL driver's module, 2 MB a SQLite bot
    never uses (bench/idle.py)."""
    name = session.get_bind().dialect.name
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        return postgresql_insert
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert
    raise RuntimeError(f"an upsert needs PostgreSQL or SQLite; database {name!r} is not supported")


async def plain_rows(session: AsyncSession, statement: Any,
                     params: dict[str, Any] | None = None) -> Sequence[Row[Any]]:
    """A plain-column SELECT's rows through the session's connection, in one greenlet hop.

    The session's ORM path (entity set-up, loading context) costs about a third of each hot
    statement and gives plain columns nothing (bench/README.md). Pending changes are flushed
    first, as the session's own autoflush would.
    """
    return await session.run_sync(_plain_rows, statement, params)


def _plain_rows(session: Session, statement: Any, params: dict[str, Any] | None) -> Sequence[Row[Any]]:
    if session.autoflush:
        session.flush()
    return session.connection().execute(statement, params).all()
