"""`sideline stats export --league KEY [--season NAME] [--output FILE]`: every player's statistics for a
season as CSV (youth 2.16: the statistician's sheet), each cell safe to open in a spreadsheet."""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import fail
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.errors import UserFacingError
from bot.services.stats.service import EXPORT_COLUMNS
from storage.csv_export import write_csv


async def cmd_stats_export(args: argparse.Namespace, settings: Settings) -> int:
    async with open_league(settings, args.league) as (db, league):
        try:
            rows = await db.services().stats.export_rows(league.settings, args.season)
        except UserFacingError as exc:
            return fail(exc.message)
    out = io.StringIO()
    write_csv(out, EXPORT_COLUMNS, rows)
    if args.output:
        await asyncio.to_thread(Path(args.output).write_text, out.getvalue(), encoding="utf-8")
        print(f"wrote {args.output} ({len(rows)} player{'s' if len(rows) != 1 else ''})", file=sys.stderr)
    else:
        sys.stdout.write(out.getvalue())
    return 0


def register(subparsers: Any) -> None:
    """Add `stats export` to the `sideline` command line."""
    stats = subparsers.add_parser("stats", help="player statistics").add_subparsers(
        dest="stats_command", required=True, metavar="COMMAND")
    export = stats.add_parser("export", help="every player's statistics for a season, as CSV")
    export.add_argument("--league", required=True, help=LEAGUE_HELP)
    export.add_argument("--season", help="an earlier season by name (default: the current one)")
    export.add_argument("--output", help="write to this file instead of printing")
    export.set_defaults(handler=cmd_stats_export)
