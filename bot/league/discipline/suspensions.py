"""A suspension, and the games it still takes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

SuspensionStatus = Literal["active", "served", "overturned"]


def require_aware(value: datetime, name: str) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, not {value!r}")


@dataclass(frozen=True)
class Suspension:
    """Games a player sits out, served in the team's next games."""

    id: int
    player_id: int
    team_id: int
    games: int
    issued_at: datetime
    reason: str
    status: SuspensionStatus = "active"

    def __post_init__(self) -> None:
        if self.games < 0:
            raise ValueError(f"suspension games must not be negative, not {self.games}")
        require_aware(self.issued_at, "issued_at")
        if self.status not in get_args(SuspensionStatus):
            raise ValueError(f"unknown suspension status {self.status!r}")


def games_remaining(suspension: Suspension, team_games_completed_since_issue: int) -> int:
    """Games still to sit out.

    Count every game the team completed after the suspension was issued, of any kind: regular,
    seeding, playoff, and the next season's (youth 1.20.1, 1.20.2). The game in which it was
    issued does not count. A league whose `suspensions_carry_into_*` is off ends the suspension at
    that boundary instead (the service's job: these functions count, they do not know seasons).
    """
    if team_games_completed_since_issue < 0:
        raise ValueError(
            f"team_games_completed_since_issue must not be negative, not {team_games_completed_since_issue}"
        )
    if suspension.status == "overturned":
        return 0
    return max(0, suspension.games - team_games_completed_since_issue)


@dataclass(frozen=True)
class Departure:
    """The player left ``team_id``'s roster at ``left_at``, having joined it at ``joined_at`` (None:
    recorded before arrivals were kept; taken to be when they left the team before)."""

    team_id: int
    left_at: datetime
    joined_at: datetime | None = None


@dataclass(frozen=True)
class RosterHistory:
    """Where a player has been: the teams they left (any order) and the roster place they hold now."""

    departures: tuple[Departure, ...] = ()
    current_team_id: int | None = None
    current_since: datetime | None = None

    def team_at(self, when: datetime, *, issued_on: int) -> int | None:
        """The team the player was on at ``when``; None when they were on no team.

        A suspension belongs to the person (youth 1.20.1): it is served in the games of whichever
        team they are on when each game is played. Before any recorded history (a move made before
        the history was kept), they were on ``issued_on``, the team the suspension was issued on.
        """
        for departure in sorted(self.departures, key=lambda d: d.left_at):
            if when < departure.left_at:
                if departure.joined_at is not None and when < departure.joined_at:
                    return None  # on no team: they had left the one before and not joined this one yet
                return departure.team_id
        if self.current_team_id is not None and (self.current_since is None or when >= self.current_since):
            return self.current_team_id
        if self.departures:
            return None  # between leaving the last team and joining the next one (or on none now)
        return issued_on if self.current_team_id is not None else None
