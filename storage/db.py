"""The async engine and the unit-of-work session factory."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Executable, Row, event
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession  # re-export for callers
from sqlalchemy.orm import Session
from sqlalchemy.util import greenlet_spawn

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

    _direct: tuple[Any, OneTripConnection] | None = None  # (the unit's transaction, its connection)

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        await self.close()

    async def dbapi_connection(self) -> OneTripConnection:
        """The unit's SQLite connection inside its transaction (begun if it wasn't yet), for
        :class:`PlainQuery`: a greenlet hop the first time in each transaction, none after."""
        transaction = self.sync_session.get_transaction()
        if self._direct is not None and transaction is self._direct[0] and transaction.is_active:
            return self._direct[1]
        connection = await self.connection()
        direct = connection.sync_connection.connection.dbapi_connection  # type: ignore[union-attr]
        self._direct = (self.sync_session.get_transaction(), direct)
        return direct  # type: ignore[return-value]


class OnLoopSessions(async_sessionmaker[OnLoopSession]):
    def begin(self) -> _UnitOfWork:  # type: ignore[override]
        return _UnitOfWork(self())


class _UnitOfWork:
    """``async with sessions.begin() as session``: commits (or rolls back on error), then closes.

    Two trips into SQLAlchemy's greenlet instead of four (bench/README.md): beginning a session's
    transaction does no I/O, so it runs here; the end, commit or rollback then close, runs in one.
    """

    __slots__ = ("session", "transaction")

    def __init__(self, session: OnLoopSession) -> None:
        self.session = session

    async def __aenter__(self) -> OnLoopSession:
        self.transaction = self.session.sync_session.begin()
        self.transaction.__enter__()
        return self.session

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        await greenlet_spawn(_end_unit, self.session.sync_session, self.transaction, type_, value, traceback)


def _end_unit(session: Session, transaction: Any, type_: Any, value: Any, traceback: Any) -> None:
    """In the greenlet: as a synchronous ``with session.begin()`` block ends, then the close."""
    try:
        transaction.__exit__(type_, value, traceback)
    finally:
        session.close()


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


class PlainQuery:
    """A hot plain-column SELECT (or write: :func:`plain_write`), built once with bound parameters only.

    On SQLite it runs straight on the unit's connection: its SQL compiled once, its values and
    columns converted by the column types as SQLAlchemy would, and none of SQLAlchemy's
    per-statement machinery, which costs twenty times the SQLite work of an indexed lookup
    (bench/README.md). Elsewhere, or when it can't run at once, it is an ordinary statement.
    """

    __slots__ = ("_compiled", "statement")

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[type[Dialect], _Compiled | None] = {}

    def compiled_for(self, dialect: Dialect) -> _Compiled | None:
        try:
            return self._compiled[type(dialect)]
        except KeyError:
            compiled = self._compiled[type(dialect)] = _Compiled.of(self.statement, dialect)
            return compiled


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the bound parameters in the SQL's order
    given: dict[str, Any]  # values the statement itself carries (``Game.status == "scheduled"``)
    to_database: tuple[Callable[[Any], Any] | None, ...]  # per parameter in ``names``
    from_database: tuple[tuple[int, Callable[[Any], Any]], ...]  # (column, conversion), where there is one

    @classmethod
    def of(cls, statement: Executable, dialect: Dialect) -> _Compiled | None:
        """None when the SQL depends on the values (an expanding IN list): only SQLAlchemy runs that."""
        compiled = statement.compile(dialect=dialect)  # type: ignore[attr-defined]
        names = tuple(compiled.positiontup or ())
        binds = compiled.binds
        if (compiled.positiontup is None or compiled.post_compile_params or compiled.literal_execute_params
                or compiled.insert_prefetch or compiled.update_prefetch  # Python-side defaults to fill
                or not all(name in binds for name in names)):
            return None
        # The processors SQLAlchemy's own execution applies (engine/default.py, engine/cursor.py).
        return cls(
            sql=compiled.string,
            names=names,
            given={name: binds[name].effective_value for name in set(names) if not binds[name].required},
            to_database=tuple(binds[name].type._cached_bind_processor(dialect) for name in names),
            from_database=tuple((i, convert) for i, column in enumerate(compiled._result_columns)
                                if (convert := column.type._cached_result_processor(dialect, None)) is not None),
        )

    def arguments(self, params: dict[str, Any]) -> list[Any]:
        values = self.given | params
        return [value if convert is None else convert(value)
                for value, convert in zip((values[name] for name in self.names), self.to_database, strict=True)]

    def rows(self, raw: Sequence[tuple[Any, ...]]) -> Sequence[tuple[Any, ...]]:
        if not self.from_database:
            return raw  # sqlite3's rows are plain tuples already
        out = []
        for row in raw:
            values = list(row)
            for i, convert in self.from_database:
                values[i] = convert(values[i])
            out.append(tuple(values))
        return out


async def plain_rows(session: AsyncSession, query: PlainQuery | Executable,
                     params: dict[str, Any] | None = None) -> Sequence[Sequence[Any]]:
    """A plain-column SELECT's rows through the session's connection, in one greenlet hop at most.

    The session's ORM path (entity set-up, loading context) costs about a third of each hot
    statement and gives plain columns nothing (bench/README.md); a :class:`PlainQuery` on SQLite
    skips the engine's machinery too. Pending changes are flushed first, as the session's own
    autoflush would.
    """
    if isinstance(query, PlainQuery):
        rows = await _rows_on_the_loop(session, query, params or {})
        if rows is not None:
            return rows
        query = query.statement
    return await session.run_sync(_plain_rows, query, params)


async def _rows_on_the_loop(session: AsyncSession, query: PlainQuery,
                            params: dict[str, Any]) -> Sequence[tuple[Any, ...]] | None:
    """The rows straight from SQLite; None: the usual path must run it (PostgreSQL, changes to
    flush first, SQL that depends on the values, the write lock held by another process)."""
    if not isinstance(session, OnLoopSession) or session.new or session.dirty or session.deleted:
        return None
    compiled = query.compiled_for(session.sync_session.get_bind().dialect)
    if compiled is None:
        return None
    dbapi_connection = await session.dbapi_connection()
    arguments = compiled.arguments(params)
    try:
        raw = dbapi_connection.rows_now(compiled.sql, arguments)
    except sqlite3.Error as error:  # as SQLAlchemy would raise it
        raise DBAPIError.instance(compiled.sql, arguments, error, sqlite3.Error) from error
    return None if raw is None else compiled.rows(raw)


async def plain_write(session: AsyncSession, query: PlainQuery, params: dict[str, Any]) -> None:
    """A hot INSERT or UPDATE, built once with bound parameters for every value it writes: on SQLite
    it runs as :func:`plain_rows` runs a query (a write with Python-side defaults doesn't)."""
    if await _rows_on_the_loop(session, query, params) is None:
        await session.execute(query.statement, params)


def _plain_rows(session: Session, statement: Any, params: dict[str, Any] | None) -> Sequence[Row[Any]]:
    if session.autoflush:
        session.flush()
    return session.connection().execute(statement, params).all()
