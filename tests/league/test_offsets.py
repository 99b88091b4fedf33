"""Offsets: days keep the local time of day, hours are real time; which of a game's reminders survive."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.offsets import Offset, late_is_useful, parse_offset, plan_reminders

TORONTO = "America/Toronto"  # 2030: clocks spring forward Sun 10 March, fall back Sun 3 November


def local(text: str) -> datetime:
    """A Toronto wall-clock time "YYYY-MM-DD HH:MM" (the first one when it happens twice)."""
    from zoneinfo import ZoneInfo

    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(TORONTO))


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("offset", "game", "expected", "real_hours"),
    [
        # March: the clocks spring forward on Sunday the 10th at 02:00.
        ("1d", "2030-03-10 19:00", utc("2030-03-10 00:00"), 23),  # Sat 19:00 EST
        ("24h", "2030-03-10 19:00", utc("2030-03-09 23:00"), 24),  # Sat 18:00 EST
        ("1d", "2030-03-11 19:00", utc("2030-03-10 23:00"), 24),  # Sun 19:00 EDT
        ("2d", "2030-03-11 19:00", utc("2030-03-10 00:00"), 47),  # Sat 19:00 EST
        ("48h", "2030-03-11 19:00", utc("2030-03-09 23:00"), 48),  # Sat 18:00 EST
        ("1w", "2030-03-10 19:00", utc("2030-03-04 00:00"), 167),  # Sun 3rd 19:00 EST
        ("1d12h", "2030-03-11 19:00", utc("2030-03-10 11:00"), 36),  # Sun 07:00 EDT
        ("2h", "2030-03-10 03:30", utc("2030-03-10 05:30"), 2),  # 00:30 EST: real hours
        ("1d", "2030-03-11 02:30", utc("2030-03-10 07:30"), 23),  # 02:30 never happens: 03:30 EDT
        # November: the clocks fall back on Sunday the 3rd at 02:00.
        ("1d", "2030-11-03 19:00", utc("2030-11-02 23:00"), 25),  # Sat 19:00 EDT
        ("24h", "2030-11-03 19:00", utc("2030-11-03 00:00"), 24),  # Sat 20:00 EDT
        ("2d", "2030-11-04 19:00", utc("2030-11-02 23:00"), 49),  # Sat 19:00 EDT
        ("1d", "2030-11-04 01:30", utc("2030-11-03 05:30"), 25),  # 01:30 happens twice: the first, EDT
        ("2h", "2030-11-03 03:00", utc("2030-11-03 06:00"), 2),  # 01:00 EST: real hours
        # No clock change: days and hours agree.
        ("1d", "2030-01-11 19:00", utc("2030-01-11 00:00"), 24),
        ("0m", "2030-01-11 19:00", utc("2030-01-12 00:00"), 0),
    ],
)
def test_an_offset_before_a_toronto_game(offset: str, game: str, expected: datetime, real_hours: int) -> None:
    starts_at = local(game)
    when = parse_offset(offset).before(starts_at.astimezone(UTC), TORONTO)
    assert when == expected
    assert starts_at - when == timedelta(hours=real_hours)


def test_days_keep_the_wall_clock_in_the_zone_given_not_utc() -> None:
    starts_at = local("2030-03-10 19:00")
    assert Offset(days=1).before(starts_at.astimezone(UTC), TORONTO).astimezone(starts_at.tzinfo).hour == 19
    assert Offset(days=1).before(starts_at.astimezone(UTC)) == starts_at.astimezone(UTC) - timedelta(hours=24), \
        "UTC has no clock changes"
    assert Offset(days=1).before(starts_at).hour == 19, "default: the datetime's own zone"


@given(st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2035, 1, 1)),
       st.integers(min_value=1, max_value=30))
def test_n_days_before_is_the_same_local_time_or_the_gap_s_end(wall: datetime, days: int) -> None:
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(TORONTO)
    starts_at = wall.replace(second=0, microsecond=0, tzinfo=zone).astimezone(UTC).astimezone(zone)
    before = Offset(days=days).before(starts_at, TORONTO)
    assert before.date() == starts_at.date() - timedelta(days=days)
    assert abs(starts_at - before - timedelta(days=days)) <= timedelta(hours=2)
    if before.time() != starts_at.time():  # only when the same local time didn't exist that day
        assert starts_at.time().hour == 2 or before.time().hour in (1, 2, 3)


# --------------------------------------------------------------------------- a game's reminders

DEFAULTS = ("2d", "1d", "2h")
D2, D1, H2 = Offset(days=2), Offset(days=1), Offset(elapsed=timedelta(hours=2))


@pytest.mark.parametrize(
    ("game", "now", "send", "dropped"),
    [
        # A game on the Sunday the clocks spring forward: 2d and 1d keep 19:00, 2h is 17:00 EDT.
        ("2030-03-10 19:00", "2030-03-01 12:00",
         [(D2, "2030-03-08 19:00"), (D1, "2030-03-09 19:00"), (H2, "2030-03-10 17:00")], []),
        ("2030-03-10 19:00", "2030-03-08 20:00",  # 2d missed by 1 h: now, then the others
         [(D2, "now"), (D1, "2030-03-09 19:00"), (H2, "2030-03-10 17:00")], []),
        ("2030-03-10 19:00", "2030-03-09 18:00",  # 2d missed by 23 h, 1d in 1 h: 1d covers it
         [(D1, "2030-03-09 19:00"), (H2, "2030-03-10 17:00")], [D2]),
        ("2030-03-10 19:00", "2030-03-09 19:00",  # 1d exactly now: counts as ahead
         [(D1, "2030-03-09 19:00"), (H2, "2030-03-10 17:00")], [D2]),
        ("2030-03-10 19:00", "2030-03-09 20:00",  # 1d missed by 1 h
         [(D1, "now"), (H2, "2030-03-10 17:00")], [D2]),
        ("2030-03-10 19:00", "2030-03-10 16:55",  # added 2 h 05 min before: only the 2h one, soon
         [(H2, "2030-03-10 17:00")], [D2, D1]),
        ("2030-03-10 19:00", "2030-03-10 18:30",  # within the hour: one, now
         [(H2, "now")], [D2, D1]),
        ("2030-03-10 19:00", "2030-03-10 19:00", [], []),  # started
        ("2030-03-10 19:00", "2030-03-11 09:00", [], []),
        # A game on the Sunday the clocks fall back.
        ("2030-11-03 19:00", "2030-10-20 12:00",
         [(D2, "2030-11-01 19:00"), (D1, "2030-11-02 19:00"), (H2, "2030-11-03 17:00")], []),
        ("2030-11-03 19:00", "2030-11-02 19:30",
         [(D1, "now"), (H2, "2030-11-03 17:00")], [D2]),
        ("2030-11-03 19:00", "2030-11-03 18:00", [(H2, "now")], [D2, D1]),
    ],
)
def test_which_reminders_of_a_game_are_sent_and_when(
        game: str, now: str, send: list[tuple[Offset, str]], dropped: list[Offset]) -> None:
    moment = local(now)
    plan = plan_reminders(local(game), DEFAULTS, moment, TORONTO)
    expected = [(o, moment if when == "now" else local(when)) for o, when in send]
    assert list(plan.send) == expected
    assert list(plan.dropped) == dropped
    assert all(when.tzinfo is UTC for _, when in plan.send)


def test_captains_lineup_checks_follow_the_same_rule() -> None:
    plan = plan_reminders(local("2030-11-03 19:00"), ("1d", "3h"), local("2030-11-03 12:00"), TORONTO)
    assert list(plan.send) == [(Offset(elapsed=timedelta(hours=3)), local("2030-11-03 16:00"))]
    assert plan.dropped == (Offset(days=1),)


def test_no_offsets_no_reminders() -> None:
    assert plan_reminders(local("2030-03-10 19:00"), (), local("2030-03-01 12:00"), TORONTO).send == ()


@pytest.mark.parametrize(
    ("missed", "now", "next_at", "useful"),
    [
        ("2030-03-09 19:00", "2030-03-09 20:00", "2030-03-10 17:00", True),
        ("2030-03-09 19:00", "2030-03-10 16:55", "2030-03-10 17:00", False),
        ("2030-03-09 19:00", "2030-03-09 19:30", "2030-03-09 19:30", False),  # the next one is due now
        ("2030-03-10 17:00", "2030-03-10 18:30", None, True),  # the last one before the game
    ],
)
def test_a_missed_reminder_is_useful_unless_the_next_is_nearer(
        missed: str, now: str, next_at: str | None, useful: bool) -> None:
    assert late_is_useful(local(missed), local(now), local(next_at) if next_at else None) is useful


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        plan_reminders(datetime(2030, 3, 10, 19), DEFAULTS, local("2030-03-01 12:00"), TORONTO)
    with pytest.raises(ValueError, match="timezone-aware"):
        Offset(days=1).before(datetime(2030, 3, 10, 19), TORONTO)
