"""Team management before the draft (youth 1.3, 1.5): who may coach a team, and which teams the draft waits
for.

Choices the rulebook leaves open, decided here:
- A confirmed coach or captain is what the bot already calls a team's captain (it leads the team either
  way); a confirmed assistant coach is the team's assistant coach.
- A coach's age is counted at the league's registration reference date (youth 1.2), from the date of birth
  the nominee gives privately; where a division sets a coach's age, a captain whose age isn't on file (named
  some other way) doesn't count as its coach until a coach nomination of theirs is confirmed.
- A team with no division is only held up by ``captain_required_every_team``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from bot.league.registration.eligibility import age_on
from bot.league.staff.presets import StaffRules

POSTS = ("coach", "assistant", "captain")
POST_TITLES = {"coach": "coach", "assistant": "assistant coach", "captain": "captain"}


def coach_min_age(division: str | None, rules: StaffRules) -> int | None:
    """The youngest a coach of a team in this division may be, or None when the division sets no age."""
    if division is None:
        return None
    return rules.coach_min_age_by_division.get(division.strip().casefold())


def coach_age_problem(born: date | None, reference: date, division: str | None, rules: StaffRules) -> str | None:
    """Why this person can't coach a team of the division (None: they can). The text never shows the date."""
    least = coach_min_age(division, rules)
    if least is None:
        return None
    if born is None:
        return f"a coach in the {division} division must be {least} or older, so their date of birth is needed"
    if born > reference:
        return "that date of birth is after the day ages are counted at"
    age = age_on(born, reference)
    if age < least:
        return (f"a coach in the {division} division must be {least} or older on {reference:%B} {reference.day}, "
                f"{reference.year}, and they'll be {age}")
    return None


@dataclass(frozen=True)
class TeamLeaders:
    """A team as the draft sees it: its division and each captain's age at the reference date (None: not
    on file)."""

    team: str
    division: str | None
    captain_ages: Sequence[int | None] = ()


@dataclass(frozen=True)
class Blocker:
    team: str
    needs: str  # "coach" | "captain"
    reason: str  # a sentence, for the commissioners


def draft_blockers(teams: Iterable[TeamLeaders], rules: StaffRules) -> list[Blocker]:
    """The teams the draft must wait for: a division that needs a coach (of age) or a captain without one."""
    blockers: list[Blocker] = []
    for team in teams:
        division = team.division.strip().casefold() if team.division else None
        if division is not None and division in rules.coach_required_divisions:
            least = rules.coach_min_age_by_division.get(division)
            coaches = [a for a in team.captain_ages if least is None or (a is not None and a >= least)]
            if not coaches:
                blockers.append(Blocker(team.team, "coach", _no_coach(team, least)))
            continue
        needs_captain = rules.captain_required_every_team or (
            division is not None and division in rules.captain_required_divisions)
        if needs_captain and not team.captain_ages:
            blockers.append(Blocker(team.team, "captain", f"{team.team} has no confirmed captain."))
    return blockers


def _no_coach(team: TeamLeaders, least: int | None) -> str:
    if not team.captain_ages or least is None:
        return f"{team.team} has no confirmed coach."
    if all(a is None for a in team.captain_ages):
        return (f"{team.team} has no confirmed coach: its captain's age isn't on file (a coach must be {least} or "
                "older), so confirm a coach nomination for them.")
    return f"{team.team} has no confirmed coach aged {least} or older."
