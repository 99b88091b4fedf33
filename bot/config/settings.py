"""One typed settings object, loaded from TOML and validated at start.

Errors name the file and the key, so an operator can fix a config without reading code.
The bot token never lives in a file: it comes from ``SIDELINE_TOKEN`` only. What an operator sets
per deployment (database, log level and format, metrics port, shards) may come from the environment too,
and the environment beats the file (``apply_environment``), as containers and systemd units expect; the
shards may come from ``sideline run``'s command line too, which beats both (``with_command_line``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import cached_property
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.config.leagues import ROLE_NAMES, LeagueReader, check_unique
from bot.config.leagues import LeagueSettings as LeagueSettings  # where every caller has always found it
from bot.config.leagues import league_from_table as league_from_table
from bot.config.reader import SettingsError as SettingsError  # where every caller has always found it
from bot.config.reader import UnknownLeague as UnknownLeague
from bot.config.shards import Shards, combined_problem, parse_count, parse_ids

TOKEN_ENV = "SIDELINE_TOKEN"
CONFIG_ENV = "SIDELINE_CONFIG"
DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///sideline.db"
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: ``text`` for a terminal or journald, ``json`` for a log collector (one object per line; bot/logs.py).
LOG_FORMATS = ("text", "json")
#: The ``[bot]`` keys an operator may set per deployment from the environment, and their variables.
ENVIRONMENT = {"database_url": "SIDELINE_DATABASE_URL", "log_level": "SIDELINE_LOG_LEVEL",
               "log_format": "SIDELINE_LOG_FORMAT", "metrics_port": "SIDELINE_METRICS_PORT",
               "shard_ids": "SIDELINE_SHARD_IDS", "shard_count": "SIDELINE_SHARD_COUNT"}
#: ``sideline run``'s options for the keys it may set, over the environment and the file.
COMMAND_LINE = {"shard_ids": "--shard-ids", "shard_count": "--shard-count"}
#: Requests a second the bot makes to Discord in all, its processes together (Discord allows 50).
DEFAULT_SEND_RATE = 48.0
_DATABASE_DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg")
#: `sideline health` fails when a due message has waited longer than this (bot/run/health.py).
DEFAULT_MAX_BACKLOG_AGE = "10m"
#: The feed and metrics servers' limits (HttpLimits): seconds, and connections.
DEFAULT_HTTP_IDLE_TIMEOUT, DEFAULT_HTTP_MAX_CONNECTIONS = 10.0, 512
_DURATION = re.compile(r"^\s*(\d+)\s*([smh])\s*$")
#: The ids config.leagues.example.toml ships with (tests/cli keeps the two in step): real ones never look so.
EXAMPLE_IDS = frozenset({123456789012345678, 223456789012345678, 100000000000000001, 100000000000000002,
                         100000000000000003, 200000000000000001, 200000000000000002, 200000000000000003,
                         200000000000000004, 200000000000000005, 100000000000000004})


@dataclass(frozen=True)
class CalendarServer:
    """The optional calendar feed server (``[bot] calendar_port``; bot/web/feed_server.py)."""

    port: int
    host: str = "127.0.0.1"
    base_url: str | None = None  # the public address, e.g. behind a reverse proxy

    def link(self, token: str) -> str:
        """The address a calendar app subscribes to."""
        base = self.base_url or f"http://{self.host}:{self.port}"
        return f"{base.rstrip('/')}/cal/{token}.ics"

    def page_link(self, slug: str) -> str:
        """The address of a league's public page (bot/services/league_page), served by the same server."""
        base = self.base_url or f"http://{self.host}:{self.port}"
        return f"{base.rstrip('/')}/l/{slug}/"


