"""What a short team is missing: the spots spares could fill to make its lineup legal."""

from __future__ import annotations

from dataclasses import dataclass

from bot.league.checkins.lineup import BELOW_MINIMUM_TO_START, NO_GOALIE, SHORT_OF_SKATERS, SHORT_OF_WOMEN, LineupReport
from bot.league.checkins.presets import LineupRules

#: The findings a spare can fix; the others (suspended, unrostered, roster limit) are not theirs to fix.
FIXABLE = frozenset({NO_GOALIE, SHORT_OF_WOMEN, SHORT_OF_SKATERS, BELOW_MINIMUM_TO_START})


@dataclass(frozen=True)
class Need:
    """Spots to fill: women/non-binary skaters, a goalie, and skaters of any category."""

    women_nonbinary: int = 0
    goalie: bool = False
    skaters: int = 0
    # Set when the team is below its minimum to start: the minimum, and players short of it.
    minimum: int | None = None
    short_of_minimum: int = 0

    @property
    def spots(self) -> int:
        return self.women_nonbinary + int(self.goalie) + self.skaters

    @property
    def met(self) -> bool:
        """Nothing is missing: the lineup is legal as far as spares can make it."""
        return self.spots == 0

    def describe(self) -> str:
        """In the league's words, never naming anyone: "1 woman/non-binary skater and a goalie"."""
        parts: list[str] = []
        if self.women_nonbinary:
            parts.append(_count(self.women_nonbinary, "woman/non-binary skater", "women/non-binary skaters"))
        if self.goalie:
            parts.append("a goalie")
        if self.skaters:
            if self.minimum is not None and self.short_of_minimum:
                parts.append(f"{_count(self.skaters, 'player')} to reach the minimum of {self.minimum}"
                             if self.skaters <= self.short_of_minimum
                             else f"{_count(self.skaters, 'player')} ({self.short_of_minimum} to reach "
                                  f"the minimum of {self.minimum}, the rest to fill the court)")
            else:
                parts.append(f"{_count(self.skaters, 'skater')} to fill the court")
        if not parts:
            return "nothing"
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def what_is_missing(rules: LineupRules, report: LineupReport) -> Need:
    """The spots that would clear every finding a spare can fix (``Need.met`` when there are none)."""
    if not report.codes & FIXABLE:
        return Need()
    stand_in = report.goalie if report.goalie_is_stand_in else None
    goalie = report.goalie is None or stand_in is not None
    # A goalie arriving sends the stand-in back out to skate (and to count, if they do).
    pool = len(report.eligible_skaters) + int(stand_in is not None)
    counted = report.women_nonbinary_available + int(stand_in is not None and stand_in.counts_toward_women_nonbinary)
    women = max(0, report.women_nonbinary_required - counted)
    skaters = max(0, report.skater_spots - pool - women)
    after = pool + women + skaters
    extra = 0  # only when a minimum to start is larger than a full court
    if rules.min_skaters_to_start is not None:
        extra = max(extra, rules.min_skaters_to_start - after)
    if rules.min_players_to_start is not None:
        extra = max(extra, rules.min_players_to_start - after - 1)
    minimum, short = _minimum_shortfall(rules, report)
    return Need(women_nonbinary=women, goalie=goalie, skaters=skaters + extra, minimum=minimum,
                short_of_minimum=short)


def _minimum_shortfall(rules: LineupRules, report: LineupReport) -> tuple[int | None, int]:
    """The minimum the team is below, and how many players short of it it is now (for the wording)."""
    if report.minimum_to_start_met or BELOW_MINIMUM_TO_START not in report.codes:
        return None, 0
    # Where a goalie is needed to start, a skater standing in goal counts as a skater (lineup.start_requirements).
    skaters = len(report.eligible_skaters) + int(report.goalie_is_stand_in and rules.goalie_required_to_start)
    players = len(report.eligible_skaters) + int(report.goalie is not None)
    if rules.min_players_to_start is not None and players < rules.min_players_to_start:
        return rules.min_players_to_start, rules.min_players_to_start - players
    if rules.min_skaters_to_start is not None and skaters < rules.min_skaters_to_start:
        return rules.min_skaters_to_start, rules.min_skaters_to_start - skaters
    return None, 0


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
