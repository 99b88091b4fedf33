"""The commissioners' review of a referee's suspension (youth 1.12, 1.20.1, 1.20.2).

A referee suspends for at most the preset's referee limit (youth 1.12: one game). A longer call, or
one "reported to the league", is held at that limit and waits for a commissioner, who may confirm
it, set its length (longer or shorter: "may decrease/increase the suspension") or lift it. The
review finalizes it: afterwards only an appeal's decision can shorten it (1.20.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from bot.league.discipline.infractions import DisciplineError
from bot.league.discipline.presets import DisciplineRules

ReviewAction = Literal["confirm", "set-games", "lift"]
REVIEW_ACTIONS: tuple[str, ...] = get_args(ReviewAction)
MAX_REVIEW_GAMES = 100


@dataclass(frozen=True)
class ReviewDecision:
    action: ReviewAction
    games_before: int
    games_after: int
    lifted: bool
    summary: str
    citation: str


def held_length(rules: DisciplineRules, asked: int) -> int:
    """What a referee's call of ``asked`` games stands at until it is reviewed (youth 1.12)."""
    limit = rules.discipline_referee_max_suspension_games
    return asked if limit is None else min(asked, limit)


def review_suspension(rules: DisciplineRules, *, current_games: int, pending: bool, reviewed: bool,
                      action: str, games: int | None) -> ReviewDecision:
    """The outcome of a commissioner's review, or a DisciplineError saying why it can't be done."""
    cite = rules.discipline_citations.referee_max_suspension or rules.discipline_citations.review
    final_cite = rules.discipline_citations.final
    if action not in REVIEW_ACTIONS:
        raise DisciplineError(f"The action is one of: {', '.join(REVIEW_ACTIONS)}.", valid=REVIEW_ACTIONS)
    if reviewed:
        raise DisciplineError("That suspension was already reviewed and is final: only an appeal's decision "
                              "can shorten it now.", citation=final_cite)
    if not pending:
        raise DisciplineError("That suspension isn't waiting for the commissioners' review.", citation=cite)
    if action == "set-games":
        if games is None:
            raise DisciplineError("Give the number of games with `games:` to set the suspension's length.")
        if not 1 <= games <= MAX_REVIEW_GAMES:
            raise DisciplineError(f"A suspension is 1 to {MAX_REVIEW_GAMES} games; to remove it, use `lift`.")
        return ReviewDecision("set-games", current_games, games, False,
                              f"set to {games} game{'s' if games != 1 else ''} on review", cite)
    if games is not None:
        raise DisciplineError(f"`games:` goes only with `set-games` (not `{action}`).")
    if action == "lift":
        return ReviewDecision("lift", current_games, 0, True, "lifted on review", cite)
    return ReviewDecision("confirm", current_games, current_games, False,
                          f"confirmed at {current_games} game{'s' if current_games != 1 else ''} on review", cite)
