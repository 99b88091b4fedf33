"""Standings engine: points, tiebreakers, forfeits, shootouts, adjustments, divisions.

Citations: youth = youth-ball-hockey-league-2012-13.txt, co-ed = coed-ball-hockey-tournament.txt,
spec = docs/product.md §2.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.standings.presets import (
    STANDINGS_PRESETS,
    TEAM_NAME_FALLBACK,
    TIEBREAKERS,
    StandingsError,
    StandingsRules,
)
from bot.league.standings.table import GameResult, PointAdjustment, StandingsRow, compute_standings

YOUTH = STANDINGS_PRESETS["youth-ball-hockey"]
COED = STANDINGS_PRESETS["coed-ball-hockey"]
INDOOR = STANDINGS_PRESETS["indoor-soccer"]

_ids = itertools.count(1)


def game(home: str, away: str, home_goals: int, away_goals: int, decided="regulation", **kw):
    return GameResult(str(next(_ids)), home, away, home_goals, away_goals, decided, **kw)


def table(rules, teams, results, adjustments=()) -> dict[str, StandingsRow]:
    return {row.team: row for row in compute_standings(rules, teams, results, adjustments)}


def order(rules, teams, results, adjustments=(), division=None) -> list[str]:
    rows = compute_standings(rules, teams, results, adjustments)
    return [r.team for r in rows if division is None or r.division == division]


# --- points (youth 1.10, 2.13A; indoor default 3-1-0 per docs/product.md §2) --------------------------


@pytest.mark.parametrize(
    ("rules", "result", "home", "away"),
    [
        # (w, l, t, otl, pts) for the home side and the away side
        (YOUTH, game("H", "A", 3, 1), (1, 0, 0, 0, 2), (0, 1, 0, 0, 0)),
        (YOUTH, game("H", "A", 2, 2), (0, 0, 1, 0, 1), (0, 0, 1, 0, 1)),
        (YOUTH, game("H", "A", 2, 3, "overtime"), (0, 1, 0, 0, 0), (1, 0, 0, 0, 2)),
        (YOUTH, game("H", "A", 2, 2, "overtime"), (0, 0, 1, 0, 1), (0, 0, 1, 0, 1)),
        (INDOOR, game("H", "A", 1, 0), (1, 0, 0, 0, 3), (0, 1, 0, 0, 0)),
        (INDOOR, game("H", "A", 0, 0), (0, 0, 1, 0, 1), (0, 0, 1, 0, 1)),
        # a league that gives a point for an overtime/shootout loss keeps it in its own column
        (
            dataclasses.replace(YOUTH, points_otl=1),
            game("H", "A", 1, 1, "shootout", shootout_home=0, shootout_away=1),
            (0, 0, 0, 1, 1),
            (1, 0, 0, 0, 2),
        ),
    ],
    ids=[
        "youth_1_10_win_two_points",
        "youth_2_13A_regular_season_tie_one_point_each",
        "youth_1_10_overtime_loss_is_a_loss",
        "tie_after_overtime_stands",
        "indoor_win_three_points",
        "indoor_regular_season_tie_stands",
        "points_otl_setting_counts_otl_column",
    ],
)
def test_points_for_each_result(rules, result, home, away):
    rows = table(rules, {"H": "d", "A": "d"}, [result])
    for team, (w, lo, t, otl, pts) in (("H", home), ("A", away)):
        row = rows[team]
        assert (row.gp, row.w, row.l, row.t, row.otl, row.pts) == (1, w, lo, t, otl, pts), team


# --- each tiebreaker: Wolves and Bears level on points, Wolves ahead on the criterion ---------
# The name fallback would put Bears first, so Wolves first proves the criterion decided.

SCENARIOS = {
    # 1W 1L against 2 ties: both 2 points; Wolves has the win (youth 1.11 (1) "Most wins").
    "wins": [
        *(game("Wolves", "F", 3, 0), game("Wolves", "F", 0, 1)),
        *(game("Bears", "F", 1, 1), game("Bears", "F", 1, 1)),
    ],
    "fewest_losses": [
        *(game("Wolves", "F", 1, 1), game("Wolves", "F", 1, 1)),
        *(game("Bears", "F", 3, 0), game("Bears", "F", 0, 1)),
    ],
    # 2 points in 1 game against 2 points in 2 games
    "win_pct": [game("Wolves", "F", 1, 0), game("Bears", "F", 1, 1), game("Bears", "F", 1, 1)],
    "points_pct": [game("Wolves", "F", 1, 0), game("Bears", "F", 1, 1), game("Bears", "F", 1, 1)],
    # Wolves beat Bears; Bears has the far better goal difference (youth 1.11 (2) before (3))
    "head_to_head": [
        game("Wolves", "Bears", 2, 1),
        game("Bears", "F", 9, 0),
        game("Wolves", "F", 0, 1),
    ],
    "goal_diff": [game("Wolves", "F", 5, 0), game("Bears", "F", 1, 0)],
    "goals_for": [game("Wolves", "F", 5, 4), game("Bears", "F", 1, 0)],
    "fewest_goals_against": [game("Wolves", "F", 1, 0), game("Bears", "F", 5, 4)],
}
TWO_DIVISIONS = {"Bears": "North", "Wolves": "North", "F": "Elsewhere"}


@pytest.mark.parametrize("criterion", sorted(SCENARIOS))
def test_each_tiebreaker_separates_teams_level_on_points(criterion):
    rules = StandingsRules(standings_tiebreakers=("points", criterion))
    rows = compute_standings(rules, TWO_DIVISIONS, SCENARIOS[criterion])
    north = [r for r in rows if r.division == "North"]
    assert [r.team for r in north] == ["Wolves", "Bears"]
    assert north[0].pts == north[1].pts
    assert [(r.rank, r.tiebreak, r.tied_with) for r in north] == [
        (1, criterion, ("Bears",)),
        (2, criterion, ("Wolves",)),
    ]


def test_every_tiebreaker_in_the_vocabulary_is_tested():
    assert set(TIEBREAKERS) == set(SCENARIOS) | {"points"}


def test_points_is_the_primary_order_and_needs_no_tiebreak():
    rows = compute_standings(YOUTH, TWO_DIVISIONS, [game("Bears", "Wolves", 1, 0)])
    north = [r for r in rows if r.division == "North"]
    assert [(r.team, r.pts, r.tiebreak, r.tied_with) for r in north] == [
        ("Bears", 2, None, ()),
        ("Wolves", 0, None, ()),
    ]


def test_youth_1_11_most_wins_comes_before_head_to_head():
    # Bears beat Wolves, but Wolves (2W) has more wins than Bears (1W 2T); both 4 points.
    results = [
        game("Bears", "Wolves", 1, 0),
        game("Bears", "F", 2, 2),
        game("Bears", "F", 2, 2),
        game("Wolves", "F", 1, 0),
        game("Wolves", "F", 1, 0),
    ]
    rows = table(YOUTH, TWO_DIVISIONS, results)
    assert (rows["Wolves"].pts, rows["Bears"].pts) == (4, 4)
    assert order(YOUTH, TWO_DIVISIONS, results, division="North") == ["Wolves", "Bears"]
    assert rows["Wolves"].tiebreak == "wins"


def test_youth_1_11_three_way_tie_resolved_by_mini_table_of_games_among_them():
    # A, B, C: 4 points and 2 wins each. Among themselves A beat B and C (4 pts),
    # B beat C (2 pts), C none (0 pts) — even though C has the best goal difference.
    teams = {"A": "div", "B": "div", "C": "div", "D": "other"}
    results = [
        game("A", "B", 1, 0),
        game("A", "C", 1, 0),
        game("B", "C", 1, 0),
        game("B", "D", 1, 0),
        game("C", "D", 9, 0),
        game("C", "D", 9, 0),
    ]
    rows = compute_standings(YOUTH, teams, results)
    div = [r for r in rows if r.division == "div"]
    assert {(r.pts, r.w) for r in div} == {(4, 2)}
    assert [(r.team, r.tiebreak, r.tied_with) for r in div] == [
        ("A", "head_to_head", ("B", "C")),
        ("B", "head_to_head", ("A", "C")),
        ("C", "head_to_head", ("A", "B")),
    ]


def test_mini_table_counts_all_tied_teams_and_leaves_the_rest_to_goal_diff():
    # Mini-table: A 4 (beat B twice, lost to C), B 2 (beat C), C 2 (beat A). B and C stay level
    # on the mini-table of all three, so goal differential decides them (C, +5) — even though B
    # beat C: head-to-head is not re-applied to the smaller group.
    teams = {"A": "div", "B": "div", "C": "div", "D": "other"}
    results = [
        game("A", "B", 1, 0),
        game("A", "B", 1, 0),
        game("B", "C", 1, 0),
        game("C", "A", 1, 0),
        game("B", "D", 1, 0),
        game("C", "D", 6, 0),
    ]
    rows = compute_standings(YOUTH, teams, results)
    div = [r for r in rows if r.division == "div"]
    assert {(r.pts, r.w) for r in div} == {(4, 2)}
    assert [(r.team, r.tiebreak) for r in div] == [
        ("A", "head_to_head"),
        ("C", "goal_diff"),
        ("B", "goal_diff"),
    ]


def test_head_to_head_cycle_falls_through_to_goal_diff():
    # A beat B, B beat C, C beat A: 2 points each among them; goal diff A +1, C 0, B -1.
    teams = {"A": "div", "B": "div", "C": "div"}
    results = [game("A", "B", 3, 0), game("B", "C", 2, 0), game("C", "A", 2, 0)]
    assert [(r.team, r.tiebreak) for r in compute_standings(YOUTH, teams, results)] == [
        ("A", "goal_diff"),
        ("C", "goal_diff"),
        ("B", "goal_diff"),
    ]


def test_final_fallback_is_team_name_and_says_so():
    teams = {"Owls": "d", "bears": "d", "Bats": "d"}
    rows = compute_standings(YOUTH, teams, [game("Owls", "bears", 1, 1)])
    assert [(r.team, r.rank, r.tiebreak) for r in rows] == [
        ("bears", 1, TEAM_NAME_FALLBACK),  # case-insensitive: "bears" before "Owls"
        ("Owls", 2, TEAM_NAME_FALLBACK),
        ("Bats", 3, None),
    ]


# --- forfeits (youth 2.4) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "waived", "forfeiting_pts", "goals"),
    [
        (YOUTH, False, -1, (5, 0)),  # "The forfeiting team will lose one point in the standings"
        (YOUTH, True, 0, (5, 0)),  # appeal upheld: "still count as a 5-0 loss, but no points lost"
        (INDOOR, False, 0, (0, 0)),  # no deduction and no forfeit score in a league whose rulebook has none
        (COED, False, 0, (0, 0)),  # co-ed: a win and a loss in the record; no score to add to goals scored
    ],
    ids=["youth_2_4_minus_one_point", "youth_2_4_appeal_waives_the_point", "indoor_no_penalty_no_goals",
         "coed_no_penalty_no_goals"],
)
def test_forfeit_counts_as_the_rules_say(rules, waived, forfeiting_pts, goals):
    # The recorded goals are ignored: the rule's score counts, where the rules count a forfeit's goals.
    result = game("H", "A", 0, 0, "forfeit", forfeit_team="H", penalty_waived=waived)
    rows = table(rules, {"H": "d", "A": "d"}, [result])
    h, a = rows["H"], rows["A"]
    won, lost = goals
    assert (h.gp, h.w, h.l, h.gf, h.ga, h.forfeits, h.pts) == (1, 0, 1, lost, won, 1, forfeiting_pts)
    assert (a.gp, a.w, a.l, a.gf, a.ga, a.forfeits, a.pts) == (1, 1, 0, won, lost, 0, rules.points_win)


def test_coed_seeding_goals_scored_leave_a_forfeit_out_youth_counts_it():
    # Co-ed "Seeding will be decided first by record, followed by total goals scored"; it gives no
    # forfeit score, so Hawks' forfeit win adds no goals and Owls (same record, 5 goals scored) seed
    # first. Youth 2.4's 5-0 counts: Hawks' 2 + 5 = 7 goals beat Owls' 5 on the same criteria.
    results = [game("Hawks", "Bears", 2, 1), game("Owls", "Bears", 4, 3), game("Owls", "Wolves", 1, 0),
               game("Hawks", "Wolves", 0, 0, "forfeit", forfeit_team="Wolves")]
    teams = dict.fromkeys(("Hawks", "Owls", "Bears", "Wolves"), "d")
    coed = table(COED, teams, results)
    assert (coed["Hawks"].gf, coed["Owls"].gf, coed["Wolves"].ga) == (2, 5, 1)
    assert (coed["Owls"].rank, coed["Hawks"].rank) == (1, 2)
    youth = table(dataclasses.replace(YOUTH, standings_tiebreakers=COED.standings_tiebreakers), teams, results)
    assert (youth["Hawks"].gf, youth["Owls"].gf, youth["Wolves"].ga) == (7, 5, 6)
    assert (youth["Hawks"].rank, youth["Owls"].rank) == (1, 2)


def test_forfeit_score_is_a_setting():
    rules = dataclasses.replace(YOUTH, standings_forfeit_score=(1, 0))
    rows = table(rules, {"H": "d", "A": "d"}, [game("H", "A", 5, 0, "forfeit", forfeit_team="A")])
    assert (rows["H"].gf, rows["H"].ga, rows["A"].pts) == (1, 0, -1)


def test_forfeit_penalty_not_counted_in_head_to_head_mini_table():
    # Among A, B, C: B forfeited to A, B beat C, C beat A: 2 game points each. Were B's -1
    # counted in the mini-table, B would drop to last on head_to_head; it is a standings
    # sanction, not a result between the teams, so all three stay level to the name fallback.
    teams = {"A": "d", "B": "d", "C": "d"}
    results = [
        game("A", "B", 0, 0, "forfeit", forfeit_team="B"),
        game("B", "C", 1, 0),
        game("C", "A", 1, 0),
    ]
    rules = dataclasses.replace(YOUTH, standings_tiebreakers=("wins", "head_to_head"))
    rows = compute_standings(rules, teams, results)
    assert [(r.team, r.w, r.tiebreak) for r in rows] == [
        ("A", 1, TEAM_NAME_FALLBACK),
        ("B", 1, TEAM_NAME_FALLBACK),
        ("C", 1, TEAM_NAME_FALLBACK),
    ]
    assert table(YOUTH, teams, results)["B"].pts == 1


# --- shootouts (youth 1.11 (3), 2.14) -------------------------------------------------------


def test_shootout_winner_wins_but_shootout_goals_are_a_separate_statistic():
    result = game("H", "A", 2, 2, "shootout", shootout_home=3, shootout_away=1)
    rows = table(YOUTH, {"H": "d", "A": "d"}, [result])
    h, a = rows["H"], rows["A"]
    assert (h.w, h.so_w, h.gf, h.ga, h.so_gf, h.so_ga, h.pts) == (1, 1, 2, 2, 3, 1, 2)
    assert (a.l, a.so_l, a.gf, a.ga, a.so_gf, a.so_ga, a.pts) == (1, 1, 2, 2, 1, 3, 0)
    assert h.goal_diff == 0


def test_youth_1_11_3_goal_differential_excludes_shootout_goals():
    # Wolves +1 in regulation goals; Bears would be +3 if its shootout goals counted.
    teams = {"Wolves": "North", "Bears": "North", "F": "x", "G": "x"}
    results = [
        game("Wolves", "F", 2, 1),
        game("Wolves", "G", 1, 1),
        game("Bears", "F", 1, 1, "shootout", shootout_home=5, shootout_away=0),
        game("Bears", "G", 1, 1),
    ]
    rules = StandingsRules(standings_tiebreakers=("points", "goal_diff"))
    rows = [r for r in compute_standings(rules, teams, results) if r.division == "North"]
    assert [(r.team, r.pts, r.goal_diff, r.tiebreak) for r in rows] == [
        ("Wolves", 3, 1, "goal_diff"),
        ("Bears", 3, 0, "goal_diff"),
    ]


# --- commissioner adjustments (youth 1.22) --------------------------------------------------


def test_youth_1_22_commissioners_remove_points():
    # A (1W 1T) and B (3T) both have 3 points, C 2; rule 1.22 takes two points from A.
    teams = {"A": "d", "B": "d", "C": "d"}
    results = [
        game("A", "C", 1, 0),
        game("A", "B", 1, 1),
        game("B", "C", 2, 2),
        game("B", "C", 0, 0),
    ]
    adjustments = [PointAdjustment("A", -2, "bench brawl, rule 1.22")]
    assert order(YOUTH, teams, results) == ["A", "B", "C"]
    rows = compute_standings(YOUTH, teams, results, adjustments)
    assert [(r.team, r.pts, r.adjustment) for r in rows] == [("B", 3, 0), ("C", 2, 0), ("A", 1, -2)]


def test_adjustments_add_up_and_can_decide_the_order():
    teams = {"A": "d", "B": "d"}
    adjustments = [
        PointAdjustment("B", -1, "rule 1.22"),
        PointAdjustment("B", -1, "rule 1.22 again"),
        PointAdjustment("A", -1, "rule 1.22"),
    ]
    rows = compute_standings(YOUTH, teams, [], adjustments)
    assert [(r.team, r.pts, r.adjustment, r.tiebreak) for r in rows] == [
        ("A", -1, -1, None),
        ("B", -2, -2, None),
    ]


def test_adjustment_for_an_unknown_team_is_refused():
    with pytest.raises(StandingsError, match="Ghosts"):
        compute_standings(YOUTH, {"A": "d"}, [], [PointAdjustment("Ghosts", -1, "1.22")])


# --- presets ---------------------------------------------------------------------------------


def test_coed_seeding_by_record_then_total_goals_scored():
    # Co-ed: "Seeding will be decided first by record, followed by total goals scored."
    teams = {"Hawks": "all", "Owls": "all", "Jays": "all", "Crows": "all"}
    results = [
        game("Hawks", "Owls", 3, 2),
        game("Jays", "Crows", 9, 1),
        game("Hawks", "Jays", 2, 2, "shootout", shootout_home=1, shootout_away=2),
        game("Owls", "Crows", 1, 0, "overtime"),
    ]
    rows = compute_standings(COED, teams, results)
    # Hawks and Owls both 1-1 (a shootout loss is a loss in the record); Hawks scored more.
    assert [(r.team, r.w, r.l, r.gf, r.tiebreak) for r in rows] == [
        ("Jays", 2, 0, 11, None),
        ("Hawks", 1, 1, 5, "goals_for"),
        ("Owls", 1, 1, 3, "goals_for"),
        ("Crows", 0, 2, 1, None),
    ]


def test_coed_record_is_winning_percentage_not_games_won():
    teams = {"A": "all", "B": "all", "C": "all"}
    results = [game("A", "C", 1, 0), game("B", "C", 1, 0), game("B", "C", 0, 1)]
    assert order(COED, teams, results) == ["A", "B", "C"]


def test_indoor_soccer_points_then_goal_diff_then_goals_scored():
    teams = {"A": "d", "B": "d", "C": "d", "X": "x"}
    results = [
        game("A", "X", 2, 1),  # +1, 2 goals
        game("B", "X", 4, 3),  # +1, 4 goals
        game("C", "X", 3, 0),  # +3
    ]
    rows = [r for r in compute_standings(INDOOR, teams, results) if r.division == "d"]
    assert [(r.team, r.pts, r.tiebreak) for r in rows] == [
        ("C", 3, "goal_diff"),
        ("B", 3, "goals_for"),
        ("A", 3, "goals_for"),
    ]


def test_presets_match_the_rulebooks():
    assert (YOUTH.points_win, YOUTH.points_tie, YOUTH.points_loss) == (2, 1, 0)
    assert YOUTH.points_forfeit_penalty == 1
    assert YOUTH.standings_forfeit_score == (5, 0)
    assert YOUTH.standings_tiebreakers == ("points", "wins", "head_to_head", "goal_diff")
    assert COED.standings_tiebreakers == ("win_pct", "goals_for")
    assert (INDOOR.points_win, INDOOR.points_tie, INDOOR.points_loss) == (3, 1, 0)
    assert INDOOR.standings_tiebreakers == ("points", "goal_diff", "goals_for")
    assert set(STANDINGS_PRESETS) == {"coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"}


# --- divisions and what counts ----------------------------------------------------------------


def test_divisions_ranked_separately_in_order_of_first_appearance():
    teams = {"Z1": "Senior", "A1": "Junior", "Z2": "Senior", "A2": "Junior", "Idle": "Junior"}
    results = [game("Z1", "A1", 0, 3), game("Z2", "Z1", 2, 0), game("A2", "A1", 1, 1)]
    rows = compute_standings(YOUTH, teams, results)
    assert [(r.division, r.rank, r.team) for r in rows] == [
        ("Senior", 1, "Z2"),
        ("Senior", 2, "Z1"),
        ("Junior", 1, "A1"),
        ("Junior", 2, "A2"),
        ("Junior", 3, "Idle"),
    ]
    idle = rows[-1]
    assert (idle.gp, idle.pts, idle.gf, idle.ga, idle.win_pct) == (0, 0, 0, 0, 0.0)


def test_playoff_games_do_not_change_the_table():
    teams = {"A": "d", "B": "d"}
    results = [game("A", "B", 1, 0), game("B", "A", 9, 0, kind="playoff")]
    rows = table(YOUTH, teams, results)
    assert (rows["A"].gp, rows["A"].pts, rows["B"].gf) == (1, 2, 0)
    seeding = table(COED, teams, [game("B", "A", 1, 0, kind="seeding")])
    assert seeding["B"].w == 1


def test_result_for_an_unknown_team_is_refused_with_the_game_id():
    result = GameResult("g-42", "A", "Ghosts", 1, 0)
    with pytest.raises(StandingsError, match=r"g-42.*Ghosts"):
        compute_standings(YOUTH, {"A": "d"}, [result])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"away": "H"}, "cannot play itself"),
        ({"decided": "coinflip"}, "decided must be one of"),
        ({"kind": "friendly"}, "kind must be one of"),
        ({"home_goals": -1}, "home_goals"),
        ({"decided": "shootout"}, "needs both shootout scores"),
        ({"decided": "shootout", "shootout_home": 1, "shootout_away": 1}, "cannot be equal"),
        (
            {"decided": "shootout", "shootout_home": 1, "shootout_away": 0, "home_goals": 3},
            "only when the score is tied",
        ),
        ({"shootout_home": 1, "shootout_away": 0}, "only for games decided by a shootout"),
        ({"decided": "forfeit"}, "names the forfeiting side"),
        ({"decided": "forfeit", "forfeit_team": "Ghosts"}, "names the forfeiting side"),
        ({"penalty_waived": True}, "only for forfeits"),
    ],
)
def test_malformed_results_are_refused(kwargs, message):
    base = {"game_id": "g1", "home": "H", "away": "A", "home_goals": 2, "away_goals": 2}
    with pytest.raises(StandingsError, match=message):
        GameResult(**{**base, **kwargs})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"standings_tiebreakers": ("points", "coin_toss")}, "unknown standings_tiebreakers"),
        ({"standings_tiebreakers": ()}, "at least one"),
        ({"standings_tiebreakers": ("points", "points")}, "repeats"),
        ({"standings_forfeit_score": (0, 5)}, "winner > loser"),
        ({"points_win": "2"}, "whole number"),
        ({"standings_counted_kinds": ("friendly",)}, "unknown standings_counted_kinds"),
    ],
)
def test_bad_rules_are_refused(kwargs, message):
    with pytest.raises(StandingsError, match=message):
        StandingsRules(**kwargs)


def test_rules_accept_lists_from_toml():
    rules = StandingsRules(standings_tiebreakers=["points", "wins"], standings_forfeit_score=[3, 0])
    assert rules.standings_tiebreakers == ("points", "wins")
    assert rules.standings_forfeit_score == (3, 0)
    hash(rules)


# --- properties -------------------------------------------------------------------------------

TEAMS = {"A": "East", "B": "East", "C": "East", "D": "West", "E": "West"}
RULES = [YOUTH, COED, INDOOR, dataclasses.replace(YOUTH, points_otl=1, points_loss=0)]


@st.composite
def results_strategy(draw):
    names = list(TEAMS)
    results = []
    for i in range(draw(st.integers(0, 25))):
        home, away = draw(st.permutations(names))[:2]
        hg, ag = draw(st.integers(0, 4)), draw(st.integers(0, 4))
        decided = draw(st.sampled_from(["regulation", "overtime", "shootout", "forfeit"]))
        kind = draw(st.sampled_from(["regular", "regular", "seeding", "playoff"]))
        kw: dict = {"kind": kind}
        if decided == "shootout":
            ag = hg
            kw["shootout_home"], kw["shootout_away"] = draw(st.sampled_from([(1, 0), (0, 1), (3, 2), (2, 4)]))
        elif decided == "forfeit":
            kw["forfeit_team"] = draw(st.sampled_from([home, away]))
            kw["penalty_waived"] = draw(st.booleans())
        results.append(GameResult(f"g{i}", home, away, hg, ag, decided, **kw))
    return results


adjustments_strategy = st.lists(
    st.builds(PointAdjustment, st.sampled_from(list(TEAMS)), st.integers(-2, 2), st.just("1.22")),
    max_size=3,
)


def naive_totals(rules, results):
    """An independent, per-game recount of each team's columns."""
    cols = {t: Counter() for t in TEAMS}
    win, lose = rules.standings_forfeit_score if rules.standings_forfeit_goals_count else (0, 0)
    for g in results:
        if g.kind not in rules.standings_counted_kinds:
            continue
        h, a = cols[g.home], cols[g.away]
        h["gp"] += 1
        a["gp"] += 1
        if g.decided == "forfeit":
            loser, winner = (h, a) if g.forfeit_team == g.home else (a, h)
            winner["w"] += 1
            loser["l"] += 1
            winner["gf"] += win
            winner["ga"] += lose
            loser["gf"] += lose
            loser["ga"] += win
            loser["penalties"] += 0 if g.penalty_waived else 1
            continue
        h["gf"] += g.home_goals
        h["ga"] += g.away_goals
        a["gf"] += g.away_goals
        a["ga"] += g.home_goals
        if g.decided == "shootout":
            home_won = g.shootout_home > g.shootout_away
        elif g.home_goals == g.away_goals:
            h["t"] += 1
            a["t"] += 1
            continue
        else:
            home_won = g.home_goals > g.away_goals
        winner, loser = (h, a) if home_won else (a, h)
        winner["w"] += 1
        extra_time = g.decided in ("overtime", "shootout")
        loser["otl" if extra_time and rules.points_otl is not None else "l"] += 1
    return cols


