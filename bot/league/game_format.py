"""Game format per preset: periods, clock, overtime and timeouts, as the rulebooks set them.

Flat fields (config overrides use flat keys). Overtime differs between the regular season and the
playoffs, so it comes in two sets of fields; `overtime_for(kind)` picks one for a game's kind
(`regular`, `seeding` or `playoff`; seeding games follow the regular-season rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

GameKind = Literal["regular", "seeding", "playoff"]


@dataclass(frozen=True)
class Overtime:
    """What happens after a tie at the end of regulation, for one kind of game."""

    periods: int
    period_minutes: int
    sudden_death: bool
    shootout: bool

    @property
    def tie_stands(self) -> bool:
        """No overtime and no shootout: a tie is a tie."""
        return self.periods == 0 and not self.shootout

    def overtime_margin_problem(self, home: int, away: int) -> str | None:
        """Sudden death ends at the first goal ("the first team to score wins and ends the game"), and the
        game was tied when it began, so an overtime win is by exactly one goal; None when the score fits."""
        if self.periods == 0 or not self.sudden_death or abs(home - away) == 1:
            return None
        return (f"Overtime here is sudden death: the first goal wins and ends the game, so an overtime win is "
                f"by exactly one goal, not {abs(home - away)}")


@dataclass(frozen=True)
class GameFormatCitations:
    """Where each part of the game's shape comes from ("" when the rulebook is silent)."""

    period: str = ""
    clock: str = ""
    intermission: str = ""
    regular_overtime: str = ""
    regular_shootout: str = ""
    playoff_overtime: str = ""
    playoff_shootout: str = ""
    timeout: str = ""


@dataclass(frozen=True)
class GameFormat:
    """How a game is played: the clock, overtime and timeouts."""

    # Periods (or halves) of regulation play.
    periods: int
    # Minutes of each period or half.
    period_minutes: int
    # The clock runs through stoppages; None = the rulebook does not say.
    running_clock: bool | None
    # The clock stops in the last minutes of the final period; None = never.
    stopped_clock_final_minutes: int | None
    # Longest break between periods (and before overtime); None = not set.
    intermission_minutes: int | None
    # Overtime periods after a tie in a regular-season (or seeding) game; 0 = no overtime.
    regular_overtime_periods: int
    # Minutes of each regular-season overtime period.
    regular_overtime_minutes: int
    # Regular-season overtime ends at the first goal (else it is played in full).
    regular_overtime_sudden_death: bool
    # A regular-season game still tied after overtime goes to a shootout (else the tie stands).
    regular_shootout: bool
    # Overtime periods after a tie in a playoff game; 0 = no overtime.
    playoff_overtime_periods: int
    # Minutes of each playoff overtime period.
    playoff_overtime_minutes: int
    # Playoff overtime ends at the first goal (else it is played in full).
    playoff_overtime_sudden_death: bool
    # A playoff game still tied after overtime goes to a shootout.
    playoff_shootout: bool
    # Timeouts per team per game; 0 = none.
    timeouts_per_game: int
    # Most timeouts per team in one period; None = no per-period limit.
    timeouts_per_period: int | None
    # Length of a timeout in seconds; None = not set.
    timeout_seconds: int | None
    # Extra timeouts per team in playoff overtime.
    playoff_overtime_timeouts: int
    # Rulebook citations for the settings above.
    game_format_citations: GameFormatCitations = field(default_factory=GameFormatCitations)

    def __post_init__(self) -> None:
        for key in (
            "periods",
            "period_minutes",
            "regular_overtime_periods",
            "regular_overtime_minutes",
            "playoff_overtime_periods",
            "playoff_overtime_minutes",
            "timeouts_per_game",
            "playoff_overtime_timeouts",
        ):
            if getattr(self, key) < 0:
                raise ValueError(f"rules.{key} must not be negative")
        if self.periods < 1 or self.period_minutes < 1:
            raise ValueError("rules.periods and rules.period_minutes must be at least 1")

    @property
    def regulation_minutes(self) -> int:
        """Minutes of regulation play."""
        return self.periods * self.period_minutes

    def overtime_citation(self, kind: GameKind) -> str:
        """Where the overtime rules of a game of this kind come from ("" when the rulebook is silent)."""
        c = self.game_format_citations
        return c.playoff_overtime if kind == "playoff" else c.regular_overtime

    def overtime_for(self, kind: GameKind) -> Overtime:
        """The overtime rules for a game of this kind."""
        if kind == "playoff":
            return Overtime(
                self.playoff_overtime_periods,
                self.playoff_overtime_minutes,
                self.playoff_overtime_sudden_death,
                self.playoff_shootout,
            )
        if kind in ("regular", "seeding"):
            return Overtime(
                self.regular_overtime_periods,
                self.regular_overtime_minutes,
                self.regular_overtime_sudden_death,
                self.regular_shootout,
            )
        raise ValueError(f"game kind must be regular, seeding or playoff, not {kind!r}")


