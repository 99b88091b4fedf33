"""How old a registrant counts as, and which divisions that lets them play in.

Ages are counted at the league's reference date (youth 1.2: "as of December 31 of the current season"):
the first such day on or after the season starts, so a fall-to-spring season counts at the December
31 in its middle.
"""

from __future__ import annotations

from datetime import date

from bot.league.registration.presets import RegistrationRules


def reference_date(season_starts: date, rules: RegistrationRules) -> date:
    """The day ages are counted at for a season starting on ``season_starts``."""
    month, day = (int(part) for part in rules.age_reference.split("-"))
    year = season_starts.year
    if (month, day) == (2, 29):  # a leap day counts as the last day of February in other years
        candidate = _leap_safe(year, month, day)
        return candidate if candidate >= season_starts else _leap_safe(year + 1, month, day)
    candidate = date(year, month, day)
    return candidate if candidate >= season_starts else date(year + 1, month, day)


def _leap_safe(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        return date(year, month, day - 1)


def age_on(born: date, on: date) -> int:
    """Whole years of age on a day (a birthday on that very day counts)."""
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def divisions_for_age(age: int, rules: RegistrationRules, divisions: list[str]) -> list[str]:
    """The divisions (of those named) whose age band takes ``age``; a division without a band takes anyone."""
    fitting = []
    for name in divisions:
        band = rules.division_ages.get(name.strip().casefold())
        if band is None or band[0] <= age <= band[1]:
            fitting.append(name)
    return fitting
