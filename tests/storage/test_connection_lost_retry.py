"""``once_more_if_disconnected`` (storage/db.py): when a service call runs again after its connection
was lost, and when it must not. The real thing, with PostgreSQL backends terminated under a burst of
commands, is tests/reliability/test_connection_lost.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from storage.db import create_engine, is_disconnect, retried_on_disconnect, session_factory


def lost() -> DBAPIError:
    return DBAPIError("SELECT 1", {}, ConnectionResetError("gone"), connection_invalidated=True)


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine: AsyncEngine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'retry.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"))
    yield session_factory(engine)
    await engine.dispose()


@retried_on_disconnect
class Service:
    """Writes a row per unit; ``losses`` say which unit numbers lose their connection before committing."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], losses: set[int]) -> None:
        self.sessions, self.losses, self.units = sessions, losses, 0

    async def write(self, units: int = 1) -> int:
        for _ in range(units):
            self.units += 1
            async with self.sessions.begin() as session:
                await session.execute(text("INSERT INTO t (name) VALUES ('x')"))
                if self.units in self.losses:
                    raise lost()
        return await self.count()

    async def count(self) -> int:
        async with self.sessions() as session:
            return int(await session.scalar(text("SELECT count(*) FROM t")) or 0)

    async def in_callers_unit(self, session: AsyncSession) -> None:
        self.units += 1
        raise lost()


async def test_a_unit_that_lost_its_connection_runs_again_once(sessions: async_sessionmaker[AsyncSession]) -> None:
    service = Service(sessions, losses={1})
    assert await service.write() == 1, "the first unit rolled back, the second stored one row"
    assert service.units == 2


async def test_lost_twice_raises_and_stores_nothing(sessions: async_sessionmaker[AsyncSession]) -> None:
    service = Service(sessions, losses={1, 2})
    with pytest.raises(DBAPIError) as raised:
        await service.write()
    assert is_disconnect(raised.value) and service.units == 2
    assert await service.count() == 0


async def test_not_again_once_a_unit_has_committed(sessions: async_sessionmaker[AsyncSession]) -> None:
    service = Service(sessions, losses={2})  # the first of two units committed: running again would repeat it
    with pytest.raises(DBAPIError):
        await service.write(units=2)
    assert service.units == 2 and await service.count() == 1


async def test_a_call_in_its_callers_transaction_is_left_to_the_caller(
        sessions: async_sessionmaker[AsyncSession]) -> None:
    service = Service(sessions, losses=set())
    async with sessions() as session:
        with pytest.raises(DBAPIError):
            await service.in_callers_unit(session)
    assert service.units == 1


def test_only_a_lost_connection_counts() -> None:
    assert is_disconnect(lost())
    wrapped = RuntimeError("while saving")
    wrapped.__cause__ = lost()
    assert is_disconnect(wrapped)
    assert not is_disconnect(IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not is_disconnect(DBAPIError("SELECT 1", {}, Exception("syntax error")))
    assert not is_disconnect(ValueError("no"))
