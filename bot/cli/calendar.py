"""`sideline calendar export --league KEY [--team NAME] [--output FILE]`: a team's (or the whole
league's) games as an iCalendar file, the same file /calendar attaches and the feed server serves."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import fail
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.errors import UserFacingError


async def cmd_calendar_export(args: argparse.Namespace, settings: Settings) -> int:
    async with open_league(settings, args.league) as (db, league):
        try:
            filename, body = await db.services().calendar.export(league.settings, args.team)
        except UserFacingError as exc:
            return fail(exc.message)
    if args.output:
        await asyncio.to_thread(Path(args.output).write_bytes, body)
        print(f"wrote {args.output} ({filename})", file=sys.stderr)
    else:
        sys.stdout.buffer.write(body)
        sys.stdout.flush()
    return 0


def register(subparsers: Any) -> None:
    """Add `calendar export` to the `sideline` command line."""
    calendar = subparsers.add_parser("calendar", help="calendar feeds of a league's games").add_subparsers(
        dest="calendar_command", required=True)
    export = calendar.add_parser("export", help="print a team's or the league's games as an .ics file")
    export.add_argument("--league", required=True, help=LEAGUE_HELP)
    export.add_argument("--team", help="one team's games (default: every game in the league)")
    export.add_argument("--output", help="write to this file instead of printing")
    export.set_defaults(handler=cmd_calendar_export)
