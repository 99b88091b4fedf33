"""Playoff brackets: co-ed "straight bracket" seeding (1 v N, 2 v N-1, ...), byes, advancing."""

from __future__ import annotations

import itertools

import pytest

from bot.league.playoffs import (
    Bracket,
    Entrant,
    PlayoffError,
    advance,
    bracket_order,
    bracket_size,
    build_bracket,
    render_bracket,
    seed_league,
    seeding_games_note,
    seeds_from_standings,
    short_of_seeding_games,
)
from bot.league.standings.presets import STANDINGS_PRESETS
from bot.league.standings.table import GameResult, compute_standings

COED = STANDINGS_PRESETS["coed-ball-hockey"]
TEAMS = [f"Team{n:02d}" for n in range(1, 17)]  # TeamNN is seed NN


def first_round(bracket: Bracket) -> list[tuple[int, int]]:
    assert all(m.top and m.bottom for m in bracket.rounds[0])
    return [(m.top.seed, m.bottom.seed) for m in bracket.rounds[0]]  # type: ignore[union-attr]


def play_out(bracket: Bracket, pick=min) -> Bracket:
    """Play every ready game, the seed chosen by ``pick`` winning, until a champion."""
    while bracket.champion is None:
        for m in itertools.chain.from_iterable(bracket.rounds):
            current = bracket.matchup(m.matchup_id)
            if current.ready and current.winner is None:
                sides = {current.top.seed: current.top, current.bottom.seed: current.bottom}
                bracket = advance(bracket, m.matchup_id, sides[pick(sides)].team)
    return bracket


@pytest.mark.parametrize(
    ("count", "rounds", "first", "byes"),
    [
        (2, ["Final"], [(1, 2)], []),
        (3, ["Semifinals", "Final"], [(2, 3)], [1]),
        (5, ["Quarterfinals", "Semifinals", "Final"], [(4, 5)], [1, 2, 3]),
        (6, ["Quarterfinals", "Semifinals", "Final"], [(4, 5), (3, 6)], [1, 2]),
        (8, ["Quarterfinals", "Semifinals", "Final"], [(1, 8), (4, 5), (2, 7), (3, 6)], []),
        (
            16,
            ["Round of 16", "Quarterfinals", "Semifinals", "Final"],
            [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)],
            [],
        ),
    ],
    ids=lambda v: str(v) if isinstance(v, int) else None,
)
def test_straight_bracket_pairs_top_against_bottom_with_byes_for_top_seeds(count, rounds, first, byes):
    bracket = build_bracket(TEAMS[:count])
    assert [bracket.round_name(n) for n in range(1, len(bracket.rounds) + 1)] == rounds
    assert first_round(bracket) == first
    assert [e.seed for e in bracket.byes] == byes
    # every team appears exactly once: in round 1 or seeded straight into round 2
    placed = [s for pair in first for s in pair] + byes
    assert sorted(placed) == list(range(1, count + 1))
    assert [len(r) for r in bracket.rounds[1:]] == [2**k for k in range(len(rounds) - 2, -1, -1)]


def test_five_teams_top_seeds_wait_in_round_two():
    bracket = build_bracket(TEAMS[:5])
    semis = bracket.rounds[1]
    assert [(m.matchup_id, m.top, m.bottom_from, m.bottom) for m in semis] == [
        ("R2-M1", Entrant(1, "Team01"), "R1-M1", None),
        ("R2-M2", Entrant(2, "Team02"), None, Entrant(3, "Team03")),
    ]
    assert bracket.rounds[2][0].top_from == "R2-M1"
    assert bracket.rounds[2][0].bottom_from == "R2-M2"


@pytest.mark.parametrize("count", range(2, 17))
def test_top_two_seeds_meet_only_in_the_final_when_favourites_win(count):
    bracket = play_out(build_bracket(TEAMS[:count]))
    final = bracket.rounds[-1][0]
    assert {final.top.seed, final.bottom.seed} == {1, 2}  # type: ignore[union-attr]
    assert bracket.champion == "Team01"


def test_upsets_advance_the_lower_seed():
    bracket = play_out(build_bracket(TEAMS[:8]), pick=max)
    assert bracket.champion == "Team08"
    assert bracket.rounds[1][0].top == Entrant(8, "Team08")


def test_advance_moves_the_winner_into_the_next_round_without_touching_the_input():
    bracket = build_bracket(TEAMS[:3])
    after = advance(bracket, "R1-M1", "Team03")
    assert bracket.rounds[1][0].bottom is None  # the original is unchanged
    assert after.matchup("R1-M1").winner == Entrant(3, "Team03")
    final = after.matchup("R2-M1")
    assert (final.top, final.bottom, final.ready) == (
        Entrant(1, "Team01"),
        Entrant(3, "Team03"),
        True,
    )
    done = advance(after, "R2-M1", "Team03")
    assert done.champion == "Team03"
    assert advance(done, "R2-M1", "Team03") == done  # recording the same result again is a no-op


