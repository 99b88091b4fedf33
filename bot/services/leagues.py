"""Which database row is each configured league: a league's data belongs to its Discord server.

The config is the source of truth for names and presets, but a league row is identified by its
server (``guild_id``), because everything in it (teams, games, suspensions) happened on that
server. So, for a configured league with key K on server G:

- G has a row with key K: the same league; its name and preset follow the config.
- G has a row with another key K0, no row has key K and no configured league still uses K0: the
  league was renamed. The row takes the key K and keeps its data ("league 'K0' on server G is
  now 'K'").
- G has no row, a row with key K sits on server G1 and no configured league is on G1: the league
  moved to a new server, and its data goes with it.
- G has no row and no row has key K: a new league.
- Anything else would hand one server's data to another league (two leagues swapping servers, a
  league moved onto a server that holds another one): refused before anything is written, with
  one line that names the config key and what to do.

The same plan serves `sideline run` (at start), `sideline import` and `sideline check-config`
(read-only, against the configured database when it exists).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings, Settings, SettingsError
from storage.models import League, LeagueSetup

log = logging.getLogger("sideline")


@dataclass(frozen=True)
class StoredLeague:
    id: int
    key: str
    guild_id: int


@dataclass
class LeaguePlan:
    """What registering the configured leagues will change, in the operator's words."""

    renames: list[tuple[StoredLeague, str]] = field(default_factory=list)  # (row, new key)
    moves: list[tuple[StoredLeague, int]] = field(default_factory=list)  # (row, new server)
    new: list[LeagueSettings] = field(default_factory=list)

    def notes(self) -> list[str]:
        return ([f"league {row.key!r} on server {row.guild_id} is now {key!r}" for row, key in self.renames]
                + [f"league {row.key!r} moves from server {row.guild_id} to server {guild}"
                   for row, guild in self.moves])


def plan_leagues(settings: Settings, stored: Iterable[StoredLeague]) -> LeaguePlan:
    """The plan for these stored rows, or SettingsError naming the league that would take another's data."""
    rows = list(stored)
    by_guild = {r.guild_id: r for r in rows}
    by_key = {r.key: r for r in rows}
    config_keys = {lg.key for lg in settings.leagues}
    config_guilds = {lg.guild_id for lg in settings.leagues}
    plan = LeaguePlan()
    stranded: SettingsError | None = None
    for i, cfg in enumerate(settings.leagues):
        on_server, with_key = by_guild.get(cfg.guild_id), by_key.get(cfg.key)
        if on_server is not None and on_server.key == cfg.key:
            continue
        if on_server is not None:
            if with_key is None and on_server.key not in config_keys:
                plan.renames.append((on_server, cfg.key))
                continue
            if with_key is not None:
                todo = f"put league {cfg.key!r} back on server {with_key.guild_id}"
            else:
                todo = f"keep {on_server.key!r} on server {cfg.guild_id}, or give {cfg.key!r} a server with no league"
            raise _refusal(settings, i, f"server {cfg.guild_id} already holds league {on_server.key!r} "
                                        f"(its data stays with that server); {todo}")
        if with_key is None:
            plan.new.append(cfg)
        elif with_key.guild_id not in config_guilds:
            plan.moves.append((with_key, cfg.guild_id))
        else:  # the league configured on that server is refused too: name that one first
            stranded = stranded or _refusal(settings, i, f"league {cfg.key!r} has its data on server "
                                                         f"{with_key.guild_id}; put it back on that server")
    if stranded is not None:
        raise stranded
    return plan


def _refusal(settings: Settings, i: int, problem: str) -> SettingsError:
    return SettingsError(settings.source or "config", f"leagues[{i}].guild_id", problem)


async def register_leagues(session: AsyncSession, settings: Settings) -> tuple[dict[str, int], list[str]]:
    """Mirror the configured leagues into the database: {key: row id}, and one note per rename or move."""
    rows = list((await session.scalars(select(League))).all())
    _refuse_discord_keys(settings, rows, set((await session.scalars(select(LeagueSetup.league_id))).all()))
    plan = plan_leagues(settings, (StoredLeague(r.id, r.key, r.guild_id) for r in rows))
    by_id = {r.id: r for r in rows}
    for stored, key in plan.renames:
        by_id[stored.id].key = key
    for stored, guild_id in plan.moves:
        by_id[stored.id].guild_id = guild_id
    for cfg in plan.new:
        session.add(League(key=cfg.key, guild_id=cfg.guild_id, name=cfg.name, preset=cfg.preset))
    await session.flush()
    ids: dict[str, int] = {}
    by_guild = {r.guild_id: r for r in (await session.scalars(select(League))).all()}
    for cfg in settings.leagues:
        row = by_guild[cfg.guild_id]
        row.name, row.preset = cfg.name, cfg.preset
        ids[cfg.key] = row.id
    notes = plan.notes()
    for note in notes:
        log.info("%s", note)
    return ids, notes


def _refuse_discord_keys(settings: Settings, rows: Iterable[League], set_up_in_discord: set[int]) -> None:
    """A config league may not take the key of a league set up in Discord on another server: the plan
    would read that as the league moving, and carry the other server's data along."""
    theirs = {r.key: r for r in rows if r.id in set_up_in_discord}
    for i, cfg in enumerate(settings.leagues):
        row = theirs.get(cfg.key)
        if row is not None and row.guild_id != cfg.guild_id:
            raise SettingsError(settings.source or "config", f"leagues[{i}].key",
                                f"{cfg.key!r} is the key of a league set up in Discord on server {row.guild_id}; "
                                "pick another key")


# --- check-config: the same plan, read-only ------------------------------------------------------

async def check_against_database(settings: Settings) -> str:
    """One line on how the config fits the configured database; SettingsError if it would not start."""
    url = make_url(settings.database_url)
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
            return f"database {shown}: not a file; nothing to check against"
        try:
            stored = await asyncio.to_thread(_sqlite_rows, url.database)
        except FileNotFoundError:
            return f"database {shown}: no database yet; it is created at first start"
        except sqlite3.Error as exc:
            return f"database {shown}: could not be read ({exc}); not checked against it"
    else:
        try:
            stored = await _server_rows(settings.database_url)
        except (OSError, SQLAlchemyError) as exc:
            return f"database {shown}: not reachable ({exc.__class__.__name__}); not checked against it"
    if stored is None:
        return f"database {shown}: no leagues yet"
    notes = plan_leagues(settings, stored).notes()
    if notes:
        return f"database {shown}: matches; at start " + "; ".join(notes)
    return f"database {shown}: matches"


def _sqlite_rows(path: str) -> Sequence[StoredLeague] | None:
    if not Path(path).is_file():
        raise FileNotFoundError(path)
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)  # never creates it
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leagues'").fetchone() is None:
            return None
        return [StoredLeague(*row) for row in conn.execute("SELECT id, key, guild_id FROM leagues")]
    finally:
        conn.close()


async def _server_rows(url: str) -> Sequence[StoredLeague] | None:
    from sqlalchemy import inspect

    from storage.db import create_engine

    engine = create_engine(url)
    try:
        async with engine.connect() as conn:  # rolled back on exit: nothing is written
            has_table = await conn.run_sync(lambda sync: inspect(sync).has_table("leagues"))
            if not has_table:
                return None
            result = await conn.execute(select(League.id, League.key, League.guild_id))
            return [StoredLeague(*row) for row in result.all()]
    finally:
        await engine.dispose()
