"""The SQLite adapter: a unit of work runs on the loop unless it must wait for another process's lock,
and the DBAPI behaviour is unchanged."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.db import create_engine, session_factory
from storage.sqlite_driver import OneTripConnection


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)"))
    yield engine
    await engine.dispose()


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every call queued to aiosqlite's thread, by the function's name."""
    seen: list[str] = []
    real = aiosqlite.Connection._execute

    async def counting(self: aiosqlite.Connection, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(getattr(fn, "__name__", repr(fn)))
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counting)
    return seen


async def test_a_unit_of_work_makes_no_thread_trip_when_the_lock_is_free(engine: AsyncEngine,
                                                                         trips: list[str]) -> None:
    sessions = session_factory(engine)
    async with sessions.begin() as s:  # warm the pool: connecting makes its own trips
        await s.execute(text("SELECT 1"))
    trips.clear()
    async with sessions.begin() as s:
        await s.execute(text("INSERT INTO t (name) VALUES ('a')"))
        rows = (await s.execute(text("SELECT id, name FROM t"))).all()
    assert [tuple(r) for r in rows] == [(1, "a")]
    assert trips == []  # BEGIN IMMEDIATE, both statements and COMMIT ran on the loop
    async with sessions() as s:  # and the commit is real
        assert (await s.execute(text("SELECT name FROM t"))).scalars().all() == ["a"]


async def test_a_unit_of_work_waits_for_another_process_on_the_thread_not_the_loop(
        engine: AsyncEngine, tmp_path: Path, trips: list[str]) -> None:
    """While the CLI (say) holds the write lock, a unit of work waits for it off the loop: other
    coroutines keep running, and the unit goes ahead, whole, once the lock is free."""
    sessions = session_factory(engine)
    async with sessions.begin() as s:  # warm the pool
        await s.execute(text("SELECT 1"))
    trips.clear()
    other = sqlite3.connect(tmp_path / "trips.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t (name) VALUES ('cli')")

    async def unit() -> list[str]:
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('bot')"))
            return list((await s.execute(text("SELECT name FROM t ORDER BY id"))).scalars())

    waiting = asyncio.create_task(unit())
    ticks = 0
    for _ in range(20):  # the loop is free while the unit waits
        await asyncio.sleep(0.01)
        ticks += 1
    assert ticks == 20 and not waiting.done()
    other.execute("COMMIT")
    other.close()
    assert await waiting == ["cli", "bot"]  # it saw the other process's committed row
    assert trips == ["_execute"]  # only the first statement (with BEGIN IMMEDIATE) went to the thread


async def test_a_unit_of_work_holds_the_write_lock_from_its_first_statement(engine: AsyncEngine,
                                                                            tmp_path: Path) -> None:
    """BEGIN IMMEDIATE rides with the first statement, but it is still taken before a read:
    another writer can't slip in between a unit's read and its write."""
    other = sqlite3.connect(tmp_path / "trips.db", timeout=0, isolation_level=None)
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        await s.execute(text("SELECT count(*) FROM t"))
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    other.execute("BEGIN IMMEDIATE")  # free once the unit has committed
    other.execute("ROLLBACK")
    other.close()


async def test_a_unit_of_work_with_no_statement_makes_no_trip(engine: AsyncEngine, trips: list[str]) -> None:
    sessions = session_factory(engine)
    async with sessions.begin() as s:  # warm the pool
        await s.execute(text("SELECT 1"))
    trips.clear()
    async with engine.begin():
        pass
    assert trips == []


async def test_engine_uses_the_one_trip_adapter(engine: AsyncEngine) -> None:
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        assert isinstance(raw.dbapi_connection, OneTripConnection)