def naive_order(rules, rows, results, division):
    """Reference ordering: each criterion in turn; head-to-head read from the games every time."""
    by_team = {r.team: r for r in rows}

    def game_points(g, team):
        if g.decided == "forfeit":
            won, extra = g.forfeit_team != team, False
        elif g.decided == "shootout":
            mine, theirs = (g.shootout_home, g.shootout_away) if g.home == team else (g.shootout_away, g.shootout_home)
            won, extra = mine > theirs, True
        elif g.home_goals == g.away_goals:
            return rules.points_tie
        else:
            mine, theirs = (g.home_goals, g.away_goals) if g.home == team else (g.away_goals, g.home_goals)
            won, extra = mine > theirs, g.decided == "overtime"
        if won:
            return rules.points_win
        return rules.points_otl if extra and rules.points_otl is not None else rules.points_loss

    def value(criterion, team, group):
        r = by_team[team]
        if criterion == "head_to_head":
            return sum(
                game_points(g, team)
                for g in results
                if g.kind in rules.standings_counted_kinds
                and team in (g.home, g.away)
                and {g.home, g.away} <= set(group)
            )
        return {
            "points": r.pts,
            "wins": r.w,
            "win_pct": Fraction(2 * r.w + r.t, 2 * r.gp) if r.gp else 0,
            "goal_diff": r.gf - r.ga,
            "goals_for": r.gf,
        }[criterion]

    criteria = rules.standings_tiebreakers

    def resolve(group, level):
        if level == len(criteria):
            return sorted(group, key=lambda t: (t.casefold(), t))
        values = {t: value(criteria[level], t, group) for t in group}
        ordered = []
        for v in sorted(set(values.values()), reverse=True):
            same = [t for t in group if values[t] == v]
            ordered += same if len(same) == 1 else resolve(same, level + 1)
        return ordered

    return resolve([t for t, d in TEAMS.items() if d == division], 0)


