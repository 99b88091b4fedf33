"""`sideline run [--sync] [--shard-ids 0,1 --shard-count 4]`: start the bot (`python -m bot` does the same)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from bot import logs
from bot.cli.common import fail
from bot.config.settings import TOKEN_ENV, Settings, with_command_line

log = logging.getLogger("sideline")


async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    """Start the bot; Discord's refusals (token, --sync, network) are one line each (failures.py)."""
    # discord.py and the bot load here only, so the other subcommands start without them.
    from bot.run.lifecycle import run_until_stopped

    settings = with_command_line(settings, shard_ids=args.shard_ids, shard_count=args.shard_count)
    token = Settings.token()
    if token is None:
        return fail(f"no bot token: set the environment variable {TOKEN_ENV} "
                    f"(e.g. export {TOKEN_ENV}=...) and run again", 2)
    logs.configure(settings.log_level, settings.log_format)  # text or json lines on stderr
    logging.getLogger("alembic").setLevel(logging.WARNING)  # the bot logs one line when migrations ran
    if settings.shards.sharded:
        given = [settings.where(key)[1] for key in ("shard_ids", "shard_count")
                 if key == "shard_count" or settings.shards.ids is not None]
        log.info("running %s (from %s)", settings.shards, ", ".join(given))
    await run_until_stopped(settings, token, sync=args.sync)  # SIGTERM/SIGINT: a graceful stop, exit 0
    return 0


def register(subparsers: Any) -> None:
    run = subparsers.add_parser("run", help="start the bot (needs SIDELINE_TOKEN)")
    run.add_argument("--sync", action="store_true", help="publish slash commands to the configured servers")
    run.add_argument("--shard-ids", metavar="0,1", help="the gateway shards this process runs (needs "
                     "--shard-count; beats SIDELINE_SHARD_IDS and [bot] shard_ids)")
    run.add_argument("--shard-count", metavar="N", help="how many shards the bot runs in all, across its "
                     "processes (beats SIDELINE_SHARD_COUNT and [bot] shard_count)")
    run.set_defaults(handler=cmd_run)
