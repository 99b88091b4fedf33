"""Game times as spreadsheets write them: ``2026-12-03 19:00``, ``Thu 12/3/2026 7:00 PM``,
``Thursdays, 3/12/2026 19:00``, a weekday spelled any common way, a 12- or 24-hour clock.

A slashed date may be month first (US) or day first. A league has no date-order setting, so only a
date that can mean one day is read: one whose numbers tell (``12/13/2026``), one whose weekday
tells (Thursday 12/3/2026 is in December; 3 December and 12 March 2026 are both Thursdays), or one
in a file whose other slashed dates tell. Any other is refused, saying how to write it. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
MONTH_FIRST, DAY_FIRST = "month first", "day first"
_CELL = re.compile(
    r"^(?:(?P<weekday>[a-z]+)\.?,?\s+)?"
    r"(?:(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})|(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4}))"
    r"(?:[ t,]+(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?::\d{2})?\s*(?P<half>[ap]\.?m\.?)?)?$")
EXAMPLE = "2026-12-03 19:00"


def weekday_of(word: str) -> int | None:
    """``Thursday``, ``thursdays``, ``Thu``, ``Thurs``, ``THU.``: the weekday's number (Monday 0)."""
    w = word.casefold().rstrip(".")
    if w.endswith("s") and w[:-1] in WEEKDAYS:
        w = w[:-1]  # "Thursdays", as a schedule's column says it
    found = [n for n, day in enumerate(WEEKDAYS) if len(w) >= 3 and day.startswith(w)]
    return found[0] if len(found) == 1 else None


def slashed_order(value: str) -> str | None:
    """The order a slashed date's own numbers give (None: year first, ambiguous, or not a date)."""
    match = _CELL.match(value.strip().casefold())
    if not match or match["a"] is None:
        return None
    a, b = int(match["a"]), int(match["b"])
    if a > 12 >= b:
        return DAY_FIRST
    if b > 12 >= a:
        return MONTH_FIRST
    return None


def file_order(values: Iterable[str]) -> str | None:
    """The order every unambiguous slashed date of a file agrees on; None when none tells, or they differ."""
    orders = {o for o in map(slashed_order, values) if o}
    return orders.pop() if len(orders) == 1 else None


def read_local_time(value: str, tz: ZoneInfo, order: str | None = None) -> datetime:
    """A game time in the league's zone, as a UTC instant; ValueError saying what is wrong and how to write it."""
    shown = value.strip()[:40]
    match = _CELL.match(value.strip().casefold())
    if not match or match["hour"] is None:
        raise ValueError(f"{shown!r} is not a date and time like {EXAMPLE}")
    weekday = weekday_of(match["weekday"]) if match["weekday"] else None
    if match["weekday"] and weekday is None:
        raise ValueError(f"{shown!r}: {match['weekday']!r} is not a day of the week")
    day = _day(match, weekday, order, shown)
    if weekday is not None and day.weekday() != weekday:
        raise ValueError(f"{shown!r}: {day:%Y-%m-%d} is a {WEEKDAYS[day.weekday()].title()}, not a "
                         f"{WEEKDAYS[weekday].title()}")
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    if match["half"]:
        if not 1 <= hour <= 12:
            raise ValueError(f"{shown!r}: {hour} is not an hour of a 12-hour clock")
        hour = hour % 12 + (12 if match["half"].startswith("p") else 0)
    if hour > 23 or minute > 59:
        raise ValueError(f"{shown!r} is not a time of day")
    naive = datetime(day.year, day.month, day.day, hour, minute)  # noqa: DTZ001 - the league's zone, below
    local = naive.replace(tzinfo=tz)
    if local.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != naive:
        raise ValueError(f"{naive:%Y-%m-%d %H:%M} does not exist in {tz.key} (the clocks skip that hour)")
    return local.astimezone(UTC)


def _day(match: re.Match[str], weekday: int | None, order: str | None, shown: str) -> date:
    if match["y"] is not None:
        return _date(int(match["y"]), int(match["m"]), int(match["d"]), shown)
    a, b, year = int(match["a"]), int(match["b"]), int(match["year"])
    readings = {o: (a, b) if o == MONTH_FIRST else (b, a) for o in (MONTH_FIRST, DAY_FIRST)}
    possible = {o: date(year, m, d) for o, (m, d) in readings.items() if _real(year, m, d)}
    if not possible:
        raise ValueError(f"{shown!r} is not a date and time like {EXAMPLE}: there is no such day")
    days = set(possible.values())
    if len(days) == 1:
        return days.pop()
    if weekday is not None:
        fits = {d for d in days if d.weekday() == weekday}
        if len(fits) == 1:
            return fits.pop()
    if order in possible:
        return possible[order]
    us, other = possible[MONTH_FIRST], possible[DAY_FIRST]
    raise ValueError(f"{shown!r} could be {us.day} {MONTHS[us.month - 1]} or {other.day} {MONTHS[other.month - 1]}, "
                     f"and the league has no date order set, so I read only dates that can mean one day: write it "
                     f"year first ({us:%Y-%m-%d} or {other:%Y-%m-%d}) or with its weekday")


def _real(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _date(year: int, month: int, day: int, shown: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"{shown!r} is not a date and time like {EXAMPLE}: there is no such day") from None
