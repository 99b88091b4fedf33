"""The ✅/❌ lines a lineup shows, from the same checks as its findings.

/lineup, /whoisin and the captains' lineup alert all show these lines, so a captain never reads
"Minimum to start met" in one place and a problem in another. The minimum to start is one line from
one check (lineup.start_requirements), the goalie included where the rulebook needs one (youth 2.4);
when it isn't met the line says "not enough to start" and cites the rule. The lines a whole team sees
(``for_team``: /whoisin) never count women/non-binary players: that stays with captains.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.league.checkins.lineup import LineupReport, start_citation, start_requirements
from bot.league.checkins.presets import LineupRules


@dataclass(frozen=True)
class StatusLine:
    """One check: its label, whether it passes (None: allowed but worth a look) and what it found."""

    check: str  # "court", "skaters", "goalie", "women_nonbinary", "start"
    label: str
    ok: bool | None
    detail: str

    @property
    def mark(self) -> str:
        return "✅" if self.ok else ("⚠️" if self.ok is None else "❌")

    def render(self) -> str:
        """The line as one line of text: "✅ Goalie: Gus Lee"."""
        return f"{self.mark} {self.label}: {self.detail}"


def lineup_status(rules: LineupRules, report: LineupReport, *, for_team: bool = False) -> tuple[StatusLine, ...]:
    """The status lines of a checked lineup, in the order a captain reads them."""
    lines = [_skaters(report) if for_team else _court(report), _goalie(rules, report)]
    if report.women_nonbinary_required and not for_team:
        lines.append(_women_nonbinary(rules, report))
    lines.append(_start(rules, report, for_team=for_team))
    return tuple(lines)


def _court(report: LineupReport) -> StatusLine:
    detail = f"**{report.skaters_allowed}** of {report.skater_spots} skaters"
    if report.goalie is not None:
        detail += " + goalie"
    if report.short_by:
        causes = []
        if report.short_because_of_women_rule:
            causes.append(f"{report.short_because_of_women_rule} for the women/non-binary rule")
        if report.short_because_too_few_skaters:
            causes.append(f"{report.short_because_too_few_skaters} for too few skaters")
        detail += f" — short by {report.short_by} ({', '.join(causes)})"
    return StatusLine("court", "On the court", report.short_by == 0, detail)


def _skaters(report: LineupReport) -> StatusLine:
    """Eligible skaters against the skater spots: the court without the women/non-binary rule."""
    have, spots = len(report.eligible_skaters), report.skater_spots
    detail = f"{have} for {spots} spots" + (f" — {spots - have} short" if have < spots else "")
    return StatusLine("skaters", "Skaters", have >= spots, detail)


def _goalie(rules: LineupRules, report: LineupReport) -> StatusLine:
    if report.goalie is None:
        return StatusLine("goalie", "Goalie", False, "nobody")
    if report.goalie_is_stand_in:
        if rules.goalie_required_to_start:  # a stand-in plays, but isn't the goalie the rulebook needs to start
            return StatusLine("goalie", "Goalie", False,
                              f"no goalie checked in (one is needed to start); {report.goalie.name} would stand in")
        return StatusLine("goalie", "Goalie", None, f"no goalie checked in; {report.goalie.name} would stand in")
    return StatusLine("goalie", "Goalie", True, report.goalie.name)


def _women_nonbinary(rules: LineupRules, report: LineupReport) -> StatusLine:
    counted, required = report.women_nonbinary_available, report.women_nonbinary_required
    detail = f"{counted} checked in, {required} required"
    if counted < required:
        detail += " — plays short" if rules.plays_short_when_short_of_women else " — the team can't start"
    return StatusLine("women_nonbinary", "Women/non-binary on the court", counted >= required, detail)


def _start(rules: LineupRules, report: LineupReport, *, for_team: bool) -> StatusLine:
    counts_met, needs, has = start_requirements(rules, report.goalie, len(report.eligible_skaters),
                                                stand_in=report.goalie_is_stand_in)
    met = report.minimum_to_start_met
    short = "not enough to start"
    if counts_met and not met:  # only the women/non-binary rule stops it: a league that doesn't play short
        why = ("a captain's /lineup says why" if for_team
               else "too few women/non-binary, and this league doesn't play short")
        return StatusLine("start", "Minimum to start", False, f"{short} — {why}")
    if needs:
        detail = f"needs {' and '.join(needs)}; has {' and '.join(has)}"
        if met:
            return StatusLine("start", "Minimum to start", True, f"met — {detail}")
        return StatusLine("start", "Minimum to start", False, f"{short} — {detail} ({start_citation(rules)})")
    if met:
        plays_short = " (a short team plays short)" if rules.plays_short_when_short_of_women else ""
        return StatusLine("start", "Minimum to start", True, f"none in the rulebook{plays_short}")
    nobody = "nobody eligible is in" if report.goalie is None else f"only {has[0]}: nobody to skate"
    return StatusLine("start", "Minimum to start", False, f"{short} — {nobody}")
