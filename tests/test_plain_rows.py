"""`plain_rows`: the hot queries' way past the ORM must read what the session's own execute reads."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import Select, bindparam, event, insert, literal_column, select, table, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.db import PlainQuery, create_engine, plain_rows, plain_write, session_factory
from storage.models import CheckIn, Game, Player
from tests.conftest import SampleLeague
from tests.harness import Harness


async def test_plain_rows_sees_changes_the_unit_has_not_flushed(harness: Harness, league: SampleLeague) -> None:
    league_id = next(iter(harness.bot.league_ids.values()))
    async with harness.bot.sessions() as session:
        session.add(Player(league_id=league_id, discord_id=123_456_789_012_345_678, name="Newcomer Nia"))
        rows = await plain_rows(session, select(Player.name).where(Player.discord_id == 123_456_789_012_345_678))
        assert [tuple(r) for r in rows] == [("Newcomer Nia",)]
        await session.rollback()


async def test_plain_rows_converts_columns_as_the_orm_does(harness: Harness, league: SampleLeague) -> None:
    """Times come back as aware UTC datetimes either way: the column types do the work, not the ORM."""
    query = select(Game.code, Game.starts_at, Game.status).order_by(Game.id)
    async with harness.bot.sessions() as session:
        through_orm = (await session.execute(query)).all()
        plain = await plain_rows(session, query)
    assert plain and [tuple(r) for r in plain] == [tuple(r) for r in through_orm]
    assert all(starts.tzinfo is not None and starts.utcoffset().total_seconds() == 0 for _, starts, _ in plain)


# --- PlainQuery: on SQLite the hot queries run straight on the unit's connection ---------------------

def _upcoming(limit_name: str = "limit") -> Select[Any]:
    return (select(Game.code, Game.starts_at, Game.status, Game.venue)
            .where(Game.starts_at >= bindparam("after"), Game.status == "scheduled")
            .order_by(Game.starts_at, Game.id).limit(bindparam(limit_name)))


async def test_a_plain_query_reads_what_the_engine_reads(harness: Harness, league: SampleLeague) -> None:
    """Values go in and columns come out through the column types, as through SQLAlchemy's execute:
    a bound time, given in Tokyo's time, matches the same instant stored in UTC (``>=``), and times
    come back aware UTC."""
    async with harness.bot.sessions() as session:
        starts = [s for s, in (await session.execute(select(Game.starts_at).order_by(Game.starts_at))).all()]
        params = {"after": starts[1].astimezone(ZoneInfo("Asia/Tokyo")), "limit": 50}
        through_engine = (await session.execute(_upcoming(), params)).all()
        plain = await plain_rows(session, PlainQuery(_upcoming()), params)
    assert plain and [tuple(r) for r in plain] == [tuple(r) for r in through_engine]
    assert plain[0][1] == starts[1] and plain[0][1].utcoffset() == timedelta(0)


async def test_a_plain_query_skips_the_engine_on_sqlite_only(harness: Harness, league: SampleLeague) -> None:
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    engine = harness.bot.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        async with harness.bot.sessions() as session:
            rows = await plain_rows(session, PlainQuery(_upcoming()), {"after": datetime(2000, 1, 1, tzinfo=UTC),
                                                                      "limit": 1})
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert len(rows) == 1
    assert len(sent) == (0 if engine.dialect.name == "sqlite" else 1)


async def test_a_plain_query_sees_changes_the_unit_has_not_flushed(harness: Harness, league: SampleLeague) -> None:
    query = PlainQuery(select(Player.name).where(Player.discord_id == bindparam("discord_id")))
    league_id = next(iter(harness.bot.league_ids.values()))
    async with harness.bot.sessions() as session:
        session.add(Player(league_id=league_id, discord_id=123_456_789_012_345_678, name="Newcomer Nia"))
        rows = await plain_rows(session, query, {"discord_id": 123_456_789_012_345_678})
        assert [tuple(r) for r in rows] == [("Newcomer Nia",)]
        await session.rollback()


async def test_a_plain_query_with_an_in_list_goes_the_usual_way(harness: Harness, league: SampleLeague) -> None:
    """An expanding IN list changes the SQL with the values: only SQLAlchemy can run it."""
    query = PlainQuery(select(Game.code).where(Game.code.in_(bindparam("codes", expanding=True))).order_by(Game.code))
    async with harness.bot.sessions() as session:
        codes = [c for c, in (await session.execute(select(Game.code).order_by(Game.code).limit(2))).all()]
        assert [c for c, in await plain_rows(session, query, {"codes": codes})] == codes
        assert await plain_rows(session, query, {"codes": []}) == []


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'plain.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"))
        await conn.execute(text("INSERT INTO t (name) VALUES ('bot')"))
    yield engine
    await engine.dispose()


_NAMES = PlainQuery(select(literal_column("name")).select_from(table("t")).order_by(literal_column("id")))


async def test_a_plain_query_waits_off_the_loop_while_another_process_holds_the_lock(
        engine: AsyncEngine, tmp_path: Path) -> None:
    """The unit's BEGIN IMMEDIATE can't be had at once: the query goes to the thread and waits there."""
    sessions = session_factory(engine)
    other = sqlite3.connect(tmp_path / "plain.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t (name) VALUES ('cli')")

    async def read() -> list[str]:
        async with sessions() as session:
            return [name for name, in await plain_rows(session, _NAMES)]

    waiting = asyncio.create_task(read())
    for _ in range(10):
        await asyncio.sleep(0.01)
    assert not waiting.done()
    other.execute("COMMIT")
    other.close()
    assert await waiting == ["bot", "cli"]


async def test_a_plain_query_holds_the_write_lock_like_any_first_statement(engine: AsyncEngine,
                                                                           tmp_path: Path) -> None:
    other = sqlite3.connect(tmp_path / "plain.db", timeout=0, isolation_level=None)
    async with session_factory(engine).begin() as session:
        assert [name for name, in await plain_rows(session, _NAMES)] == ["bot"]
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    other.close()


async def test_a_plain_query_error_is_sqlalchemys_exception(engine: AsyncEngine) -> None:
    query = PlainQuery(select(literal_column("name")).select_from(table("nowhere")))
    async with session_factory(engine)() as session:
        with pytest.raises(OperationalError, match="no such table"):
            await plain_rows(session, query)


async def _a_game_and_player(session: Any) -> tuple[int, int, int]:
    league_id, game_id = (await session.execute(select(Game.league_id, Game.id).order_by(Game.id).limit(1))).one()
    player_id = await session.scalar(select(Player.id).order_by(Player.id).limit(1))
    return league_id, game_id, player_id


async def test_a_plain_write_lands_like_the_engines(harness: Harness, league: SampleLeague) -> None:
    """The row reads back through the ORM exactly as written, its time in the column's own format."""
    at = datetime(2030, 1, 6, 18, 30, 15, 250, tzinfo=ZoneInfo("America/Toronto"))
    write = PlainQuery(insert(CheckIn.__table__).values(
        {c: bindparam(c) for c in ("league_id", "game_id", "player_id", "status", "updated_at")}))
    async with harness.bot.sessions.begin() as session:
        league_id, game_id, player_id = await _a_game_and_player(session)
        await plain_write(session, write, {"league_id": league_id, "game_id": game_id, "player_id": player_id,
                                           "status": "maybe", "updated_at": at})
    async with harness.bot.sessions() as session:
        row = await session.scalar(select(CheckIn).where(CheckIn.game_id == game_id, CheckIn.player_id == player_id))
        assert row is not None and (row.status, row.updated_at) == ("maybe", at)
        later = await session.scalar(select(CheckIn.id).where(CheckIn.updated_at > at - timedelta(microseconds=1)))
        assert later == row.id  # stored comparable to the ORM's own writes


