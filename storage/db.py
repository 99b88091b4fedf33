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

import contextlib
import functools
import inspect
import logging
import sqlite3
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar, cast

from sqlalchemy import CursorResult, Result, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession  # re-export for callers

log = logging.getLogger("sideline.storage")

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
        kwargs.setdefault("pool_reset_on_return", None)  # _sqlite_reset decides
    else:
        kwargs.setdefault("pool_pre_ping", True)
        from storage.models.base import add_postgresql_options  # the models' PostgreSQL-only DDL, on PostgreSQL only

        add_postgresql_options()
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
        event.listen(engine.sync_engine.pool, "reset", _sqlite_reset)
        event.listen(engine.sync_engine.pool, "invalidate", _sqlite_roll_back_dropped)
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
    event.listen(reader.sync_engine.pool, "invalidate", _sqlite_roll_back_dropped)
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
    _begin(conn, "BEGIN")


def _sqlite_reset(dbapi_connection: Any, record: Any, state: Any) -> None:
    """A connection back in the pool is rolled back only if SQLite says it is in a transaction (a
    unit that failed half way): after a commit, the pool's unconditional ROLLBACK would cost one
    more trip to aiosqlite's thread per unit of work, a check-in's included (bench/units.py).
    aiosqlite's ``in_transaction`` reads SQLite's own flag without that trip."""
    if state.asyncio_safe and not state.terminate_only and record.driver_connection.in_transaction:
        dbapi_connection.rollback()


def _sqlite_roll_back_dropped(dbapi_connection: Any, record: Any, _exception: BaseException | None) -> None:
    """A connection dropped mid-unit (its task cancelled while a statement ran on aiosqlite's thread) is
    rolled back before it closes: closed with that statement still open, SQLite keeps the transaction's
    locks until the garbage collector frees the statement, and every other unit waits for them."""
    if record.driver_connection is not None and record.driver_connection.in_transaction:
        with contextlib.suppress(Exception):  # it is being closed either way
            dbapi_connection.rollback()


def _sqlite_begin(conn: Any) -> None:
    """Take the write lock up front: a read-then-write unit never loses an update (docs/testing.md).
    While another process holds it, the wait (the busy timeout) is on aiosqlite's thread."""
    _begin(conn, "BEGIN IMMEDIATE")


def _begin(conn: Any, statement: str) -> None:
    """Run BEGIN in one trip to aiosqlite's thread (a statement through SQLAlchemy takes three: open
    a cursor, execute, close), through the driver connection SQLAlchemy hands events; a failure
    comes out as SQLAlchemy's own error, as it would from a statement."""
    try:
        conn.connection.dbapi_connection.run_async(lambda driver: driver.execute_fetchall(statement))
    except sqlite3.Error as error:
        raise OperationalError(statement, None, error) from error


def session_factory(engine: AsyncEngine, reader: AsyncEngine | None = None) -> async_sessionmaker[AsyncSession]:
    """Units of work: ``async with sessions.begin() as session`` commits, or rolls back on error;
    ``async with sessions() as session`` reads, on ``reader`` when there is one (see above)."""
    if reader is None:
        return UnitsOfWork(engine, expire_on_commit=False)
    return ReadsApart(engine, reader)


class UnitsOfWork(async_sessionmaker[AsyncSession]):
    """The session factory, telling ``retried_on_disconnect`` when a unit of work has committed: after
    that, running the call again could do its work twice."""

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncSession]:  # type: ignore[override]  # SQLAlchemy's is typed as a private class
        async with self.writer() as session, session.begin():
            yield session
        attempt = _attempt.get()
        if attempt is not None:
            attempt.committed = True

    def writer(self) -> AsyncSession:
        return super().__call__()


class ReadsApart(UnitsOfWork):
    """A session factory whose plain sessions read through ``reader`` while ``begin()`` units go
    through the writer's engine."""

    def __init__(self, writer: AsyncEngine, reader: AsyncEngine) -> None:
        super().__init__(writer, expire_on_commit=False)
        self.readers = async_sessionmaker(reader, expire_on_commit=False)

    def __call__(self, **local_kw: Any) -> AsyncSession:
        return self.readers(**local_kw)


# --- a connection lost mid-command -------------------------------------------------------------------
def is_disconnect(error: BaseException | None) -> bool:
    """The database connection was lost (server restarted, backend terminated, network gone), as
    SQLAlchemy reports it: an invalidated connection, the driver's "connection is closed", or no
    connection to be had. Follows the chain of causes (a service may wrap the error)."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, DBAPIError) and error.connection_invalidated:
            return True
        if isinstance(error, InterfaceError):
            return True
        if isinstance(error, OperationalError) and error.statement is None:  # connecting failed
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


@dataclass
class _Attempt:
    committed: bool = False


_attempt: ContextVar[_Attempt | None] = ContextVar("sideline_unit_attempt", default=None)
_retried: weakref.WeakSet[Callable[..., Any]] = weakref.WeakSet()

P = ParamSpec("P")
T = TypeVar("T")


def once_more_if_disconnected(call: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run a service call again, once, on a fresh connection when the database connection was lost
    under it, so a user sees the normal answer instead of an error. Only while nothing it did has
    committed: its reads, and a write inside one transaction (rolled back with the lost connection;
    pool_pre_ping hands the second run a live connection). A call made inside another (the other
    retries) or handed a session (it runs in its caller's transaction) is left alone."""

    @functools.wraps(call)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        if _attempt.get() is not None or any(isinstance(a, AsyncSession) for a in (*args, *kwargs.values())):
            return await call(*args, **kwargs)
        for tries in (1, 2):
            attempt = _Attempt()
            token = _attempt.set(attempt)
            try:
                return await call(*args, **kwargs)
            except Exception as error:
                if tries == 2 or attempt.committed or not is_disconnect(error):
                    raise
                log.warning("the database connection was lost during %s: running it again on a fresh one",
                            getattr(call, "__qualname__", "a call"))
            finally:
                _attempt.reset(token)
        raise AssertionError("unreachable")

    _retried.add(run)
    return run


def is_retried(call: object) -> bool:
    """Whether a service call runs again after a lost connection: the guard over bot/services asks it
    of every public method (tests/reliability/test_connection_lost.py)."""
    return call in _retried


ServiceClass = TypeVar("ServiceClass", bound=type)


def retried_on_disconnect(cls: ServiceClass) -> ServiceClass:
    """Every public coroutine method of a service class, run again once if the connection is lost
    (``once_more_if_disconnected``). For services whose calls only touch the database."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, once_more_if_disconnected(member))
    return cls


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
