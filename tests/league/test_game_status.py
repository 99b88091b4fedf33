"""The game's states and the changes each allows: one row per cell of the table."""

from __future__ import annotations

import pytest

from bot.league.game_status import CHANGES, REFUSALS, STATUSES, TRANSITIONS, GameStateError, after
from bot.league.vocabulary import GAME_STATUSES

ALLOWED = [
    ("scheduled", "enter_result", "final"),  # a referee enters the score of a game played
    ("scheduled", "move", "scheduled"),  # only a scheduled game moves
    ("scheduled", "cancel", "cancelled"),  # only a scheduled game is cancelled
    ("scheduled", "shootout_attempt", "scheduled"),  # the deciding attempt then enters the result
    ("scheduled", "shootout_undo", "scheduled"),
    ("final", "fix_result", "final"),  # a commissioner corrects a result
    ("final", "withdraw_result", "scheduled"),  # the official undoes a forfeit from the late-start prompt
]

REFUSED = [
    ("scheduled", "fix_result", "Game G1 has no result yet: enter it with /result enter."),
    ("final", "enter_result", "Game G1 already has a result. A commissioner can correct it with /result fix."),
    ("final", "move", "Game G1 has its result, so it can't move"),
    ("final", "cancel", "Game G1 has its result, so it can't be cancelled."),
    ("final", "shootout_attempt", "Game G1 already has a result, so there's no shootout to run."),
    ("final", "shootout_undo", "Game G1 already has a result, so there's no shootout attempt to take back."),
    ("cancelled", "enter_result", "Game G1 was cancelled: it can't have a result."),
    ("cancelled", "fix_result", "Game G1 was cancelled: it can't have a result."),
    ("cancelled", "move", "Game G1 was cancelled, so it can't move"),  # a cancelled game stays cancelled
    ("cancelled", "cancel", "Game G1 was already cancelled."),
    ("cancelled", "shootout_attempt", "Game G1 was cancelled: there's no shootout to run."),
    ("cancelled", "shootout_undo", "Game G1 was cancelled: there's no shootout to run."),
    ("scheduled", "withdraw_result", "Game G1 has no result to take back."),
    ("cancelled", "withdraw_result", "Game G1 was cancelled: it has no result to take back."),
]


def test_the_states_are_the_ones_stored() -> None:
    assert STATUSES == GAME_STATUSES


def test_every_state_and_change_is_either_allowed_or_refused_in_words() -> None:
    cells = {(s, c) for s in STATUSES for c in CHANGES}
    assert set(TRANSITIONS) | set(REFUSALS) == cells
    assert not set(TRANSITIONS) & set(REFUSALS)
    assert {(s, c) for s, c, _ in ALLOWED} == set(TRANSITIONS)
    assert {(s, c) for s, c, _ in REFUSED} == set(REFUSALS)


@pytest.mark.parametrize(("status", "change", "then"), ALLOWED, ids=[f"{s}-{c}" for s, c, _ in ALLOWED])
def test_allowed_change(status: str, change: str, then: str) -> None:
    assert after(status, change, "G1") == then  # type: ignore[arg-type]


@pytest.mark.parametrize(("status", "change", "says"), REFUSED, ids=[f"{s}-{c}" for s, c, _ in REFUSED])
def test_refused_change(status: str, change: str, says: str) -> None:
    with pytest.raises(GameStateError) as refused:
        after(status, change, "G1")  # type: ignore[arg-type]
    assert refused.value.message.startswith(says)


def test_nothing_leaves_a_cancelled_game_or_takes_a_result_away_but_the_late_start_undo() -> None:
    assert all(s != "cancelled" for s, _ in TRANSITIONS)
    assert {c for (s, c), then in TRANSITIONS.items() if s == "final" and then != "final"} == {"withdraw_result"}


def test_a_state_the_bot_does_not_know_is_refused() -> None:
    with pytest.raises(GameStateError, match="a state the bot doesn't know"):
        after("postponed", "move", "G1")
