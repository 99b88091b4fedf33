"""The admin command line: `sideline run`, `db upgrade`, `check-config`, `import` and friends."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.settings import TOKEN_ENV, Settings, SettingsError, default_config_path, load_settings, parse_duration

Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]


def _out(args: argparse.Namespace, human: str, data: Any) -> None:
    print(json.dumps(data, indent=2, default=str) if getattr(args, "json", False) else human)


def _fail(message: str, code: int = 1) -> int:
    print(f"sideline: {message}", file=sys.stderr)
    return code


# --- commands ------------------------------------------------------------------------------------
async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    import aiohttp
    import discord

    from bot.lifecycle import AlreadyRunning, run_until_stopped

    token = Settings.token()
    if token is None:
        return _fail(f"no bot token: set the environment variable {TOKEN_ENV} "
                     f"(e.g. export {TOKEN_ENV}=...) and run again", 2)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        await run_until_stopped(settings, token, sync=args.sync)  # SIGTERM/SIGINT: a graceful stop, exit 0
    except AlreadyRunning as exc:
        return _fail(str(exc), 2)
    except discord.LoginFailure:
        return _fail(f"Discord rejected the token in {TOKEN_ENV}; copy it again from the "
                     "Developer Portal (Bot > Reset Token)")
    except (aiohttp.ClientConnectionError, OSError) as exc:
        return _fail(f"could not reach Discord ({exc.__class__.__name__}); check the network and try again")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the connection: this bot needs no privileged intents; "
                     "check the application settings")
    return 0


async def cmd_health(args: argparse.Namespace, settings: Settings) -> int:
    from bot import health

    return await health.run(settings, args.max_backlog_age)  # one JSON line; 0 healthy, 1 not


async def cmd_db_upgrade(args: argparse.Namespace, settings: Settings) -> int:
    from storage import migrate
    from storage.db import create_engine

    engine = create_engine(settings.database_url)
    try:
        before, after = await migrate.upgrade(engine)
    finally:
        await engine.dispose()
    _out(args, f"database at revision {after} (was {before or 'empty'})", {"before": before, "after": after})
    return 0


async def cmd_db_backup(args: argparse.Namespace, settings: Settings) -> int:
    from storage.backup import BackupError, backup_sqlite

    destination = Path(args.path)
    try:
        pages = await asyncio.to_thread(backup_sqlite, settings.database_url, destination)
    except BackupError as exc:
        return _fail(str(exc), 2)
    _out(args, f"backed up to {destination} ({pages} pages, integrity ok)",
         {"path": str(destination), "pages": pages})
    return 0


async def cmd_check_config(args: argparse.Namespace, settings: Settings) -> int:
    from bot.services.leagues import check_against_database

    database = await check_against_database(settings)  # read-only; SettingsError if it would not start
    leagues = [{"key": lg.key, "name": lg.name, "guild_id": lg.guild_id, "preset": lg.preset,
                "timezone": lg.timezone.key} for lg in settings.leagues]
    human = f"{settings.source}: OK, {len(leagues)} league(s)" + "".join(
        f"\n  {lg['key']}: {lg['name']} (server {lg['guild_id']}, {lg['preset']}, {lg['timezone']})"
        for lg in leagues) + f"\n{database}"
    if Settings.token() is None:
        human += f"\nnote: {TOKEN_ENV} is not set; `sideline run` needs it"
    _out(args, human, {"ok": True, "leagues": leagues, "database": database})
    return 0


async def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    from bot.clock import SystemClock
    from bot.composition import build_services
    from bot.imports.csv_rows import CsvImportError
    from bot.services.leagues import register_leagues
    from storage import migrate
    from storage.db import create_engine, session_factory

    league = settings.league(args.league)
    path = Path(args.file)
    try:
        data = await asyncio.to_thread(path.read_bytes)
    except OSError as exc:
        return _fail(f"can't read {path}: {exc.strerror}")
    engine = create_engine(settings.database_url)
    try:
        await migrate.upgrade(engine)
        sessions = session_factory(engine)
        async with sessions.begin() as session:  # as at start: a renamed key keeps its server's data
            _, notes = await register_leagues(session, settings)
        for note in notes:
            print(f"sideline: {note}", file=sys.stderr)
        services = build_services(settings, sessions, SystemClock())  # the bot's own wiring
        report = await services.imports.importer.run(
            args.kind, data, league, now=SystemClock().now(), allow_past=args.allow_past)
    except CsvImportError as exc:
        print(f"sideline: {path}: nothing was imported:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {path}:{problem}" if problem.line else f"  {path}: {problem}", file=sys.stderr)
        return 1
    finally:
        await engine.dispose()
    _out(args, f"{path}: {report.summary()}", {"kind": report.kind, "created": report.created,
                                                 "updated": report.updated, "unchanged": report.unchanged})
    return 0


# --- parser --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS,
                        help="config file (default: $SIDELINE_CONFIG or ./config.toml)")
    parser = argparse.ArgumentParser(prog="sideline", parents=[common],
                                     description="Sideline: a Discord bot for rec leagues.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=_parser_with(common))

    run = sub.add_parser("run", help="start the bot (needs SIDELINE_TOKEN)")
    run.add_argument("--sync", action="store_true", help="publish slash commands to the configured servers")
    run.set_defaults(handler=cmd_run)

    health = sub.add_parser("health", help="one JSON line: exit 0 if the database answers, migrations are "
                            "current and no queued message waits too long, else 1 with the reason")
    health.add_argument("--max-backlog-age", type=parse_duration, metavar="AGE",
                        help="e.g. 90s, 10m, 1h (default: [bot] health_max_backlog_age, else 10m)")
    health.set_defaults(handler=cmd_health)

    db = sub.add_parser("db", help="database maintenance").add_subparsers(dest="db_command", required=True)
    up = db.add_parser("upgrade", help="apply pending migrations")
    up.add_argument("--json", action="store_true")
    up.set_defaults(handler=cmd_db_upgrade)

    backup = db.add_parser("backup", help="copy the SQLite database while the bot runs")
    backup.add_argument("path", help="the new backup file")
    backup.add_argument("--json", action="store_true")
    backup.set_defaults(handler=cmd_db_backup)

    check = sub.add_parser("check-config", help="validate a config file")
    check.add_argument("config_path", nargs="?", metavar="PATH", help="config file to check")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check_config)

    imp = sub.add_parser("import", help="import teams, players, games or results from CSV")
    imp.add_argument("kind", choices=["teams", "players", "games", "results"])
    imp.add_argument("file")
    imp.add_argument("--league", required=True, help="league key from the config")
    imp.add_argument("--allow-past", action="store_true", help="allow games that already started")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=cmd_import)

    for register in _feature_commands():
        register(sub)
    return parser


def _parser_with(common: argparse.ArgumentParser) -> type[argparse.ArgumentParser]:
    """Every subcommand accepts --config too, so `sideline import ... --config x` works."""

    class SubParser(argparse.ArgumentParser):
        def __init__(self, **kwargs: Any) -> None:
            kwargs["parents"] = [*kwargs.get("parents", []), common]
            super().__init__(**kwargs)

    return SubParser


def _feature_commands() -> list[Callable[[Any], None]]:
    """Feature CLIs (rules, standings, reminders...) register their own subcommands."""
    from bot.cli_features import REGISTRARS

    return list(REGISTRARS)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config = default_config_path(getattr(args, "config_path", None) or getattr(args, "config", None))
    try:
        settings = load_settings(config)
    except SettingsError as exc:
        return _fail(str(exc), 2)
    try:
        return asyncio.run(args.handler(args, settings))
    except SettingsError as exc:
        return _fail(str(exc), 2)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
