"""What every `sideline` subcommand shares: how it answers, how it fails, how it opens the database."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.cli import failures
from bot.clock import SystemClock
from bot.composition import Services, build_services
from bot.config.settings import LeagueSettings, Settings, SettingsError
from bot.services.leagues import register_leagues
from bot.services.setup import stored
from storage import migrate
from storage.db import create_engine, session_factory
from storage.models import League

Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]  # what each subcommand sets as `handler`


def say(args: argparse.Namespace, human: str, data: Any) -> None:
    """The answer on stdout: ``data`` as JSON with ``--json``, else the human line(s)."""
    print(json.dumps(data, indent=2, default=str) if getattr(args, "json", False) else human)


def fail(message: str, code: int = 1) -> int:
    """One line on stderr (``{"error": ...}`` on stdout too with --json), and the exit code to return."""
    return failures.report(message, code)


@dataclass(frozen=True)
class Database:
    """The configured database, migrated to the newest revision, as a subcommand works on it."""

    settings: Settings
    sessions: async_sessionmaker[AsyncSession]
    revision_before: str | None
    revision_after: str | None

    def services(self) -> Services:
        """The services wired as the bot wires them (bot/composition.py), so a league's rules apply alike."""
        return build_services(self.settings, self.sessions, SystemClock())

    async def register_leagues(self) -> tuple[dict[str, int], list[str]]:
        """Mirror the configured leagues as the bot does at start: a renamed key keeps its server's data."""
        async with self.sessions.begin() as session:
            return await register_leagues(session, self.settings)


@asynccontextmanager
async def open_database(settings: Settings) -> AsyncIterator[Database]:
    """Create the engine, apply pending migrations (start-up does too), and dispose of it afterwards."""
    engine = create_engine(settings.database_url)
    try:
        before, after = await migrate.upgrade(engine)
        yield Database(settings, session_factory(engine), before, after)
    finally:
        await engine.dispose()


async def load_discord_leagues(settings: Settings) -> None:
    """Add the leagues set up with /setup to ``settings``, so ``--league KEY`` finds them as it finds the
    file's (and an unknown key lists them too). Reads an existing database only: never creates or
    migrates it; a database it can't read adds nothing, and the command then says what is wrong."""
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        if not database or not await asyncio.to_thread(Path(database).is_file):
            return
    engine = create_engine(settings.database_url)
    try:
        async with engine.connect() as conn:
            if not await conn.run_sync(lambda sync: inspect(sync).has_table("league_setups")):
                return
        async with session_factory(engine)() as session:
            found = await stored.all_stored(session)
    except (OSError, TimeoutError, SQLAlchemyError, SettingsError):
        return
    finally:
        await engine.dispose()
    for item in found:
        if not settings.from_file(item.settings.guild_id):
            settings.in_discord[item.settings.guild_id] = item.settings


async def stored_league_id(session: AsyncSession, league: LeagueSettings) -> int | None:
    """The league's row id, or None while nothing of it is stored (the bot or an import creates it)."""
    return await session.scalar(select(League.id).where(League.key == league.key))
