"""Errors meant for the person who typed the command.

Services raise these; the one global handler turns them into polite ephemeral replies.
Anything else is a bug: logged with a reference id, and the user sees only the id.
"""

from __future__ import annotations

import os


class UserFacingError(Exception):
    """A refusal or problem the user can act on; the message is shown as-is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(UserFacingError):
    """The caller lacks the role or team membership the command needs."""


class NotFound(UserFacingError):
    """A game, team, player or record that does not exist in this league."""


class InvalidInput(UserFacingError):
    """Input that is malformed, out of range, or in the past."""


class Conflict(UserFacingError):
    """The request clashes with the current state (already decided, limit reached...)."""


class NoLeague(UserFacingError):
    """The command was used in a server (or a DM) that has no league configured."""


class CannotListen(RuntimeError):
    """A server the operator turned on (calendar feeds, metrics) can't listen where the config says: the
    port is taken, or the address isn't this machine's. Not a user's error: the start stops with this one
    line (bot/cli/failures.py), rather than reading as "could not reach Discord"."""

    def __init__(self, setting: str, host_setting: str, host: str, port: int, exc: OSError) -> None:
        why = os.strerror(exc.errno).lower() if exc.errno else str(exc)
        super().__init__(f"{setting} = {port}: can't listen on {host}:{port} ({why}) (stop what listens there, "
                         f"or pick another port or {host_setting})")