def test_a_result_can_be_corrected_until_the_next_round_is_played():
    bracket = advance(build_bracket(TEAMS[:4]), "R1-M1", "Team04")
    corrected = advance(bracket, "R1-M1", "Team01")
    assert corrected.matchup("R2-M1").top == Entrant(1, "Team01")
    bracket = advance(advance(corrected, "R1-M2", "Team02"), "R2-M1", "Team01")
    with pytest.raises(PlayoffError, match="R2-M1 already has a winner"):
        advance(bracket, "R1-M1", "Team04")


@pytest.mark.parametrize(
    ("matchup_id", "winner", "message"),
    [
        ("R1-M1", "Team02", r"'Team02' is not playing in R1-M1: it is Team01 v Team04"),
        ("R1-M1", "Nobody", "not playing in R1-M1"),
        ("R2-M1", "Team01", "R2-M1 is not set yet: waiting for the winner of R1-M1 and R1-M2"),
        ("R9-M9", "Team01", r"no matchup 'R9-M9'.*R1-M1, R1-M2, R2-M1"),
    ],
)
def test_invalid_winner_is_refused_with_a_clear_error(matchup_id, winner, message):
    with pytest.raises(PlayoffError, match=message):
        advance(build_bracket(TEAMS[:4]), matchup_id, winner)


def test_playoff_error_is_a_value_error():
    assert issubclass(PlayoffError, ValueError)


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        (["Solo"], "2 to 16 teams, got 1"),
        ([*TEAMS, "Team17"], "2 to 16 teams, got 17"),
        (["A", "B", "A"], "only one seed: A"),
        (["A", ""], "needs a team name"),
    ],
)
def test_bad_team_lists_are_refused(seeds, message):
    with pytest.raises(PlayoffError, match=message):
        build_bracket(seeds)


def test_bracket_order_keeps_one_and_two_in_opposite_halves():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16):
        order = bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        half = size // 2
        assert 1 in order[:half] and 2 in order[half:]
        assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))


def test_coed_seeding_by_record_then_goals_scored_across_divisions():
    # Co-ed: "Seeding will be decided first by record, followed by total goals scored."
    teams = {"Hawks": "Mon", "Owls": "Mon", "Jays": "Tue", "Crows": "Tue"}
    results = [
        GameResult("1", "Hawks", "Owls", 3, 2),
        GameResult("2", "Jays", "Crows", 9, 1),
        GameResult("3", "Hawks", "Jays", 2, 2, "shootout", shootout_home=1, shootout_away=2),
        GameResult("4", "Owls", "Crows", 1, 0, "overtime"),
        GameResult("5", "Owls", "Jays", 5, 0, kind="playoff"),  # playoff games do not seed
    ]
    seeds = seed_league(COED, teams, results)
    assert seeds == ["Jays", "Hawks", "Owls", "Crows"]
    assert seed_league(COED, teams, results, count=2) == ["Jays", "Hawks"]
    assert first_round(build_bracket(seeds)) == [(1, 4), (2, 3)]


def test_seeds_from_one_table_and_refused_across_divisions():
    teams = {"A": "d", "B": "d", "C": "e"}
    results = [GameResult("1", "B", "A", 1, 0)]
    rows = compute_standings(COED, teams, results)
    assert seeds_from_standings([r for r in rows if r.division == "d"]) == ["B", "A"]
    with pytest.raises(PlayoffError, match="one table"):
        seeds_from_standings(rows)
    with pytest.raises(PlayoffError, match="cannot seed 3"):
        seeds_from_standings([r for r in rows if r.division == "d"], count=3)


def test_rendering_is_narrow_and_marks_winners():
    names = [f"The Extremely Long Team Name {n}" for n in range(1, 6)]
    bracket = advance(build_bracket(names), "R1-M1", names[4])
    text = render_bracket(bracket, width=28)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 28
    assert lines[0] == "Champion: TBD"
    assert "Byes: seeds 1-3" in lines
    assert "== Quarterfinals ==" in lines
    assert ">  5 The Extremely Long Tea~" in lines
    assert "     winner R2-M1" in lines


def test_rendering_a_finished_small_bracket():
    bracket = advance(build_bracket(["Hawks", "Owls"]), "R1-M1", "Owls")
    assert render_bracket(bracket) == "\n".join(
        [
            "Champion: Owls",
            "",
            "== Final ==",
            "[R1-M1]",
            "   1 Hawks",
            ">  2 Owls",
        ]
    )


