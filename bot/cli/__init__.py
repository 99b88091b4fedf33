"""The admin command line, `sideline`: one module per feature's subcommands, each adding its parsers.

`run` (run.py), `health` (health.py), `db upgrade|backup` (database.py), `check-config` (config.py),
`import` (imports.py), `rules`, `standings`, `relays`, `discipline`, `reminders` and `leagues`; what they
share is in common.py.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bot.cli import (
    calendar,
    config,
    database,
    discipline,
    health,
    imports,
    leagues,
    relays,
    reminders,
    rules,
    run,
    standings,
)
from bot.cli.common import fail
from bot.settings import SettingsError, default_config_path, load_settings

FEATURES = (run, health, database, config, imports, rules, standings, relays, discipline, reminders, leagues,
            calendar)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS,
                        help="config file (default: $SIDELINE_CONFIG or ./config.toml)")
    parser = argparse.ArgumentParser(prog="sideline", parents=[common],
                                     description="Sideline: a Discord bot for rec leagues.")
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config_path = default_config_path(getattr(args, "config_path", None) or getattr(args, "config", None))
    try:
        settings = load_settings(config_path)
    except SettingsError as exc:
        return fail(str(exc), 2)
    try:
        return asyncio.run(args.handler(args, settings))
    except SettingsError as exc:
        return fail(str(exc), 2)
    except KeyboardInterrupt:
        return 130
