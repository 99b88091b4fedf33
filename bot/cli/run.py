"""`sideline run [--sync]`: start the bot (`python -m bot` does the same)."""

from __future__ import annotations

import argparse
from typing import Any

from bot import logs
from bot.cli.common import fail
from bot.settings import TOKEN_ENV, Settings


async def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    # discord.py and the bot load here only, so the other subcommands start without them.
    import aiohttp
    import discord

    from bot.lifecycle import AlreadyRunning, run_until_stopped

    token = Settings.token()
    if token is None:
        return fail(f"no bot token: set the environment variable {TOKEN_ENV} "
                    f"(e.g. export {TOKEN_ENV}=...) and run again", 2)
    logs.configure(settings.log_level, settings.log_format)  # text or json lines on stderr
    try:
        await run_until_stopped(settings, token, sync=args.sync)  # SIGTERM/SIGINT: a graceful stop, exit 0
    except AlreadyRunning as exc:
        return fail(str(exc), 2)
    except discord.LoginFailure:
        return fail(f"Discord rejected the token in {TOKEN_ENV}; copy it again from the "
                    "Developer Portal (Bot > Reset Token)")
    except (aiohttp.ClientConnectionError, OSError) as exc:
        return fail(f"could not reach Discord ({exc.__class__.__name__}); check the network and try again")
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused the connection: this bot needs no privileged intents; "
                    "check the application settings")
    return 0


def register(subparsers: Any) -> None:
    run = subparsers.add_parser("run", help="start the bot (needs SIDELINE_TOKEN)")
    run.add_argument("--sync", action="store_true", help="publish slash commands to the configured servers")
    run.set_defaults(handler=cmd_run)
