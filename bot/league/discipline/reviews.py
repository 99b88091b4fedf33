"""The commissioners' review of a referee's suspension (youth 1.12, 1.20.1, 1.20.2).

A referee suspends for at most the preset's referee limit (youth 1.12: one game). A longer call, or
one "reported to the league", is held at that limit and waits for a commissioner, who may confirm
it, set its length (longer or shorter: "may decrease/increase the suspension") or lift it. The
review finalizes it: afterwards only an appeal's decision can shorten it (1.20.2). A length outside the
one the rulebook gives the infraction (co-ed severe offences: 1 to 5 games) stands only where the
rulebook lets the commissioners go beyond it (lengths.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from bot.league.discipline.infractions import DisciplineError, Infraction
from bot.league.discipline.lengths import suspension_length
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
    # A length outside the infraction's range that the rulebook lets the commissioners set: which rule.
    note: str = ""


def held_length(rules: DisciplineRules, asked: int) -> int:
    """What a referee's call of ``asked`` games stands at until it is reviewed (youth 1.12)."""
    limit = rules.discipline_referee_max_suspension_games
    return asked if limit is None else min(asked, limit)


def review_suspension(rules: DisciplineRules, *, current_games: int, pending: bool, reviewed: bool,
                      action: str, games: int | None, infraction: Infraction | None = None) -> ReviewDecision:
    """The outcome of a commissioner's review, or a DisciplineError saying why it can't be done.

    ``infraction`` is the call the suspension came from: its length must stay in the range the rulebook
    gives it, unless the rulebook lets the commissioners go beyond it."""
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
        length = suspension_length(rules, infraction, games, by_commissioner=True)
        return ReviewDecision("set-games", current_games, games, False,
                              f"set to {games} game{'s' if games != 1 else ''} on review", cite, length.note)
    if games is not None:
        raise DisciplineError(f"`games:` goes only with `set-games` (not `{action}`).")
    if action == "lift":
        return ReviewDecision("lift", current_games, 0, True, "lifted on review", cite)
    length = suspension_length(rules, infraction, current_games, by_commissioner=True)
    return ReviewDecision("confirm", current_games, current_games, False,
                          f"confirmed at {current_games} game{'s' if current_games != 1 else ''} on review", cite,
                          length.note)
