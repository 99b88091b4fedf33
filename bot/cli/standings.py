"""`sideline standings --league KEY [--division NAME] [--season NAME] [--json]`: the league table."""

from __future__ import annotations

import argparse
from typing import Any

from bot.cli.common import fail, say
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.errors import UserFacingError
from bot.services.standings import render_text


async def cmd_standings(args: argparse.Namespace, settings: Settings) -> int:
    try:
        async with open_league(settings, args.league) as (db, league):
            table = await db.services().standings.league_table(league.settings, division=args.division,
                                                                   season=args.season)
    except UserFacingError as exc:
        return fail(exc.message)
    say(args, render_text(table), table.json_rows())
    return 0


def register(subparsers: Any) -> None:
    """Add `standings` to the `sideline` command line."""
    parser = subparsers.add_parser("standings", help="print a league's standings table")
    parser.add_argument("--league", required=True, help=LEAGUE_HELP)
    parser.add_argument("--division", help="one division only")
    parser.add_argument("--season", help="an earlier season by name (default: the current one)")
    parser.add_argument("--json", action="store_true",
                        help="rows as JSON, best first within each division")
    parser.set_defaults(handler=cmd_standings)
