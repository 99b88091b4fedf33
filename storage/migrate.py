"""Apply Alembic migrations from code: `sideline db upgrade` and bot start-up share this."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _upgrade(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "head")


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(engine: AsyncEngine) -> tuple[str | None, str | None]:
    """Bring the database to the newest revision; returns (before, after)."""
    async with engine.connect() as conn:
        before = await conn.run_sync(_current)
    if before != head_revision():
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade)
    async with engine.connect() as conn:
        after = await conn.run_sync(_current)
    return before, after