@settings(max_examples=150, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    results=results_strategy(),
    adjustments=adjustments_strategy,
    seed=st.randoms(use_true_random=False),
)
def test_table_is_consistent_and_independent_of_input_order(rules, results, adjustments, seed):
    rows = compute_standings(rules, TEAMS, results, adjustments)

    # every team once, in its division, ranks 1..n
    assert sorted(r.team for r in rows) == sorted(TEAMS)
    for division in set(TEAMS.values()):
        div = [r for r in rows if r.division == division]
        assert {r.team for r in div} == {t for t, d in TEAMS.items() if d == division}
        assert [r.rank for r in div] == list(range(1, len(div) + 1))

    # columns agree with a naive recount; points follow from them
    naive = naive_totals(rules, results)
    net = Counter()
    for adj in adjustments:
        net[adj.team] += adj.points
    otl_points = rules.points_otl or 0
    for r in rows:
        n = naive[r.team]
        assert (r.gp, r.w, r.l, r.t, r.otl, r.gf, r.ga) == (
            n["gp"], n["w"], n["l"], n["t"], n["otl"], n["gf"], n["ga"],
        )  # fmt: skip
        assert r.gp == r.w + r.l + r.t + r.otl
        assert r.pts == (
            r.w * rules.points_win
            + r.t * rules.points_tie
            + r.l * rules.points_loss
            + r.otl * otl_points
            - n["penalties"] * rules.points_forfeit_penalty
            + net[r.team]
        )
    assert sum(r.gf for r in rows) == sum(r.ga for r in rows)
    assert sum(r.w for r in rows) == sum(r.l + r.otl for r in rows)
    assert sum(r.so_w for r in rows) == sum(r.so_l for r in rows)

    # the primary criterion never goes up down the table
    if rules.standings_tiebreakers[0] == "points":
        for division in set(TEAMS.values()):
            pts = [r.pts for r in rows if r.division == division]
            assert pts == sorted(pts, reverse=True)

    # the order agrees with a reference that recomputes head-to-head for every group
    for division in set(TEAMS.values()):
        ours = [r.team for r in rows if r.division == division]
        assert ours == naive_order(rules, rows, results, division)

    # shuffling the results and adjustments changes nothing
    shuffled, shuffled_adj = list(results), list(adjustments)
    seed.shuffle(shuffled)
    seed.shuffle(shuffled_adj)
    assert compute_standings(rules, TEAMS, shuffled, shuffled_adj) == rows
