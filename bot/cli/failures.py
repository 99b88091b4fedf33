"""Every expected failure of `sideline`, phrased in one place.

An exception becomes one line on stderr, ``sideline: <file>: <key>: <problem>`` or
``sideline: <what>: <why> (<what to do>)``, and an exit code: 2 when the command can't run as given
(usage, the config, the database or Discord unreachable or refusing, a destination that isn't
there), 1 when the data was refused. Nothing else goes to stdout, except ``{"error": ...}`` with
``--json`` so a script reads the failure where it reads answers. ``--debug`` prints the traceback
first. An exception not named here is a bug: one line too, that says so and points to ``--debug``.

Discord's and aiohttp's exceptions are recognised only when those modules are loaded already: only
`sideline run` loads them, and every other command starts without them.
"""

from __future__ import annotations

import json
import sys
import traceback
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.config.settings import SettingsError, UnknownLeague
from bot.errors import CannotListen, UserFacingError
from bot.metrics import MetricsUnavailable
from storage.backup import BackupError
from storage.db import DatabaseUnreachable

USAGE = 2  # the command can't run as given: usage, config, the database or Discord, a missing folder
DATA = 1  # the data was refused

#: The scopes an invite needs for the bot to publish its slash commands in a server (README).
INVITE_SCOPES = "bot and applications.commands"


class Failure(Exception):
    """A failure a subcommand has phrased already: raise it anywhere in a handler."""

    def __init__(self, message: str, code: int = DATA) -> None:
        super().__init__(message)
        self.message, self.code = message, code


@dataclass(frozen=True)
class Output:
    json: bool = False
    debug: bool = False


_OUTPUT: ContextVar[Output | None] = ContextVar("sideline_output", default=None)


def configure(*, json: bool = False, debug: bool = False) -> None:
    """How this run answers failures (main sets it from --json and --debug before anything can fail)."""
    _OUTPUT.set(Output(json=json, debug=debug))


def _output() -> Output:
    return _OUTPUT.get() or Output()


def report(message: str, code: int) -> int:
    """One line on stderr, ``{"error": ...}`` on stdout with --json; returns the exit code."""
    line = _one_line(message)
    print(f"sideline: {line}", file=sys.stderr)
    if _output().json:
        print(json.dumps({"error": line, "exit_code": code}))
    return code


def handle(exc: BaseException) -> int:
    """Report ``exc`` as its one line (the traceback before it with --debug); returns the exit code."""
    if _output().debug:
        traceback.print_exception(exc)
    explained = explain(exc)
    if explained is None:
        detail = _one_line(str(exc))
        explained = (f"unexpected error: {exc.__class__.__name__}{': ' + detail if detail else ''} "
                     "(run again with --debug for the traceback, and please report it)", DATA)
    return report(*explained)


def explain(exc: BaseException) -> tuple[str, int] | None:
    """The line and exit code for an expected failure; None for anything else (a bug)."""
    if isinstance(exc, Failure):
        return exc.message, exc.code
    if isinstance(exc, UnknownLeague):
        known = f"known: {', '.join(exc.known)}" if exc.known else \
            "none yet: set one up with /setup league in Discord, or a [[leagues]] table in the config"
        return f"--league {exc.wanted}: no such league ({known})", USAGE
    if isinstance(exc, SettingsError):
        return str(exc), USAGE
    if isinstance(exc, DatabaseUnreachable):
        return _database(exc), USAGE
    if isinstance(exc, BackupError):
        return f"db backup: {exc}", USAGE
    if isinstance(exc, MetricsUnavailable | CannotListen):  # the metrics extra missing, a port taken
        return str(exc), USAGE
    return _from_discord(exc) or _other(exc)


def _database(exc: DatabaseUnreachable) -> str:
    if exc.sqlite:
        folder = Path(exc.where).parent
        if not folder.is_dir():
            return (f"database {exc.where}: the folder {folder} does not exist (create it, or fix "
                    "bot.database_url; a relative path is relative to the config file's folder)")
        return (f"database {exc.where}: can't open it ({exc.reason}) (may this user write there? check "
                "bot.database_url in the config)")
    refused = exc.reason.split(":", 1)[0] in ("ConnectionRefusedError", "TimeoutError", "gaierror", "OSError",
                                               "ConnectionResetError", "CannotConnectNowError")
    why = "the server isn't answering" if refused else "the server refused the connection"
    return (f"database {exc.where}: {why} ({exc.reason}) (is PostgreSQL running there? check host, port, "
            "user and password in bot.database_url)")


def _from_discord(exc: BaseException) -> tuple[str, int] | None:
    """Discord's refusals at `sideline run`, if discord.py is loaded at all."""
    if "bot.run.lifecycle" in sys.modules:
        from bot.run.lifecycle import AlreadyRunning

        if isinstance(exc, AlreadyRunning):
            return str(exc), USAGE
    if "bot.client.bot" in sys.modules:
        from bot.client.bot import SyncRefused

        if isinstance(exc, SyncRefused):
            return (f"run --sync: Discord refused to publish the commands to server {exc.guild_id} "
                    f"(league {exc.league}): {exc.reason} (invite the bot to that server with the scopes "
                    f"{INVITE_SCOPES}, or fix guild_id)"), USAGE
    discord: Any = sys.modules.get("discord")
    if discord is not None:
        if isinstance(exc, discord.LoginFailure):
            from bot.config.settings import TOKEN_ENV

            return (f"Discord rejected the token in {TOKEN_ENV}; copy it again from the Developer Portal "
                    "(Bot > Reset Token)"), USAGE
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            return ("Discord refused the connection: this bot needs no privileged intents; check the "
                    "application settings in the Developer Portal"), USAGE
        if isinstance(exc, discord.GatewayNotFound):
            return "could not reach Discord's gateway (Discord may be down; try again later)", USAGE
    aiohttp: Any = sys.modules.get("aiohttp")
    if aiohttp is not None and isinstance(exc, aiohttp.ClientConnectionError):
        return f"could not reach Discord ({exc.__class__.__name__}) (check the network and try again)", USAGE
    return None


def _other(exc: BaseException) -> tuple[str, int] | None:
    if isinstance(exc, UserFacingError):  # a service refused the data, as it would in Discord
        return exc.message, DATA
    if isinstance(exc, OSError):
        if exc.filename is not None:  # a file or folder the command was given
            return f"{exc.filename}: {(exc.strerror or str(exc)).lower()}", USAGE
        # The database's errors are DatabaseUnreachable by now: a socket error here is the network's.
        return f"could not reach Discord ({exc.__class__.__name__}) (check the network and try again)", USAGE
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split())
