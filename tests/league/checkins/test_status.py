"""The ✅/❌ lines of a lineup: never "met" for too few players, and the same for every place shown."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.league.checkins.lineup import BELOW_MINIMUM_TO_START, CheckedInPlayer, check_lineup
from bot.league.checkins.presets import LineupRules
from bot.league.checkins.status import lineup_status
from tests.league.checkins.test_lineup import COED, JUNIOR, SENIOR, SOCCER, goalie, player, skaters


def lines(rules: LineupRules, players: list[CheckedInPlayer], *, for_team: bool = False) -> list[str]:
    return [line.render() for line in lineup_status(rules, check_lineup(rules, players), for_team=for_team)]


def test_coed_nobody_checked_in_is_never_met() -> None:
    report = check_lineup(COED, [])
    assert not report.minimum_to_start_met and BELOW_MINIMUM_TO_START in report.codes
    assert lines(COED, []) == [
        "❌ On the court: **0** of 5 skaters — short by 5 (2 for the women/non-binary rule, 3 for too few skaters)",
        "❌ Goalie: nobody",
        "❌ Women/non-binary on the court: 0 checked in, 2 required — plays short",
        "❌ Minimum to start: not enough to start — nobody eligible is in",
    ]
    assert lines(COED, [], for_team=True) == [
        "❌ Skaters: 0 for 5 spots — 5 short",
        "❌ Goalie: nobody",
        "❌ Minimum to start: not enough to start — nobody eligible is in",
    ]


def test_coed_one_player_has_nobody_to_skate() -> None:
    alone = [player("woman")]
    report = check_lineup(COED, alone)
    assert not report.minimum_to_start_met
    assert [f.message for f in report.findings if f.code == BELOW_MINIMUM_TO_START] == [
        "Only 1 eligible player checked in: nobody to skate beside the one in goal."]
    assert lines(COED, alone)[-1] == (
        "❌ Minimum to start: not enough to start — only 1 eligible player: nobody to skate")


def test_coed_short_of_skaters() -> None:
    team = [goalie(), player("woman"), player("woman"), player()]
    assert lines(COED, team)[0] == "❌ On the court: **3** of 5 skaters + goalie — short by 2 (2 for too few skaters)"
    assert lines(COED, team)[2:] == [
        "✅ Women/non-binary on the court: 2 checked in, 2 required",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]
    assert lines(COED, team, for_team=True)[0] == "❌ Skaters: 3 for 5 spots — 2 short"


def test_coed_legal_lineup_is_all_green() -> None:
    keeper = goalie()
    team = [keeper, player("woman"), player("non-binary"), *skaters(3)]
    assert lines(COED, team) == [
        "✅ On the court: **5** of 5 skaters + goalie",
        f"✅ Goalie: {keeper.name}",
        "✅ Women/non-binary on the court: 2 checked in, 2 required",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]
    assert lines(COED, team, for_team=True) == [
        "✅ Skaters: 5 for 5 spots",
        f"✅ Goalie: {keeper.name}",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]


def test_coed_short_of_women_plays_short_and_the_team_lines_count_no_gender() -> None:
    keeper = goalie()
    team = [keeper, player("woman"), *skaters(5)]
    assert lines(COED, team) == [
        "❌ On the court: **4** of 5 skaters + goalie — short by 1 (1 for the women/non-binary rule)",
        f"✅ Goalie: {keeper.name}",
        "❌ Women/non-binary on the court: 1 checked in, 2 required — plays short",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]
    team_view = " ".join(lines(COED, team, for_team=True))
    assert "women" not in team_view.casefold() and "non-binary" not in team_view


def test_without_playing_short_the_women_rule_stops_the_start_and_the_team_is_not_told_why() -> None:
    strict = replace(COED, plays_short_when_short_of_women=False)
    team = [goalie(), player("woman"), *skaters(5)]
    assert lines(strict, team)[2:] == [
        "❌ Women/non-binary on the court: 1 checked in, 2 required — the team can't start",
        "❌ Minimum to start: not enough to start — too few women/non-binary, and this league doesn't play short",
    ]
    assert lines(strict, team, for_team=True)[-1] == (
        "❌ Minimum to start: not enough to start — a captain's /lineup says why")


def test_youth_with_a_goalie() -> None:
    keeper = goalie()
    assert lines(SENIOR, [keeper, *skaters(3)]) == [
        "❌ On the court: **3** of 5 skaters + goalie — short by 2 (2 for too few skaters)",
        f"✅ Goalie: {keeper.name}",
        "✅ Minimum to start: met — needs 3 skaters and a goalie; has 3 skaters and a goalie",
    ]
    assert lines(JUNIOR, [keeper, *skaters(4)])[0] == "✅ On the court: **4** of 4 skaters + goalie"


@pytest.mark.parametrize("count", [3, 4])
def test_youth_without_a_goalie_a_skater_stands_in_but_there_is_not_enough_to_start(count: int) -> None:
    # Youth 2.4 "a minimum of 3 players and one goalie to start the game": one check, one line.
    team = skaters(count)
    assert lines(SENIOR, team) == [
        f"❌ On the court: **{count - 1}** of 5 skaters + goalie — short by {6 - count} ({6 - count} for too few "
        "skaters)",
        f"❌ Goalie: no goalie checked in (one is needed to start); {team[0].name} would stand in",
        f"❌ Minimum to start: not enough to start — needs 3 skaters and a goalie; has {count} skaters and no goalie "
        "(Youth 2.4)",
    ]


def test_coed_a_stand_in_is_only_worth_a_warning() -> None:
    team = [player("woman"), player("woman"), *skaters(3)]
    assert lines(COED, team)[1] == f"⚠️ Goalie: no goalie checked in; {team[2].name} would stand in"


@pytest.mark.parametrize("rules", [SENIOR, JUNIOR])
def test_youth_short_is_not_met(rules: LineupRules) -> None:
    assert lines(rules, [goalie(), *skaters(2)])[-1] == (
        "❌ Minimum to start: not enough to start — needs 3 skaters and a goalie; has 2 skaters and a goalie "
        "(Youth 2.4)")
    assert lines(rules, [])[-1] == (
        "❌ Minimum to start: not enough to start — needs 3 skaters and a goalie; has 0 skaters and no goalie "
        "(Youth 2.4)")


def test_indoor_soccer_counts_players() -> None:
    assert lines(SOCCER, [goalie(), *skaters(2)])[-1] == (
        "❌ Minimum to start: not enough to start — needs 4 players; has 3 players (Indoor soccer rules: Game)")
    assert lines(SOCCER, [goalie(), *skaters(3)])[-1] == "✅ Minimum to start: met — needs 4 players; has 4 players"


@pytest.mark.parametrize("rules", [COED, SENIOR, JUNIOR, SOCCER])
@pytest.mark.parametrize("count", range(0, 8))
def test_a_green_start_line_always_agrees_with_the_check(rules: LineupRules, count: int) -> None:
    """Whatever the count, the start line is ✅ exactly when the check says the team can start."""
    team = [goalie(), *skaters(count - 1, "woman")] if count else []
    report = check_lineup(rules, team)
    (start,) = [line for line in lineup_status(rules, report) if line.check == "start"]
    assert start.ok is report.minimum_to_start_met
    assert (BELOW_MINIMUM_TO_START in report.codes) is not report.minimum_to_start_met
