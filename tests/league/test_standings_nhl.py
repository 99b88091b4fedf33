"""The standings engine against a table nobody on this project computed: NHL 1998-99.

Rules of that season (data README): 2 points for a win (regulation or overtime), 1 for a tie,
0 for a loss; within a division: points, most wins, head-to-head points among the tied teams,
goal differential. Every team's GP/W/L/T/OTL/PTS/GF/GA and every division's order must match the
published standings exactly.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.league.standings.presets import StandingsRules
from bot.league.standings.table import GameResult, StandingsRow, compute_standings

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "nhl-1998-99"

pytestmark = pytest.mark.skipif(
    not (DATA / "games.csv").is_file(),
    reason=f"NHL 1998-99 data not found at {DATA} (the shared data folder beside the repo)",
)

NHL_1998_99 = StandingsRules(
    points_win=2,
    points_tie=1,
    points_loss=0,
    points_otl=None,  # overtime losses were plain losses until 1999-2000
    standings_tiebreakers=("points", "wins", "head_to_head", "goal_diff"),
)
# games.csv decision -> how the game was decided. TIE: still level after the overtime period.
DECIDED = {"REG": "regulation", "OT": "overtime", "TIE": "overtime"}
COLUMNS = ("gp", "w", "l", "t", "otl", "pts", "gf", "ga", "rank")


def read_csv(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def computed() -> list[StandingsRow]:
    teams = {row["team"]: row["div"] for row in read_csv("teams.csv")}
    results = [
        GameResult(
            game_id=f"games.csv:{line}",
            home=row["home"],
            away=row["away"],
            home_goals=int(row["home_goals"]),
            away_goals=int(row["away_goals"]),
            decided=DECIDED[row["decision"]],
        )
        for line, row in enumerate(read_csv("games.csv"), start=2)
    ]
    return compute_standings(NHL_1998_99, teams, results)


@pytest.fixture(scope="module")
def published() -> dict[str, dict[str, str]]:
    return {row["team"]: row for row in read_csv("standings.csv")}


def test_every_team_line_matches_the_published_standings(computed, published):
    assert sorted(r.team for r in computed) == sorted(published)
    mismatches = []
    for row in computed:
        got = {col: getattr(row, col) for col in COLUMNS}
        want = {col: int(published[row.team][col]) for col in COLUMNS}
        if got != want:
            mismatches.append(f"{row.team}: computed {got}, published {want}")
    assert not mismatches, "\n".join(mismatches)


def test_every_division_order_matches_the_published_order(computed, published):
    divisions = {row["team"]: row["div"] for row in read_csv("teams.csv")}
    for division in sorted(set(divisions.values())):
        ours = [r.team for r in computed if r.division == division]
        theirs = sorted(
            (t for t, d in divisions.items() if d == division),
            key=lambda t: int(published[t]["rank"]),
        )
        assert ours == theirs, division


def test_teams_level_on_points_say_which_tiebreaker_separated_them(computed):
    # README: "Boston and Buffalo (91 points each) are separated by wins."
    rows = {r.team: r for r in computed}
    assert (rows["BOS"].pts, rows["BUF"].pts) == (91, 91)
    assert (rows["BOS"].tiebreak, rows["BOS"].tied_with) == ("wins", ("BUF",))
    assert (rows["BUF"].tiebreak, rows["BUF"].tied_with) == ("wins", ("BOS",))
    for row in computed:
        level = [r for r in computed if r.division == row.division and r.pts == row.pts]
        assert (row.tiebreak is None) == (len(level) == 1), row.team