COED = STANDINGS_PRESETS["coed-ball-hockey"]


def _coed_table(results: list[GameResult]) -> list:
    teams = {t: "seeding" for g in results for t in (g.home, g.away)}
    return compute_standings(STANDINGS_PRESETS["coed-ball-hockey"], teams, results, [])


def test_teams_level_on_record_and_goals_for_form_a_group_a_commissioner_orders() -> None:
    from bot.league.playoffs import check_seed_order, level_groups, settled_order

    table = _coed_table([GameResult("1", "Owls", "Hawks", 5, 1), GameResult("2", "Hawks", "Owls", 3, 1),
                         GameResult("3", "Bears", "Wolves", 2, 0), GameResult("4", "Wolves", "Bears", 2, 0)])
    assert [r.team for r in table] == ["Owls", "Hawks", "Bears", "Wolves"]  # co-ed: record, then goals for
    assert level_groups(table, COED) == [("Bears", "Wolves")]
    assert settled_order(table, COED, []) == (["Owls", "Hawks", "Bears", "Wolves"], [("Bears", "Wolves")])
    assert settled_order(table, COED, [["Wolves", "Bears"]]) == (["Owls", "Hawks", "Wolves", "Bears"], [])
    check_seed_order(table, COED, ["Wolves", "Bears"])
    for wrong in (["Owls", "Hawks"], ["Wolves"], ["Wolves", "Wolves"], ["Wolves", "Bears", "Owls"]):
        with pytest.raises(PlayoffError):
            check_seed_order(table, COED, wrong)


def test_a_group_split_by_a_later_result_needs_no_order() -> None:
    from bot.league.playoffs import settled_order

    table = _coed_table([GameResult("1", "Bears", "Wolves", 2, 0), GameResult("2", "Wolves", "Bears", 3, 0)])
    assert settled_order(table, COED, [["Bears", "Wolves"]]) == (["Wolves", "Bears"], [])


# --- who the rulebook puts in the bracket ----------------------------------------------------------------
@pytest.mark.parametrize("name", ["youth-ball-hockey", "coed-ball-hockey"])
def test_every_team_qualifies_a_smaller_bracket_is_refused_with_the_rule(name: str) -> None:
    """Youth 1.18 "All teams qualify for the playoffs"; co-ed "Each team is guaranteed ... one playoff game"."""
    rules = STANDINGS_PRESETS[name]
    draw = ["A", "B", "C", "D", "E", "F"]
    assert bracket_size(rules, draw, None) == 6
    assert bracket_size(rules, draw, 6) == 6
    with pytest.raises(PlayoffError) as info:
        bracket_size(rules, draw, 4)
    cite = rules.standings_citations.all_teams_qualify
    assert str(info.value) == (f"every team qualifies for the playoffs ({cite}): a bracket of 4 would leave out E, F; "
                               "take all 6")
    with pytest.raises(PlayoffError, match="at most 16 teams, not 17"):
        bracket_size(rules, [f"T{i}" for i in range(17)], None)


def test_where_not_every_team_qualifies_the_commissioners_choose() -> None:
    rules = STANDINGS_PRESETS["indoor-soccer"]
    assert not rules.standings_all_teams_qualify
    assert bracket_size(rules, ["A", "B", "C", "D"], 2) == 2
    with pytest.raises(PlayoffError, match="say how many teams"):
        bracket_size(rules, ["A", "B", "C", "D"], None)
    with pytest.raises(PlayoffError, match="only 4 teams"):
        bracket_size(rules, ["A", "B", "C", "D"], 5)


def test_coed_names_teams_short_of_their_two_seeding_games() -> None:
    rules = STANDINGS_PRESETS["coed-ball-hockey"]
    results = [GameResult("1", "A", "B", 3, 1, kind="seeding"), GameResult("2", "A", "C", 2, 1, kind="seeding"),
               GameResult("3", "B", "C", 1, 0, kind="seeding")]
    rows = compute_standings(rules, dict.fromkeys("ABCD", "x"), results)
    short = short_of_seeding_games(rules, rows)
    assert short == [("D", 0)]  # A, B and C played 2 each
    assert seeding_games_note(rules, short) == (
        "Seeded before every team has played its 2 seeding games (Co-ed rules: Game Structure 8: each team is "
        "guaranteed 2). Games played so far: D 0. Seed again with /bracket create replace:True once they are played.")
    youth = STANDINGS_PRESETS["youth-ball-hockey"]
    assert short_of_seeding_games(youth, rows) == [] and seeding_games_note(youth, []) == ""
