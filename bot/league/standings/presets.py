"""Each preset's standings numbers (points, criteria, counted game kinds), and their vocabulary."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, TypeGuard

Decided = Literal["regulation", "overtime", "shootout", "forfeit"]
GameKind = Literal["regular", "seeding", "playoff"]

DECIDED: frozenset[str] = frozenset({"regulation", "overtime", "shootout", "forfeit"})
GAME_KINDS: frozenset[str] = frozenset({"regular", "seeding", "playoff"})

#: The vocabulary of ordering criteria, each with the label a table shows to explain a tiebreak.
#: Every criterion ranks the larger value first ("fewest_*" criteria negate their count).
TIEBREAKERS: dict[str, str] = {
    "points": "points",
    "points_pct": "points percentage (points / points available)",
    "win_pct": "winning percentage (a tie counts as half a win)",
    "wins": "most wins",
    "fewest_losses": "fewest losses",
    "head_to_head": "points in the games among the tied teams",
    "goal_diff": "goal differential (shootout goals excluded)",
    "goals_for": "most goals scored",
    "fewest_goals_against": "fewest goals allowed",
}
#: The deterministic last resort, after every criterion of the rules: the team's name.
TEAM_NAME_FALLBACK = "team_name"


class StandingsError(ValueError):
    """Input the standings engine cannot count: a malformed result, an unknown team, bad rules."""


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool (which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_count(value: object) -> bool:
    """A whole number of 0 or more."""
    return is_int(value) and value >= 0



@dataclass(frozen=True)
class StandingsCitations:
    """Where each standings rule comes from ("" when the rulebook is silent: a league setting)."""

    points: str = ""
    forfeit: str = ""
    forfeit_goals: str = ""
    tiebreakers: str = ""
    counted: str = ""
    adjustment_points: str = ""
    disqualify: str = ""
    playoffs_by_division: str = ""
    all_teams_qualify: str = ""
    seeding_games: str = ""


@dataclass(frozen=True)
class StandingsRules:
    """How a league turns results into a table. Built from a preset plus the league's overrides.

    Field names carry a ``points_`` or ``standings_`` prefix so that flat config overrides
    (``[leagues.rules]``) never collide with other rules modules.
    """

    # Youth 1.10 / 2.13A: two points for a win, one for a tie, none for a loss. Indoor soccer
    # leaves points to the league (docs/product.md §2 default: 3-1-0).
    points_win: int = 2
    # Points for a tie.
    points_tie: int = 1
    # Points for a loss.
    points_loss: int = 0
    # An overtime or shootout loss. None (every shipped preset): it is an ordinary loss, counted
    # in ``l`` with ``points_loss`` (youth 1.10 "no points for a loss"; co-ed seeds by record, where
    # an overtime loss is a loss). A number: such losses go to the ``otl`` column with these points.
    points_otl: int | None = None
    # Youth 2.4: "The forfeiting team will lose one point in the standings", unless the
    # commissioners uphold an appeal (GameResult.penalty_waived). 0 = no deduction.
    points_forfeit_penalty: int = 0
    # Youth 2.4: "The score for a forfeited game is 5-0" (winner, forfeiting side).
    standings_forfeit_score: tuple[int, int] = (5, 0)
    # A forfeit's score counts toward goals for and against (youth 2.4: "a 5-0 loss"). Off: a forfeit is
    # a win and a loss only, its goals counted nowhere (co-ed seeds on "total goals scored" and gives
    # no forfeit score).
    standings_forfeit_goals_count: bool = True
    # The ordered criteria (TIEBREAKERS); the first is the primary order. Youth 1.11: points,
    # then most wins, head-to-head, goal differential excluding shootout goals.
    standings_tiebreakers: tuple[str, ...] = ("points", "wins", "head_to_head", "goal_diff")
    # Games that count: the regular season and co-ed seeding games ("Each team is guaranteed 2
    # games for seeding"); playoff games never change a table.
    standings_counted_kinds: tuple[str, ...] = ("regular", "seeding")
    # Youth 1.22: a commissioner may penalize a team "by removing 1 or 2 points from the standings".
    # The point changes `/standings adjust` accepts; empty = any whole number from -99 to 99, not 0.
    standings_adjustment_points: tuple[int, ...] = ()
    # Youth 1.1 (junior and senior divisions), 1.18 (all teams qualify): each division has its own
    # playoff bracket. Off: one bracket seeds the whole league.
    standings_playoffs_by_division: bool = False
    # Every team in the draw plays in the playoffs (youth 1.18 "All teams qualify"; co-ed "Each team is
    # guaranteed ... one playoff game"): a bracket that leaves a team out is refused. Disqualified
    # teams (youth 1.22) are not in the draw.
    standings_all_teams_qualify: bool = False
    # Games each team is guaranteed before the playoffs are seeded (co-ed: "2 games for seeding");
    # a bracket seeded earlier names the teams still short of them. 0 = no such guarantee.
    standings_seeding_games_guaranteed: int = 0
    # Rulebook citations for the settings above.
    standings_citations: StandingsCitations = field(default_factory=StandingsCitations)

    def __post_init__(self) -> None:
        # TOML gives lists; keep the dataclass hashable and immutable.
        for name in ("standings_forfeit_score", "standings_tiebreakers", "standings_counted_kinds",
                     "standings_adjustment_points"):
            value = getattr(self, name)
            if isinstance(value, str) or not isinstance(value, Iterable):
                raise StandingsError(f"{name} must be a list, not {value!r}")
            object.__setattr__(self, name, tuple(value))
        for name in ("points_win", "points_tie", "points_loss", "points_forfeit_penalty"):
            if not is_int(getattr(self, name)):
                raise StandingsError(f"{name} must be a whole number, not {getattr(self, name)!r}")
        if self.points_otl is not None and not is_int(self.points_otl):
            raise StandingsError(f"points_otl must be a whole number or unset: {self.points_otl!r}")
        score = self.standings_forfeit_score
        if len(score) != 2 or not all(is_count(s) for s in score) or score[0] <= score[1]:
            raise StandingsError(
                f"standings_forfeit_score must be [winner, loser] with winner > loser >= 0, not {score!r}"
            )
        order = self.standings_tiebreakers
        if not order:
            raise StandingsError("standings_tiebreakers needs at least one criterion")
        unknown = [c for c in order if c not in TIEBREAKERS]
        if unknown:
            raise StandingsError(f"unknown standings_tiebreakers {unknown}; choose from {list(TIEBREAKERS)}")
        if len(set(order)) != len(order):
            raise StandingsError(f"standings_tiebreakers repeats a criterion: {list(order)}")
        if not is_count(self.standings_seeding_games_guaranteed):
            raise StandingsError(f"standings_seeding_games_guaranteed must be a whole number >= 0, not "
                                 f"{self.standings_seeding_games_guaranteed!r}")
        if any(not is_int(p) or p == 0 for p in self.standings_adjustment_points):
            raise StandingsError(f"standings_adjustment_points must be whole numbers other than 0, not "
                                 f"{list(self.standings_adjustment_points)!r}")
        bad_kinds = [k for k in self.standings_counted_kinds if k not in GAME_KINDS]
        if bad_kinds:
            raise StandingsError(f"unknown standings_counted_kinds {bad_kinds}")


STANDINGS_PRESETS: dict[str, StandingsRules] = {
    # Co-ed rules: Game Structure 9 — "Seeding will be decided first by record, followed by total goals
    # scored." Record = winning percentage. The rulebook gives no points or forfeit
    # score; points are shown for information only (2-1-0), a forfeit is a win and a loss with no
    # deduction, and its goals count nowhere (no score to count). Overtime and shootout losses are
    # losses in the record. "Each team is guaranteed 2 games for seeding and one playoff game":
    # every team is in the bracket.
    "coed-ball-hockey": StandingsRules(
        points_win=2,
        points_tie=1,
        points_loss=0,
        points_forfeit_penalty=0,
        standings_forfeit_goals_count=False,
        standings_tiebreakers=("win_pct", "goals_for"),
        standings_all_teams_qualify=True,
        standings_seeding_games_guaranteed=2,
        standings_citations=StandingsCitations(tiebreakers="Co-ed rules: Game Structure 9",
                                               counted="Co-ed rules: Game Structure 8",
                                               forfeit_goals="Co-ed rules: Game Structure 9",
                                               all_teams_qualify="Co-ed rules: Game Structure 8",
                                               seeding_games="Co-ed rules: Game Structure 8"),
    ),
    # Youth league 2012-13: rule 1.10 (2-1-0), 1.11 (wins, head-to-head, goal differential
    # excluding shootout goals), 2.4 (forfeit 5-0, counted as such, and minus one point,
    # appealable), 2.14, 1.18 (all teams qualify for the playoffs).
    "youth-ball-hockey": StandingsRules(
        points_win=2,
        points_tie=1,
        points_loss=0,
        points_forfeit_penalty=1,
        standings_forfeit_score=(5, 0),
        standings_forfeit_goals_count=True,
        standings_tiebreakers=("points", "wins", "head_to_head", "goal_diff"),
        # Youth 1.22: "removing 1 or 2 points from the standings", or disqualifying the team.
        standings_adjustment_points=(-1, -2),
        standings_playoffs_by_division=True,
        standings_all_teams_qualify=True,
        standings_citations=StandingsCitations(points="Youth 1.10, 2.13A", forfeit="Youth 2.4",
                                               forfeit_goals="Youth 2.4",
                                               tiebreakers="Youth 1.11", counted="Youth 1.10",
                                               adjustment_points="Youth 1.22", disqualify="Youth 1.22",
                                               playoffs_by_division="Youth 1.1, 1.18",
                                               all_teams_qualify="Youth 1.18"),
    ),
    # Indoor soccer: the rulebook is silent on points, order and forfeits; docs/product.md §2: points
    # are a setting (default 3-1-0), then goal differential, then goals scored; with no forfeit
    # score in the rulebook, a forfeit's goals count nowhere (as in co-ed). Regular-season games may
    # end tied ("No overtime will be player during the regular season").
    "indoor-soccer": StandingsRules(
        points_win=3,
        points_tie=1,
        points_loss=0,
        points_forfeit_penalty=0,
        standings_forfeit_goals_count=False,
        standings_tiebreakers=("points", "goal_diff", "goals_for"),
        standings_citations=StandingsCitations(),
    ),
}
