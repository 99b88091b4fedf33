"""A league set up in Discord, between its database rows and the ``[[leagues]]`` table it stands for.

The table goes through the config file's own checks (bot/config/settings.py ``league_from_table``), so a
value /setup accepts is one config.toml would accept, and the export is that same table.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings, league_from_table
from storage.models import League, LeagueSetup

SOURCE = "/setup"
ROLE_NAMES = ("captain", "referee", "commissioner", "timekeeper")
CHANNEL_NAMES = ("announcements", "standings", "referees", "admin", "draft")
FLAG_NAMES = ("scheduled_events", "team_roles")  # what the bot keeps in step on Discord


@dataclass(frozen=True)
class StoredLeague:
    league_id: int
    settings: LeagueSettings


def league_table(league: League, setup: LeagueSetup) -> dict[str, Any]:
    """The ``[[leagues]]`` table config.toml would hold for this league (ids as integers)."""
    table: dict[str, Any] = {"key": league.key, "name": league.name, "guild_id": league.guild_id,
                             "preset": league.preset, "timezone": setup.timezone}
    roles = {r: getattr(setup, f"{r}_role_id") for r in ROLE_NAMES if getattr(setup, f"{r}_role_id")}
    channels = {c: getattr(setup, f"{c}_channel_id") for c in CHANNEL_NAMES if getattr(setup, f"{c}_channel_id")}
    if roles:
        table["roles"] = roles
    if channels:
        table["channels"] = channels
    reminders: dict[str, list[str]] = {}
    if setup.game_offsets is not None:
        reminders["game_offsets"] = list(setup.game_offsets)
    if setup.captain_alert_offsets is not None:
        reminders["captain_alert_offsets"] = list(setup.captain_alert_offsets)
    if setup.game_card_offsets is not None:
        reminders["game_card_offsets"] = list(setup.game_card_offsets)
    if reminders:
        table["reminders"] = reminders
    for flag in FLAG_NAMES:
        if getattr(setup, flag):
            table[flag] = True
    if setup.rule_overrides:
        table["rules"] = dict(setup.rule_overrides)
    return table


def build(league: League, setup: LeagueSetup) -> LeagueSettings:
    """The league's settings, checked as config.toml's are (SettingsError if a stored value no longer fits)."""
    return league_from_table(league_table(league, setup), SOURCE)


async def rows_for_guild(session: AsyncSession, guild_id: int) -> tuple[League, LeagueSetup] | None:
    row = (await session.execute(select(League, LeagueSetup).join(LeagueSetup, LeagueSetup.league_id == League.id)
                                 .where(League.guild_id == guild_id))).first()
    return (row[0], row[1]) if row else None


async def all_stored(session: AsyncSession, guild_ids: Collection[int] | None = None) -> list[StoredLeague]:
    """Every league set up in Discord, or those of ``guild_ids``."""
    query = select(League, LeagueSetup).join(LeagueSetup, LeagueSetup.league_id == League.id)
    if guild_ids is not None:
        query = query.where(League.guild_id.in_(list(guild_ids)))
    rows = (await session.execute(query)).all()
    return [StoredLeague(league.id, build(league, setup)) for league, setup in rows]
