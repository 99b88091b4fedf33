"""`sideline reminders list --league KEY [--status S] [--json]`: what the bot will send, and what it sent."""

from __future__ import annotations

import argparse
from typing import Any

from bot.cli.common import say
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.services.reminders.queued import queued_messages

STATUSES = ("pending", "sent", "failed", "skipped", "cancelled")


async def cmd_reminders_list(args: argparse.Namespace, settings: Settings) -> int:
    statuses = STATUSES if "all" in (args.status or ()) else tuple(args.status or ("pending", "sent"))
    async with open_league(settings, args.league) as (db, found), db.sessions() as session:
        lines = [] if found.id is None else await queued_messages(session, found.id, statuses, args.limit)
    league = found.settings
    tz = league.timezone
    human = [f"{league.key}: {len(lines)} message(s) ({', '.join(statuses)}), times in {tz.key}"]
    for line in lines:
        when = line.due_at.astimezone(tz).strftime("%a %Y-%m-%d %H:%M %Z")
        about = ""
        if line.game is not None:
            starts = line.game_starts_at.astimezone(tz).strftime("%a %Y-%m-%d %H:%M") if line.game_starts_at else ""
            about = f" for {line.game} ({starts})" + (f", team {line.team}" if line.team else "")
        extra = f" · {line.last_error}" if line.last_error and line.status != "sent" else ""
        human.append(f"  {when}  {line.status:<9} {line.what}{about} -> {line.to}{extra}")
    say(args, "\n".join(human), [line.as_json() for line in lines])
    return 0


def register(subparsers: Any) -> None:
    """Add `reminders list` to the `sideline` command line."""
    reminders = subparsers.add_parser("reminders", help="queued and sent reminders and other messages")
    sub = reminders.add_subparsers(dest="reminders_command", required=True)
    listing = sub.add_parser("list", help="the league's pending and sent messages, soonest first")
    listing.add_argument("--league", required=True, help=LEAGUE_HELP)
    listing.add_argument("--status", action="append", choices=(*STATUSES, "all"),
                         help="only these statuses (repeatable; default: pending and sent)")
    listing.add_argument("--limit", type=int, default=500, help="at most this many rows (default 500)")
    listing.add_argument("--json", action="store_true", help="rows as JSON")
    listing.set_defaults(handler=cmd_reminders_list)
