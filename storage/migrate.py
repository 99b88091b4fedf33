"""Apply Alembic migrations from code: `sideline db upgrade` and bot start-up share this.

Alembic itself is imported only when there is something to apply: a bot restarting on an
up-to-date database checks the revision ids with one query and a glance at the files
(Alembic and Mako would otherwise cost ~11 MB of a ~80 MB budget, bench/idle.py).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.db import unreachable

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_REVISION = re.compile(r"^revision\s*=\s*['\"]([0-9a-zA-Z_]+)['\"]", re.MULTILINE)
_DOWN = re.compile(r"^down_revision\s*=\s*(.+)$", re.MULTILINE)


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revisions() -> frozenset[str]:
    """The newest revision(s), read from the migration files without importing Alembic."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        revision = _REVISION.search(source)
        if revision is None:
            continue
        revisions.add(revision.group(1))
        down = _DOWN.search(source)
        if down is not None:
            parents.update(re.findall(r"['\"]([0-9a-zA-Z_]+)['\"]", down.group(1)))
    return frozenset(revisions - parents)


def known_revisions() -> frozenset[str]:
    """Every revision this version of Sideline has a migration file for."""
    found = (_REVISION.search(path.read_text(encoding="utf-8")) for path in (MIGRATIONS / "versions").glob("*.py"))
    return frozenset(match.group(1) for match in found if match is not None)


async def current_revisions(engine: AsyncEngine) -> frozenset[str]:
    """The revision(s) the database is at; empty before the first migration."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


def head_revision() -> str | None:
    heads = head_revisions()
    return next(iter(heads)) if len(heads) == 1 else None


def _upgrade(connection: Connection) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection), "heads")


def _current(connection: Connection) -> frozenset[str]:
    if not inspect(connection).has_table("alembic_version"):
        return frozenset()
    return frozenset(row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version")))


async def upgrade(engine: AsyncEngine) -> tuple[str | None, str | None]:
    """Bring the database to the newest revision; returns (before, after). DatabaseUnreachable when
    the first connection fails, so the caller can say where in one line."""
    url = engine.url.render_as_string(hide_password=True)
    folder = _sqlite_folder(engine)
    if folder is not None and not folder.is_dir():  # say so before SQLite's "unable to open database file"
        raise unreachable(url, FileNotFoundError(f"no folder {folder}"))
    with _unreachable(url):
        async with engine.connect() as conn:
            before = await conn.run_sync(_current)
    if before != head_revisions():
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade)
    async with engine.connect() as conn:
        after = await conn.run_sync(_current)
    return _one(before), _one(after)


@contextlib.contextmanager
def _unreachable(url: str) -> Iterator[None]:
    """The first connection's failure as DatabaseUnreachable, so the caller can say where in one line."""
    try:
        yield
    except (OSError, TimeoutError, DBAPIError) as exc:
        raise unreachable(url, exc) from exc
    except Exception as exc:  # the PostgreSQL driver's own errors (wrong password, no such database)
        if type(exc).__module__.split(".")[0] != "asyncpg":
            raise
        raise unreachable(url, exc) from exc


#: PostgreSQL advisory lock (two-key form) held while a process of the bot starts, in the space after
#: bot/delivery/claims.py's presence locks (PRESENCE_SPACE + 1): never counted among the live processes.
_STARTING = text("SELECT pg_advisory_lock(1396984911, 0)")
_STARTED = text("SELECT pg_advisory_unlock(1396984911, 0)")


@contextlib.asynccontextmanager
async def one_start_at_a_time(engine: AsyncEngine) -> AsyncIterator[None]:
    """PostgreSQL: processes of the bot started together (shards, bot/config/shards.py) migrate the database
    and register their leagues one after the other, not into each other's half-made tables and rows.
    A session lock on a connection of its own, which PostgreSQL drops if the process dies holding it.
    SQLite: one process by design (bot/run/lifecycle.py), nothing to wait for."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with _unreachable(engine.url.render_as_string(hide_password=True)):
        conn = await engine.connect()
    try:
        await conn.execute(_STARTING)
        await conn.commit()
        yield
        await conn.execute(_STARTED)
        await conn.commit()
    finally:
        await conn.close()


def _sqlite_folder(engine: AsyncEngine) -> Path | None:
    """The folder of a SQLite database file; None for PostgreSQL or an in-memory database."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).resolve().parent


def _one(revisions: frozenset[str]) -> str | None:
    return ",".join(sorted(revisions)) or None
