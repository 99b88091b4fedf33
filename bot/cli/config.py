"""`sideline check-config [PATH]`: validate a config file, and against the database when it exists."""

from __future__ import annotations

import argparse
from typing import Any

from sqlalchemy.engine import make_url

from bot.cli.common import say
from bot.services.leagues import check_against_database
from bot.settings import ENVIRONMENT, TOKEN_ENV, Settings


async def cmd_check_config(args: argparse.Namespace, settings: Settings) -> int:
    database = await check_against_database(settings)  # read-only; SettingsError if it would not start
    leagues = [{"key": lg.key, "name": lg.name, "guild_id": lg.guild_id, "preset": lg.preset,
                "timezone": lg.timezone.key} for lg in settings.leagues]
    human = f"{settings.source}: OK, {len(leagues)} league(s)" + "".join(
        f"\n  {lg['key']}: {lg['name']} (server {lg['guild_id']}, {lg['preset']}, {lg['timezone']})"
        for lg in leagues) + f"\n{database}"
    for key in settings.from_environment:  # where each value came from: only these beat the file
        human += f"\n{key} = {_shown(settings, key)} (from {ENVIRONMENT[key]}, over the file)"
    if Settings.token() is None:
        human += f"\nnote: {TOKEN_ENV} is not set; `sideline run` needs it"
    sources = {key: "environment" if key in settings.from_environment else "file" for key in ENVIRONMENT}
    say(args, human, {"ok": True, "leagues": leagues, "database": database, "sources": sources})
    return 0


def _shown(settings: Settings, key: str) -> str:
    """A value as check-config prints it: a database URL without its password."""
    value = str(getattr(settings, key))
    return make_url(value).render_as_string(hide_password=True) if key == "database_url" else value


def register(subparsers: Any) -> None:
    check = subparsers.add_parser("check-config", help="validate a config file")
    check.add_argument("config_path", nargs="?", metavar="PATH", help="config file to check")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check_config)
