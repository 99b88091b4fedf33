"""Errors meant for the person who typed the command.

Services raise these; the one global handler turns them into polite ephemeral replies.
Anything else is a bug: logged with a reference id, and the user sees only the id.
"""

from __future__ import annotations


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
