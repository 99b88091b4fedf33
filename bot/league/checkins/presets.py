"""Each preset's lineup numbers (court size, women/non-binary minimum, starting minimums), cited."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType


@dataclass(frozen=True)
class LineupCitations:
    """Where each lineup rule comes from in the rulebook ("" when the rulebook is silent)."""

    court: str = ""
    women_nonbinary: str = ""
    start: str = ""
    goalie: str = ""
    roster: str = ""
    guests: str = ""
    suspension: str = ""
    # Where the rulebook contradicts itself on counting the goalie toward the women/non-binary minimum:
    # the other section ("" when it doesn't).
    goalie_counts_other: str = ""


@dataclass(frozen=True)
class LineupRules:
    """The numbers behind a lineup check; built from a preset plus the league's flat overrides."""

    # Players on the court at once, the goalie included.
    players_on_court: int
    # Women/non-binary skaters required on the court at all times; the goalie is not counted.
    women_nonbinary_on_court: int = 0
    # A woman/non-binary goalie counts toward that minimum. Co-ed rules contradict themselves: Teams says
    # "(not including the goalie)", Game Structure counts "players on the court", goalie included.
    goalie_counts_toward_women_nonbinary: bool = False
    # With too few women/non-binary skaters the team plays short instead of being unable to play.
    plays_short_when_short_of_women: bool = True
    # Skaters (goalie not counted) needed to start the game; None = the rulebook sets no minimum.
    min_skaters_to_start: int | None = None
    # A goalie is needed to start the game.
    goalie_required_to_start: bool = False
    # Players of any position, goalie included, needed to start; None = no such minimum.
    min_players_to_start: int | None = None
    # Minutes after the scheduled start a short team has to reach the minimum; None = no grace.
    start_grace_minutes: int | None = None
    # Bench minor served to start the game by a team still short when the grace period ends.
    late_start_bench_minor_minutes: int | None = None
    # Minutes after the scheduled start at which a team still short forfeits; None = not set.
    forfeit_after_minutes: int | None = None
    # Most players on a team's roster; None = no limit in the rules.
    roster_limit: int | None = None
    # Players not on the roster may play as guests at all.
    guests_allowed: bool = False
    # A guest plays only once league staff approved them.
    guests_need_approval: bool = True
    # Court size (players incl. goalie) by division name; a division not listed is refused.
    court_sizes_by_division: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({}), hash=False
    )
    # Rulebook citations for the findings.
    citations: LineupCitations = field(default_factory=LineupCitations)

    def __post_init__(self) -> None:
        sizes = {
            str(name).strip().casefold(): size
            for name, size in dict(self.court_sizes_by_division).items()
        }
        object.__setattr__(self, "court_sizes_by_division", MappingProxyType(sizes))
        for name, size in sizes.items():
            _require(
                isinstance(size, int) and not isinstance(size, bool) and size >= 1,
                "court_sizes_by_division",
                f"{name!r} must be a whole number of players, at least 1",
            )
        _require(self.players_on_court >= 1, "players_on_court", "must be at least 1 (the goalie)")
        smallest_court = min([self.players_on_court, *sizes.values()])
        _require(
            0 <= self.women_nonbinary_on_court <= smallest_court - 1,
            "women_nonbinary_on_court",
            f"must be between 0 and the skater spots on the court ({smallest_court - 1})",
        )
        for key in (
            "min_skaters_to_start",
            "min_players_to_start",
            "start_grace_minutes",
            "late_start_bench_minor_minutes",
            "forfeit_after_minutes",
            "roster_limit",
        ):
            value = getattr(self, key)
            _require(value is None or value >= 0, key, "must not be negative")
        if self.start_grace_minutes is not None and self.forfeit_after_minutes is not None:
            _require(
                self.forfeit_after_minutes >= self.start_grace_minutes,
                "forfeit_after_minutes",
                "must not be before the end of start_grace_minutes",
            )

    @property
    def skater_spots(self) -> int:
        """Skaters on a full court."""
        return self.players_on_court - 1


def _require(condition: bool, key: str, problem: str) -> None:
    if not condition:
        raise ValueError(f"rules.{key} {problem}")


