"""`sideline db backup`: a copy taken while the bot writes opens and is consistent."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.services import outbox
from bot.services.outbox import Outgoing
from storage import migrate
from storage.backup import BackupError, backup_sqlite
from storage.db import create_engine, session_factory
from storage.models import League
from tests.conftest import GUILD


async def test_a_backup_taken_during_writes_is_consistent(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'live.db'}"
    engine = create_engine(url)
    await migrate.upgrade(engine)
    sessions = session_factory(engine)
    async with sessions.begin() as s:
        league = League(key="coed", guild_id=GUILD, name="Coed", preset="coed-ball-hockey")
        s.add(league)
    stop = asyncio.Event()

    async def writer() -> int:
        n = 0
        from datetime import UTC, datetime

        while not stop.is_set():
            async with sessions.begin() as s:
                for _ in range(20):
                    await outbox.enqueue(s, league_id=league.id, guild_id=GUILD, key=f"w{n}",
                                         due_at=datetime(2030, 1, 1, tzinfo=UTC) + timedelta(minutes=n),
                                         message=Outgoing(content="x" * 200), channel_id=1)
                    n += 1
            await asyncio.sleep(0)
        return n

    task = asyncio.create_task(writer())
    await asyncio.sleep(0.3)
    backups = []
    for i in range(3):
        dest = tmp_path / f"backup{i}.db"
        await asyncio.to_thread(backup_sqlite, url, dest)
        backups.append(dest)
        await asyncio.sleep(0.1)
    stop.set()
    written = await task
    await engine.dispose()

    counts = []
    for dest in backups:
        with sqlite3.connect(dest) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            count = conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
            assert count % 20 == 0, "a backup caught half a transaction"
            assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == migrate.head_revision()
            counts.append(count)
    assert counts == sorted(counts) and 0 < counts[-1] <= written


def test_backup_refuses_postgres_and_existing_files(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="pg_dump"):
        backup_sqlite("postgresql+asyncpg://postgres@localhost/x", tmp_path / "b.db")
    (tmp_path / "exists.db").write_text("")
    (tmp_path / "src.db").write_text("")
    with pytest.raises(BackupError, match="exists already"):
        backup_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'src.db'}", tmp_path / "exists.db")
