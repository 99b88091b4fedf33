"""Which changes a game allows in each of its states, and what a refusal says.

A game is ``scheduled`` until it has a result (``final``) or is ``cancelled``; a cancelled game stays
cancelled (the commissioner adds a new game instead). Every command that changes a game's state
checks this table inside its transaction, with the game's row locked, so two commands typed at the
same moment act one after the other and the second is refused in words when the first changed
what it may do.

Things that are not the game's state (has it started yet? whose turn is it in the shootout?) are
checked by the commands themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, get_args

GameStatus = Literal["scheduled", "final", "cancelled"]
Change = Literal["enter_result", "fix_result", "move", "cancel", "shootout_attempt", "shootout_undo",
                 "withdraw_result"]
STATUSES: tuple[GameStatus, ...] = get_args(GameStatus)
CHANGES: tuple[Change, ...] = get_args(Change)

#: (state, change) -> the state after it; a pair not here is refused.
#: A shootout attempt leaves the game scheduled; the deciding one then enters the result.
TRANSITIONS: Mapping[tuple[GameStatus, Change], GameStatus] = MappingProxyType({
    ("scheduled", "enter_result"): "final",
    ("scheduled", "move"): "scheduled",
    ("scheduled", "cancel"): "cancelled",
    ("scheduled", "shootout_attempt"): "scheduled",
    ("scheduled", "shootout_undo"): "scheduled",
    ("final", "fix_result"): "final",
    # A forfeit recorded from the late-start prompt, undone by the official who pressed it (youth 2.4).
    ("final", "withdraw_result"): "scheduled",
})

_FIX = "A commissioner can correct it with /result fix."

#: What the person who asked is told for every refused pair (``{code}``: the game's id).
REFUSALS: Mapping[tuple[GameStatus, Change], str] = MappingProxyType({
    ("scheduled", "fix_result"): "Game {code} has no result yet: enter it with /result enter.",
    ("final", "enter_result"): "Game {code} already has a result. " + _FIX,
    ("final", "move"): "Game {code} has its result, so it can't move: only a scheduled game can move.",
    ("final", "cancel"): "Game {code} has its result, so it can't be cancelled. " + _FIX,
    ("final", "shootout_attempt"): "Game {code} already has a result, so there's no shootout to run. " + _FIX,
    ("final", "shootout_undo"): "Game {code} already has a result, so there's no shootout attempt to take "
                                "back. " + _FIX,
    ("cancelled", "enter_result"): "Game {code} was cancelled: it can't have a result.",
    ("cancelled", "fix_result"): "Game {code} was cancelled: it can't have a result.",
    ("cancelled", "move"): "Game {code} was cancelled, so it can't move: only a scheduled game can move "
                           "(add a new game instead).",
    ("cancelled", "cancel"): "Game {code} was already cancelled.",
    ("cancelled", "shootout_attempt"): "Game {code} was cancelled: there's no shootout to run.",
    ("cancelled", "shootout_undo"): "Game {code} was cancelled: there's no shootout to run.",
    ("scheduled", "withdraw_result"): "Game {code} has no result to take back.",
    ("cancelled", "withdraw_result"): "Game {code} was cancelled: it has no result to take back.",
})


class GameStateError(ValueError):
    """A change the game's state doesn't allow; the message says why, for the person who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def after(status: str, change: Change, code: str) -> GameStatus:
    """The game's state once ``change`` is made, or GameStateError saying why it can't be."""
    if status not in STATUSES:
        raise GameStateError(f"Game {code} is in a state the bot doesn't know ({status[:20]}); "
                             "ask a commissioner to look at it.")
    key = (status, change)
    if key in TRANSITIONS:
        return TRANSITIONS[key]
    raise GameStateError(REFUSALS[key].format(code=code))
