"""Youth 2.15, cleanup duty: "If a team does not participate in the clearing up of the arena when they are
scheduled, they will be assessed a two-minute bench minor to be served at the beginning of their next game."
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.league.deadlines import DEADLINE_PRESETS
from bot.league.discipline.cleanup import (
    TeamGame,
    bench_minor_minutes,
    bench_minor_text,
    check_scheduled_to_clean_up,
    next_game,
)
from bot.league.discipline.infractions import DisciplineError
from bot.league.rules import RulesError, build_rules
from bot.league.seasons import later_in_week

TORONTO = ZoneInfo("America/Toronto")
FRI_8PM = datetime(2030, 1, 11, 20, tzinfo=TORONTO)  # Friday: the week's last game, not cleaned up after
MISSED = TeamGame(2, FRI_8PM)
WEEK = timedelta(days=7)


# --- "their next game" -----------------------------------------------------------------------------------
def test_the_next_game_is_the_teams_first_game_after_the_one_not_cleaned_up() -> None:
    earlier = TeamGame(1, FRI_8PM - WEEK)
    following = TeamGame(4, FRI_8PM + WEEK)
    after_that = TeamGame(5, FRI_8PM + 2 * WEEK)
    assert next_game(MISSED, [after_that, earlier, MISSED, following]) == following


def test_a_cancelled_game_is_not_their_next_game() -> None:
    cancelled = TeamGame(4, FRI_8PM + WEEK, cancelled=True)
    following = TeamGame(5, FRI_8PM + 2 * WEEK)
    assert next_game(MISSED, [cancelled, following]) == following


def test_a_game_moved_in_between_becomes_the_next_game() -> None:
    """Nothing is frozen: the same record lands on whatever the schedule says now."""
    following = TeamGame(4, FRI_8PM + WEEK)
    moved_in = TeamGame(9, FRI_8PM + timedelta(days=3))
    assert next_game(MISSED, [following]) == following
    assert next_game(MISSED, [following, moved_in]) == moved_in


def test_with_no_later_game_the_bench_minor_waits() -> None:
    assert next_game(MISSED, []) is None
    assert next_game(MISSED, [TeamGame(1, FRI_8PM - WEEK), TeamGame(3, FRI_8PM)]) is None  # not strictly after


# --- who may be recorded ---------------------------------------------------------------------------------
def test_the_youth_preset_gives_two_minutes_and_the_others_have_no_duty() -> None:
    youth = DEADLINE_PRESETS["youth-ball-hockey"]
    assert bench_minor_minutes("cleanup", youth.cleanup_missed_bench_minor_minutes) == 2
    assert bench_minor_minutes("setup", youth.setup_missed_bench_minor_minutes) == 2
    assert youth.deadline_citations.cleanup == "Youth 2.15"
    assert youth.deadline_citations.setup == "Youth 2.1, 3.7 (6)"
    assert youth.cleanup_duty_last_game_each_week and youth.setup_duty_first_game_each_day
    for name in ("coed-ball-hockey", "indoor-soccer"):
        rules = DEADLINE_PRESETS[name]
        assert (rules.cleanup_duty_last_game_each_week, rules.cleanup_missed_bench_minor_minutes) == (False, None)
        assert (rules.setup_duty_first_game_each_day, rules.setup_missed_bench_minor_minutes) == (False, None)


@pytest.mark.parametrize(("duty", "setting"), [("cleanup", "cleanup_missed_bench_minor_minutes"),
                                               ("setup", "setup_missed_bench_minor_minutes")])
def test_a_league_without_the_bench_minor_names_the_setting(duty: str, setting: str) -> None:
    with pytest.raises(DisciplineError, match=f"the setting {setting} is not set"):
        bench_minor_minutes(duty, None)  # type: ignore[arg-type]


def test_only_the_teams_of_the_weeks_last_game_were_scheduled_to_clean_up() -> None:
    check_scheduled_to_clean_up(team="Bears", game="G2", later_game=None, citation="Youth 2.15")
    with pytest.raises(DisciplineError) as refused:
        check_scheduled_to_clean_up(team="Hawks", game="G1", later_game="G2", citation="Youth 2.15")
    assert "G1 isn't the last game of its week (G2 follows it), so Hawks weren't scheduled" in str(refused.value)
    assert refused.value.citation == "Youth 2.15"
    with pytest.raises(DisciplineError) as own_rule:  # a league that turned the duty on by itself
        check_scheduled_to_clean_up(team="Hawks", game="G1", later_game="G2", citation="")
    assert own_rule.value.citation == "league setting cleanup_duty_last_game_each_week"


def test_the_lineup_and_the_log_say_it_in_the_rulebooks_words() -> None:
    assert (bench_minor_text(2, "G6", "Youth 2.15")
            == "starts with a 2-minute bench minor: did not clean up after G6 (Youth 2.15)")
    assert bench_minor_text(4, "G6", "").endswith("(league setting cleanup_missed_bench_minor_minutes)")
    assert (bench_minor_text(2, "G5", "Youth 2.1, 3.7 (6)", "setup")
            == "starts with a 2-minute bench minor: did not help set up before G5 (Youth 2.1, 3.7 (6))")


# --- the week's last game --------------------------------------------------------------------------------
def test_the_first_game_later_in_the_same_week_is_named() -> None:
    fri_7pm = FRI_8PM - timedelta(hours=1)
    sat = FRI_8PM + timedelta(days=1)
    next_mon = FRI_8PM + timedelta(days=3)
    others = [("Mon", next_mon), ("Sat", sat), ("Fri 8pm", FRI_8PM)]
    assert later_in_week(fri_7pm, others, TORONTO) == "Fri 8pm"
    assert later_in_week(FRI_8PM, others, TORONTO) == "Sat"
    assert later_in_week(sat, others, TORONTO) is None  # Monday is the next week
    # A season that started on a Tuesday counts Tuesday-to-Monday weeks: Monday is Saturday's week.
    assert later_in_week(sat, others, TORONTO, date(2030, 1, 8)) == "Mon"


# --- the setting -----------------------------------------------------------------------------------------
def test_the_minutes_are_a_bounded_setting() -> None:
    rules = build_rules("youth-ball-hockey", {"cleanup_missed_bench_minor_minutes": 4})
    assert rules.deadlines.cleanup_missed_bench_minor_minutes == 4
    assert build_rules("youth-ball-hockey", {"cleanup_missed_bench_minor_minutes": None}).deadlines \
        .cleanup_missed_bench_minor_minutes is None
    for bad in (0, 21):
        with pytest.raises(RulesError, match="cleanup_missed_bench_minor_minutes: must be between 1 and 20"):
            build_rules("youth-ball-hockey", {"cleanup_missed_bench_minor_minutes": bad})