async def test_a_write_with_python_side_defaults_goes_the_usual_way(harness: Harness, league: SampleLeague) -> None:
    """``updated_at`` is left to the model's default: only SQLAlchemy's execution fills it in."""
    write = PlainQuery(insert(CheckIn.__table__).values(
        {c: bindparam(c) for c in ("league_id", "game_id", "player_id", "status")}))
    async with harness.bot.sessions.begin() as session:
        league_id, game_id, player_id = await _a_game_and_player(session)
        await plain_write(session, write, {"league_id": league_id, "game_id": game_id, "player_id": player_id,
                                           "status": "in"})
    assert write.compiled_for(harness.bot.engine.dialect) is None
    async with harness.bot.sessions() as session:
        stamp = await session.scalar(select(CheckIn.updated_at).where(CheckIn.game_id == game_id,
                                                                      CheckIn.player_id == player_id))
    assert stamp is not None and stamp.tzinfo is not None


async def test_a_plain_query_after_a_commit_runs_in_the_next_transaction(engine: AsyncEngine,
                                                                         tmp_path: Path) -> None:
    """The unit's connection is remembered for one transaction only: after a commit the next query
    begins a new one, sees other processes' commits, and holds the write lock again."""
    other = sqlite3.connect(tmp_path / "plain.db", timeout=0, isolation_level=None)
    async with session_factory(engine)() as session:
        assert [name for name, in await plain_rows(session, _NAMES)] == ["bot"]
        await session.commit()
        other.execute("INSERT INTO t (name) VALUES ('cli')")
        assert [name for name, in await plain_rows(session, _NAMES)] == ["bot", "cli"]
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    other.close()
