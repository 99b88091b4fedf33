"""A game or deadline time as people type it in the league's time zone, read as a UTC instant.
A time the clocks skip (spring forward) is an error, not a silent hour's shift."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo


def parse_local_time(value: str, tz: ZoneInfo) -> datetime:
    """League-local ``YYYY-MM-DD HH:MM`` as a UTC instant; ValueError when it isn't a real local time."""
    try:
        naive = datetime.strptime(value, "%Y-%m-%d %H:%M")  # noqa: DTZ007 - zone attached below
    except ValueError:
        raise ValueError(f"{value[:30]!r} is not a date and time like 2026-12-05 19:00") from None
    local = naive.replace(tzinfo=tz)
    round_trip = local.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    if round_trip != naive:
        raise ValueError(f"{value} does not exist in {tz.key} (the clocks skip that hour)")
    return local.astimezone(UTC)
