"""Each preset's team-management settings (who must coach or captain a team before the draft), cited."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class StaffCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    coach: str = ""
    captain: str = ""


@dataclass(frozen=True)
class StaffRules:
    """Who each team needs, confirmed by the commissioners, before the draft can start."""

    # The youngest a team's coach may be (age at the registration reference date), by division name; a
    # division not listed sets no age.
    coach_min_age_by_division: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    # Divisions whose teams each need a confirmed coach (of the age above) before the draft.
    coach_required_divisions: tuple[str, ...] = ()
    # Divisions whose teams each need a confirmed captain before the draft.
    captain_required_divisions: tuple[str, ...] = ()
    # Every other team (any division, or none) needs a confirmed captain before the draft too.
    captain_required_every_team: bool = False
    staff_citations: StaffCitations = field(default_factory=StaffCitations)

    def __post_init__(self) -> None:
        ages = {str(name).strip().casefold(): int(age) for name, age in dict(self.coach_min_age_by_division).items()}
        if any(age < 0 for age in ages.values()):
            raise ValueError("rules.coach_min_age_by_division must not hold a negative age")
        object.__setattr__(self, "coach_min_age_by_division", MappingProxyType(ages))
        for key in ("coach_required_divisions", "captain_required_divisions"):
            names = tuple(str(name).strip().casefold() for name in getattr(self, key))
            if any(not name for name in names):
                raise ValueError(f"rules.{key} must not hold an empty division name")
            object.__setattr__(self, key, names)


STAFF_PRESETS: dict[str, StaffRules] = {
    "coed-ball-hockey": StaffRules(),
    "youth-ball-hockey": StaffRules(
        # Youth 1.3 — "Every team in the junior division will have at least one Coach who is at least 16 years
        # of age ... All Coaches and Captains must be confirmed prior to the draft date."
        coach_min_age_by_division={"junior": 16},
        coach_required_divisions=("junior",),
        # Youth 1.3 — "Senior division teams will each have a Captain."
        captain_required_divisions=("senior",),
        staff_citations=StaffCitations(coach="Youth 1.3", captain="Youth 1.3"),
    ),
    "indoor-soccer": StaffRules(),
}
