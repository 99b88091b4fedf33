"""What ``--league KEY`` names, for every subcommand alike: a league of the config file or one set up
with /setup in Discord (stored in the database), and its row.

A subcommand opens its league with :func:`open_league` and gets the database with it; an unknown key
raises ``UnknownLeague`` (bot/config/settings.py), one line listing the keys of both sources
(bot/cli/failures.py). Without a database there is no league from Discord, so an unknown key then
fails before anything is created.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.cli.common import Database, open_database, stored_league_id
from bot.config.settings import LeagueSettings, Settings

FILE = "file"  # set up by a [[leagues]] table of the config file
DISCORD = "discord"  # set up with /setup league, stored in the database
LEAGUE_HELP = "the league's key, from the config file or set up in Discord (see: sideline leagues list)"


@dataclass(frozen=True)
class KnownLeague:
    """A league as ``--league KEY`` found it."""

    settings: LeagueSettings
    id: int | None  # its row; None while nothing of it is stored (a file's league the bot never ran)
    set_up_in: str  # FILE or DISCORD
    notes: tuple[str, ...] = ()  # what registering the file's leagues changed: a renamed key, a moved server

    @property
    def key(self) -> str:
        return self.settings.key


async def database_exists(settings: Settings) -> bool:
    """Whether there may be leagues from Discord to read: a SQLite file that is there, or a server
    (asked when opened: an unreachable one is its own one-line failure)."""
    url = make_url(settings.database_url)
    if url.get_backend_name() != "sqlite":
        return True
    database = url.database or ""
    return bool(database) and await asyncio.to_thread(Path(database).is_file)


async def publish_discord_leagues(db: Database) -> None:
    """Add the leagues set up with /setup to the settings, as the bot does at start (a server the
    config file names stays the file's)."""
    await db.services().setup.load()


def _known(settings: Settings, key: str) -> bool:
    return any(lg.key == key for lg in settings.all_leagues)


async def find(db: Database, key: str, *, register: bool = False) -> KnownLeague:
    """The league ``key`` names in the open database. ``register``: a command that writes gives a
    league of the file its row first, as the bot does at start (a renamed key keeps its server's
    data, and a swap of servers is refused); a league set up in Discord has its row already."""
    settings = db.settings
    if not _known(settings, key):
        await publish_discord_leagues(db)
    league = settings.league(key)  # UnknownLeague lists the keys of the file and of Discord
    if not settings.from_file(league.guild_id):
        async with db.sessions() as session:
            return KnownLeague(league, await stored_league_id(session, league), DISCORD)
    if register:
        ids, notes = await db.register_leagues()
        return KnownLeague(league, ids[league.key], FILE, tuple(notes))
    async with db.sessions() as session:
        return KnownLeague(league, await stored_league_id(session, league), FILE)


@asynccontextmanager
async def open_league(settings: Settings, key: str, *,
                      register: bool = False) -> AsyncIterator[tuple[Database, KnownLeague]]:
    """Open the database (migrated, as every subcommand does) with the league ``--league KEY`` names."""
    if not _known(settings, key) and not await database_exists(settings):
        settings.league(key)  # raises UnknownLeague: no database, so no league from Discord, and none created
    async with open_database(settings) as db:
        yield db, await find(db, key, register=register)
