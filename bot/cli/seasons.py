"""`sideline season start|end|show --league KEY`: a league's seasons from the command line."""

from __future__ import annotations

import argparse
from typing import Any

from bot.cli.common import fail, say
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.errors import UserFacingError
from bot.services.seasons import ROSTER_CHOICES, SeasonsShown, SeasonStarted, SeasonView


def _line(season: SeasonView) -> str:
    return (f"{season.name}: from {season.first_day.isoformat()}, {season.weeks} regular-season weeks, "
            f"{season.games} games; {season.when}")


def _rosters(started: SeasonStarted) -> str:
    if started.rosters == "clear":
        return (f"rosters cleared: {started.players} players left their teams ({started.teams} teams); "
                "captains stay captains")
    return f"rosters kept: {started.players} players stay on their teams ({started.teams} teams)"


def _shown(shown: SeasonsShown) -> str:
    if shown.current is None:
        return f"{shown.league_name}: no seasons yet (sideline season start)."
    lines = [("current " if shown.current.ended_at is None else "last ") + _line(shown.current)]
    lines += ["earlier " + _line(s) for s in shown.earlier]
    return "\n".join(lines)


async def cmd_season(args: argparse.Namespace, settings: Settings) -> int:
    showing = args.season_command == "show"
    try:
        # Starting or ending a season gives a league never used yet its row, as the bot gives it at start.
        async with open_league(settings, args.league, register=not showing) as (db, league):
            service = db.services().seasons
            if showing:
                shown = await service.show_league(league.settings, league.id)
                say(args, _shown(shown), shown.as_json())
                return 0
            assert league.id is not None  # registered, or stored by /setup
            if args.season_command == "start":
                started = await service.start_league(league.settings, league.id, args.name, args.first_day,
                                                     args.weeks, rosters=args.rosters)
                say(args, "started " + _line(started.season) + "\n" + _rosters(started), started.as_json())
            else:
                season = await service.end_league(league.settings, league.id)
                say(args, "ended " + _line(season), season.as_json())
    except UserFacingError as exc:
        return fail(exc.message.replace("/season end", "sideline season end")
                    .replace("/season start", "sideline season start"))
    return 0


def register(subparsers: Any) -> None:
    """Add `sideline season start|end|show` (called by bot/cli/__init__.py)."""
    season = subparsers.add_parser("season", help="a league's seasons: start, end, show")
    sub = season.add_subparsers(dest="season_command", required=True, metavar="COMMAND")
    start = sub.add_parser("start", help="start a season (standings count from its first day)")
    start.add_argument("--name", required=True, help="the season's name, e.g. 'Fall 2026'")
    start.add_argument("--first-day", required=True, help="its first day, YYYY-MM-DD in the league's time zone")
    start.add_argument("--weeks", required=True, type=int, help="weeks of regular season")
    start.add_argument("--rosters", choices=ROSTER_CHOICES, default="keep",
                       help="keep: teams carry on as they are (default); clear: every player leaves their team "
                            "as the season starts (the earlier rosters stay in the history)")
    sub.add_parser("end", help="end the running season")
    sub.add_parser("show", help="the current season, its week, and the earlier ones")
    for parser in sub.choices.values():
        parser.add_argument("--league", required=True, help=LEAGUE_HELP)
        parser.add_argument("--json", action="store_true", help="the season(s) as JSON")
        parser.set_defaults(handler=cmd_season)
