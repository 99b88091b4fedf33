"""Cleanup duty (youth 2.15): a team that doesn't clear the arena after the week's last game "will be
assessed a two-minute bench minor to be served at the beginning of their next game".

Choices the rulebook leaves open, decided here:
- Only a team of the week's last game can be recorded (it is the one "scheduled" to clean up), and
  only once that game has started; the league must have the duty on
  (``cleanup_duty_last_game_each_week``) and a bench minor for it
  (``cleanup_missed_bench_minor_minutes``, youth: 2).
- "Their next game" is the team's first game, of any kind (regular, seeding, playoff), that starts
  after the one not cleaned up and isn't cancelled. It is worked out whenever it is shown, never
  stored: a game moved, cancelled or added in between moves the bench minor with the schedule, and a
  team with no later game yet carries it to the next one scheduled.
- The bench minor is the team's, served by nobody in particular: like other bench minors it counts
  toward no player's game-misconduct or write-up count (youth 3.11 (3)).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.league.discipline.infractions import DisciplineError

DUTY_SETTING = "cleanup_duty_last_game_each_week"
MINUTES_SETTING = "cleanup_missed_bench_minor_minutes"


@dataclass(frozen=True)
class TeamGame:
    """One of a team's games, as far as "their next game" needs it."""

    id: int
    starts_at: datetime
    cancelled: bool = False


def cited(citation: str, setting: str) -> str:
    """The rulebook section, or the setting a league turned on by itself (no rulebook says it)."""
    return citation or f"league setting {setting}"


def bench_minor_minutes(*, duty: bool, minutes: int | None) -> int:
    """The minutes of the bench minor for missing cleanup duty, or a DisciplineError naming the setting
    that leaves the league without one."""
    if not duty:
        raise DisciplineError(f"This league has no cleanup duty: the setting {DUTY_SETTING} is off, so no team is "
                              "scheduled to clear the arena (a commissioner can turn it on with /setup rule).")
    if minutes is None:
        raise DisciplineError(f"This league gives no bench minor for missing cleanup duty: the setting "
                              f"{MINUTES_SETTING} is not set (a commissioner can set it with /setup rule).")
    return minutes


def check_scheduled_to_clean_up(*, team: str, game: str, later_game: str | None, citation: str) -> None:
    """Only the teams of the week's last game clear the arena: ``later_game`` is a game later in the same
    week as ``game`` (None when ``game`` is the week's last)."""
    if later_game is not None:
        raise DisciplineError(
            f"{game} isn't the last game of its week ({later_game} follows it), so {team} weren't scheduled to "
            "clear the arena after it: that falls to the teams of the week's last game.",
            citation=cited(citation, DUTY_SETTING))


def next_game(missed: TeamGame, team_games: Iterable[TeamGame]) -> TeamGame | None:
    """The team's first game after the one it didn't clean up after: where the bench minor is served.

    None while no such game is scheduled (the bench minor waits for it).
    """
    later = [g for g in team_games if not g.cancelled and g.id != missed.id and g.starts_at > missed.starts_at]
    return min(later, key=lambda g: (g.starts_at, g.id), default=None)


def bench_minor_text(minutes: int, missed_game: str, citation: str) -> str:
    """How the lineup and the penalty log say it."""
    return (f"starts with a {minutes}-minute bench minor: did not clean up after {missed_game} "
            f"({cited(citation, MINUTES_SETTING)})")
