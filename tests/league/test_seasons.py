"""Season weeks on the league's calendar, across DST changes."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from bot.league.seasons import SeasonSpan, season_index_at, season_start, week_label, week_of

TORONTO = ZoneInfo("America/Toronto")


def test_the_first_day_is_week_one_from_local_midnight() -> None:
    first = date(2026, 9, 7)
    assert season_start(first, TORONTO) == datetime(2026, 9, 7, 4, 0, tzinfo=UTC)
    assert week_of(first, datetime(2026, 9, 7, 4, 0, tzinfo=UTC), TORONTO) == 1
    assert week_of(first, datetime(2026, 9, 7, 3, 59, tzinfo=UTC), TORONTO) is None  # 23:59 the day before


def test_a_late_sunday_game_stays_in_its_week_across_the_fall_back_change() -> None:
    # Clocks go back on 1 November 2026 in Toronto: week 9 runs 2-8 November by the calendar.
    first = date(2026, 9, 7)
    sunday_late = datetime(2026, 11, 8, 23, 30, tzinfo=TORONTO)
    monday = datetime(2026, 11, 9, 0, 0, tzinfo=TORONTO)
    assert week_of(first, sunday_late, TORONTO) == 9
    assert week_of(first, monday, TORONTO) == 10
    # Hours would have said otherwise: 63 days and one extra hour after the first midnight.
    elapsed = monday.astimezone(UTC) - datetime(2026, 9, 7, tzinfo=TORONTO).astimezone(UTC)
    assert elapsed.total_seconds() == 63 * 86400 + 3600


def test_spring_forward_keeps_the_week_boundary_at_local_midnight() -> None:
    first = date(2027, 3, 1)  # clocks go forward on 14 March 2027
    assert week_of(first, datetime(2027, 3, 14, 23, 59, tzinfo=TORONTO), TORONTO) == 2
    assert week_of(first, datetime(2027, 3, 15, 0, 0, tzinfo=TORONTO), TORONTO) == 3


def test_the_label_says_week_playoffs_or_not_started() -> None:
    span = SeasonSpan("Fall 2026", date(2026, 9, 7), 10)
    assert week_label(span, datetime(2026, 9, 15, 12, tzinfo=TORONTO), TORONTO) == "week 2 of 10"
    assert week_label(span, datetime(2026, 11, 16, 12, tzinfo=TORONTO), TORONTO) == "playoffs (after week 10)"
    assert week_label(span, datetime(2026, 9, 1, 12, tzinfo=TORONTO), TORONTO) == "starts 2026-09-07"


def test_a_moment_belongs_to_the_last_season_started_and_the_first_holds_the_past() -> None:
    starts = [datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 9, 1, tzinfo=UTC)]
    assert season_index_at(starts, datetime(2025, 6, 1, tzinfo=UTC)) == 0
    assert season_index_at(starts, datetime(2026, 8, 31, 23, 59, tzinfo=UTC)) == 0
    assert season_index_at(starts, datetime(2026, 9, 1, tzinfo=UTC)) == 1
    assert season_index_at([], datetime(2026, 9, 1, tzinfo=UTC)) is None


def test_the_last_game_of_a_week_is_the_one_nothing_follows_in_that_week() -> None:
    from bot.league.seasons import is_last_game_of_week

    friday_7 = datetime(2030, 1, 25, 19, tzinfo=TORONTO)
    friday_8 = datetime(2030, 1, 25, 20, tzinfo=TORONTO)
    next_monday = datetime(2030, 1, 28, 19, tzinfo=TORONTO)
    assert not is_last_game_of_week(friday_7, [friday_7, friday_8, next_monday], TORONTO)
    assert is_last_game_of_week(friday_8, [friday_7, friday_8, next_monday], TORONTO)
    # A season starting on a Wednesday has Wednesday-to-Tuesday weeks: Monday's game is in Friday's week.
    assert not is_last_game_of_week(friday_8, [next_monday], TORONTO, date(2030, 1, 2))
    sunday_late = datetime(2030, 1, 27, 23, 30, tzinfo=TORONTO)  # 04:30 UTC Monday: still Sunday's week
    assert not is_last_game_of_week(friday_8, [sunday_late], TORONTO)
