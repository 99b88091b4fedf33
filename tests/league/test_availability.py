"""The /away rules: which days a range covers in the league's zone, what is refused, and what an answer reads."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.league.availability import (
    AWAY,
    MAX_AWAY_DAYS,
    AvailabilityError,
    away_range,
    local_midnight,
    parse_day,
    status_with_away,
)

TORONTO = ZoneInfo("America/Toronto")
TODAY = date(2030, 1, 5)


def test_a_range_covers_whole_local_days_both_included() -> None:
    days = away_range(date(2030, 1, 11), date(2030, 1, 18), TODAY, TORONTO)
    assert days.starts_at == datetime(2030, 1, 11, 5, 0, tzinfo=UTC)  # local midnight, EST
    assert days.ends_at == datetime(2030, 1, 19, 5, 0, tzinfo=UTC)  # the midnight after the last day
    assert days.covers(datetime(2030, 1, 12, 0, 0, tzinfo=UTC))  # 2030-01-11 19:00 local
    assert days.covers(datetime(2030, 1, 19, 4, 59, tzinfo=UTC))  # 2030-01-18 23:59 local
    assert not days.covers(datetime(2030, 1, 19, 5, 0, tzinfo=UTC))  # 2030-01-19 00:00 local
    assert not days.covers(datetime(2030, 1, 11, 4, 59, tzinfo=UTC))  # 2030-01-10 23:59 local


def test_a_game_late_in_the_evening_counts_on_its_local_day_not_its_utc_day() -> None:
    days = away_range(date(2030, 1, 11), date(2030, 1, 11), TODAY, TORONTO)
    assert days.covers(datetime(2030, 1, 12, 4, 0, tzinfo=UTC))  # 23:00 on the 11th in Toronto


def test_a_one_day_range_across_the_spring_clock_change_is_23_hours() -> None:
    days = away_range(date(2030, 3, 10), date(2030, 3, 10), TODAY, TORONTO)
    assert days.ends_at - days.starts_at == timedelta(hours=23)


def test_a_midnight_the_clocks_skip_starts_the_day_at_one() -> None:
    havana = ZoneInfo("America/Havana")  # Cuba springs forward at midnight
    start = local_midnight(date(2030, 3, 10), havana)
    assert start.astimezone(havana).hour == 1


@pytest.mark.parametrize(("first", "last", "why"), [
    (date(2030, 1, 18), date(2030, 1, 11), "before it starts"),
    (date(2029, 12, 1), date(2030, 1, 4), "already over"),
    (date(2030, 1, 6), date(2031, 2, 1), f"at most {MAX_AWAY_DAYS} days"),
    (date(2031, 3, 1), date(2031, 3, 2), f"at most {MAX_AWAY_DAYS} days ahead"),
    (date(9999, 12, 30), date(9999, 12, 31), "days ahead"),  # no midnight after the last day to compute
])
def test_reversed_past_and_overlong_ranges_are_refused_politely(first: date, last: date, why: str) -> None:
    with pytest.raises(AvailabilityError, match=why):
        away_range(first, last, TODAY, TORONTO)


def test_a_range_that_started_earlier_but_ends_today_or_later_is_taken() -> None:
    days = away_range(date(2030, 1, 1), date(2030, 1, 5), TODAY, TORONTO)
    assert days.first == date(2030, 1, 1)


@pytest.mark.parametrize("text", ["2030-02-30", "30-01-2030", "tomorrow", "", "2030-13-01", "2030/01/05"])
def test_only_real_iso_dates_parse(text: str) -> None:
    with pytest.raises(AvailabilityError, match="`from`"):
        parse_day(text, "from")


def test_a_date_parses_with_spaces_around_it() -> None:
    assert parse_day(" 2030-1-5 ", "to") == date(2030, 1, 5)


SET = datetime(2030, 1, 6, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("answer", "answered_at", "away_since", "reads"), [
    (None, None, None, None),  # no answer, not away
    ("in", SET, None, "in"),  # not away: the answer stands
    (None, None, SET, AWAY),  # away, no answer
    ("in", SET - timedelta(days=1), SET, AWAY),  # answered before the range was set: away wins
    ("in", SET + timedelta(minutes=1), SET, "in"),  # answered since: the player can make it after all
    ("out", SET + timedelta(minutes=1), SET, "out"),
])
def test_away_wins_over_earlier_answers_and_loses_to_later_ones(answer: str | None, answered_at: datetime | None,
                                                               away_since: datetime | None, reads: str | None) -> None:
    assert status_with_away(answer, answered_at, away_since) == reads