GAME_FORMAT_PRESETS: dict[str, GameFormat] = {
    "coed-ball-hockey": GameFormat(
        # Co-ed rules: Game Structure — two 20-minute halves with a running clock.
        periods=2,
        period_minutes=20,
        running_clock=True,
        # Co-ed rules: Game Structure — the clock stops in the last two minutes of the second half,
        # but only with a 1 or 2 goal differential (the scorekeeper applies that condition).
        stopped_clock_final_minutes=2,
        # Co-ed rules: Game Structure — at most 5 minutes between halves and before overtime.
        intermission_minutes=5,
        # Co-ed rules: Overtime (OT) — 5-minute sudden death, then a shootout, for "all regulation
        # and playoff games".
        regular_overtime_periods=1,
        regular_overtime_minutes=5,
        regular_overtime_sudden_death=True,
        regular_shootout=True,
        playoff_overtime_periods=1,
        playoff_overtime_minutes=5,
        playoff_overtime_sudden_death=True,
        playoff_shootout=True,
        # Co-ed rules: Game Structure — one thirty-second time out per team per game.
        timeouts_per_game=1,
        timeouts_per_period=None,
        timeout_seconds=30,
        playoff_overtime_timeouts=0,
        game_format_citations=GameFormatCitations(
            period="Co-ed rules: Game Structure",
            clock="Co-ed rules: Game Structure",
            intermission="Co-ed rules: Game Structure",
            regular_overtime="Co-ed rules: Overtime",
            regular_shootout="Co-ed rules: Overtime",
            playoff_overtime="Co-ed rules: Overtime",
            playoff_shootout="Co-ed rules: Overtime",
            timeout="Co-ed rules: Game Structure",
        ),
    ),
    "youth-ball-hockey": GameFormat(
        # Youth 2.5 (junior), 2.6 (senior) — three 15-minute periods, stoppage time only in the
        # last two minutes of the final period.
        periods=3,
        period_minutes=15,
        running_clock=True,
        stopped_clock_final_minutes=2,
        # Youth 2.11 — intermissions of 1 minute.
        intermission_minutes=1,
        # Youth 2.13A — a regular-season tie stands (one point each).
        regular_overtime_periods=0,
        regular_overtime_minutes=0,
        regular_overtime_sudden_death=False,
        regular_shootout=False,
        # Youth 1.19 — a five-minute overtime period, then a shootout (2.13B). The rulebook does not
        # call the overtime sudden death, so it is played in full unless a league overrides this.
        playoff_overtime_periods=1,
        playoff_overtime_minutes=5,
        playoff_overtime_sudden_death=False,
        playoff_shootout=True,
        # Youth 2.10 — two 30-second time-outs per team per game, only one per period, and one
        # 30-second time-out per team in playoff overtime.
        timeouts_per_game=2,
        timeouts_per_period=1,
        timeout_seconds=30,
        playoff_overtime_timeouts=1,
        game_format_citations=GameFormatCitations(
            period="Youth 2.5, 2.6",
            clock="Youth 2.5, 2.6",
            intermission="Youth 2.11",
            regular_overtime="Youth 2.13A",
            regular_shootout="Youth 2.13A",
            playoff_overtime="Youth 1.19, 2.10",
            playoff_shootout="Youth 2.13B",
            timeout="Youth 2.10",
        ),
    ),
    "indoor-soccer": GameFormat(
        # Indoor soccer rules: Game — two 25-minute halves; the clock is not described.
        periods=2,
        period_minutes=25,
        running_clock=None,
        stopped_clock_final_minutes=None,
        # Indoor soccer rules: Game — halftime of 0-5 minutes (ref's discretion).
        intermission_minutes=5,
        # Indoor soccer rules: Overtime — no overtime in the regular season.
        regular_overtime_periods=0,
        regular_overtime_minutes=0,
        regular_overtime_sudden_death=False,
        regular_shootout=False,
        # Indoor soccer rules: Overtime — two 8-minute overtimes played in their entirety, then a
        # 4-person shootout.
        playoff_overtime_periods=2,
        playoff_overtime_minutes=8,
        playoff_overtime_sudden_death=False,
        playoff_shootout=True,
        # Indoor soccer rules: no time-outs.
        timeouts_per_game=0,
        timeouts_per_period=None,
        timeout_seconds=None,
        playoff_overtime_timeouts=0,
        game_format_citations=GameFormatCitations(
            period="Indoor soccer rules: Game",
            intermission="Indoor soccer rules: Game",
            regular_overtime="Indoor soccer rules: Overtime",
            regular_shootout="Indoor soccer rules: Overtime",
            playoff_overtime="Indoor soccer rules: Overtime",
            playoff_shootout="Indoor soccer rules: Overtime",
        ),
    ),
}
