"""What a registration form says, checked: the date of birth it gives, whether the registrant fits the
division (youth 1.2, with a commissioner's exception), whether the division has room, and when their fee
is due (youth 1.15). Pure rules: the service reads and writes, this decides."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from bot.league.registration.eligibility import age_on, divisions_for_age, reference_date
from bot.league.registration.presets import RegistrationRules

PAYMENT_STATES = ("unpaid", "in_person", "online", "waived", "refunded", "partial")
#: Paid in the sense of 1.15 (nothing more is owed before the draft).
SETTLED = frozenset({"in_person", "online", "waived"})
EXCEPTION_REASONS = ("skill assessment", "parental approval", "skill assessment and parental approval")

_MONTHS = {name: i + 1 for i, name in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"))}
_ISO = re.compile(r"(\d{4})[-/. ](\d{1,2})[-/. ](\d{1,2})")
_MONTH_FIRST = re.compile(r"([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})")
_DAY_FIRST = re.compile(r"(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.?,? (\d{4})")


class FormProblem(ValueError):
    """Something on the form that can't be taken, in words for the person who filled it in."""


def parse_birth_date(text: str, today: date) -> date:
    """A date of birth as 2012-03-05, 2012/03/05, March 5 2012 or 5 March 2012; never in the future.
    Day/month/year in figures alone (05/03/2012) is refused: it reads two ways."""
    raw = " ".join((text or "").strip().casefold().split())
    found: tuple[int, int, int] | None = None
    if match := _ISO.fullmatch(raw):
        found = int(match[1]), int(match[2]), int(match[3])
    elif (match := _MONTH_FIRST.fullmatch(raw)) and (month := _month(match[1])):
        found = int(match[3]), month, int(match[2])
    elif (match := _DAY_FIRST.fullmatch(raw)) and (month := _month(match[2])):
        found = int(match[3]), month, int(match[1])
    if found is None:
        raise FormProblem("Give the date of birth as YYYY-MM-DD (e.g. 2012-03-05) or like March 5 2012.")
    try:
        born = date(*found)
    except ValueError:
        raise FormProblem("That date of birth isn't a real day: give it as YYYY-MM-DD (e.g. 2012-03-05).") from None
    if born > today:
        raise FormProblem("That date of birth is in the future.")
    if born.year < today.year - 120:
        raise FormProblem("That date of birth is more than 120 years ago: check the year.")
    return born


def _month(word: str) -> int | None:
    if len(word) < 3:
        return None
    return next((number for name, number in _MONTHS.items() if name.startswith(word)), None)


@dataclass(frozen=True)
class AgeCheck:
    age: int  # at the reference date
    counted_on: date
    fits: bool
    band: tuple[int, int] | None  # the division's band, None when it takes any age


def check_age(born: date, division: str, season_starts: date, rules: RegistrationRules) -> AgeCheck:
    """Youth 1.2: the registrant's age at the reference date against the division's band."""
    counted_on = reference_date(season_starts, rules)
    age = age_on(born, counted_on)
    band = rules.division_ages.get(division.strip().casefold())
    return AgeCheck(age, counted_on, bool(divisions_for_age(age, rules, [division])), band)


def needs_guardian(born: date, today: date, rules: RegistrationRules) -> bool:
    """A registrant under the guardian age on the day they register has a guardian named on the form."""
    return age_on(born, today) < rules.guardian_under_age


def has_room(division: str, taken: int, rules: RegistrationRules) -> bool:
    """Whether a division with ``taken`` registrants (and offers out) takes one more directly."""
    capacity = rules.division_capacity.get(division.strip().casefold())
    return capacity is None or taken < capacity


def payment_due(registered_at: datetime, rules: RegistrationRules, draft_starts: datetime | None) -> datetime:
    """Youth 1.15: within the grace days of registering, and in any case before the draft."""
    due = registered_at + timedelta(days=rules.payment_grace_days)
    return min(due, draft_starts) if draft_starts is not None and draft_starts > registered_at else due


def owes(fee_cents: int, payment_state: str, paid_cents: int) -> bool:
    """Whether a registrant still owes (part of) their fee."""
    if fee_cents <= 0 or payment_state in SETTLED:
        return False
    return payment_state != "refunded" and paid_cents < fee_cents


def parse_amount(text: str) -> int:
    """Dollars and cents (``40``, ``40.50``, ``$40``) as cents."""
    raw = (text or "").strip().removeprefix("$").replace(",", "")
    match = re.fullmatch(r"(\d{1,6})(?:\.(\d{1,2}))?", raw)
    if not match:
        raise FormProblem("Give an amount in dollars, like 40 or 40.50.")
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"
