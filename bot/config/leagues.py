"""A league's settings and their reader: one ``[[leagues]]`` table, checked the same way whether it
comes from the config file or from what /setup stored (``league_from_table``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.config.reader import Reader, SettingsError
from bot.league.offsets import Offset, parse_offsets
from bot.league.rules import PRESET_NAMES, Rules, RulesError, build_rules

# Days keep the game's local time of day ("1d": 19:00 the day before a 19:00 game); hours are real time.
DEFAULT_GAME_OFFSETS = ("2d", "1d", "2h")
DEFAULT_CAPTAIN_ALERT_OFFSETS = ("1d", "3h")
# The officials' game card reaches the game's referees this long before it (an empty list: no card is sent).
DEFAULT_GAME_CARD_OFFSETS = ("2h",)
_UTC_NAMES = frozenset({"UTC", "ETC/UTC", "Z", "ZULU", "UCT", "ETC/UCT"})
# "UTC-5", "GMT+1", "Etc/GMT+5", "-05:00", "EST5EDT": clocks that never change for summer.
_FIXED_OFFSET = re.compile(r"^(?:etc/)?(?:utc|gmt|z)?\s*[+-]\s*\d{1,2}(?::?\d{2})?$|^[A-Z]{3}\d[A-Z]{3}$",
                           re.IGNORECASE)
#: Rule settings that [leagues.reminders] holds: in [leagues.rules] they would be silently ignored.
REMINDER_RULES = {"game_reminder_offsets": "game_offsets", "captain_alert_lead_times": "captain_alert_offsets"}


#: The league roles a ``[leagues.roles]`` table (and /setup roles) names.
ROLE_NAMES = ("captain", "referee", "commissioner", "timekeeper")


@dataclass(frozen=True)
class LeagueRoles:
    captain: int | None = None
    referee: int | None = None
    commissioner: int | None = None
    timekeeper: int | None = None  # youth 2.2: the game's second official, who records statistics


@dataclass(frozen=True)
class LeagueChannels:
    announcements: int | None = None
    standings: int | None = None
    referees: int | None = None
    admin: int | None = None  # commissioners' private channel for operational problems
    draft: int | None = None  # where the draft board is posted (none: where /draft start runs)


@dataclass(frozen=True)
class LeagueSettings:
    key: str
    name: str
    guild_id: int
    preset: str
    timezone: ZoneInfo
    rules: Rules
    roles: LeagueRoles = field(default_factory=LeagueRoles)
    channels: LeagueChannels = field(default_factory=LeagueChannels)
    game_reminder_offsets: tuple[Offset, ...] = ()
    captain_alert_offsets: tuple[Offset, ...] = ()
    game_card_offsets: tuple[Offset, ...] = ()  # the officials' game card (bot/services/officials.py)
    rulebook: Path | None = None
    scheduled_events: bool = False  # each game a Discord scheduled event (bot/services/discord_sync/)
    team_roles: bool = False  # a Discord role per team, kept in step with the roster


def league_from_table(raw: Mapping[str, Any], source: Path | str = "config") -> LeagueSettings:
    """One ``[[leagues]]`` table, checked exactly as in a config file (/setup stores the same keys)."""
    return LeagueReader(Path(source)).league(raw, 0)


def _rule_names(overrides: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(as written, setting name) for every override, flat or in a [rules.<section>] table."""
    for key, value in overrides.items():
        if isinstance(value, Mapping):
            yield from ((f"{key}.{name}", name) for name in value)
        else:
            yield key, key


def check_unique(path: Path | str, leagues: tuple[LeagueSettings, ...]) -> None:
    seen_keys: dict[str, int] = {}
    seen_guilds: dict[int, str] = {}
    for i, lg in enumerate(leagues):
        if lg.key in seen_keys:
            raise SettingsError(path, f"leagues[{i}].key", f"{lg.key!r} is used twice")
        if lg.guild_id in seen_guilds:
            raise SettingsError(
                path,
                f"leagues[{i}].guild_id",
                f"server {lg.guild_id} already belongs to league {seen_guilds[lg.guild_id]!r}",
            )
        seen_keys[lg.key] = i
        seen_guilds[lg.guild_id] = lg.key


