"""The registration form's rules (bot/league/registration/forms.py): dates of birth, youth 1.2's age bands at
the reference date, youth 1.15's payment deadline, amounts and what still counts as owed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.league.registration.forms import (
    FormProblem,
    check_age,
    has_room,
    money,
    needs_guardian,
    owes,
    parse_amount,
    parse_birth_date,
    payment_due,
)
from bot.league.registration.presets import RegistrationRules
from bot.league.rules import RulesError, build_rules, preset

YOUTH = preset("youth-ball-hockey").registration
TODAY = date(2026, 12, 5)


@pytest.mark.parametrize(("text", "born"), [
    ("2012-03-05", date(2012, 3, 5)), ("2012/3/5", date(2012, 3, 5)), (" 2012.03.05 ", date(2012, 3, 5)),
    ("March 5, 2012", date(2012, 3, 5)), ("mar 5 2012", date(2012, 3, 5)), ("5 March 2012", date(2012, 3, 5)),
    ("5th Sept 2012", date(2012, 9, 5)), ("2026-12-05", TODAY),
])
def test_a_date_of_birth_in_the_common_forms(text: str, born: date) -> None:
    assert parse_birth_date(text, TODAY) == born


@pytest.mark.parametrize(("text", "problem"), [
    ("05/03/2012", "YYYY-MM-DD"), ("", "YYYY-MM-DD"), ("tomorrow", "YYYY-MM-DD"), ("Ma 5 2012", "YYYY-MM-DD"),
    ("2012-02-30", "isn't a real day"), ("2026-12-06", "in the future"), ("1890-01-01", "120 years"),
])
def test_a_date_of_birth_that_cant_be_taken(text: str, problem: str) -> None:
    with pytest.raises(FormProblem, match=problem):
        parse_birth_date(text, TODAY)


def test_youth_1_2_ages_count_at_december_31_of_the_season() -> None:
    # A season starting in September 2012 counts at 31 December 2012 (the rulebook's own season).
    assert check_age(date(2003, 12, 31), "Junior", date(2012, 9, 15), YOUTH).fits  # 9 that day
    too_young = check_age(date(2004, 1, 1), "junior", date(2012, 9, 15), YOUTH)
    assert (too_young.age, too_young.fits, too_young.band) == (8, False, (9, 15))
    assert check_age(date(1997, 1, 1), "junior", date(2012, 9, 15), YOUTH).fits  # 15
    senior = check_age(date(1996, 12, 31), "senior", date(2012, 9, 15), YOUTH)
    assert (senior.age, senior.fits, senior.counted_on) == (16, True, date(2012, 12, 31))
    assert check_age(date(1987, 1, 1), "senior", date(2012, 9, 15), YOUTH).fits  # 25
    assert not check_age(date(1986, 12, 31), "senior", date(2012, 9, 15), YOUTH).fits  # 26
    assert check_age(date(1987, 1, 1), "open", date(2012, 9, 15), YOUTH).fits  # no band: any age


def test_a_minor_on_the_day_of_the_form_needs_a_guardian() -> None:
    assert needs_guardian(date(2008, 12, 6), TODAY, YOUTH)  # 17 until tomorrow
    assert not needs_guardian(date(2008, 12, 5), TODAY, YOUTH)
    assert not needs_guardian(date(2010, 1, 1), TODAY, RegistrationRules(guardian_under_age=0))


def test_a_division_takes_registrants_up_to_its_capacity() -> None:
    rules = build_rules("youth-ball-hockey", {"division_capacity": {"Junior": 2}}).registration
    assert has_room("junior", 1, rules) and not has_room("Junior", 2, rules)
    assert has_room("senior", 500, rules)  # not listed: no limit
    with pytest.raises(RulesError, match="division_capacity"):
        build_rules("youth-ball-hockey", {"division_capacity": {"junior": 0}})
    with pytest.raises(RulesError, match="offer_hours"):
        build_rules("youth-ball-hockey", {"offer_hours": 0})


def test_youth_1_15_fees_are_due_within_5_days_and_before_the_draft() -> None:
    registered = datetime(2026, 9, 1, 12, 0, tzinfo=UTC)
    assert payment_due(registered, YOUTH, None) == registered + timedelta(days=5)
    draft = datetime(2026, 9, 3, 4, 0, tzinfo=UTC)
    assert payment_due(registered, YOUTH, draft) == draft
    assert payment_due(registered, YOUTH, registered + timedelta(days=30)) == registered + timedelta(days=5)
    # A draft already past (a late registrant, say) leaves the 5 days.
    assert payment_due(registered, YOUTH, registered - timedelta(days=1)) == registered + timedelta(days=5)


@pytest.mark.parametrize(("fee", "state", "paid", "owed"), [
    (12000, "unpaid", 0, True), (12000, "partial", 6000, True), (12000, "in_person", 12000, False),
    (12000, "online", 12000, False), (12000, "waived", 0, False), (12000, "refunded", 0, False),
    (0, "unpaid", 0, False),
])
def test_what_still_counts_as_owed(fee: int, state: str, paid: int, owed: bool) -> None:
    assert owes(fee, state, paid) is owed


def test_amounts_in_dollars_and_cents() -> None:
    assert [parse_amount(t) for t in ("40", "$40.5", "40.50", "1,200")] == [4000, 4050, 4050, 120000]
    for bad in ("", "forty", "40.505", "-5"):
        with pytest.raises(FormProblem):
            parse_amount(bad)
    assert money(4050) == "$40.50" and money(5) == "$0.05"