LINEUP_PRESETS: dict[str, LineupRules] = {
    "coed-ball-hockey": LineupRules(
        # Co-ed rules: Game Structure — "a max of 6 players on, including a goalie each".
        players_on_court=6,
        # Co-ed rules: Teams — at least two women/non-binary on the court, not including the goalie.
        women_nonbinary_on_court=2,
        # Co-ed rules: Teams — "or else they will need to play short".
        plays_short_when_short_of_women=True,
        # Co-ed rules: no minimum to start; a short team plays short (docs/product.md §2).
        min_skaters_to_start=None,
        goalie_required_to_start=False,
        min_players_to_start=None,
        start_grace_minutes=None,
        late_start_bench_minor_minutes=None,
        forfeit_after_minutes=None,
        # Co-ed rules: Teams — "Rosters will be limited to 20 active players."
        roster_limit=20,
        # Co-ed rules: silent on guests (Teams limits rosters to 20 active players); only the roster plays.
        guests_allowed=False,
        guests_need_approval=True,
        citations=LineupCitations(
            court="Co-ed rules: Game Structure",
            women_nonbinary="Co-ed rules: Teams",
            goalie_counts_other="Co-ed rules: Game Structure",
            start="",
            goalie="Co-ed rules: Game Structure",
            roster="Co-ed rules: Teams",
            guests="",
            suspension="Co-ed rules: Major offenses, severe offenses",
        ),
    ),
    "youth-ball-hockey": LineupRules(
        # Youth 2.6 — senior games 5-on-5 with a goalie; the size when no division is given.
        players_on_court=6,
        # Youth 2.5 — junior games 4-on-4 with a goalie; Youth 2.6 — senior 5-on-5 with a goalie.
        court_sizes_by_division={"junior": 5, "senior": 6},
        # Youth: no women/non-binary requirement.
        women_nonbinary_on_court=0,
        plays_short_when_short_of_women=True,
        # Youth 2.4 — junior and senior teams need 3 players and a goalie to start.
        min_skaters_to_start=3,
        goalie_required_to_start=True,
        min_players_to_start=None,
        # Youth 2.4 — 5-minute grace period, then a 2-minute bench minor to start the game.
        start_grace_minutes=5,
        late_start_bench_minor_minutes=2,
        # Youth 2.4 — still short after 10 minutes: forfeit.
        forfeit_after_minutes=10,
        # Youth rules: silent on a roster limit (1.7's draft makes the rosters) and on guests; only the
        # roster plays.
        roster_limit=None,
        guests_allowed=False,
        guests_need_approval=True,
        citations=LineupCitations(
            court="Youth 2.5, 2.6",
            women_nonbinary="",
            start="Youth 2.4",
            goalie="Youth 2.4",
            roster="",
            guests="",
            suspension="Youth 1.20.1",
        ),
    ),
    "indoor-soccer": LineupRules(
        # Indoor soccer rules: Game — "6 players (5 field players and 1 goalie)".
        players_on_court=6,
        women_nonbinary_on_court=0,
        plays_short_when_short_of_women=True,
        # Indoor soccer rules: Game — "at least 4 players on the field to start the game".
        min_skaters_to_start=None,
        goalie_required_to_start=False,
        min_players_to_start=4,
        start_grace_minutes=None,
        late_start_bench_minor_minutes=None,
        forfeit_after_minutes=None,
        # Indoor soccer rules: Game — "Only players on roster may play"; no size limit stated.
        roster_limit=None,
        # Indoor soccer rules: Game — guests play once paid or cleared by an employee.
        guests_allowed=True,
        guests_need_approval=True,
        citations=LineupCitations(
            court="Indoor soccer rules: Game",
            women_nonbinary="",
            start="Indoor soccer rules: Game",
            goalie="Indoor soccer rules: Game",
            roster="Indoor soccer rules: Game",
            guests="Indoor soccer rules: Game",
            suspension="",
        ),
    ),
}


def lineup_rules_for(rules: LineupRules, division: str | None) -> LineupRules:
    """The rules with the court size of the team's division (unchanged when sizes don't vary)."""
    if division is None or not rules.court_sizes_by_division:
        return rules
    key = division.strip().casefold()
    size = rules.court_sizes_by_division.get(key)
    if size is None:
        known = ", ".join(sorted(rules.court_sizes_by_division))
        raise ValueError(
            f"division {division!r} has no court size in rules.court_sizes_by_division "
            f"(known: {known})"
        )
    return replace(rules, players_on_court=size)

