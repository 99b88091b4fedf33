"""Youth 1.3: a junior team's coach is 16 or older at the reference date, a junior team needs a confirmed
coach and a senior team a confirmed captain before the draft (bot/league/staff/management.py)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.league.rules import build_rules, preset
from bot.league.staff.management import TeamLeaders, coach_age_problem, coach_min_age, draft_blockers
from bot.league.staff.presets import StaffRules

YOUTH = preset("youth-ball-hockey").staff
COED = preset("coed-ball-hockey").staff
REFERENCE = date(2030, 12, 31)


@pytest.mark.parametrize(("born", "refused"), [
    (date(2014, 12, 31), False),  # 16 on the reference date itself
    (date(2015, 1, 1), True),  # 15 on it, 16 the day after
    (date(2010, 6, 1), False),
    (None, True),  # the age must be known
    (date(2031, 1, 1), True),  # born after the day ages are counted at
])
def test_a_junior_coach_is_16_or_older_at_the_reference_date(born: date | None, refused: bool) -> None:
    problem = coach_age_problem(born, REFERENCE, "Junior", YOUTH)
    assert (problem is not None) is refused
    if born is not None and refused and born.year < 2031:
        assert "16 or older" in problem and "they'll be 15" in problem  # type: ignore[operator]


def test_no_age_applies_to_a_senior_coach_nor_in_a_league_without_one() -> None:
    assert coach_min_age("senior", YOUTH) is None and coach_min_age(None, YOUTH) is None
    assert coach_age_problem(None, REFERENCE, "senior", YOUTH) is None
    assert coach_age_problem(date(2020, 1, 1), REFERENCE, "junior", COED) is None


def test_the_age_is_a_setting() -> None:
    rules = build_rules("youth-ball-hockey", {"coach_min_age_by_division": {"Junior": 18}}).staff
    assert coach_age_problem(date(2013, 1, 1), REFERENCE, "junior", rules) is not None
    assert coach_age_problem(date(2012, 12, 31), REFERENCE, "junior", rules) is None


def test_youth_blocks_the_draft_for_a_junior_team_without_a_coach_of_age_and_a_senior_team_without_a_captain(
        ) -> None:
    teams = [TeamLeaders("Hawks", "senior", ()), TeamLeaders("Owls", "senior", (None,)),
             TeamLeaders("Bears", "junior", (15,)), TeamLeaders("Wolves", "junior", (None,)),
             TeamLeaders("Cubs", "junior", (None, 17)), TeamLeaders("Foxes", "junior", ()),
             TeamLeaders("Lone", None, ())]
    blockers = draft_blockers(teams, YOUTH)
    assert [(b.team, b.needs) for b in blockers] == [("Hawks", "captain"), ("Bears", "coach"), ("Wolves", "coach"),
                                                     ("Foxes", "coach")]
    reasons = {b.team: b.reason for b in blockers}
    assert reasons["Hawks"] == "Hawks has no confirmed captain."
    assert reasons["Bears"] == "Bears has no confirmed coach aged 16 or older."
    assert "age isn't on file" in reasons["Wolves"]
    assert reasons["Foxes"] == "Foxes has no confirmed coach."


def test_a_league_without_team_management_rules_never_waits_unless_every_team_needs_a_captain() -> None:
    teams = [TeamLeaders("Hawks", "North", ()), TeamLeaders("Owls", None, (None,))]
    assert draft_blockers(teams, COED) == []
    every = StaffRules(captain_required_every_team=True)
    assert [b.team for b in draft_blockers(teams, every)] == ["Hawks"]


def test_division_names_are_read_in_any_case() -> None:
    rules = StaffRules(coach_min_age_by_division={" Junior ": 16}, coach_required_divisions=("JUNIOR",))
    assert rules.coach_min_age_by_division == {"junior": 16} and rules.coach_required_divisions == ("junior",)
    assert [b.team for b in draft_blockers([TeamLeaders("Bears", "Junior", (15,))], rules)] == ["Bears"]
    with pytest.raises(ValueError, match="negative"):
        StaffRules(coach_min_age_by_division={"junior": -1})
