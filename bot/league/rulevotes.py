"""Rule-change votes (youth 1.23): the preset's threshold and voting period, and whether a vote passed.

The threshold is a share of the ELIGIBLE voters (the commissioners and the division's coaches or captains),
not of the votes cast: "The vote for the implementation of the rule modification must have a support of 60%
or greater" of those the voting process "will involve" (youth 1.23). A voter who never answers counts
against the change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.league.offsets import parse_offset


@dataclass(frozen=True)
class RuleVoteCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    threshold: str = ""
    period: str = ""


@dataclass(frozen=True)
class RuleVoteRules:
    """How a proposed rule change is voted on by the commissioners and the coaches or captains."""

    # Share of the eligible voters (commissioners, the division's coaches or captains) whose Yes passes a rule
    # change, in percent.
    rulevote_threshold_percent: int = 60
    # How long a rule-change vote stays open before it closes with the votes it has, e.g. 7d or 48h.
    rulevote_period: str = "7d"
    rulevote_citations: RuleVoteCitations = field(default_factory=RuleVoteCitations)

    def __post_init__(self) -> None:
        if not 1 <= self.rulevote_threshold_percent <= 100:
            raise ValueError("rules.rulevote_threshold_percent must be between 1 and 100")
        try:
            period = parse_offset(self.rulevote_period)
        except ValueError as exc:
            raise ValueError(f"rules.rulevote_period: {exc}") from None
        if period.length.total_seconds() < 3600:
            raise ValueError("rules.rulevote_period must be at least an hour (1h), so voters can answer")


_YOUTH = "Youth 1.23"

RULEVOTE_PRESETS: dict[str, RuleVoteRules] = {
    # Co-ed rules: "All rules are subject to change at the discretion of the tournament director up until the
    # start of Game 1" (the last line): no vote at all. Should a league vote anyway, youth 1.23's 60% of
    # commissioners and captains is the default: a change binds every team, so it needs broad support, not
    # a bare majority of whoever answered. A week leaves every captain a game night to answer.
    "coed-ball-hockey": RuleVoteRules(),
    # Youth 1.23 — "there will be a voting process which will involve the commissioner(s) and Coaches and/or
    # Captains (based on division). The vote for the implementation of the rule modification must have a
    # support of 60% or greater." The rulebook gives no period: a week, one game week for every coach.
    "youth-ball-hockey": RuleVoteRules(
        rulevote_threshold_percent=60,
        rulevote_period="7d",
        rulevote_citations=RuleVoteCitations(threshold=_YOUTH),
    ),
    # Indoor soccer rules: silent on changing rules: youth 1.23's 60% and a week, for the reasons above.
    "indoor-soccer": RuleVoteRules(),
}


@dataclass(frozen=True)
class Tally:
    """A vote's count: Yes and No answers out of everyone eligible, and the threshold in force at its start."""

    yes: int
    no: int
    eligible: int
    threshold_percent: int

    @property
    def needed(self) -> int:
        """The fewest Yes votes that pass: the threshold's share of the eligible, rounded up."""
        return -(-self.threshold_percent * self.eligible // 100)

    @property
    def passes(self) -> bool:
        """Yes votes are at least the threshold's share of the eligible voters (not of the votes cast)."""
        return self.eligible > 0 and self.yes * 100 >= self.threshold_percent * self.eligible

    @property
    def everyone_voted(self) -> bool:
        return self.yes + self.no >= self.eligible

    def __post_init__(self) -> None:
        if min(self.yes, self.no, self.eligible) < 0 or self.yes + self.no > self.eligible:
            raise ValueError("a tally counts at most one answer per eligible voter")
