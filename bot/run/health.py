"""`sideline health`: is this deployment working? For a container's HEALTHCHECK, a systemd watchdog
script or a monitor.

Healthy means: the database answers, its migrations are the ones this version of Sideline expects,
and no queued message has been due for longer than the allowed backlog age (``[bot]
health_max_backlog_age``, default 10 minutes, or ``--max-backlog-age``): a courier that stopped
sending, or fell far behind, shows there. One JSON line on stdout either way; exit 0 when healthy,
1 otherwise with ``reason`` saying why. It only reads: a missing SQLite file is reported, not
created, and it never takes SQLite's write lock (the bot's units of work take it at BEGIN,
storage/db.py), so it answers while the bot is busy.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import func, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.clock import SystemClock
from bot.config.settings import Settings
from storage import migrate
from storage.models import OutboxMessage

#: The database must answer within this many seconds (Docker's HEALTHCHECK waits 30 s by default).
TIMEOUT = 5.0

DATABASE_UNREACHABLE = "database_unreachable"
MIGRATIONS_BEHIND = "migrations_behind"
MIGRATIONS_UNKNOWN = "migrations_unknown"  # the database was migrated by a newer Sideline
BACKLOG_TOO_OLD = "backlog_too_old"


@dataclass(frozen=True)
class Health:
    ok: bool
    reason: str | None
    detail: str
    revision: str | None = None
    due_messages: int | None = None
    oldest_due_age_s: float | None = None
    max_backlog_age_s: float | None = None

    def json_line(self) -> str:
        return json.dumps(asdict(self), sort_keys=False)


class Unreachable(Exception):
    """The database did not answer; the message says how, without a password."""


async def check(database_url: str, max_backlog_age: timedelta, now: datetime,
                answer_within: float = TIMEOUT) -> Health:
    limit = max_backlog_age.total_seconds()
    try:
        engine = reader_engine(database_url, answer_within)
    except Unreachable as exc:
        return Health(False, DATABASE_UNREACHABLE, str(exc), max_backlog_age_s=limit)
    try:
        async with asyncio.timeout(answer_within):
            return await _check(engine, max_backlog_age, now)
    except (OSError, SQLAlchemyError, TimeoutError) as exc:
        shown = make_url(database_url).render_as_string(hide_password=True)
        why = f"no answer within {answer_within:.0f} s" if isinstance(exc, TimeoutError) else _first_line(exc)
        return Health(False, DATABASE_UNREACHABLE, f"database {shown}: {why}", max_backlog_age_s=limit)
    finally:
        await engine.dispose()


async def _check(engine: AsyncEngine, max_backlog_age: timedelta, now: datetime) -> Health:
    limit = max_backlog_age.total_seconds()
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))
    current, heads = await migrate.current_revisions(engine), migrate.head_revisions()
    revision = ",".join(sorted(current)) or None
    if current != heads:
        expected = ",".join(sorted(heads))
        if current - migrate.known_revisions():
            return Health(False, MIGRATIONS_UNKNOWN, f"database at revision {revision}, which this version of "
                          f"Sideline does not know (it expects {expected}): a newer version migrated it",
                          revision, max_backlog_age_s=limit)
        return Health(False, MIGRATIONS_BEHIND, f"database at revision {revision or 'none'}, expected "
                      f"{expected}: start the bot or run `sideline db upgrade`", revision, max_backlog_age_s=limit)
    waiting = (OutboxMessage.status.in_(("pending", "sending")), OutboxMessage.next_attempt_at <= now)
    async with engine.connect() as conn:
        due, oldest = (await conn.execute(
            select(func.count(), func.min(OutboxMessage.next_attempt_at)).where(*waiting))).one()
    age = max(0.0, (now - _aware(oldest, now)).total_seconds()) if oldest is not None else None
    if age is not None and age > limit:
        return Health(False, BACKLOG_TOO_OLD, f"{due} queued message(s) due; the oldest has waited {age:.0f} s, "
                      f"more than {limit:.0f} s: is the bot running and reaching Discord?",
                      revision, due, age, limit)
    return Health(True, None, "database answers, migrations current, outbox keeping up", revision, due, age, limit)


def reader_engine(database_url: str, timeout: float = TIMEOUT) -> AsyncEngine:
    """An engine that only reads: SQLite opened read-only (never created, no BEGIN IMMEDIATE);
    PostgreSQL with a connect timeout."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return create_async_engine(url, connect_args={"timeout": timeout}, pool_pre_ping=False)
    database = url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        raise Unreachable(f"database {url.render_as_string()}: not a file the bot shares with this check")
    path = Path(database).resolve()
    if not path.is_file():
        raise Unreachable(f"database {path}: no such file (the bot creates it at its first start)")
    read_only = URL.create(url.drivername, database=f"file:{quote(str(path))}", query={"mode": "ro", "uri": "true"})
    return create_async_engine(read_only, connect_args={"timeout": timeout})


def _aware(moment: datetime, like: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=like.tzinfo)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{exc.__class__.__name__}: {lines[0][:200]}" if lines else exc.__class__.__name__


async def run(settings: Settings, max_backlog_age: timedelta | None = None) -> int:
    """Print the one JSON line; 0 when healthy, else 1."""
    health = await check(settings.database_url, max_backlog_age or settings.max_backlog_age, SystemClock().now())
    print(health.json_line(), flush=True)
    return 0 if health.ok else 1
