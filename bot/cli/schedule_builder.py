"""`sideline schedule generate --league KEY --slots slots.csv --meetings N [--division D] [--out games.csv]`:
a division's schedule from the slots booked for it, written as the games file `sideline import games` reads."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import fail, say
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.errors import UserFacingError


async def cmd_generate(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.slots)
    try:
        data = await asyncio.to_thread(path.read_bytes)
    except OSError as exc:
        return fail(f"can't read {path}: {exc.strerror}")
    try:
        async with open_league(settings, args.league) as (db, league):
            made = await db.services().schedule_builder.generate(league.settings, data, args.meetings,
                                                                 args.division)
    except UserFacingError as exc:
        return fail(f"{path}: {exc.message}")
    if args.out:
        try:
            await asyncio.to_thread(Path(args.out).write_bytes, made.csv)
        except OSError as exc:
            return fail(f"can't write {args.out}: {exc.strerror}")
    else:
        sys.stdout.write(made.csv.decode())
    counts = ", ".join(f"{t.team} {t.games} ({t.home} home)" for t in made.teams)
    summary = (f"{len(made.games)} games in {len(made.weeks)} weeks, each pair {made.meetings} times, at most "
               f"{made.per_week} a team a week; {made.unused_slots} of {made.slots} slots unused. {counts}")
    if args.out:
        say(args, f"{args.out}: {summary}", {
            "file": args.out, "games": len(made.games), "weeks": len(made.weeks), "division": made.division,
            "unused_slots": made.unused_slots,
            "teams": [{"team": t.team, "games": t.games, "home": t.home, "away": t.away} for t in made.teams]})
    else:
        print(summary, file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    """Add `schedule generate` to the `sideline` command line."""
    schedule = subparsers.add_parser("schedule", help="generate a division's schedule")
    sub = schedule.add_subparsers(dest="schedule_command", required=True, metavar="SUBCOMMAND")
    gen = sub.add_parser(
        "generate", help="a round robin on booked slots, as a games file",
        description="Each pair of the division's teams meets exactly N times, no team over the league's games a "
                    "week, home and away balanced. The output is the games file `sideline import games` reads.",
        epilog="slots file: starts_at,venue[,division] (starts_at YYYY-MM-DD HH:MM in the league's time zone; a "
               "slot with a division is used only for that division's games)")
    gen.add_argument("--league", required=True, help=LEAGUE_HELP)
    gen.add_argument("--slots", required=True, help="the CSV of booked slots")
    gen.add_argument("--meetings", required=True, type=int, help="how many times each pair of teams meets")
    gen.add_argument("--division", help="the division (needed when the league has several)")
    gen.add_argument("--out", help="write the games file here (default: standard output)")
    gen.add_argument("--json", action="store_true", help="the summary as JSON (with --out)")
    gen.set_defaults(handler=cmd_generate)