async def test_rows_counts_and_ids_come_back_as_from_sqlite3(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        inserted = await conn.execute(text("INSERT INTO t (name) VALUES ('a')"))
        assert inserted.lastrowid == 1
        many = await conn.execute(text("INSERT INTO t (name) VALUES (:n)"), [{"n": "b"}, {"n": "c"}, {"n": "d"}])
        assert many.rowcount == 3
        updated = await conn.execute(text("UPDATE t SET name = name || '!' WHERE id > 1"))
        assert updated.rowcount == 3
        result = await conn.execute(text("SELECT id, name FROM t ORDER BY id"))
        assert list(result.keys()) == ["id", "name"]
        assert result.fetchone() == (1, "a")
        assert result.fetchmany(2) == [(2, "b!"), (3, "c!")]
        assert result.fetchall() == [(4, "d!")]
        empty = await conn.execute(text("SELECT id FROM t WHERE id < 0"))
        assert empty.all() == []


async def test_an_error_is_the_usual_exception_and_rolls_the_unit_back(engine: AsyncEngine) -> None:
    sessions = session_factory(engine)
    with pytest.raises(IntegrityError):
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('kept only if committed')"))
            await s.execute(text("INSERT INTO t (name) VALUES (NULL)"))
    async with sessions.begin() as s:
        assert (await s.execute(text("SELECT count(*) FROM t"))).scalar_one() == 0
        await s.execute(text("INSERT INTO t (name) VALUES ('after')"))  # the connection is still usable
    async with sessions() as s:
        assert (await s.execute(text("SELECT name FROM t"))).scalars().all() == ["after"]


async def test_streaming_results_still_work(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        await conn.execute(text("INSERT INTO t (name) VALUES (:n)"), [{"n": f"p{i}"} for i in range(50)])
    async with engine.connect() as conn:
        streamed = await conn.stream(text("SELECT name FROM t ORDER BY id"))
        names = [row.name async for row in streamed]
    assert names == [f"p{i}" for i in range(50)]


async def test_a_unit_of_work_commits_and_closes_in_the_callers_task(engine: AsyncEngine) -> None:
    """No cleanup task per unit (SQLAlchemy's stock exit makes two): commit and close never wait here."""
    sessions = session_factory(engine)
    started: list[asyncio.Task[object]] = []
    loop = asyncio.get_running_loop()

    def recording(loop: asyncio.AbstractEventLoop, coro, **kwargs):  # type: ignore[no-untyped-def]
        task = asyncio.Task(coro, loop=loop, **kwargs)
        started.append(task)
        return task

    loop.set_task_factory(recording)
    try:
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('committed')"))
        async with sessions() as s:
            names = (await s.execute(text("SELECT name FROM t"))).scalars().all()
    finally:
        loop.set_task_factory(None)
    assert names == ["committed"]
    assert started == []
    assert engine.pool.checkedout() == 0  # both sessions gave the connection back


async def test_a_cancelled_unit_of_work_rolls_back_and_gives_its_connection_back(engine: AsyncEngine) -> None:
    sessions = session_factory(engine)
    inside = asyncio.Event()

    async def unit() -> None:
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('abandoned')"))
            inside.set()
            await asyncio.sleep(60)  # say, waiting on Discord when the bot shuts down

    task = asyncio.create_task(unit())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert engine.pool.checkedout() == 0
    async with sessions() as s:
        assert (await s.execute(text("SELECT count(*) FROM t"))).scalar_one() == 0


async def test_a_unit_of_work_enters_sqlalchemys_greenlet_twice(engine: AsyncEngine,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Once for the connection, once to commit and close: each entry costs a command about 8 µs."""
    import sqlalchemy.ext.asyncio.session as async_session

    import storage.db

    entries: list[str] = []
    real = async_session.greenlet_spawn

    async def counting(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        entries.append(getattr(fn, "__name__", repr(fn)))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(async_session, "greenlet_spawn", counting)
    monkeypatch.setattr(storage.db, "greenlet_spawn", counting)
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        await s.execute(text("INSERT INTO t (name) VALUES ('kept')"))
    assert len(entries) == 2
    entries.clear()
    with pytest.raises(RuntimeError):
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('rolled back')"))
            raise RuntimeError("the command failed")
    assert len(entries) == 2
    assert engine.pool.checkedout() == 0
    async with sessions() as s:
        assert (await s.execute(text("SELECT name FROM t"))).scalars().all() == ["kept"]
