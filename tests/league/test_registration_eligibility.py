"""Ages at the league's reference date and the divisions they allow (bot/league/registration/eligibility.py)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.league.registration.eligibility import age_on, divisions_for_age, reference_date
from bot.league.registration.presets import RegistrationRules
from bot.league.rules import RulesError, build_rules, preset

YOUTH = preset("youth-ball-hockey").registration


def test_a_fall_season_counts_ages_at_the_december_31_in_its_middle() -> None:
    assert reference_date(date(2012, 9, 15), YOUTH) == date(2012, 12, 31)
    assert reference_date(date(2013, 1, 10), YOUTH) == date(2013, 12, 31)


def test_a_leap_day_reference_falls_back_to_february_28_in_other_years() -> None:
    rules = RegistrationRules(age_reference="02-29")
    assert reference_date(date(2023, 1, 1), rules) == date(2023, 2, 28)
    assert reference_date(date(2024, 1, 1), rules) == date(2024, 2, 29)


@pytest.mark.parametrize(("born", "on", "age"), [
    (date(2003, 12, 31), date(2012, 12, 31), 9),   # birthday on the reference day counts
    (date(2004, 1, 1), date(2012, 12, 31), 8),
    (date(1997, 1, 1), date(2012, 12, 31), 15),
])
def test_age_on_a_day(born: date, on: date, age: int) -> None:
    assert age_on(born, on) == age


@pytest.mark.parametrize(("age", "divisions"), [
    (8, []), (9, ["Junior"]), (15, ["Junior"]), (16, ["Senior"]), (25, ["Senior"]), (26, []),
])
def test_youth_bands_decide_the_division(age: int, divisions: list[str]) -> None:
    assert divisions_for_age(age, YOUTH, ["Junior", "Senior"]) == divisions


def test_a_division_without_a_band_takes_anyone() -> None:
    assert divisions_for_age(40, preset("coed-ball-hockey").registration, ["Open"]) == ["Open"]


def test_overrides_are_checked() -> None:
    rules = build_rules("youth-ball-hockey", {"division_ages": {"Junior": [8, 14]}, "age_reference": "09-01"})
    assert rules.registration.division_ages == {"junior": (8, 14)}
    with pytest.raises(RulesError, match="age_reference"):
        build_rules("youth-ball-hockey", {"age_reference": "13-01"})
    with pytest.raises(RulesError, match="division_ages"):
        build_rules("youth-ball-hockey", {"division_ages": {"Junior": [15, 9]}})
