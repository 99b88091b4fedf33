"""Availability rules: a player away for a range of days, and what their answer for a game reads.

Choices the spec leaves open, decided here:
- ``/away from: to:`` takes whole league-local days, both included: a game is covered when it starts
  between the first day's local midnight and the midnight after the last day. A range that ends
  before today, ends before it starts, spans more than ``MAX_AWAY_DAYS`` or starts more than that
  far ahead is refused (a typo in the year, and no date near the calendar's end).
- The range is read when a game is looked at, so a game added or moved into it later is covered.
- Away wins over an answer given before the range was set; an answer given after it (the player
  can make that one game after all) wins over away, for that game only, and the check-in says so.
  A check-in for a covered game is stamped after the range (bot/services/checkins/service.py), so
  "after" holds even within one clock tick; every view reads the answer through one function
  (``answers_as_read`` in bot/services/availability/away.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

#: The longest absence one /away covers (a season, roughly): a typo like 2062 for 2026 is refused.
MAX_AWAY_DAYS = 366
AWAY = "away"  # what an away player's answer reads as, beside "in", "out", "maybe"

_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


class AvailabilityError(ValueError):
    """A range or date a player can't use, with the sentence they read."""


def parse_day(value: str, what: str) -> date:
    """``YYYY-MM-DD`` as a date; the error names the option (``from`` / ``to``)."""
    match = _DATE.match(value)
    if match is None:
        raise AvailabilityError(f"`{what}` must be a date like 2030-01-25, not “{value.strip()[:30]}”.")
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise AvailabilityError(f"`{what}`: {value.strip()[:30]} is not a real date.") from None


@dataclass(frozen=True)
class DayRange:
    """League-local days ``first``..``last`` (both included) and the UTC instants that bound them."""

    first: date
    last: date
    starts_at: datetime
    ends_at: datetime

    def covers(self, when: datetime) -> bool:
        return self.starts_at <= when < self.ends_at


def local_midnight(day: date, tz: ZoneInfo) -> datetime:
    """The instant a local day starts (a day whose midnight is skipped by a clock change starts at 01:00)."""
    naive = datetime.combine(day, time())
    local = naive.replace(tzinfo=tz)
    if local.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != naive:
        local = (naive + timedelta(hours=1)).replace(tzinfo=tz)
    return local.astimezone(UTC)


def away_range(first: date, last: date, today: date, tz: ZoneInfo) -> DayRange:
    """The range a player asked for, or AvailabilityError saying politely why it can't be used."""
    if last < first:
        raise AvailabilityError(f"The range ends ({last.isoformat()}) before it starts ({first.isoformat()}): "
                                "put the earlier date in `from`.")
    if last < today:
        raise AvailabilityError(f"{first.isoformat()} to {last.isoformat()} is already over; "
                                "/away is for games ahead of you.")
    if (last - first).days + 1 > MAX_AWAY_DAYS:
        raise AvailabilityError(f"One /away covers at most {MAX_AWAY_DAYS} days; check the years in the dates.")
    if (first - today).days > MAX_AWAY_DAYS:
        raise AvailabilityError(f"/away looks at most {MAX_AWAY_DAYS} days ahead; check the year in `from`.")
    return DayRange(first, last, local_midnight(first, tz), local_midnight(last + timedelta(days=1), tz))


def status_with_away(answer: str | None, answered_at: datetime | None, away_since: datetime | None) -> str | None:
    """The answer as it reads for a game: ``away`` when an away range covers the game
    (``away_since``: when it was set) and the player has not answered since."""
    if away_since is None:
        return answer
    if answer is not None and answered_at is not None and answered_at > away_since:
        return answer
    return AWAY
