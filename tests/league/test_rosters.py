"""A team's roster over time (bot/league/rosters.py): stints, who was on a team during a season, and
when a season's clear takes players off their teams."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.league.rosters import Stint, TeamRoster, clear_moment, player_stints, roster_during


def day(n: int) -> datetime:
    return datetime(2030, 1, n, tzinfo=UTC)


def test_a_stint_is_half_open_so_leaving_at_a_seasons_start_is_not_in_that_season() -> None:
    stint = Stint(1, 10, day(1), day(14))
    assert stint.overlaps(day(7), day(14)) and not stint.overlaps(day(14), day(21))
    assert stint.covers(day(13)) and not stint.covers(day(14))
    assert Stint(1, 10, day(5), None).overlaps(day(14), None)
    assert not Stint(1, 10, day(14), day(14)).overlaps(None, None), "an empty stint was never on the team"


def test_an_unknown_arrival_is_when_the_players_previous_stint_ended() -> None:
    stints = player_stints([Stint(1, 11, None, day(20)), Stint(1, 10, None, day(10))], Stint(1, 12, day(20)))
    assert [(s.team_id, s.joined_at, s.left_at) for s in stints] == [
        (10, None, day(10)), (11, day(10), day(20)), (12, day(20), None)]
    known = player_stints([Stint(1, 11, day(15), day(20)), Stint(1, 10, None, day(10))])
    assert known[1].joined_at == day(15), "a recorded arrival is kept: the gap stays a gap"


def test_a_season_lists_who_finished_on_the_team_and_who_left_during_it() -> None:
    stints = [
        Stint(1, 10, day(1), None),  # on the team throughout
        Stint(2, 10, day(1), day(9)), Stint(2, 11, day(10), None),  # moved mid-season
        Stint(3, 10, day(1), day(5)), Stint(3, 10, day(8), None),  # left and came back: once, on the roster
        Stint(4, 10, day(1), day(3)), Stint(4, 10, day(4), day(6)),  # left twice: once, with the last stint
        Stint(5, 10, day(1), day(14)),  # left as the next season started: finished the season
        Stint(6, 10, day(14), None),  # joined for the next season
        Stint(7, 10, day(1), day(2)),  # gone before the season
    ]
    winter = roster_during(stints, 10, day(3), day(14))
    assert sorted(s.player_id for s in winter.finished) == [1, 3, 5]
    assert sorted((s.player_id, s.left_at) for s in winter.left) == [(2, day(9)), (4, day(6))]
    spring = roster_during(stints, 10, day(14), None)
    assert sorted(s.player_id for s in spring.finished) == [1, 3, 6] and spring.left == ()
    assert roster_during(stints, 99, None, None) == TeamRoster((), ())


def test_a_clear_is_at_the_seasons_first_moment_unless_that_is_still_ahead() -> None:
    assert clear_moment(day(14), day(1), now=day(16)) == day(14)
    assert clear_moment(day(14), day(15), now=day(16)) == day(15), "joined after the start: an empty stint"
    assert clear_moment(day(14), day(1), now=day(12)) == day(12), "a season still ahead clears them now"
