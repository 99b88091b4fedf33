"""`sideline check-config [PATH]`: validate a config file, and against the database when it exists.
`sideline init-config [PATH]`: a newcomer's first config (what `make run` calls when there is none)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from bot.cli.common import say
from bot.cli.failures import USAGE, Failure
from bot.config.settings import ENVIRONMENT, TOKEN_ENV, Settings, check_strictly
from bot.services.discipline.reviews import admin_channel_warning
from bot.services.leagues import check_against_database

#: The default config: leagues are set up in Discord. In a source tree (make run) it sits at the root.
EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"
_MINIMAL = """# Sideline configuration. Check it with:  sideline check-config config.toml
# The bot token is NEVER kept here: set the environment variable SIDELINE_TOKEN.
# Leagues are set up in Discord: invite the bot, then run /setup league in your server.

[bot]
# A relative SQLite path is relative to this file's folder.
database_url = "sqlite+aiosqlite:///sideline.db"
log_level = "INFO"
"""


async def cmd_check_config(args: argparse.Namespace, settings: Settings) -> int:
    check_strictly(settings)  # the example's placeholder ids, rulebook files that aren't there
    database = await check_against_database(settings)  # read-only; SettingsError if it would not start
    leagues = [{"key": lg.key, "name": lg.name, "guild_id": lg.guild_id, "preset": lg.preset,
                "timezone": lg.timezone.key} for lg in settings.leagues]
    human = f"{settings.source}: OK, {len(leagues)} league(s)" + "".join(
        f"\n  {lg['key']}: {lg['name']} (server {lg['guild_id']}, {lg['preset']}, {lg['timezone']})"
        for lg in leagues) + f"\n{database}"
    if not leagues:
        human += "\nnote: no [[leagues]] in the file; set each league up in its server with /setup league"
    for key in settings.from_environment:  # where each value came from: only these beat the file
        human += f"\n{key} = {_shown(settings, key)} (from {ENVIRONMENT[key]}, over the file)"
    if settings.shards.sharded:  # `sideline run --shard-ids/--shard-count` may still change it
        human += f"\nsharded: `sideline run` runs {settings.shards} (its --shard-ids and --shard-count beat these)"
    warnings = [f"{lg.key}: {text}" for lg in settings.leagues if (text := admin_channel_warning(lg))]
    human += "".join(f"\nwarning: {w}" for w in warnings)
    if Settings.token() is None:
        human += f"\nnote: {TOKEN_ENV} is not set; `sideline run` needs it"
    sources = {key: "environment" if key in settings.from_environment else "file" for key in ENVIRONMENT}
    shards = {"ids": list(settings.shards.ids) if settings.shards.ids is not None else None,
              "count": settings.shards.count}
    say(args, human, {"ok": True, "leagues": leagues, "database": database, "sources": sources,
                      "shards": shards, "warnings": warnings})
    return 0


def instructions(path: Path, token_set: bool) -> str:
    """What a newcomer does after the config exists: the token, the invite, then /setup in Discord."""
    token = (f"{TOKEN_ENV} is set" if token_set else
             f"export {TOKEN_ENV}=...   (Developer Portal > your application > Bot > Reset Token)")
    return (f"created {path} (leagues are set up in Discord; the bot was not started). Next:\n"
            f"  1. {token}\n"
            "  2. invite the bot to your server with the scopes bot and applications.commands\n"
            "     (README: Creating the Discord application)\n"
            "  3. make run again; then, in your server, /setup league, /setup roles, /setup channels\n"
            "     and /setup team for each team\n"
            f"Check the file any time with: sideline check-config {path}")


def cmd_init_config(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.exists():
        raise Failure(f"{path}: exists already; nothing written (check it with: sideline check-config {path})",
                      USAGE)
    if not path.parent.is_dir():
        raise Failure(f"{path}: the folder {path.parent} does not exist (create it first)", USAGE)
    text = EXAMPLE.read_text(encoding="utf-8") if EXAMPLE.is_file() else _MINIMAL
    path.write_text(text, encoding="utf-8")
    say(args, instructions(path, Settings.token() is not None), {"created": str(path)})
    return 0


def _shown(settings: Settings, key: str) -> str:
    """A value as check-config prints it: a database URL without its password, shard ids as 0,1."""
    if key == "shard_ids":
        return ",".join(map(str, settings.shards.ids or ()))
    if key == "shard_count":
        return str(settings.shards.count)
    value = str(getattr(settings, key))
    return make_url(value).render_as_string(hide_password=True) if key == "database_url" else value


def register(subparsers: Any) -> None:
    check = subparsers.add_parser("check-config", help="validate a config file")
    check.add_argument("config_path", nargs="?", metavar="PATH", help="config file to check")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check_config)

    init = subparsers.add_parser("init-config", help="write a first config.toml and say what to do next "
                                 "(make run does it when there is none)")
    init.add_argument("path", nargs="?", default="config.toml", metavar="PATH",
                      help="where to write it (default: config.toml)")
    init.add_argument("--json", action="store_true")
    init.set_defaults(handler=cmd_init_config, without_settings=True)