@dataclass(frozen=True)
class HttpLimits:
    """What the calendar feed and metrics servers allow a client (bot/web/listener.py): a connection that
    sends no whole request within ``idle_timeout`` seconds (none yet, or none since its last answer), or
    stops reading its answer that long, is closed; at most ``max_connections`` are open at once, both
    servers together, kept below the process's file-descriptor limit."""

    idle_timeout: float = DEFAULT_HTTP_IDLE_TIMEOUT
    max_connections: int = DEFAULT_HTTP_MAX_CONNECTIONS


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    log_format: str = "text"
    leagues: tuple[LeagueSettings, ...] = ()
    max_backlog_age: timedelta = timedelta(minutes=10)
    source: Path | None = None
    calendar_server: CalendarServer | None = None  # off unless [bot] calendar_port is set
    metrics_port: int | None = None  # Prometheus /metrics (bot/web/metrics_server.py), off unless set
    metrics_host: str = "127.0.0.1"
    http: HttpLimits = field(default_factory=HttpLimits)  # for both servers ([bot] http_idle_timeout, ...)
    shards: Shards = field(default_factory=Shards)  # the gateway shards this process runs (bot/config/shards.py)
    send_rate: float = DEFAULT_SEND_RATE  # the bot's requests a second, shared by its processes (bot/delivery/pace.py)
    from_environment: tuple[str, ...] = ()  # the [bot] keys the environment set (ENVIRONMENT), for check-config
    from_command_line: tuple[str, ...] = ()  # the [bot] keys `sideline run`'s options set (COMMAND_LINE)
    # Leagues set up with /setup, by server: loaded from the database at start and replaced on each
    # change, so every service that asks ``league_for_guild`` sees them without a restart.
    in_discord: dict[int, LeagueSettings] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def all_leagues(self) -> tuple[LeagueSettings, ...]:
        """The file's leagues, then those set up in Discord (a server the file names stays the file's)."""
        files = {lg.guild_id for lg in self.leagues}
        return self.leagues + tuple(lg for g, lg in self.in_discord.items() if g not in files)

    @cached_property
    def _file_leagues(self) -> dict[int, LeagueSettings]:
        """The file's leagues by server: a thousand leagues are asked for per message and interaction."""
        return {lg.guild_id: lg for lg in self.leagues}

    def from_file(self, guild_id: int | None) -> bool:
        return guild_id in self._file_leagues

    def league_for_guild(self, guild_id: int | None) -> LeagueSettings | None:
        if guild_id is None:
            return None
        return self._file_leagues.get(guild_id) or self.in_discord.get(guild_id)

    def league(self, key: str) -> LeagueSettings:
        for lg in self.all_leagues:
            if lg.key == key:
                return lg
        raise UnknownLeague(self.source or "config", key, tuple(lg.key for lg in self.all_leagues))

    def where(self, key: str) -> tuple[str, str]:
        """Where a ``[bot]`` value came from, as an error names it: (file or source, key or variable)."""
        if key in self.from_command_line:
            return "command line", COMMAND_LINE[key]
        if key in self.from_environment:
            return "environment", ENVIRONMENT[key]
        return str(self.source or "config"), f"bot.{key}"

    @staticmethod
    def token() -> str | None:
        """The bot token, from the environment only; never logged or stored."""
        value = os.environ.get(TOKEN_ENV, "").strip()
        return value or None


def check_strictly(settings: Settings) -> None:
    """What `check-config` adds to loading (the bot starts without these, logging a warning): the
    example's placeholder ids, all named in one line, and rulebook files that aren't there."""
    source = settings.source or "config"
    placeholders = [key for i, lg in enumerate(settings.leagues) for key, value in (
        (f"leagues[{i}].guild_id", lg.guild_id),
        *((f"leagues[{i}].roles.{r}", getattr(lg.roles, r)) for r in ROLE_NAMES),
        *((f"leagues[{i}].channels.{c}", getattr(lg.channels, c))
          for c in ("announcements", "standings", "referees", "admin"))) if value in EXAMPLE_IDS]
    if placeholders:
        raise SettingsError(source, ", ".join(placeholders), "the example's placeholder ids; put your own "
                            "(Discord: turn on Developer Mode, then right-click > Copy ID), or delete the "
                            "[[leagues]] table and set the league up with /setup league in Discord")
    for i, lg in enumerate(settings.leagues):
        if lg.rulebook is not None and not lg.rulebook.is_file():
            raise SettingsError(source, f"leagues[{i}].rulebook", f"no file at {lg.rulebook} (a relative "
                                "path is relative to the config file's folder)")


