"""Each preset's schedule settings: how many games a team may play in one week."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScheduleCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    games_per_team: str = ""


@dataclass(frozen=True)
class ScheduleRules:
    """The numbers a generated schedule keeps to."""

    # Games a team may play in one week of the league's calendar (Monday to Sunday) in a generated schedule.
    games_per_team_per_week: int = 1
    schedule_citations: ScheduleCitations = field(default_factory=ScheduleCitations)

    def __post_init__(self) -> None:
        if self.games_per_team_per_week < 1:
            raise ValueError("rules.games_per_team_per_week must be at least 1")


SCHEDULE_PRESETS: dict[str, ScheduleRules] = {
    # Co-ed rules: Game Structure 8 — "Each team is guaranteed 2 games for seeding and one playoff game": a
    # tournament plays its seeding games in one day, so two a week.
    "coed-ball-hockey": ScheduleRules(
        games_per_team_per_week=2,
        schedule_citations=ScheduleCitations(games_per_team="Co-ed rules: Game Structure 8")),
    # Youth 1.8 — "The regular season schedule will consist of 15 games. Each team will play all other teams in
    # their division 5 times": a game a week through the season.
    "youth-ball-hockey": ScheduleRules(
        games_per_team_per_week=1,
        schedule_citations=ScheduleCitations(games_per_team="Youth 1.8")),
    # Indoor soccer rules: silent; a weekly league: one game a week, as a league setting.
    "indoor-soccer": ScheduleRules(),
}
