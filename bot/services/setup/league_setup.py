"""/setup for a league: create it, change its roles, channels, rules and reminders, show it.

Every change is checked as config.toml is (bot/config/settings.py), written with an audit row (who,
when, key, old -> new) in the same transaction, then published to ``Settings.in_discord`` so
every service sees it at once; a restart reads it back from the database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings, SettingsError
from bot.errors import Conflict, InvalidInput, NoLeague, NotAllowed
from bot.league.offsets import parse_offsets
from bot.league.rules import PRESET_NAMES, RulesError, build_rules
from bot.league.setup.rule_settings import contradiction, current_value, read_value, rule_settings, show_value
from bot.league.setup.timezones import TimezoneError, parse_timezone
from bot.services.discipline.reviews import admin_channel_warning
from bot.services.setup import stored
from storage.db import retried_on_disconnect
from storage.models import League, LeagueSetup, SetupChange

START = "Create this server's league with /setup league first."
FROM_FILE = "set up in the bot's config file"
FLAG_WORDS = {"scheduled_events": "games as Discord events", "team_roles": "a role per team"}


@dataclass(frozen=True)
class Actor:
    """Who runs /setup: their Discord id, roles here, and whether Discord says they manage the server."""

    discord_id: int
    role_ids: frozenset[int] = frozenset()
    manages_server: bool = False


#: One audited change: (key, old value, new value), None where there was or is none.
Change = tuple[str, str | None, str | None]


@dataclass(frozen=True)
class Changed:
    league: LeagueSettings
    league_id: int
    changes: list[Change]


@dataclass(frozen=True)
class ShownSetting:
    key: str
    value: str
    source: str  # "preset", "config.toml", "set in Discord by <@id> on 2030-01-05"
    citation: str
    note: str = ""  # where the rulebook contradicts itself: both sections and the reading in force


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:40] or "league"


@retried_on_disconnect
class LeagueSetupService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 on_league: Callable[[LeagueSettings, int], None] | None = None) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.on_league = on_league  # the bot maps the server to the league's row id

    # --- start-up ----------------------------------------------------------------------------
    async def load(self) -> list[stored.StoredLeague]:
        """Publish every league set up in Discord (at start): the file keeps the servers it names."""
        async with self.sessions() as session:
            found = await stored.all_stored(session)
        for item in found:
            if not self.settings.from_file(item.settings.guild_id):
                self._publish(item.settings, item.league_id)
        return found

    async def reload(self, guild_ids: Collection[int] | None, *, keep: Callable[[int], bool]) -> None:
        """Read again the leagues set up in Discord (those of ``guild_ids``, or all) whose /setup runs in
        another process (a shard of the bot, bot/config/shards.py); ``keep``: the servers whose league this
        process changes itself, and so knows best (a read racing its own change would undo it)."""
        async with self.sessions() as session:
            found = await stored.all_stored(session, guild_ids)
        for item in found:
            guild_id = item.settings.guild_id
            if not self.settings.from_file(guild_id) and not keep(guild_id):
                self._publish(item.settings, item.league_id)

    def _publish(self, league: LeagueSettings, league_id: int) -> None:
        self.settings.in_discord[league.guild_id] = league
        if self.on_league is not None:
            self.on_league(league, league_id)

    # --- permission ----------------------------------------------------------------------------
    def check(self, guild_id: int | None, actor: Actor, *, changing: bool = True) -> LeagueSettings | None:
        """Refuse unless the actor may use /setup here; refuse changes to a league config.toml manages."""
        if guild_id is None:
            raise NoLeague("Use /setup in your league's server.")
        league = self.settings.league_for_guild(guild_id)
        commissioner = league is not None and league.roles.commissioner in actor.role_ids
        if not (actor.manages_server or commissioner):
            raise NotAllowed("Only members with Manage Server or the league's commissioner role can use /setup.")
        if changing and league is not None and self.settings.from_file(guild_id):
            raise Conflict(f"{league.name} is {FROM_FILE}; whoever runs the bot changes it there (/setup show "
                           "still works).")
        return league

    # --- /setup league -------------------------------------------------------------------------
    async def create(self, guild_id: int, actor: Actor, *, preset: str, name: str, timezone: str) -> Changed:
        existing = self.check(guild_id, actor)
        if existing is not None:
            raise Conflict(f"This server already has a league ({existing.name}); change it with the other "
                           "/setup commands.")
        if preset not in PRESET_NAMES:
            raise InvalidInput(f"Unknown preset {preset!r}; pick one of: {', '.join(PRESET_NAMES)}.")
        name = " ".join(name.split())[:100]
        if not name:
            raise InvalidInput("Give the league a name.")
        try:
            zone = parse_timezone(timezone)
        except TimezoneError as exc:
            raise InvalidInput(str(exc)) from None
        try:
            return await self._create(guild_id, actor, preset, name, zone)
        except IntegrityError:  # another /setup league on this server at the same moment won
            raise Conflict("This server already has a league; change it with the other /setup commands.") from None

    async def _create(self, guild_id: int, actor: Actor, preset: str, name: str, zone: str) -> Changed:
        now = self.clock.now()
        async with self.sessions.begin() as session:
            if await session.scalar(select(League.id).where(League.guild_id == guild_id)) is not None:
                raise Conflict("This server already has a league; change it with the other /setup commands.")
            key = await self._free_key(session, slug(name))
            league = League(key=key, guild_id=guild_id, name=name, preset=preset)
            session.add(league)
            await session.flush()
            setup = LeagueSetup(league_id=league.id, timezone=zone, rule_overrides={}, created_by=actor.discord_id,
                                created_at=now)
            session.add(setup)
            settings = self._checked(league, setup)
            changes: list[Change] = [("league", None, f"{name} ({preset}, {zone})")]
            self._audit(session, league.id, actor, now, changes)
            league_id = league.id
        self._publish(settings, league_id)
        return Changed(settings, league_id, changes)

    @staticmethod
    async def _free_key(session: AsyncSession, base: str) -> str:
        taken = set((await session.scalars(select(League.key).where(League.key.like(f"{base}%")))).all())
        key, n = base, 2
        while key in taken:
            key, n = f"{base}-{n}", n + 1
        return key

    # --- changes -------------------------------------------------------------------------------
    async def set_ids(self, guild_id: int, actor: Actor, kind: str, ids: dict[str, int | None]) -> Changed:
        """Roles (kind "role") or channels (kind "channel"): only the ones given change."""
        def apply(setup: LeagueSetup) -> list[Change]:
            out: list[Change] = []
            for name, value in ids.items():
                if value is None:
                    continue
                column = f"{name}_{kind}_id"
                old = getattr(setup, column)
                if old != value:
                    setattr(setup, column, value)
                    out.append((f"{kind}s.{name}", _str(old), str(value)))
            return out
        return await self._change(guild_id, actor, apply)

    async def set_rule(self, guild_id: int, actor: Actor, key: str, value: str | None, *, reset: bool) -> Changed:
        key = key.strip()
        league = self.check(guild_id, actor)
        if league is None:
            raise NoLeague(START)
        if not reset:
            self.proposed_rule(league, key, value)  # refused before anything is written
        elif key not in {s.key for s in rule_settings(league.rules)}:
            raise InvalidInput(f"{key!r} is not a rule setting; pick one from the list.")

        def apply(setup: LeagueSetup) -> list[tuple[str, str | None, str | None]]:
            overrides = dict(setup.rule_overrides or {})
            old = show_value(overrides[key]) if key in overrides else None
            if reset:
                if key not in overrides:
                    return []
                del overrides[key]
                new = None
            else:
                overrides[key] = read_value(value or "")
                try:
                    build_rules(league.preset, {key: overrides[key]})
                except RulesError as exc:
                    raise InvalidInput(f"{key} {exc.problem}. Nothing changed.") from None
                new = show_value(overrides[key])
            setup.rule_overrides = overrides
            return [(f"rules.{key}", old, new)] if old != new else []
        return await self._change(guild_id, actor, apply)

    @staticmethod
    def proposed_rule(league: LeagueSettings, key: str, value: str | None) -> Any:
        """The value /setup rule would give ``key`` from what was typed, checked as it checks it (InvalidInput
        if not): a rule-change vote refuses a proposal that could never be applied."""
        if key not in {s.key for s in rule_settings(league.rules)}:
            raise InvalidInput(f"{key!r} is not a rule setting; pick one from the list.")
        if value is None or not value.strip():
            raise InvalidInput(f"Give a value for {key}, or reset:True to go back to the preset.")
        proposed = read_value(value)
        try:
            build_rules(league.preset, {key: proposed})
        except RulesError as exc:
            raise InvalidInput(f"{key} {exc.problem}. Nothing changed.") from None
        return proposed

    async def set_reminders(self, guild_id: int, actor: Actor, games: str | None, alerts: str | None,
                            cards: str | None = None) -> Changed:
        """The reminder times; the officials' game card may be "off" (no card is sent)."""
        def apply(setup: LeagueSetup) -> list[Change]:
            out: list[Change] = []
            for column, text in (("game_offsets", games), ("captain_alert_offsets", alerts),
                                 ("game_card_offsets", cards)):
                if text is None:
                    continue
                values = [v for v in re.split(r"[,\s]+", text.strip()) if v]
                if column == "game_card_offsets" and [v.casefold() for v in values] == ["off"]:
                    values = []
                try:
                    parse_offsets(values)
                except ValueError as exc:
                    raise InvalidInput(f"{column.replace('_', ' ')}: {exc}. Nothing changed.") from None
                old = getattr(setup, column)
                if old != values:
                    setattr(setup, column, values)
                    out.append((f"reminders.{column}", _str(old and json.dumps(old)), json.dumps(values)))
            return out
        return await self._change(guild_id, actor, apply)

    async def set_flags(self, guild_id: int, actor: Actor, flags: dict[str, bool | None]) -> Changed:
        """What the bot keeps in step on Discord (``stored.FLAG_NAMES``): only the ones given change.
        A league config.toml manages may give its current values: nothing changes, and the caller
        brings Discord up to date (after a missing permission was granted, say)."""
        league = self.check(guild_id, actor, changing=False)
        if league is None:
            raise NoLeague(START)
        if self.settings.from_file(guild_id):
            differs = [n for n, v in flags.items() if v is not None and v != getattr(league, n, v)]
            if differs:
                raise Conflict(f"{league.name} is {FROM_FILE}; whoever runs the bot changes "
                               f"{' and '.join(FLAG_WORDS.get(n, n) for n in differs)} there. Nothing changed "
                               "(its current value here brings Discord up to date).")
            async with self.sessions() as session:
                league_id = await session.scalar(select(League.id).where(League.guild_id == guild_id))
            if league_id is None:
                raise NoLeague(START)
            return Changed(league, league_id, [])

        def apply(setup: LeagueSetup) -> list[Change]:
            out: list[Change] = []
            for name, value in flags.items():
                if value is None or name not in stored.FLAG_NAMES:
                    continue
                old = bool(getattr(setup, name))
                if old != value:
                    setattr(setup, name, value)
                    out.append((name, str(old).lower(), str(value).lower()))
            return out
        return await self._change(guild_id, actor, apply)

    async def _change(self, guild_id: int, actor: Actor, apply: Callable[[LeagueSetup], list[Any]]) -> Changed:
        if self.check(guild_id, actor) is None:
            raise NoLeague(START)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            rows = await stored.rows_for_guild(session, guild_id)
            if rows is None:
                raise NoLeague(START)
            league, setup = rows
            changes = apply(setup)
            settings = self._checked(league, setup)
            self._audit(session, league.id, actor, now, changes)
            league_id = league.id
        self._publish(settings, league_id)
        return Changed(settings, league_id, changes)

    @staticmethod
    def _checked(league: League, setup: LeagueSetup) -> LeagueSettings:
        try:
            return stored.build(league, setup)
        except SettingsError as exc:  # the key names a [[leagues]] table; the commissioner typed a value
            raise InvalidInput(f"{exc.key.split('.', 1)[-1]}: {exc.problem}. Nothing changed.") from None

    @staticmethod
    def _audit(session: AsyncSession, league_id: int, actor: Actor, now: datetime,
               changes: list[Change]) -> None:
        for key, old, new in changes:
            session.add(SetupChange(league_id=league_id, changed_by=actor.discord_id, changed_at=now,
                                    key=key, old_value=old, new_value=new))

    # --- /setup show ---------------------------------------------------------------------------
    async def show(self, guild_id: int, actor: Actor) -> tuple[LeagueSettings, list[ShownSetting]]:
        league = self.check(guild_id, actor, changing=False)
        if league is None:
            raise NoLeague(START)
        from_file = self.settings.from_file(guild_id)
        latest: dict[str, tuple[int, datetime]] = {}
        if not from_file:
            async with self.sessions() as session:
                last = (select(SetupChange.key, func.max(SetupChange.id).label("id"))
                        .join(League, League.id == SetupChange.league_id)
                        .where(League.guild_id == guild_id).group_by(SetupChange.key).subquery())
                rows = await session.execute(select(SetupChange.key, SetupChange.changed_by, SetupChange.changed_at)
                                             .join(last, last.c.id == SetupChange.id))
                latest = {r.key: (r.changed_by, r.changed_at) for r in rows}

        def source(key: str, default: str) -> str:
            if from_file:
                return "the bot's config file"
            if key in latest:
                who, when = latest[key]
                return f"set in Discord by <@{who}> on {when.astimezone(league.timezone):%Y-%m-%d}"
            return default

        shown = [ShownSetting("key", league.key, source("league", "preset"), ""),
                 ShownSetting("preset", league.preset, source("league", "preset"), ""),
                 ShownSetting("timezone", league.timezone.key, source("league", "preset"), "")]
        for kind, names in (("roles", stored.ROLE_NAMES), ("channels", stored.CHANNEL_NAMES)):
            for name in names:
                value = getattr(getattr(league, kind), name)
                mention = "not set" if value is None else (f"<@&{value}>" if kind == "roles" else f"<#{value}>")
                admin = (kind, name) == ("channels", "admin")
                note = admin_channel_warning(league, fix="pick one with /setup channels") if admin else ""
                shown.append(ShownSetting(f"{kind}.{name}", mention, source(f"{kind}.{name}", "not set"), "",
                                          note))
        for flag in stored.FLAG_NAMES:
            shown.append(ShownSetting(flag, str(getattr(league, flag)).lower(), source(flag, "default"), ""))
        for column, offsets in (("game_offsets", league.game_reminder_offsets),
                                ("captain_alert_offsets", league.captain_alert_offsets),
                                ("game_card_offsets", league.game_card_offsets)):
            text = ", ".join(str(o) for o in offsets) or "off"
            shown.append(ShownSetting(f"reminders.{column}", text, source(f"reminders.{column}", "default"), ""))
        base = build_rules(league.preset)
        for s in rule_settings(league.rules):
            value = current_value(league.rules, s.key)
            changed = value != current_value(base, s.key)
            origin = source(f"rules.{s.key}", "preset") if changed or f"rules.{s.key}" in latest else "preset"
            shown.append(ShownSetting(f"rules.{s.key}", show_value(value), origin, s.cited(),
                                      contradiction(league.preset, s.key, value)))
        return league, shown


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


