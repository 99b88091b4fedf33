"""A goal and who is credited with it: what counts, what is disallowed, and whether the score agrees.

Youth 3.4 (1): a goal is disallowed when a "player is not on the game sheet and he or a teammate scores
a goal. (Minor also assessed)". Youth 2.14: a shoot-out goal "is not counted in the individual 'Goal
Scored' statistic ... but will be recorded as a separate statistic". Youth 2.4: a forfeit's "individual
stats [are] not counted".

Choices the rulebooks leave open, decided here:
- Where the preset says so (``goal_off_sheet_disallowed_with_minor``, youth 3.4 (1)) a goal whose scorer
  or an assister isn't on the scoring team's sheet is recorded, disallowed, and each such player gets a
  minor; elsewhere it is refused, saying who isn't on the sheet. A player on the other team's sheet is
  never credited (that is a typo, not a rule).
- Up to two assists, three different players; an assist2 without an assist1 is the first assist.
- Period and time are optional; the time is the period's clock as the sheet has it (elapsed, MM:SS).
  Periods run to the game's regulation periods plus its overtime periods.
- Shoot-out attempts are their own record (/shootout record) and never goals; a forfeited game takes no
  goals at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.league.gamesheets.presets import GameSheetRules

_CLOCK = re.compile(r"^(\d{1,2}):([0-5]\d)$")


class GoalError(ValueError):
    """A goal the rules refuse as given; the message is polite and safe to show."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Credit:
    """A player credited with a goal (the scorer first, then the assists) and whether they are on the
    scoring team's sheet."""

    player_id: int
    name: str
    on_sheet: bool


@dataclass(frozen=True)
class GoalRuling:
    """What a goal becomes: counted, or disallowed with minors to the players not on the sheet."""

    counts: bool
    off_sheet: tuple[Credit, ...] = ()
    minors_to: tuple[Credit, ...] = ()
    citation: str = ""


def credits_in_order(scorer: int, assists: Sequence[int | None]) -> tuple[int, ...]:
    """The scorer and the assists given, in order, each once (GoalError when one is named twice)."""
    found = [scorer, *(a for a in assists if a is not None)]
    if len(found) != len(set(found)):
        raise GoalError("The scorer and the assists are different players: name each once.")
    return tuple(found)


def rule_goal(rules: GameSheetRules, credits: Sequence[Credit]) -> GoalRuling:
    """Whether a goal counts; GoalError (naming who isn't on the sheet) where the league refuses it."""
    off = tuple(c for c in credits if not c.on_sheet)
    if not off:
        return GoalRuling(True)
    cited = rules.gamesheet_citations.off_sheet
    if rules.goal_off_sheet_disallowed_with_minor:
        return GoalRuling(False, off, off, cited)
    names = " and ".join(c.name for c in off)
    raise GoalError(f"{names} {'is' if len(off) == 1 else 'are'} not on the team's game sheet: a goal is "
                    "credited only to players on it. If they played, an official adds them with /gamesheet add "
                    "first.")


def read_clock(text: str | None, period_minutes: int) -> str | None:
    """The period's clock as "MM:SS" (None when not given); GoalError for a time the period can't have."""
    if text is None or not text.strip():
        return None
    found = _CLOCK.match(text.strip())
    if found is None:
        raise GoalError("Give the time as minutes and seconds into the period, e.g. 12:05.")
    minutes, seconds = int(found[1]), int(found[2])
    if minutes * 60 + seconds > period_minutes * 60:
        raise GoalError(f"A period here lasts {period_minutes} minutes: {minutes:02d}:{seconds:02d} is past its end.")
    return f"{minutes:02d}:{seconds:02d}"


def check_period(period: int | None, periods: int) -> None:
    """A period of the game: its regulation periods and any overtime."""
    if period is not None and not 1 <= period <= periods:
        raise GoalError(f"This game has {periods} period{'s' if periods != 1 else ''}"
                        f"{' counting overtime' if periods else ''}: give 1 to {periods}.")


def game_minute(period: int | None, clock: str | None, period_minutes: int) -> int | None:
    """Minutes into the game (what the late-game penalty rules read), when period and time are both known."""
    if period is None or clock is None:
        return None
    return (period - 1) * period_minutes + int(clock.split(":")[0])


def score_differences(home: str, away: str, score: tuple[int, int], goals: tuple[int, int]) -> tuple[str, ...]:
    """Where an entered score and the goals recorded for the game disagree (nothing when they agree)."""
    out = []
    for team, entered, recorded in ((home, score[0], goals[0]), (away, score[1], goals[1])):
        if entered != recorded:
            out.append(f"{team}: {entered} in the score, {recorded} in the recorded goals")
    return tuple(out)
