"""`sideline`: the parser every feature module adds its subcommands to, and the one place a failure
becomes a line and an exit code."""

from __future__ import annotations

import argparse
import asyncio
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from bot.cli import (
    calendar,
    config,
    database,
    discipline,
    failures,
    health,
    imports,
    leagues,
    relays,
    reminders,
    rules,
    run,
    schedule_builder,
    seasons,
    standings,
    stats,
)
from bot.cli.common import load_discord_leagues
from bot.config.settings import Settings, default_config_path, load_settings

FEATURES = (run, health, database, config, imports, rules, standings, seasons, relays, discipline, reminders,
            leagues, calendar, stats, schedule_builder)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS,
                        help="config file (default: $SIDELINE_CONFIG or ./config.toml)")
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of a failure, not only its one line")
    parser = argparse.ArgumentParser(prog="sideline", parents=[common],
                                     description="Sideline: a Discord bot for rec leagues.")
    parser.add_argument("--version", action="version", version=f"sideline {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=_parser_with(common))
    for feature in FEATURES:
        feature.register(sub)
    return parser


def _parser_with(common: argparse.ArgumentParser) -> type[argparse.ArgumentParser]:
    """Every subcommand accepts --config too, so `sideline import ... --config x` works."""

    class SubParser(argparse.ArgumentParser):
        def __init__(self, **kwargs: Any) -> None:
            kwargs["parents"] = [*kwargs.get("parents", []), common]
            super().__init__(**kwargs)

    return SubParser


def _version() -> str:
    try:
        return version("sideline")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


async def _run(args: argparse.Namespace, settings: Settings) -> int:
    key = getattr(args, "league", None)
    if key is not None and not any(lg.key == key for lg in settings.leagues):
        await load_discord_leagues(settings)  # a league set up with /setup
    return int(await args.handler(args, settings))


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; every failure it can expect is one line and an exit code (failures.py)."""
    args = build_parser().parse_args(argv)
    failures.configure(json=getattr(args, "json", False), debug=getattr(args, "debug", False))
    try:
        if getattr(args, "without_settings", False):  # init-config: there is no config yet
            return int(args.handler(args))
        config_path = default_config_path(getattr(args, "config_path", None) or getattr(args, "config", None))
        settings = load_settings(config_path)
        return asyncio.run(_run(args, settings))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        return failures.handle(exc)
