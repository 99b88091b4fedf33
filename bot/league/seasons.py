"""Seasons as stretches of the calendar: "week N" of a season, and which season a moment falls in.

A season starts at midnight of its first day in the league's time zone and lasts until the next
season starts (the first season also holds everything before it: data from before seasons existed).
Weeks are counted on the league's calendar, not in hours, so a DST change never moves a game into
another week.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import TypeVar
from zoneinfo import ZoneInfo

T = TypeVar("T")

#: How many regular-season weeks a season may have (a year; a typo such as 100 is refused).
MAX_WEEKS = 52


@dataclass(frozen=True)
class SeasonSpan:
    """One season as the rules see it: its name, first day and regular-season weeks."""

    name: str
    first_day: date
    weeks: int


def season_start(first_day: date, tz: ZoneInfo) -> datetime:
    """Midnight of the first day in the league's time zone, in UTC (how it is stored and compared)."""
    return datetime.combine(first_day, time(0), tzinfo=tz).astimezone(UTC)


def week_of(first_day: date, moment: datetime, tz: ZoneInfo) -> int | None:
    """The season week ``moment`` falls in (1 from the first day), or None before the season.

    Counted from calendar days in the league's time zone: Sunday 23:30 local is still in the week of
    that Sunday, whatever the UTC offset did in between.
    """
    local_day = moment.astimezone(tz).date()
    days = (local_day - first_day).days
    return None if days < 0 else days // 7 + 1


def week_label(span: SeasonSpan, moment: datetime, tz: ZoneInfo) -> str:
    """"week 3 of 10", "playoffs (after week 10)", or "starts <date>"."""
    week = week_of(span.first_day, moment, tz)
    if week is None:
        return f"starts {span.first_day.isoformat()}"
    if week > span.weeks:
        return f"playoffs (after week {span.weeks})"
    return f"week {week} of {span.weeks}"


def season_index_at(starts: list[datetime], moment: datetime) -> int | None:
    """Which of the seasons (their start instants, in order) holds ``moment``; the first holds all before it."""
    if not starts:
        return None
    index = 0
    for i, start in enumerate(starts):
        if moment >= start:
            index = i
    return index


def calendar_week(moment: datetime, tz: ZoneInfo, first_day: date | None = None) -> tuple[int, int]:
    """Which week ``moment`` falls in: the season's week when a season runs (from its first day), else
    the league's calendar week (Monday to Sunday), both by local dates."""
    if first_day is not None:
        return (0, (moment.astimezone(tz).date() - first_day).days // 7)
    year, week, _ = moment.astimezone(tz).isocalendar()
    return (year, week)


def later_in_week(starts_at: datetime, others: Iterable[tuple[T, datetime]], tz: ZoneInfo,
                  first_day: date | None = None) -> T | None:
    """The first of ``others`` (each with its start) later than ``starts_at`` in the same week, or None
    when nothing follows it that week: youth 2.15's "last game each week"."""
    week = calendar_week(starts_at, tz, first_day)
    later = sorted(((o, item) for item, o in others if o > starts_at and calendar_week(o, tz, first_day) == week),
                   key=lambda pair: pair[0])
    return later[0][1] if later else None


def is_last_game_of_week(starts_at: datetime, others: list[datetime], tz: ZoneInfo,
                         first_day: date | None = None) -> bool:
    """Youth 2.15's cleanup duty falls on the week's last game: no other game later in its week."""
    return later_in_week(starts_at, ((o, o) for o in others), tz, first_day) is None
