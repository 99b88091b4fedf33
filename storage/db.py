"""The async engine and the unit-of-work session factory, on SQLAlchemy's own drivers.

SQLite runs through ``sqlite+aiosqlite`` (every statement on aiosqlite's thread, never on the event
loop), PostgreSQL through ``postgresql+asyncpg``; both run the same unit-of-work code.

Units of work come in two kinds, and every service already says which it wants:
``async with sessions.begin() as session`` may write; ``async with sessions() as session`` only
reads. On SQLite the two kinds run on different connections: writers one at a time on the
engine's single connection (BEGIN IMMEDIATE), readers beside them on connections of their own
(WAL gives each reader a snapshot while a writer works; ``PRAGMA query_only`` makes a write there
fail loudly instead of slipping past the writers' queue). So a /whoisin never waits behind a
burst of check-ins. On PostgreSQL both kinds share one pool.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from sqlalchemy import CursorResult, Result, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession  # re-export for callers

SQLITE_BUSY_TIMEOUT_MS = 30_000
#: Reader connections on SQLite: each has its own aiosqlite thread, and the sqlite3 module lets go
#: of the interpreter lock while SQLite works, so two readers use a second core.
SQLITE_READERS = 2


class DatabaseUnreachable(Exception):
    """The configured database did not answer the first connection; ``where`` names it (host and port,
    or the SQLite file), without the password, and ``reason`` says what the driver reported."""

    def __init__(self, where: str, reason: str, *, sqlite: bool) -> None:
        super().__init__(f"{where}: {reason}")
        self.where, self.reason, self.sqlite = where, reason, sqlite


def describe_url(url: str) -> str:
    """Where a database URL points, for an operator: the SQLite file, or host:port/dbname (no password)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    return f"{parsed.host or 'localhost'}:{parsed.port or 5432}/{parsed.database or ''}"


def unreachable(url: str, exc: BaseException) -> DatabaseUnreachable:
    """The first connection failed (server down, wrong host, SQLite folder missing...): one exception
    that says where, for the command line and the bot's start to report in one line."""
    original = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps the driver's error
    detail = " ".join(str(original).split()) or original.__class__.__name__
    return DatabaseUnreachable(describe_url(url), f"{original.__class__.__name__}: {detail}"[:300],
                               sqlite=is_sqlite(url))


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
    else:
        kwargs.setdefault("pool_pre_ping", True)
        from storage.models.base import add_postgresql_options  # the models' PostgreSQL-only DDL, on PostgreSQL only

        add_postgresql_options()
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def create_reader(engine: AsyncEngine) -> AsyncEngine | None:
    """SQLite: an engine of read-only connections to the same file, for units that only read
    (dispose it with the writer's). None on PostgreSQL, whose pool serves reads as well."""
    if engine.dialect.name != "sqlite":
        return None
    reader = create_async_engine(engine.url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
                                 pool_size=SQLITE_READERS, max_overflow=0, pool_timeout=120)
    event.listen(reader.sync_engine, "connect", _sqlite_reader_pragmas)
    event.listen(reader.sync_engine, "begin", _sqlite_begin_read)
    return reader


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy, not the driver, decide when a transaction begins (see _sqlite_begin): the
    # pysqlite recipe in SQLAlchemy's SQLite dialect docs; aiosqlite's adapter has the same property.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_reader_pragmas(dbapi_connection: Any, record: Any) -> None:
    _sqlite_pragmas(dbapi_connection, record)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


def _sqlite_begin_read(conn: Any) -> None:
    """A deferred BEGIN: the unit's reads share one snapshot, and no lock is taken."""
    conn.exec_driver_sql("BEGIN")


def _sqlite_begin(conn: Any) -> None:
    """Take the write lock up front: a read-then-write unit never loses an update (docs/testing.md).
    While another process holds it, the wait (the busy timeout) is on aiosqlite's thread."""
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def session_factory(engine: AsyncEngine, reader: AsyncEngine | None = None) -> async_sessionmaker[AsyncSession]:
    """Units of work: ``async with sessions.begin() as session`` commits, or rolls back on error;
    ``async with sessions() as session`` reads, on ``reader`` when there is one (see above)."""
    if reader is None:
        return async_sessionmaker(engine, expire_on_commit=False)
    return ReadsApart(engine, reader)


class ReadsApart(async_sessionmaker[AsyncSession]):
    """A session factory whose plain sessions read through ``reader`` while ``begin()`` units go
    through the writer's engine."""

    def __init__(self, writer: AsyncEngine, reader: AsyncEngine) -> None:
        super().__init__(writer, expire_on_commit=False)
        self.readers = async_sessionmaker(reader, expire_on_commit=False)

    def __call__(self, **local_kw: Any) -> AsyncSession:
        return self.readers(**local_kw)

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncSession]:  # type: ignore[override]  # SQLAlchemy's is typed as a private class
        async with super().__call__() as session, session.begin():
            yield session


def writers_take_turns(session: AsyncSession) -> bool:
    """Whether a unit of work holds the database's write lock from its first statement (SQLite's
    BEGIN IMMEDIATE): then whatever it read is still true when it writes."""
    return session.get_bind().dialect.name == "sqlite"


def rowcount(result: Result[Any]) -> int:
    """How many rows an INSERT, UPDATE or DELETE changed. The session hands back a CursorResult for
    them, which has the count, but SQLAlchemy types ``AsyncSession.execute`` as returning a Result."""
    return cast("CursorResult[Any]", result).rowcount


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
