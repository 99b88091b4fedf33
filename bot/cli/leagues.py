"""`sideline leagues list [--json]`: every league, from the config file or set up in Discord, and
`sideline leagues export --league KEY [--output FILE]`: a league set up in Discord, as config TOML.

The exported table is the one /setup stores (bot/services/setup/stored.py), so `check-config`
accepts it and another install given it has the same league (managed by its file there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.cli.common import fail, open_database, say
from bot.cli.failures import DATA
from bot.cli.league_keys import (
    DISCORD,
    FILE,
    LEAGUE_HELP,
    database_exists,
    open_league,
    publish_discord_leagues,
)
from bot.config.settings import Settings
from bot.services.setup.stored import league_table
from storage.models import League, LeagueSetup


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")


def league_toml(table: Mapping[str, Any]) -> str:
    """One ``[[leagues]]`` table: its plain keys, then its sub-tables."""
    lines = ["[[leagues]]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in table.items() if not isinstance(v, Mapping)]
    for name, sub in table.items():
        if isinstance(sub, Mapping):
            lines += ["", f"[leagues.{name}]"] + [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in sub.items()]
    return "\n".join(lines) + "\n"


WHERE = {FILE: "config file", DISCORD: "Discord (/setup)"}


async def cmd_leagues_list(args: argparse.Namespace, settings: Settings) -> int:
    """Each league's key, name, server, preset and where it was set up: the keys --league takes."""
    if await database_exists(settings):  # no database yet: no league from Discord, and none created
        async with open_database(settings) as db:
            await publish_discord_leagues(db)
    found = [(lg, FILE if settings.from_file(lg.guild_id) else DISCORD) for lg in settings.all_leagues]
    rows = [{"key": lg.key, "name": lg.name, "guild_id": lg.guild_id, "preset": lg.preset,
             "timezone": lg.timezone.key, "set_up_in": where} for lg, where in found]
    if not found:
        human = "no leagues yet: set one up with /setup league in Discord, or add a [[leagues]] table to the config"
    else:
        cells = [("key", "name", "server", "preset", "set up in")]
        cells += [(lg.key, lg.name, str(lg.guild_id), lg.preset, WHERE[where]) for lg, where in found]
        widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]) - 1)]
        human = "\n".join("  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]])
                          for row in cells)
    say(args, human, rows)
    return 0


async def cmd_leagues_export(args: argparse.Namespace, settings: Settings) -> int:
    async with open_league(settings, args.league) as (db, league):
        if league.set_up_in == FILE:
            return fail(f"--league {args.league}: that league is set up in the config file already (only a "
                        "league set up in Discord is exported)", DATA)
        async with db.sessions() as session:
            row = (await session.execute(
                select(League, LeagueSetup).join(LeagueSetup, LeagueSetup.league_id == League.id)
                .where(League.id == league.id))).one()
    table = league_table(*row)
    if args.json:
        print(json.dumps(table, indent=2, ensure_ascii=False))
        return 0
    text = f"# League {args.league!r}, exported from the database: add it to config.toml.\n" + league_toml(table)
    if args.output:
        await asyncio.to_thread(Path(args.output).write_text, text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def register(subparsers: Any) -> None:
    """Add `leagues list|export` to the `sideline` command line."""
    leagues = subparsers.add_parser("leagues", help="every league, from the config file or set up in Discord"
                                    ).add_subparsers(dest="leagues_command", required=True)
    listing = leagues.add_parser("list", help="every league: key, name, server, preset, where it was set up")
    listing.add_argument("--json", action="store_true",
                         help="a list of {key, name, guild_id, preset, timezone, set_up_in: file|discord}")
    listing.set_defaults(handler=cmd_leagues_list)
    export = leagues.add_parser("export", help="print a league set up in Discord as config TOML")
    export.add_argument("--league", required=True, help=LEAGUE_HELP)
    export.add_argument("--output", help="write to this file instead of printing")
    export.add_argument("--json", action="store_true", help="the [[leagues]] table as JSON on stdout")
    export.set_defaults(handler=cmd_leagues_export)
