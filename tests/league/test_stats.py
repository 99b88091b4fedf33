"""Leaders with ties shown as ties, and attendance (bot/league/stats.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.stats import PlayerStats, Tally, attendance, rank


def tallies(*values: int) -> list[Tally]:
    return [Tally(i, f"P{i:02d}", v) for i, v in enumerate(values, start=1)]


@pytest.mark.parametrize(("values", "places"), [
    ((5, 4, 3), ["1", "2", "3"]),
    ((5, 5, 3), ["T1", "T1", "3"]),
    ((5, 4, 4, 4, 1), ["1", "T2", "T2", "T2", "5"]),
    ((0, 0, 2), ["1"]),  # nothing is not a place
])
def test_players_level_share_a_place_and_the_next_place_skips(values: tuple[int, ...], places: list[str]) -> None:
    assert [r.place for r in rank("goals", tallies(*values)).rows] == places


def test_everyone_level_with_tenth_place_is_in_and_the_lines_are_capped() -> None:
    board = rank("points", tallies(*([9] * 8 + [2] * 5 + [1] * 3)), top=10, shown=20)
    assert [r.place for r in board.rows] == ["T1"] * 8 + ["T9"] * 5  # places 9-13 are all 9th: in; 14th isn't
    capped = rank("gp", tallies(*([3] * 30)), top=10, shown=20)
    assert len(capped.rows) == 20 and capped.more_level == 10 and {r.place for r in capped.rows} == {"T1"}


def test_level_players_are_listed_by_name() -> None:
    board = rank("goals", [Tally(1, "zed", 2), Tally(2, "Amy", 2), Tally(3, "bo", 2)])
    assert [r.tally.name for r in board.rows] == ["Amy", "bo", "zed"]


@given(st.lists(st.integers(0, 6), max_size=40), st.integers(1, 12))
def test_a_board_is_every_player_at_or_above_the_top_th_value(values: list[int], top: int) -> None:
    board = rank("goals", tallies(*values), top=top, shown=1000)
    scoring = sorted((v for v in values if v > 0), reverse=True)
    cutoff = scoring[top - 1] if len(scoring) >= top else 1
    assert [r.tally.value for r in board.rows] == [v for v in scoring if v >= cutoff]
    for r in board.rows:  # a place is 1 + how many did better; level players share it
        assert r.rank == 1 + sum(v > r.tally.value for v in scoring) <= top
        assert r.tied == (scoring.count(r.tally.value) > 1)


def test_points_are_goals_and_assists_and_attendance_counts_games_missed_without_a_spare() -> None:
    assert PlayerStats(goals=2, assists=3).points == 5 == PlayerStats(goals=2, assists=3).value("points")
    seen = attendance([(True, False), (False, True), (False, False), (True, True)])
    assert (seen.played, seen.missed, seen.missed_without_spare, seen.games) == (2, 2, 1, 4)


def test_the_weekly_post_is_the_next_weekday_at_nine_league_time_across_a_clock_change() -> None:
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from bot.league.stats import next_post

    toronto = ZoneInfo("America/Toronto")
    saturday = datetime(2030, 1, 12, 2, 0, tzinfo=UTC)
    assert next_post(0, toronto, saturday) == datetime(2030, 1, 14, 14, 0, tzinfo=UTC)  # Monday 9:00 EST
    monday_nine = datetime(2030, 1, 14, 14, 0, tzinfo=UTC)
    assert next_post(0, toronto, monday_nine) == datetime(2030, 1, 21, 14, 0, tzinfo=UTC)  # strictly after
    # Clocks go forward on 10 March 2030: the next Monday's 9:00 is 13:00 UTC.
    assert next_post(0, toronto, datetime(2030, 3, 5, tzinfo=UTC)) == datetime(2030, 3, 11, 13, 0, tzinfo=UTC)
