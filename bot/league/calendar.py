"""What a calendar shows of a league's games: how long a game holds the floor, its stable id, its
title, and which games a feed holds. Plain data in, plain data out; bot/services/calendar writes it
as iCalendar (that library is a file format, kept out of the rules).

Choices the spec leaves open, decided here:
- A game's length is the time its format can take: regulation, the breaks between periods, and the
  overtime its kind plays (with the break before it) — the shootout is not timed. Co-ed: 2 x 20 + 5
  + 5 + 5 = 55 minutes; youth regular season: 3 x 15 + 2 x 1 = 47; indoor soccer playoffs: 2 x 25
  + 5 + 5 + 2 x 8 = 76. It is what a calendar blocks out, not a promise about the clock.
- A game's UID is ``game-<row id>@sideline-<league key>``: the row id never changes (a moved or
  re-imported game keeps it, and a game id typed again for a new game after a removal doesn't
  collide), and the league key keeps two leagues' games apart in one calendar.
- A player's feed is their team's games minus those inside a stretch they said they're away
  (``away``); a cancelled game stays in every feed, marked cancelled, so calendars remove it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.league.game_format import GameFormat, GameKind


def game_length(game_format: GameFormat, kind: GameKind) -> timedelta:
    """The time a game of this kind can take: regulation, intermissions, and its overtime."""
    breaks = game_format.intermission_minutes or 0
    minutes = game_format.regulation_minutes + (game_format.periods - 1) * breaks
    overtime = game_format.overtime_for(kind)
    if overtime.periods:
        minutes += breaks + overtime.periods * overtime.period_minutes
    return timedelta(minutes=minutes)


def event_uid(game_id: int, league_key: str) -> str:
    """A game's calendar id: the same for as long as the game exists, wherever it moves."""
    return f"game-{game_id}@sideline-{league_key}"


@dataclass(frozen=True)
class CalendarGame:
    """One game as a calendar event needs it (times in UTC)."""

    id: int
    code: str
    home: str
    away: str
    starts_at: datetime
    venue: str
    kind: GameKind
    status: str  # scheduled | final | cancelled
    sequence: int
    revised_at: datetime | None

    @property
    def cancelled(self) -> bool:
        return self.status == "cancelled"

    def summary(self) -> str:
        """"Hawks vs Owls" (home first), marked when cancelled."""
        title = f"{self.home} vs {self.away}"
        return f"Cancelled: {title}" if self.cancelled else title


@dataclass(frozen=True)
class Away:
    """A stretch a player said they'd miss (``/away``), both ends included, in UTC."""

    starts: datetime
    ends: datetime

    def covers(self, when: datetime) -> bool:
        return self.starts <= when <= self.ends


def player_games(games: Iterable[CalendarGame], away: Sequence[Away] = ()) -> list[CalendarGame]:
    """A player's feed: their team's games but those starting while they're away."""
    return [g for g in games if not any(a.covers(g.starts_at) for a in away)]
