"""Each preset's registration settings (age bands, the age reference date, payment grace, division sizes and
waiting-list offers), cited."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

_MONTH_DAY = re.compile(r"^(\d{2})-(\d{2})$")
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@dataclass(frozen=True)
class RegistrationCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    ages: str = ""
    payment: str = ""


@dataclass(frozen=True)
class RegistrationRules:
    """The numbers behind registration: who is eligible for which division, and fee deadlines."""

    # The day of the year (month-day, "12-31") at which a registrant's age is counted, the first such day
    # on or after the season starts.
    age_reference: str = "12-31"
    # Youngest and oldest age (at the reference date) each division takes, by division name, as
    # [youngest, oldest]; a division not listed takes any age.
    division_ages: Mapping[str, tuple[int, int]] = field(
        default_factory=lambda: MappingProxyType({}), hash=False
    )
    # Days after registering within which a fee not paid in person must be received.
    payment_grace_days: int = 5
    # Hours before a fee's deadline that the registrant is reminded of it by DM (0: no reminder).
    payment_nudge_hours: int = 24
    # Most registrants each division takes, by division name; later ones go on its waiting list, in order. A
    # division not listed takes any number.
    division_capacity: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({}), hash=False
    )
    # Hours a waiting registrant has to accept a spot offered to them before it goes to the next one.
    offer_hours: int = 48
    # A registrant younger than this on the day they register needs a guardian named on the form.
    guardian_under_age: int = 18
    registration_citations: RegistrationCitations = field(default_factory=RegistrationCitations)

    def __post_init__(self) -> None:
        match = _MONTH_DAY.match(self.age_reference)
        if not match or not (1 <= int(match[1]) <= 12 and 1 <= int(match[2]) <= _DAYS_IN_MONTH[int(match[1]) - 1]):
            raise ValueError(f"rules.age_reference must be a month and day like 12-31, not {self.age_reference!r}")
        bands = {str(name).strip().casefold(): tuple(band) for name, band in dict(self.division_ages).items()}
        for name, band in bands.items():
            if len(band) != 2 or band[0] > band[1]:
                raise ValueError(f"rules.division_ages {name!r} must be [youngest, oldest], youngest first")
        object.__setattr__(self, "division_ages", MappingProxyType(bands))
        if self.payment_grace_days < 0:
            raise ValueError("rules.payment_grace_days must not be negative")
        capacity = {str(name).strip().casefold(): size for name, size in dict(self.division_capacity).items()}
        for name, size in capacity.items():
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise ValueError(f"rules.division_capacity {name!r} must be a whole number of registrants, at least 1")
        object.__setattr__(self, "division_capacity", MappingProxyType(capacity))
        if self.offer_hours < 1:
            raise ValueError("rules.offer_hours must be at least 1")


REGISTRATION_PRESETS: dict[str, RegistrationRules] = {
    "coed-ball-hockey": RegistrationRules(),
    "youth-ball-hockey": RegistrationRules(
        # Youth 1.2 — "between the ages of 25 and 16 years as of December 31 of the current season ... senior
        # division ... between the ages of 9 and 15 years are eligible to play in the junior division".
        age_reference="12-31",
        division_ages={"junior": (9, 15), "senior": (16, 25)},
        # Youth 1.15 — "if the payment is not directly received (ex. Paypal), it must be received within 5 days
        # of the registration form being submitted".
        payment_grace_days=5,
        registration_citations=RegistrationCitations(ages="Youth 1.2", payment="Youth 1.15"),
    ),
    "indoor-soccer": RegistrationRules(),
}