class LeagueReader(Reader):
    """The league tables' values: time zones, reminder offsets, and a whole ``[[leagues]]`` table."""

    def timezone(self, raw: Mapping[str, Any], key: str) -> ZoneInfo:
        """Required, and a place (America/Toronto): an abbreviation or a fixed offset ("EST", "UTC-5")
        ignores daylight saving, so a July game would land an hour off. UTC itself is a fine choice."""
        if key.rsplit(".", 1)[-1] not in raw:
            raise self.fail(key, "is required: the IANA time zone game times are read in (e.g. America/Toronto)")
        name = self.string(raw, key)
        if name.upper() in _UTC_NAMES:
            return ZoneInfo("UTC")
        if _FIXED_OFFSET.match(name) or (name.isalpha() and name.isupper() and len(name) <= 5):
            raise self.fail(key, f"{name!r} is an abbreviation or a fixed offset, which ignores daylight "
                            "saving; write a place name such as America/Toronto")
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # "America" is a folder of zones
            raise self.fail(key, f"unknown time zone {name!r} (e.g. America/Toronto)") from None

    def offsets(self, raw: Mapping[str, Any], key: str, default: tuple[str, ...]) -> tuple[Offset, ...]:
        name = key.rsplit(".", 1)[-1]
        values = raw.get(name, list(default))
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise self.fail(key, 'must be a list of durations like ["2d", "1d", "2h", "30m"]')
        try:
            return parse_offsets(values)
        except ValueError as exc:
            raise self.fail(key, str(exc)) from None

    def league(self, raw: Any, i: int) -> LeagueSettings:
        where = f"leagues[{i}]"
        if not isinstance(raw, Mapping):
            raise self.fail(where, "must be a table")
        self.reject_unknown(
            raw,
            where,
            {"key", "name", "guild_id", "preset", "timezone", "rulebook", "roles", "channels",
             "reminders", "rules", "scheduled_events", "team_roles"},
        )
        key = self.string(raw, f"{where}.key")
        name = self.string(raw, f"{where}.name", key)
        guild_id = self.snowflake(raw, f"{where}.guild_id", required=True)
        assert guild_id is not None
        preset = self.string(raw, f"{where}.preset")
        if preset not in PRESET_NAMES:
            raise self.fail(f"{where}.preset", f"unknown preset {preset!r} (one of: {', '.join(PRESET_NAMES)})")
        tz = self.timezone(raw, f"{where}.timezone")

        roles_raw = self.table(raw, f"{where}.roles")
        self.reject_unknown(roles_raw, f"{where}.roles", set(ROLE_NAMES))
        roles = LeagueRoles(
            **{r: self.snowflake(roles_raw, f"{where}.roles.{r}", required=False) for r in ROLE_NAMES}
        )
        channels_raw = self.table(raw, f"{where}.channels")
        channel_names = ("announcements", "standings", "referees", "admin", "draft")
        self.reject_unknown(channels_raw, f"{where}.channels", set(channel_names))
        channels = LeagueChannels(
            **{c: self.snowflake(channels_raw, f"{where}.channels.{c}", required=False) for c in channel_names}
        )
        reminders_raw = self.table(raw, f"{where}.reminders")
        self.reject_unknown(reminders_raw, f"{where}.reminders",
                            {"game_offsets", "captain_alert_offsets", "game_card_offsets"})
        game_offsets = self.offsets(reminders_raw, f"{where}.reminders.game_offsets", DEFAULT_GAME_OFFSETS)
        alert_offsets = self.offsets(
            reminders_raw, f"{where}.reminders.captain_alert_offsets", DEFAULT_CAPTAIN_ALERT_OFFSETS
        )
        card_offsets = self.offsets(reminders_raw, f"{where}.reminders.game_card_offsets", DEFAULT_GAME_CARD_OFFSETS)
        overrides = self.table(raw, f"{where}.rules")
        for spelled, setting in _rule_names(overrides):
            if setting in REMINDER_RULES:
                raise self.fail(f"{where}.rules.{spelled}", "is ignored here: reminders are set in "
                                f"[leagues.reminders] as {REMINDER_RULES[setting]}; move it there")
        try:
            rules = build_rules(preset, overrides)
        except RulesError as exc:
            raise self.fail(f"{where}.rules.{exc.key}", exc.problem) from None
        rulebook = raw.get("rulebook")
        if rulebook is not None and (not isinstance(rulebook, str) or not rulebook.strip()):
            raise self.fail(f"{where}.rulebook", "must be a file path")
        rulebook_path = None
        if rulebook:
            rulebook_path = Path(rulebook)
            if not rulebook_path.is_absolute():
                rulebook_path = (self.path.parent / rulebook_path).resolve()
        return LeagueSettings(
            key=key, name=name, guild_id=guild_id, preset=preset, timezone=tz, rules=rules,
            roles=roles, channels=channels, game_reminder_offsets=game_offsets,
            captain_alert_offsets=alert_offsets, game_card_offsets=card_offsets, rulebook=rulebook_path,
            scheduled_events=self.flag(raw, f"{where}.scheduled_events"),
            team_roles=self.flag(raw, f"{where}.team_roles"),
        )
