"""`sideline health`: for a container's HEALTHCHECK or a monitor (bot/run/health.py decides)."""

from __future__ import annotations

import argparse
from typing import Any

from bot.config.settings import Settings, parse_duration


async def cmd_health(args: argparse.Namespace, settings: Settings) -> int:
    from bot.run import health

    return await health.run(settings, args.max_backlog_age)  # one JSON line; 0 healthy, 1 not


def register(subparsers: Any) -> None:
    health = subparsers.add_parser("health", help="one JSON line: exit 0 if the database answers, migrations are "
                                   "current and no queued message waits too long, else 1 with the reason")
    health.add_argument("--max-backlog-age", type=parse_duration, metavar="AGE",
                        help="e.g. 90s, 10m, 1h (default: [bot] health_max_backlog_age, else 10m)")
    health.set_defaults(handler=cmd_health, json=True)  # a monitor reads JSON, failures included
