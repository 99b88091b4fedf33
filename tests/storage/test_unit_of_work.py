"""The unit of work on SQLAlchemy's stock drivers: what the bot relies on from storage/db.py.

SQLite: every unit takes the write lock at its BEGIN (IMMEDIATE), waits for another process's lock
off the event loop, and rolls back whole on an error or a cancellation. Reads come back as named
rows with the column types applied, on SQLite and PostgreSQL alike. Units that only read
(``sessions()``) don't queue behind the writer, and on SQLite they cannot write.
"""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

import storage.db
from bot.services.checkins.service import record_checkin
from bot.services.shared.attendance import CheckInContextQuery, roster_answers
from storage.db import create_engine, session_factory
from storage.lookups import team_schedule
from storage.models import CheckIn, Game, Player, RosterEntry
from tests.conftest import SampleLeague
from tests.harness import Harness


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'unit.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)"))
    yield engine
    await engine.dispose()


async def test_sqlite_runs_on_sqlalchemys_own_aiosqlite_driver_with_its_pragmas(engine: AsyncEngine) -> None:
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        assert type(raw.dbapi_connection) is AsyncAdapt_aiosqlite_connection
        pragmas = [(await conn.exec_driver_sql(f"PRAGMA {name}")).scalar_one()
                   for name in ("journal_mode", "foreign_keys", "busy_timeout")]
    assert pragmas == ["wal", 1, 30_000]


