"""`sideline leagues export --league KEY [--output FILE]`: a league set up in Discord, as config TOML.

The table is the one /setup stores (bot/services/setup/stored.py), so `check-config` accepts it and
another install given it has the same league (managed by its file there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.cli.common import fail, open_database
from bot.cli.failures import DATA
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


async def cmd_leagues_export(args: argparse.Namespace, settings: Settings) -> int:
    async with open_database(settings) as db, db.sessions() as session:
        row = (await session.execute(
            select(League, LeagueSetup).join(LeagueSetup, LeagueSetup.league_id == League.id)
            .where(League.key == args.league))).first()
    if row is None:
        in_file = any(lg.key == args.league for lg in settings.leagues)
        hint = "it is in the config file already" if in_file else "see /setup show in its server for its key"
        return fail(f"--league {args.league}: no league set up in Discord with that key in this database ({hint})",
                    DATA)
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
    """Add `leagues export` to the `sideline` command line."""
    leagues = subparsers.add_parser("leagues", help="leagues set up in Discord").add_subparsers(
        dest="leagues_command", required=True)
    export = leagues.add_parser("export", help="print a league set up in Discord as config TOML")
    export.add_argument("--league", required=True, help="the league's key (see /setup show)")
    export.add_argument("--output", help="write to this file instead of printing")
    export.add_argument("--json", action="store_true", help="the [[leagues]] table as JSON on stdout")
    export.set_defaults(handler=cmd_leagues_export)