def default_config_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--config``, else ``$SIDELINE_CONFIG``, else ``./config.toml`` (docs/product.md §4)."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(CONFIG_ENV)
    return Path(env) if env else Path("config.toml")


def load_settings(path: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> Settings:
    """The config file, then the environment over it (``environ``, default ``os.environ``)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SettingsError(path, "(file)", f"not found (write one with: sideline init-config {path}; or give "
                            f"--config PATH or ${CONFIG_ENV})") from None
    except UnicodeDecodeError:
        raise SettingsError(path, "(file)", "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(path, "(file)", f"is not valid TOML: {exc}") from None
    settings = apply_environment(parse_settings(raw, path), os.environ if environ is None else environ)
    return check_shards(check_ports(settings))


def check_ports(settings: Settings) -> Settings:
    """The calendar feed and the metrics each need a port of their own: the same one for both would
    stop the start with "address in use"; the error names where the metrics port came from."""
    feed = settings.calendar_server
    if feed is not None and settings.metrics_port is not None and feed.port == settings.metrics_port:
        source, key = settings.where("metrics_port")
        raise SettingsError(source, key, f"{settings.metrics_port} is also bot.calendar_port; the calendar "
                            "feed and the metrics each need a port of their own")
    return settings


def apply_environment(settings: Settings, environ: Mapping[str, str]) -> Settings:
    """The ``ENVIRONMENT`` variables over the file's values, checked as strictly; an empty variable
    counts as unset (compose's ``${X:-}``). An error names the variable:
    ``environment: SIDELINE_LOG_FORMAT: must be text or json, not 'xml'``."""
    values: dict[str, Any] = {}
    for key, variable in ENVIRONMENT.items():
        value = environ.get(variable, "").strip()
        if value:
            values[key] = (_port(int(value) if value.isdecimal() else value, "environment", variable)
                           if key == "metrics_port" else _checked(key, value, "environment", variable))
    if not values:
        return settings
    return _with(replace(settings, from_environment=tuple(values)), values)  # load_settings checks the shards


def _port(value: object, path: Path | str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        raise SettingsError(path, where, f"must be a port number from 1 to 65535, not {value!r}")
    return value


def with_command_line(settings: Settings, *, shard_ids: str | None, shard_count: str | None) -> Settings:
    """``sideline run --shard-ids 0,1 --shard-count 4`` over the environment and the file."""
    given = {k: v for k, v in (("shard_ids", shard_ids), ("shard_count", shard_count)) if v is not None}
    values = {key: _checked(key, value, "command line", COMMAND_LINE[key]) for key, value in given.items()}
    return check_shards(_with(replace(settings, from_command_line=tuple(values)), values) if values else settings)


def _with(settings: Settings, values: Mapping[str, Any]) -> Settings:
    shards = Shards(values.get("shard_ids", settings.shards.ids), values.get("shard_count", settings.shards.count))
    return replace(settings, shards=shards, **{k: v for k, v in values.items() if not k.startswith("shard_")})


def check_shards(settings: Settings) -> Settings:
    """The shard ids and count together, wherever each came from, on the database the bot will use
    (on SQLite one process runs the bot); the error names where the value at fault came from."""
    found = combined_problem(settings.shards, sqlite=make_url(settings.database_url).get_backend_name() == "sqlite")
    if found is not None:
        raise SettingsError(*settings.where(found[0]), found[1])
    return settings


def _checked(key: str, value: Any, path: Path | str, where: str) -> Any:
    """One ``[bot]`` value checked the same way from the file, the environment or the command line."""
    if key in ("shard_ids", "shard_count"):
        try:
            return parse_ids(value) if key == "shard_ids" else parse_count(value)
        except ValueError as exc:
            raise SettingsError(path, where, str(exc)) from None
    if key == "database_url":
        _check_database_url(path, value, where)
        return value
    if key == "log_level":
        if value.upper() not in _LOG_LEVELS:
            raise SettingsError(path, where, f"must be one of {', '.join(_LOG_LEVELS)}, not {value!r}")
        return value.upper()
    if value.lower() not in LOG_FORMATS:
        raise SettingsError(path, where, f"must be {' or '.join(LOG_FORMATS)}, not {value!r}")
    return value.lower()


def parse_settings(raw: Mapping[str, Any], path: Path | str = "config") -> Settings:
    reader = LeagueReader(Path(path))
    unknown = set(raw) - {"bot", "leagues"}
    if unknown:
        raise SettingsError(path, sorted(unknown)[0], "unknown section (expected [bot] or [[leagues]])")
    bot = reader.table(raw, "bot")
    reader.reject_unknown(bot, "bot", {"database_url", "log_level", "log_format", "token",
                                       "health_max_backlog_age", "calendar_port", "calendar_host",
                                       "calendar_base_url", "metrics_port", "metrics_host", "shard_ids",
                                       "shard_count", "send_rate", "http_idle_timeout", "http_max_connections"})
    if "token" in bot:
        raise SettingsError(path, "bot.token", f"the token is never kept in a file; set {TOKEN_ENV}")
    database_url = _checked("database_url", reader.string(bot, "bot.database_url", DEFAULT_DATABASE_URL),
                            path, "bot.database_url")
    database_url = _beside_config(Path(path), database_url)
    log_level = _checked("log_level", reader.string(bot, "bot.log_level", "INFO"), path, "bot.log_level")
    log_format = _checked("log_format", reader.string(bot, "bot.log_format", "text"), path, "bot.log_format")
    try:
        max_backlog_age = parse_duration(reader.string(bot, "bot.health_max_backlog_age", DEFAULT_MAX_BACKLOG_AGE))
    except ValueError as exc:
        raise SettingsError(path, "bot.health_max_backlog_age", str(exc)) from None

    leagues_raw = raw.get("leagues", [])
    if not isinstance(leagues_raw, list):
        raise SettingsError(path, "leagues", "must be an array of tables ([[leagues]])")
    leagues = tuple(reader.league(item, i) for i, item in enumerate(leagues_raw))
    check_unique(path, leagues)
    metrics_port = _port(bot["metrics_port"], path, "bot.metrics_port") if "metrics_port" in bot else None
    shards = Shards(*(_checked(k, bot[k], path, f"bot.{k}") if k in bot else None
                      for k in ("shard_ids", "shard_count")))
    return Settings(database_url=database_url, log_level=log_level, log_format=log_format, leagues=leagues,
                    source=Path(path), max_backlog_age=max_backlog_age, shards=shards,
                    send_rate=_send_rate(reader, bot), calendar_server=_calendar_server(reader, bot),
                    metrics_port=metrics_port, metrics_host=reader.string(bot, "bot.metrics_host", "127.0.0.1"),
                    http=_http_limits(reader, bot))


def _send_rate(reader: LeagueReader, bot: Mapping[str, Any]) -> float:
    """``[bot] send_rate``: the requests a second the bot makes to Discord, all its processes together."""
    rate = bot.get("send_rate", DEFAULT_SEND_RATE)
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 1 <= rate <= 50:
        raise reader.fail("bot.send_rate", f"must be a number of requests a second from 1 to 50 (Discord "
                          f"allows a bot 50 in all), not {rate!r}")
    return float(rate)


def _http_limits(reader: LeagueReader, bot: Mapping[str, Any]) -> HttpLimits:
    """``[bot] http_idle_timeout`` (1 s to 1 h) and ``http_max_connections`` (1 to 100,000)."""
    timeout = DEFAULT_HTTP_IDLE_TIMEOUT
    if "http_idle_timeout" in bot:
        try:
            timeout = parse_duration(reader.string(bot, "bot.http_idle_timeout")).total_seconds()
        except ValueError as exc:
            raise reader.fail("bot.http_idle_timeout", str(exc)) from None
        if timeout > 3600:
            raise reader.fail("bot.http_idle_timeout", f"must be at most 1h, not {bot['http_idle_timeout']!r}")
    most = bot.get("http_max_connections", DEFAULT_HTTP_MAX_CONNECTIONS)
    if isinstance(most, bool) or not isinstance(most, int) or not 1 <= most <= 100_000:
        raise reader.fail("bot.http_max_connections", f"must be a number of connections from 1 to 100000, "
                          f"not {most!r}")
    return HttpLimits(idle_timeout=timeout, max_connections=most)


def _calendar_server(reader: LeagueReader, bot: Mapping[str, Any]) -> CalendarServer | None:
    """``[bot] calendar_port`` turns the feed server on; host and public address go with it."""
    if "calendar_port" not in bot:
        for key in ("calendar_host", "calendar_base_url"):
            if key in bot:
                raise reader.fail(f"bot.{key}", "needs bot.calendar_port (the feed server is off without it)")
        return None
    port = _port(bot["calendar_port"], reader.path, "bot.calendar_port")
    host = reader.string(bot, "bot.calendar_host", "127.0.0.1")
    base_url = bot.get("calendar_base_url")
    if base_url is not None:
        base_url = reader.string(bot, "bot.calendar_base_url")
        if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", base_url):
            raise reader.fail("bot.calendar_base_url", f"must be an http(s) address like "
                              f"https://calendar.example.org, not {base_url!r}")
    return CalendarServer(port=port, host=host, base_url=base_url)


def parse_duration(text: str) -> timedelta:
    """A real-time duration like ``90s``, ``10m`` or ``1h``, more than zero."""
    match = _DURATION.match(text)
    if match is None or int(match[1]) == 0:
        raise ValueError(f"{text!r} is not a duration like 90s, 10m or 1h")
    return timedelta(**{{"s": "seconds", "m": "minutes", "h": "hours"}[match[2]]: int(match[1])})


class AllLeagues:
    """Every league, live: iterating sees leagues set up in Discord after this was made."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def __iter__(self) -> Iterator[LeagueSettings]:
        return iter(self.settings.all_leagues)


def _check_database_url(path: Path | str, url: str, where: str) -> None:
    """The engine would fail at start with a traceback; check-config reads the database too. The
    message never repeats the URL: it may hold a password."""
    try:
        driver = make_url(url).drivername
    except ArgumentError:
        raise SettingsError(path, where, "is not a database URL (e.g. "
                            f"{DEFAULT_DATABASE_URL} or postgresql+asyncpg://user@host/dbname)") from None
    if driver in _DATABASE_DRIVERS:
        return
    backend = driver.split("+", 1)[0]
    if backend == "sqlite":
        raise SettingsError(path, where, f"{driver!r} is a synchronous driver; the bot needs the "
                            f"asyncio one: write {_with_driver(url, 'sqlite+aiosqlite')!r}")
    if backend in ("postgresql", "postgres"):
        raise SettingsError(path, where, f"{driver!r} is not the asyncio driver; write "
                            f"{_with_driver(url, 'postgresql+asyncpg')!r} (pip install -e '.[postgres]')")
    raise SettingsError(path, where, f"{driver!r} is not supported (use one of: "
                        f"{', '.join(_DATABASE_DRIVERS)})")


def _with_driver(url: str, driver: str) -> str:
    return make_url(url).set(drivername=driver).render_as_string(hide_password=True)


def _beside_config(path: Path, url: str) -> str:
    """A relative SQLite file is relative to the config file's folder, as a rulebook path is: the bot
    finds the same database whichever folder systemd, cron or a shell starts it from."""
    parsed = make_url(url)
    database = parsed.database
    if (parsed.get_backend_name() != "sqlite" or not database or database == ":memory:"
            or database.startswith("file:") or Path(database).is_absolute()):
        return url
    absolute = (path.parent / database).resolve()
    return parsed.set(database=str(absolute)).render_as_string(hide_password=False)


