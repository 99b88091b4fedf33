"""Youth 1.16's conditions for replacing a long-term injured or absent player, as pure rules.

The season starts Monday 7 January 2030 (Toronto): week 8 ends at local midnight starting Monday 4 March.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.league.replacements.conditions import (
    Attendance,
    absence_conditions,
    injury_conditions,
    money,
    prorated_fee_cents,
    season_week,
)
from bot.league.replacements.presets import ReplacementRules
from bot.league.rules import RulesError, build_rules, preset

TZ = ZoneInfo("America/Toronto")
FIRST_DAY = date(2030, 1, 7)
YOUTH = preset("youth-ball-hockey").replacements


def local(y: int, m: int, d: int, hh: int = 12, mm: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, tzinfo=TZ)


def verdicts(assessment: object) -> dict[str, bool]:
    return {v.code: v.holds for v in assessment.verdicts}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("moment", "week"), [
    (local(2030, 1, 6, 23, 59), None),
    (local(2030, 1, 7, 0, 0), 1),
    (local(2030, 1, 13, 23, 59), 1),
    (local(2030, 1, 14, 0, 0), 2),
    (local(2030, 3, 3, 23, 59), 8),
    (local(2030, 3, 4, 0, 0), 9),
])
def test_the_seasons_week_counts_from_its_first_day_in_local_time(moment: datetime, week: int | None) -> None:
    assert season_week(FIRST_DAY, moment.astimezone(UTC), TZ) == week


@pytest.mark.parametrize(("now", "holds"), [
    (local(2030, 3, 3, 23, 59), True),  # the last minute of week 8
    (local(2030, 3, 4, 0, 0), False),  # week 9
])
def test_youth_1_16_an_injured_player_is_replaced_until_the_end_of_week_8(now: datetime, holds: bool) -> None:
    found = injury_conditions(YOUTH, now.date() - timedelta(days=3), now, FIRST_DAY, TZ)
    assert verdicts(found) == {"injury_window": True, "injury_week": holds}
    assert found.met is holds
    week = next(v for v in found.verdicts if v.code == "injury_week")
    assert week.rule == "Youth 1.16" and "end of week 8" in week.message


@pytest.mark.parametrize(("days", "holds"), [(0, True), (14, True), (15, False)])
def test_youth_1_16_the_injury_request_comes_within_2_weeks_of_the_disclosure(days: int, holds: bool) -> None:
    now = local(2030, 2, 20)
    found = injury_conditions(YOUTH, now.date() - timedelta(days=days), now, FIRST_DAY, TZ)
    window = found.verdicts[0]
    assert (window.code, window.holds, window.rule) == ("injury_window", holds, "Youth 1.16")
    assert f"{days} day" in window.message and "14 days allowed" in window.message
    assert found.met is holds


def games(*present: bool | None) -> list[Attendance]:
    return [Attendance(f"G{i + 1}", datetime(2030, 1, 11, tzinfo=UTC) + timedelta(weeks=i), p)
            for i, p in enumerate(present)]


def test_youth_1_16_absent_from_all_first_3_games_may_be_replaced() -> None:
    found = absence_conditions(YOUTH, games(False, False, False), local(2030, 2, 1), FIRST_DAY, TZ)
    assert verdicts(found) == {"absence_first_games": True, "absence_count": False, "absence_week": True}
    assert found.met
    assert "Played none of the team's first 3 games (G1, G2, G3)" in found.verdicts[0].message


def test_youth_1_16_two_absences_in_the_first_3_are_not_enough() -> None:
    found = absence_conditions(YOUTH, games(False, True, False), local(2030, 2, 1), FIRST_DAY, TZ)
    assert verdicts(found) == {"absence_first_games": False, "absence_count": False, "absence_week": True}
    assert not found.met
    assert "Absent from 2 of the team's first 8 games (G1, G3), 3 played so far: 4 needed" in found.verdicts[1].message


def test_youth_1_16_absent_in_4_of_the_first_8_may_be_replaced_and_later_games_dont_count() -> None:
    four = games(True, False, True, False, False, True, False, True)
    assert absence_conditions(YOUTH, four, local(2030, 3, 1), FIRST_DAY, TZ).met
    three_then_late = games(True, False, True, False, True, True, False, True, False, False)
    found = absence_conditions(YOUTH, three_then_late, local(2030, 3, 1), FIRST_DAY, TZ)
    assert verdicts(found)["absence_count"] is False and not found.met


def test_youth_1_16_the_absence_request_is_made_by_the_end_of_week_8() -> None:
    found = absence_conditions(YOUTH, games(False, False, False), local(2030, 3, 4, 9), FIRST_DAY, TZ)
    assert verdicts(found)["absence_week"] is False and not found.met
    assert "Asked in week 9: after the end of week 8" in found.verdicts[2].message


def test_a_game_without_a_sheet_says_nothing_and_fewer_than_3_played_is_not_yet_a_verdict() -> None:
    unknown = absence_conditions(YOUTH, games(False, None, False), local(2030, 2, 1), FIRST_DAY, TZ)
    assert verdicts(unknown)["absence_first_games"] is False
    early = absence_conditions(YOUTH, games(False, False), local(2030, 1, 20), FIRST_DAY, TZ)
    assert "Only 2 games of the team's first 3 have been played so far" in early.verdicts[0].message
    assert not early.met


def test_the_other_presets_use_the_numbers_as_league_settings() -> None:
    coed = preset("coed-ball-hockey").replacements
    found = injury_conditions(coed, date(2030, 2, 18), local(2030, 2, 20), FIRST_DAY, TZ)
    assert found.met and {v.rule for v in found.verdicts} == {"league setting"}


def test_settings_are_overridable_and_checked() -> None:
    rules = build_rules("youth-ball-hockey", {"replacement_absence_count": 2,
                                              "replacement_season_dues_cents": 12000}).replacements
    assert absence_conditions(rules, games(False, True, False), local(2030, 2, 1), FIRST_DAY, TZ).met
    with pytest.raises(RulesError):
        build_rules("youth-ball-hockey", {"replacement_absence_count": 9})
    with pytest.raises(ValueError, match="replacement_absence_count"):
        ReplacementRules(replacement_absence_count=0)


@pytest.mark.parametrize(("fee", "left", "total", "due"), [
    (12000, 6, 10, 7200), (10000, 1, 3, 3333), (10000, 2, 3, 6667), (10000, 0, 10, 0), (10000, 3, 0, None)])
def test_the_replacements_fee_is_prorated_by_the_games_left(fee: int, left: int, total: int,
                                                            due: int | None) -> None:
    assert prorated_fee_cents(fee, left, total) == due


def test_money_shows_cents() -> None:
    assert (money(7200), money(5), money(123456)) == ("72.00", "0.05", "1234.56")
