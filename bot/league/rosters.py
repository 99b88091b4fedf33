"""A team's roster over time: a player's stints on teams, and who was on a team during a season.

A stint runs from ``joined_at`` until ``left_at`` (None: still on the team), half-open, so a player
who leaves at a season's first moment was on the team in the season before and not in the new one.
Departures recorded before arrivals were kept have no ``joined_at``: such a stint is taken to start
when the player's previous stint ended (or, for the first one, at the beginning of what is known).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

#: How a stint ended (``roster_departures.reason``): /roster remove, a CSV import's move, a season's clear.
REMOVED, MOVED, SEASON = "removed", "moved", "season"


@dataclass(frozen=True)
class Stint:
    """One player on one team from ``joined_at`` until ``left_at``."""

    player_id: int
    team_id: int
    joined_at: datetime | None
    left_at: datetime | None = None
    position: str | None = None
    reason: str | None = None

    def covers(self, when: datetime) -> bool:
        return (self.joined_at is None or self.joined_at <= when) and (self.left_at is None or when < self.left_at)

    def overlaps(self, start: datetime | None, end: datetime | None) -> bool:
        """On the team at some moment of ``[start, end)`` (None: unbounded); an empty stint never is."""
        if self.joined_at is not None and self.left_at is not None and self.joined_at >= self.left_at:
            return False
        return ((start is None or self.left_at is None or self.left_at > start)
                and (end is None or self.joined_at is None or self.joined_at < end))


def player_stints(departures: Iterable[Stint], current: Stint | None = None) -> list[Stint]:
    """One player's stints in order (the current one last), each unknown start filled in."""
    out: list[Stint] = []
    previous_end: datetime | None = None
    for stint in sorted(departures, key=lambda s: (s.left_at is None, s.left_at)):
        if stint.joined_at is None and previous_end is not None:
            stint = replace(stint, joined_at=previous_end)
        out.append(stint)
        previous_end = stint.left_at
    if current is not None:
        out.append(current)
    return out


@dataclass(frozen=True)
class TeamRoster:
    """A team during a stretch of the calendar: who was on it at its end, and who left before."""

    finished: tuple[Stint, ...]  # on the team at the end (now, for a season still running)
    left: tuple[Stint, ...]  # on the team during it and gone by its end: each player's last stint


def roster_during(stints: Iterable[Stint], team_id: int, start: datetime | None,
                  end: datetime | None) -> TeamRoster:
    """Who was on ``team_id`` at some moment of ``[start, end)``, from every player's filled-in stints.

    A player who left and came back is listed once, on the roster; one who left twice, once, with
    their last stint.
    """
    on: dict[int, Stint] = {}
    gone: dict[int, Stint] = {}
    for stint in stints:
        if stint.team_id != team_id or not stint.overlaps(start, end):
            continue
        if stint.left_at is None or (end is not None and stint.left_at >= end):
            on[stint.player_id] = stint
        elif stint.player_id not in gone or _later(stint, gone[stint.player_id]):
            gone[stint.player_id] = stint
    return TeamRoster(tuple(on.values()), tuple(s for p, s in gone.items() if p not in on))


def _later(a: Stint, b: Stint) -> bool:
    return a.left_at is not None and b.left_at is not None and a.left_at > b.left_at


def clear_moment(season_start: datetime, joined_at: datetime, now: datetime) -> datetime:
    """When a player leaves their team as a season starts with its rosters cleared.

    At the season's first moment, so the season before keeps its roster and the new one starts empty;
    a player who joined after that moment leaves when they joined (an empty stint). A season whose
    first day is still ahead clears the rosters now: the season before has ended, and a player
    registered for the new season from now on must not overlap their old place in the history.
    """
    if season_start > now:
        return now
    return max(season_start, joined_at)