async def test_a_unit_of_work_holds_the_write_lock_from_its_first_statement(engine: AsyncEngine,
                                                                            tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: another writer can't slip in between a unit's read and its write."""
    other = sqlite3.connect(tmp_path / "unit.db", timeout=0, isolation_level=None)
    async with session_factory(engine).begin() as s:
        await s.execute(text("SELECT count(*) FROM t"))
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    other.execute("BEGIN IMMEDIATE")  # free once the unit has committed
    other.execute("ROLLBACK")
    other.close()


async def test_a_connection_given_back_inside_a_transaction_is_rolled_back(engine: AsyncEngine,
                                                                           tmp_path: Path) -> None:
    """The pool rolls back only a connection SQLite says is in a transaction (none after a commit):
    one left holding the write lock by a transaction SQLAlchemy never saw still lets it go."""
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        await raw.driver_connection.execute("BEGIN IMMEDIATE")
        await raw.driver_connection.execute("INSERT INTO t (name) VALUES ('left open')")
        assert raw.driver_connection.in_transaction
    other = sqlite3.connect(tmp_path / "unit.db", timeout=0, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the lock is free again
    assert other.execute("SELECT count(*) FROM t").fetchone() == (0,)  # and the insert was undone
    other.execute("ROLLBACK")
    other.close()


async def test_a_unit_that_cannot_get_the_write_lock_fails_with_sqlalchemys_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BEGIN IMMEDIATE runs in one trip to the driver's thread, outside SQLAlchemy's statements: its
    failure still comes out as SQLAlchemy's OperationalError, and the connection stays usable."""
    monkeypatch.setattr(storage.db, "SQLITE_BUSY_TIMEOUT_MS", 100)
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'busy.db'}")
    sessions = session_factory(engine)
    async with sessions.begin() as s:  # connected, pragmas set
        await s.execute(text("SELECT 1"))
    other = sqlite3.connect(tmp_path / "busy.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(OperationalError, match="locked"):
        async with sessions.begin() as s:
            await s.execute(text("SELECT 1"))
    other.execute("ROLLBACK")
    other.close()
    async with sessions.begin() as s:
        assert (await s.execute(text("SELECT 1"))).scalar() == 1
    await engine.dispose()


async def test_a_unit_of_work_waits_for_another_process_off_the_event_loop(engine: AsyncEngine,
                                                                           tmp_path: Path) -> None:
    """While the CLI (say) holds the write lock, other coroutines keep running, and the unit goes
    ahead, whole, once the lock is free."""
    sessions = session_factory(engine)
    async with sessions.begin() as s:  # connect first: the pragmas are not what waits here
        await s.execute(text("SELECT 1"))
    other = sqlite3.connect(tmp_path / "unit.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t (name) VALUES ('cli')")

    async def unit() -> list[str]:
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('bot')"))
            return list((await s.execute(text("SELECT name FROM t ORDER BY id"))).scalars())

    waiting = asyncio.create_task(unit())
    ticks = 0
    for _ in range(20):
        await asyncio.sleep(0.01)
        ticks += 1
    assert ticks == 20 and not waiting.done()
    other.execute("COMMIT")
    other.close()
    assert await waiting == ["cli", "bot"]  # it saw the other process's committed row


async def test_an_error_rolls_the_unit_back_and_the_connection_stays_usable(engine: AsyncEngine) -> None:
    sessions = session_factory(engine)
    with pytest.raises(IntegrityError):
        async with sessions.begin() as s:
            await s.execute(text("INSERT INTO t (name) VALUES ('kept only if committed')"))
            await s.execute(text("INSERT INTO t (name) VALUES (NULL)"))
    async with sessions.begin() as s:
        assert (await s.execute(text("SELECT count(*) FROM t"))).scalar_one() == 0
        await s.execute(text("INSERT INTO t (name) VALUES ('after')"))
    async with sessions() as s:
        assert (await s.execute(text("SELECT name FROM t"))).scalars().all() == ["after"]


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
    async with sessions() as s:  # one connection per process: this waits forever if it wasn't returned
        assert (await asyncio.wait_for(s.execute(text("SELECT count(*) FROM t")), 5)).scalar_one() == 0


async def test_a_unit_cancelled_mid_statement_lets_the_write_lock_go_at_once(engine: AsyncEngine,
                                                                           tmp_path: Path) -> None:
    """A task cancelled while its statement runs on aiosqlite's thread has its connection dropped; closed
    with that statement still open, SQLite would keep the write lock until the garbage collector found it."""
    sessions = session_factory(engine)
    started = asyncio.Event()

    async def unit() -> None:
        async with sessions.begin() as s:
            started.set()
            await s.execute(text("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000)"
                                 " SELECT count(*) FROM n"))

    gc.disable()  # the garbage collector would hide it: the lock must go with the connection
    try:
        task = asyncio.create_task(unit())
        await started.wait()
        await asyncio.sleep(0.05)  # the count is running on aiosqlite's thread
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        other = sqlite3.connect(tmp_path / "unit.db", timeout=0, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        other.close()
    finally:
        gc.enable()


def test_a_process_that_never_disposes_its_engine_still_exits(tmp_path: Path) -> None:
    """A CLI command that fails before its cleanup must not leave the process waiting forever on
    aiosqlite's worker thread (SQLAlchemy before 2.0.46 with aiosqlite 0.22: it does)."""
    script = (
        "import asyncio\n"
        "from sqlalchemy import text\n"
        "from storage.db import create_engine, session_factory\n"
        "async def main():\n"
        f"    engine = create_engine('sqlite+aiosqlite:///{tmp_path / 'left.db'}')\n"
        "    async with session_factory(engine).begin() as session:\n"
        "        await session.execute(text('SELECT 1'))\n"
        "asyncio.run(main())\n"
    )
    root = Path(__file__).resolve().parents[2]
    finished = subprocess.run([sys.executable, "-c", script], cwd=root, timeout=120, capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr


# --- the hot reads and the check-in write: named rows, column types applied (SQLite and PostgreSQL) ---

async def test_a_check_in_write_reads_back_as_written(harness: Harness, league: SampleLeague) -> None:
    """The upsert's time, given in Toronto's time, reads back as the same instant, comparable to the
    ORM's own writes; the context read after it names the answer it replaced."""
    at = datetime(2030, 1, 6, 18, 30, 15, 250, tzinfo=ZoneInfo("America/Toronto"))
    async with harness.bot.sessions.begin() as session:
        league_id, game_id, code = (await session.execute(
            select(Game.league_id, Game.id, Game.code).order_by(Game.id).limit(1))).one()
        player_id, discord_id = (await session.execute(
            select(Player.id, Player.discord_id).join(RosterEntry, RosterEntry.player_id == Player.id)
            .order_by(Player.id).limit(1))).one()
        assert await record_checkin(session, league_id=league_id, game_id=game_id, player_id=player_id,
                                    status="maybe", now=at) is None
        assert await record_checkin(session, league_id=league_id, game_id=game_id, player_id=player_id,
                                    status="in", now=at) == "maybe"
    async with harness.bot.sessions() as session:
        row = await session.scalar(select(CheckIn).where(CheckIn.game_id == game_id, CheckIn.player_id == player_id))
        assert row is not None and (row.status, row.updated_at) == ("in", at)
        later = await session.scalar(select(CheckIn.id).where(CheckIn.updated_at > at - timedelta(microseconds=1)))
        assert later == row.id
        ctx = await CheckInContextQuery(harness.bot.services.discipline)(session, league_id, discord_id, code=code)
        assert ctx is not None and (ctx.game_id, ctx.player_id, ctx.previous) == (game_id, player_id, "in")
        assert ctx.might_be_suspended is False
        assert ctx.game.code == code and ctx.game.starts_at.utcoffset() == timedelta(0)


async def test_the_hot_reads_return_named_rows_in_utc(harness: Harness, league: SampleLeague) -> None:
    async with harness.bot.sessions() as session:
        league_id, team_id, player_id = (await session.execute(
            select(RosterEntry.league_id, RosterEntry.team_id, RosterEntry.player_id).limit(1))).one()
        starts = (await session.scalars(select(Game.starts_at).order_by(Game.starts_at))).all()
        rows = await team_schedule(session, league_id, team_id, starts[0] - timedelta(days=1), 50, player_id)
        assert rows and all(r.starts_at.utcoffset() == timedelta(0) for r in rows)
        assert {r.answer for r in rows} <= {None, "in", "out", "maybe"}
        game_id = await session.scalar(select(Game.id).where(Game.code == rows[0].code))
        assert game_id is not None
        answers = await roster_answers(session, league_id, team_id, game_id)
        assert player_id in {a.player_id for a in answers}


async def test_a_read_does_not_wait_for_a_writer_and_sees_only_what_is_committed(harness: Harness,
                                                                                league: SampleLeague) -> None:
    sessions = harness.bot.sessions
    renamed = update(Player).where(Player.name == "Dan Roy").values(name="Daniel Roy")
    async with sessions.begin() as writer:
        await writer.execute(renamed)  # holds the write lock, uncommitted
        async with sessions() as reader:  # on SQLite the writer's one connection is taken: a reader's own
            names = set(await asyncio.wait_for(reader.scalars(select(Player.name)), 10))
        assert "Dan Roy" in names and "Daniel Roy" not in names
    async with sessions() as reader:
        assert "Daniel Roy" in set(await reader.scalars(select(Player.name)))


async def test_a_read_only_unit_cannot_write_on_sqlite(harness: Harness, league: SampleLeague) -> None:
    if harness.bot.reader is None:
        pytest.skip("PostgreSQL: reads and writes share one pool")
    async with harness.bot.sessions() as reader:
        with pytest.raises(OperationalError, match="readonly"):
            await reader.execute(update(CheckIn).values(status="out"))
