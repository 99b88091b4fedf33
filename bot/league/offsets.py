"""Offsets: how long before a game or deadline something is sent, and which of a game's reminders to send.

Pure rules over timezone-aware datetimes (naive ones are refused with a ValueError).

Choices the spec leaves open, decided here:
- Offsets are written "2d", "48h", "30m", "1w" or combined largest unit first ("1d12h").
  Days (and weeks, 7 days) are calendar days in the league's time zone: "1d" before a game at
  19:00 is 19:00 the day before, even when the clocks change in between (23 or 25 real hours).
  Hours and minutes are elapsed time: "24h" is 24 real hours, so across a clock change it lands
  at 18:00 or 20:00. "1d12h" is the same local time a day earlier, then 12 real hours before that.
  A local time that does not exist (skipped by the clocks springing forward) moves on by the gap;
  one that happens twice (falling back) is the first of the two.
- "1d" and "24h" in one list would name the same reminder twice: refused.
- Offsets are at most 366 days; "0m" means at the due time.
- When a game is planned (created, imported, moved) inside its offsets, the reminders whose time
  has already passed are dropped, except the nearest one: it goes out now, late but once, as after
  downtime, unless the next reminder is nearer now than the missed time (then that one covers it).
  After downtime the courier sends the latest due reminder of each game and team, late and once,
  and skips the earlier ones (``bot.services.reminders.plan``).
  So a team hears once when its game appears, then at each offset still ahead; 150 games imported
  to start within the hour give each team one reminder per game, not three.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from itertools import pairwise
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MAX_OFFSET = timedelta(days=366)
_OFFSET = re.compile(
    r"(?:(?P<w>[0-9]{1,5})\s*w\s*)?"
    r"(?:(?P<d>[0-9]{1,5})\s*d\s*)?"
    r"(?:(?P<h>[0-9]{1,5})\s*h\s*)?"
    r"(?:(?P<m>[0-9]{1,6})\s*m)?",
    re.ASCII,
)


def require_aware(value: datetime, name: str) -> None:
    if not isinstance(value, datetime):
        raise ValueError(f"{name} must be a datetime, not {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, not {value!r}")


def zone(tz: tzinfo | str) -> tzinfo:
    if isinstance(tz, str):
        try:
            return ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise ValueError(f"unknown time zone {tz!r} (use a name like America/Toronto)") from None
    return tz


@dataclass(frozen=True)
class Offset:
    """A lead time: whole calendar days (same local time, that many days earlier) and elapsed time."""

    days: int = 0
    elapsed: timedelta = timedelta(0)

    @property
    def length(self) -> timedelta:
        """How long it is on days without a clock change: orders offsets and names their reminders."""
        return timedelta(days=self.days) + self.elapsed

    @property
    def minutes(self) -> int:
        return int(self.length.total_seconds() // 60)

    def before(self, when: datetime, tz: tzinfo | str | None = None) -> datetime:
        """The instant this offset before `when`, days counted in `tz` (default: when's own zone)."""
        require_aware(when, "when")
        moment = when.astimezone(UTC)
        if self.days:
            local = when.astimezone(zone(tz) if tz is not None else when.tzinfo)
            wall = local.replace(tzinfo=None, fold=0) - timedelta(days=self.days)
            # Through UTC, so a skipped local time lands on a real instant (fold=0: the first of two).
            moment = wall.replace(tzinfo=local.tzinfo).astimezone(UTC)
        return (moment - self.elapsed).astimezone(when.tzinfo)

    def __str__(self) -> str:
        return format_offset(self)


def parse_offset(value: str | timedelta | Offset) -> Offset:
    """An offset as operators write it in config: "48h", "30m", "2d", "1w", "1d12h".

    A timedelta is elapsed time (it has no calendar)."""
    if isinstance(value, Offset):
        offset = value
    elif isinstance(value, timedelta):
        offset = Offset(elapsed=value)
    elif isinstance(value, str):
        text = value.strip().casefold()
        match = _OFFSET.fullmatch(text) if text else None
        if match is None or not any(match.groupdict().values()):
            raise ValueError(
                f"{value!r} is not a duration: write a whole number and a unit "
                "(m, h, d or w), like 30m, 48h, 2d or 1d12h"
            )
        n = {unit: int(amount or 0) for unit, amount in match.groupdict().items()}
        offset = Offset(days=7 * n["w"] + n["d"], elapsed=timedelta(hours=n["h"], minutes=n["m"]))
    else:
        raise ValueError(f"{value!r} is not a duration like 30m, 48h or 2d")
    if offset.days < 0 or offset.elapsed < timedelta(0):
        raise ValueError(f"{value!r}: a duration must not be negative")
    if offset.length > MAX_OFFSET:
        raise ValueError(f"{value!r} is longer than {MAX_OFFSET.days} days")
    return offset


def format_offset(value: Offset | timedelta) -> str:
    """The config spelling of a whole-minute offset ("2d", "36h", "90m", "1d12h").

    Elapsed time is never written in days: "48h" stays "48h", since "2d" would mean calendar days."""
    offset = value if isinstance(value, Offset) else Offset(elapsed=value)
    seconds = offset.elapsed.total_seconds()
    if offset.days < 0 or seconds < 0 or seconds != int(seconds) or int(seconds) % 60:
        raise ValueError(f"{value!r} is not a whole, non-negative number of minutes")
    minutes = int(seconds) // 60
    parts = [f"{offset.days}d"] if offset.days else []
    if minutes >= 60 and minutes % 60 == 0:
        parts.append(f"{minutes // 60}h")
    elif minutes or not parts:
        parts.append(f"{minutes}m")
    return "".join(parts)


def parse_offsets(values: Iterable[str | timedelta | Offset]) -> tuple[Offset, ...]:
    """Several offsets, longest first, duplicates dropped; "1d" with "24h" is refused."""
    if isinstance(values, str):
        raise ValueError(f'{values!r}: expected a list of durations, like ["2d", "1d", "2h"]')
    offsets = sorted({parse_offset(v) for v in values}, key=lambda o: (o.length, o.days), reverse=True)
    for longer, shorter in pairwise(offsets):
        if longer.length == shorter.length:
            raise ValueError(f"{longer} and {shorter} name the same reminder: keep one "
                             "(days keep the local time of day, hours count real time)")
    return tuple(offsets)


# --------------------------------------------------------------------------- a game's reminders


@dataclass(frozen=True)
class PlannedReminders:
    """Which of a game's reminders (or captains' lineup checks) to queue, and which to drop."""

    send: tuple[tuple[Offset, datetime], ...] = ()  # (offset, when), earliest first
    dropped: tuple[Offset, ...] = ()  # their time has passed and a nearer one is sent instead


def late_is_useful(missed_at: datetime, now: datetime, next_at: datetime | None) -> bool:
    """Whether a reminder whose time (`missed_at`) passed before its game was planned is worth
    sending at `now`.

    It is when no later reminder of the same game is due by now, and now is no nearer that next
    one (`next_at`) than the missed time: a game added 2 h 05 min before its start hears its
    2 h reminder in 5 minutes, not the day-before one now and that one again five minutes later.
    """
    require_aware(missed_at, "missed_at")
    require_aware(now, "now")
    if next_at is None:
        return True
    require_aware(next_at, "next_at")
    return next_at > now and now - missed_at <= next_at - now


def plan_reminders(starts_at: datetime, offsets: Iterable[str | timedelta | Offset], now: datetime,
                   tz: tzinfo | str) -> PlannedReminders:
    """A game's reminders as planned at `now`: the ones still ahead at their time; of those whose time
    has passed, only the nearest, right away, if still useful (``late_is_useful``); nothing once
    the game has started.

    A reminder exactly at `now` counts as still ahead."""
    require_aware(starts_at, "starts_at")
    require_aware(now, "now")
    if starts_at <= now:
        return PlannedReminders()
    times = sorted(((o.before(starts_at, tz).astimezone(UTC), o) for o in parse_offsets(offsets)),
                   key=lambda pair: pair[0])
    ahead = [(o, when) for when, o in times if when >= now]
    past = [(o, when) for when, o in times if when < now]
    late: list[tuple[Offset, datetime]] = []
    if past and late_is_useful(past[-1][1], now, ahead[0][1] if ahead else None):
        late = [(past[-1][0], now.astimezone(UTC))]
    dropped = tuple(o for o, _ in past if not late or o != late[0][0])
    return PlannedReminders(send=tuple(late + ahead), dropped=dropped)
